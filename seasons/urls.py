"""Pages of the seasons app, mounted at the site root (the same Portuguese paths as when they were
tournaments' pages).

Public: ``/circuitos/<slug>/`` (a circuit's ranking, ``telao/``, ``etapas/``, ``ranking.csv``/``.json``),
``/jogadores/<id>/rating/`` (a player's rating chart; ``rating.svg`` the drawing alone) and
``/torneios/<slug>/categorias/`` (a tournament's placings by category): seasons/circuit_pages.py.
Organizers: ``/circuitos/novo/``, ``circuitos/<slug>/etapas/nova/`` and ``disciplina/``
(seasons/circuit_admin.py), ``/torneios/<slug>/painel/categorias/`` (the categories,
seasons/flight_views.py). Site operators: ``/ratings/metodo/`` (the rating method, seasons/method_views.py).
"""
from django.urls import path

from . import circuit_admin, circuit_pages, flight_views, method_views

app_name = "seasons"
T = "torneios/<slug:slug>/"
urlpatterns = [
    path(T + "categorias/", circuit_pages.flights_page, name="flights"),
    path(T + "painel/categorias/", flight_views.flights_admin, name="flights-admin"),
    path("circuitos/novo/", circuit_admin.new_circuit, name="circuit-new"),
    path("circuitos/<slug:slug>/", circuit_pages.circuit_page, name="circuit"),
    path("circuitos/<slug:slug>/etapas/nova/", circuit_admin.add_stage, name="circuit-stage-add"),
    path("circuitos/<slug:slug>/disciplina/", circuit_admin.set_discipline, name="circuit-discipline"),
    path("circuitos/<slug:slug>/telao/", circuit_pages.circuit_projector, name="circuit-projector"),
    path("circuitos/<slug:slug>/etapas/", circuit_pages.circuit_stages, name="circuit-stages"),
    path("circuitos/<slug:slug>/ranking.<str:fmt>", circuit_pages.circuit_download, name="circuit-download"),
    path("jogadores/<int:pk>/rating/", circuit_pages.player_rating, name="player-rating"),
    path("jogadores/<int:pk>/rating.svg", circuit_pages.player_rating_svg, name="player-rating-svg"),
    path("ratings/metodo/", method_views.rating_method_page, name="rating-method"),
]
