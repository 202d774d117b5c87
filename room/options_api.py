"""The room's options through the API: ``GET``/``PATCH /api/tournaments/{slug}/room/options/`` (the dashboard's
"Sala" options, ``room.views.options``): ready matches (chosen before the draw: 409 after it), the next
match called when a table frees, the tables in the room, the lateness tolerances, the match time limit
and its end-of-time procedure. A PATCH saves the options it names and keeps the others
(``room.services.ready.configure_room``, audited). Whoever manages the tournament (``events.access.manages``),
reads included."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tournaments.api import TournamentAPIView, _errors

from .models import RoomSettings
from .services import ready


class RoomOptionsSerializer(serializers.Serializer):
    ready_matches = serializers.BooleanField(
        required=False, help_text="Round robins and groups: every match made at the draw, called when free.")
    auto_call = serializers.BooleanField(required=False, help_text="Call the next ready match when a table frees.")
    tables = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=1000,
                                      help_text="Tables in the room (null: as many as round 1 used).")
    tolerance_first = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=600,
                                               help_text="Lateness tolerance in the first round (minutes).")
    tolerance_later = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=600,
                                               help_text="Lateness tolerance in later rounds (minutes).")
    time_limit = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=600,
                                          help_text="A match's time limit (minutes; null: none).")
    end_of_time = serializers.ChoiceField(required=False, choices=RoomSettings.EndOfTime.choices, allow_blank=True,
                                          help_text="The end-of-time procedure (\"\": none).")


def _options(room: RoomSettings) -> dict:
    return {name: getattr(room, name) for name in ready.ROOM_FIELDS}


class RoomOptionsView(TournamentAPIView):
    """The room's options (organizers only, reads included)."""

    organizer_only = True
    serializer_class = RoomOptionsSerializer
    pagination_class = None

    @extend_schema(responses={200: RoomOptionsSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        return Response(_options(ready.room_of(self.get_tournament())))

    @extend_schema(request=RoomOptionsSerializer, responses={200: RoomOptionsSerializer, **_errors(400, 403, 404, 409)})
    def patch(self, request, slug):
        room = ready.configure_room(self.get_tournament(), request.user, **self.read(RoomOptionsSerializer))
        return Response(_options(room))
