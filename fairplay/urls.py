"""The fair-play report's URL (docs/fair-play.md), mounted at the site root by config/urls.py."""
from django.urls import path

from . import views

app_name = "fairplay"

urlpatterns = [
    path("torneios/<slug:slug>/jogo-limpo/", views.event_report, name="report"),
]
