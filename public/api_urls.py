"""The public pages' endpoint (mounted at /api/tournaments/ beside tournaments' own); see ``public.api``."""
from django.urls import path

from . import api

app_name = "public-api"
urlpatterns = [
    path("<slug:slug>/version/", api.VersionView.as_view(), name="version"),
]
