"""The public pages, mounted at the site root (Portuguese paths: the site's language), read-only:

``/`` (list), ``/torneios/<slug>/`` and its ``chave/`` (bracket; ``chave.svg`` the drawing alone),
``grupos/`` (round-robin grids), ``classificacao/`` (standings), ``rodadas/`` and ``rodadas/<n>/``
(pairings and tables; ``rodadas/<n>/mural.pdf`` the wall sheet), ``duplas/<pair>/`` (a pair's page),
``telao/`` (the projector view) and ``versao/`` (the live pages' change marker; docs/live.md).

One URL namespace for the site's tournament pages: these keep their names in ``tournaments``
(``{% url 'tournaments:detail' %}``, ``tournaments:bracket``, …), so this module is that namespace: the
tournaments app's own pages (``tournaments.urls``, below this app) first, then these. Their order
matters: ``/torneios/novo/`` comes before ``/torneios/<slug>/``. config/urls.py includes this module
in place of ``tournaments.urls``.
"""
from django.urls import path

from tournaments import urls as tournaments_urls

from . import views

app_name = "tournaments"
T = tournaments_urls.T
urlpatterns = [
    *tournaments_urls.urlpatterns,
    path("", views.TournamentListView.as_view(), name="home"),
    path(T, views.TournamentDetailView.as_view(), name="detail"),
    path(T + "chave/", views.bracket, name="bracket"),
    path(T + "chave.svg", views.bracket_image, name="bracket-svg"),
    path(T + "grupos/", views.grid, name="grid"),
    path(T + "classificacao/", views.standings, name="standings"),
    path(T + "rodadas/", views.rounds, name="rounds"),
    path(T + "rodadas/<int:number>/", views.round_detail, name="round"),
    path(T + "rodadas/<int:number>/mural.pdf", views.wall_sheet, name="wall-sheet"),
    path(T + "duplas/<int:pair>/", views.pair_detail, name="pair"),
    path(T + "telao/", views.projector, name="projector"),
    path(T + "versao/", views.version, name="version"),
]
