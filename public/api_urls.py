"""The public endpoints, mounted at /api/tournaments/: the live pages' change marker (``public.api``) and the
results out as JSON or CSV (``public.export_api``).

One URL namespace for the tournaments' API: these keep their names in ``tournaments-api``
(``tournaments-api:version``, ``tournaments-api:export-standings``, …), so this module is that namespace:
the tournaments app's endpoints (``tournaments.api_urls``, below this app) first, then these. config/urls.py
includes this module in place of ``tournaments.api_urls``.
"""
from django.urls import path

from tournaments import api_urls as tournaments_api_urls

from . import api, export_api

app_name = "tournaments-api"
T = tournaments_api_urls.T
urlpatterns = [
    *tournaments_api_urls.urlpatterns,
    path(T + "version/", api.VersionView.as_view(), name="version"),
    path(T + "exports/standings/", export_api.StandingsExportView.as_view(), name="export-standings"),
    path(T + "exports/results/", export_api.ResultsExportView.as_view(), name="export-results"),
    path(T + "exports/rounds/<int:number>/pairings/", export_api.PairingsExportView.as_view(),
         name="export-pairings"),
]
