"""Referees' invitation links (``referee.invitation_views``), mounted at the site's root by
``config.urls``: the organizer's page under the tournament's dashboard, and ``/convite/<token>/``
where the referee lands."""
from django.urls import path

from . import invitation_views as views

app_name = "invitations"
P = "torneios/<slug:slug>/painel/arbitros/convites/"
urlpatterns = [
    path(P, views.invitations_page, name="list"),
    path(P + "<int:pk>/novo-link/", views.reissue, name="reissue"),
    path(P + "<int:pk>/revogar/", views.revoke, name="revoke"),
    path("convite/<str:token>/", views.accept, name="accept"),
]
