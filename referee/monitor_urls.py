"""The room monitor, mounted at /torneios/<slug>/sala/ before the tournaments' pages."""
from django.urls import path

from . import monitor_views

app_name = "monitor"
urlpatterns = [
    path("", monitor_views.room, name="room"),
    path("versao/", monitor_views.version, name="version"),
    path("acao/", monitor_views.action, name="action"),
]
