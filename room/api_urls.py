"""REST endpoints of the room (mounted at /api/tournaments/ beside tournaments' own); see ``room.api``."""
from django.urls import path

from . import api, options_api

app_name = "room-api"
T = "<slug:slug>/"
urlpatterns = [
    path(T + "room/", api.RoomView.as_view(), name="room"),
    path(T + "room/call/", api.RoomCallView.as_view(), name="room-call"),
    path(T + "room/options/", options_api.RoomOptionsView.as_view(), name="room-options"),
]
