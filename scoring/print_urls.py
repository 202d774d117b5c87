"""Printing pages of scoring: blank and filled súmulas, print jobs. Mounted at /sumulas/impressao/
in the ``printing`` namespace by ``tournaments.print_urls``, which adds the tournament's and the
round's printing pages.

Who may do what is documented in docs/printing.md (single súmulas are public for tournament
matches; printing rounds and the print jobs are for the tournament's organizer).
"""
from django.urls import path

from . import print_job_views
from . import print_views as views

app_name = "printing"
urlpatterns = [
    path("partida/<int:pk>/em-branco.pdf", views.match_pdf, {"kind": "blank"}, name="match-blank"),
    path("partida/<int:pk>/preenchida.pdf", views.match_pdf, {"kind": "filled"}, name="match-filled"),
    path("trabalho/<int:pk>/", views.job_page, name="job"),
    path("trabalho/<int:pk>/estado/", views.job_status, name="job-status"),
    path("trabalho/<int:pk>/sumulas.pdf", views.job_pdf, name="job-pdf"),
    path("trabalho/<int:pk>/de-novo/", print_job_views.job_retry, name="job-retry"),
]
