"""The team pages (``teams.views``), mounted at /equipes/."""
from django.urls import path

from . import views

app_name = "teams"
urlpatterns = [
    path("capitao/<str:token>/", views.captain_page, name="captain"),
    path("<slug:slug>/painel/", views.event_page, name="event"),
    path("<slug:slug>/", views.standings_page, name="standings"),
]
