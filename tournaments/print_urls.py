"""The ``printing`` URL namespace (mounted at /sumulas/impressao/): scoring's printing pages (súmula
PDFs, print jobs) and the tournament's (its printing index, a round's print form).

Who may do what is documented in docs/printing.md.
"""
from django.urls import path

from scoring.print_urls import urlpatterns as scoring_patterns

from . import print_views as views

app_name = "printing"
urlpatterns = [
    *scoring_patterns,
    path("torneio/<slug:slug>/", views.tournament_index, name="tournament"),
    path("rodada/<int:pk>/", views.round_print, name="round"),
    path("rodada/<int:pk>/cartoes-de-mesa.pdf", views.round_table_cards, name="table-cards"),
]
