"""Pages of the room, mounted at the site root beside tournaments' own (their paths are the tournament's):
the pair's "Chegamos", its notices (``/torneios/avisos-sw.js``, ``duplas/<pair>/avisos/`` and ``email/``:
room/pair_views.py) and, on the organizer's dashboard, the room's calls and options and the phones
notified of a pair's calls (room/views.py)."""
from django.urls import path

from . import pair_views, views

app_name = "room"
T = "torneios/<slug:slug>/"
P = T + "painel/"
urlpatterns = [
    path(T + "duplas/<int:pair>/chegamos/", pair_views.arrived, name="pair-arrived"),
    path("torneios/avisos-sw.js", pair_views.service_worker, name="notify-sw"),
    path(T + "duplas/<int:pair>/avisos/", pair_views.subscribe, name="pair-push"),
    path(T + "duplas/<int:pair>/avisos/cancelar/", pair_views.unsubscribe, name="pair-push-stop"),
    path(T + "duplas/<int:pair>/email/", pair_views.call_email, name="pair-email"),
    path(P + "duplas/<int:pk>/avisos/limpar/", views.clear_push, name="clear-push"),
    path(P + "sala/chamar/", views.call, name="room-call"),
    path(P + "sala/opcoes/", views.options, name="room-options"),
]
