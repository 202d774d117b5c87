"""The ``printing`` URL namespace (mounted at /sumulas/impressao/): a match's súmula PDFs and the print
jobs (``printing.views``, ``printing.job_views``), a tournament's printing index, a round's print form and
its table cards (``printing.round_views``).

Who may do what is documented in docs/printing.md (single súmulas are public for tournament
matches; printing rounds and the print jobs are for the tournament's organizer).
"""
from django.urls import path

from . import job_views, round_views, views

app_name = "printing"
urlpatterns = [
    path("partida/<int:pk>/em-branco.pdf", views.match_pdf, {"kind": "blank"}, name="match-blank"),
    path("partida/<int:pk>/preenchida.pdf", views.match_pdf, {"kind": "filled"}, name="match-filled"),
    path("trabalho/<int:pk>/", views.job_page, name="job"),
    path("trabalho/<int:pk>/estado/", views.job_status, name="job-status"),
    path("trabalho/<int:pk>/sumulas.pdf", views.job_pdf, name="job-pdf"),
    path("trabalho/<int:pk>/de-novo/", job_views.job_retry, name="job-retry"),
    path("torneio/<slug:slug>/", round_views.tournament_index, name="tournament"),
    path("rodada/<int:pk>/", round_views.round_print, name="round"),
    path("rodada/<int:pk>/cartoes-de-mesa.pdf", round_views.round_table_cards, name="table-cards"),
]
