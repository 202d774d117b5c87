"""The room through the API: ``GET /api/tournaments/{slug}/room/`` lists the free tables,
the ready matches (Berger order), the waiting ones (and the pairs they wait for), the bracket matches
at their tables and the tables a Swiss round waits for; ``POST .../room/call/`` calls a ready match to a
table (``{"match": id, "table": n}``, the table optional: the first free one). Organizer only
(``room.services.ready``)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from scoring.models import Match

from tournaments.api import TournamentAPIView, _errors

from .services import ready


def _match(m) -> dict:
    return {"id": m.pk, "round": m.round.number, "table": m.table, "pair_a": m.pair_a_id, "pair_a_name": m.pair_a.name,
            "pair_b": m.pair_b_id, "pair_b_name": m.pair_b.name}


def queue_json(queue: ready.RoomQueue) -> dict:
    return {
        "ready_matches": queue.enabled, "tables": queue.tables, "free_tables": queue.free_tables,
        "ready": [_match(p.match) for p in queue.ready],
        "waiting": [{**_match(p.match), "waiting_for": p.busy} for p in queue.waiting],
        "at_tables": [_match(m) for m in queue.at_tables],
        "swiss_waits_for": queue.swiss_waits_for,
    }


class RoomMatchSerializer(serializers.Serializer):
    """A match of the room's queue (one component for "ready" and "at_tables")."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    pair_a = serializers.IntegerField()
    pair_a_name = serializers.CharField()
    pair_b = serializers.IntegerField()
    pair_b_name = serializers.CharField()


QUEUE = inline_serializer("RoomQueue", {
    "ready_matches": serializers.BooleanField(), "tables": serializers.IntegerField(),
    "free_tables": serializers.ListField(child=serializers.IntegerField()),
    "ready": RoomMatchSerializer(many=True), "waiting": serializers.ListField(child=serializers.DictField()),
    "at_tables": RoomMatchSerializer(many=True),
    "swiss_waits_for": serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                             help_text="Tables (0: none) the Swiss's next round waits for."),
})


class RoomCallSerializer(serializers.Serializer):
    match = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1, max_value=10_000, required=False, allow_null=True)


class RoomView(TournamentAPIView):
    """The room's queue: free tables, ready matches, waiting ones (organizer)."""

    organizer_only = True
    serializer_class = RoomCallSerializer

    @extend_schema(responses={200: QUEUE, **_errors(403, 404)})
    def get(self, request, slug):
        return Response(queue_json(ready.room_queue(self.get_tournament())))


class RoomCallView(TournamentAPIView):
    """Call a ready match to a free table (one tap); a second call of the same match is refused (409)."""

    organizer_only = True
    serializer_class = RoomCallSerializer

    @extend_schema(request=RoomCallSerializer, responses={200: QUEUE, **_errors(400, 403, 404, 409)})
    def post(self, request, slug):
        data = self.read(RoomCallSerializer)
        tournament = self.get_tournament()
        if not Match.objects.filter(pk=data["match"], tournament=tournament).exists():
            raise ready.TournamentError(_("No match with this id in this tournament."), "match")
        ready.call_match(data["match"], request.user, table=data.get("table"))
        return Response(queue_json(ready.room_queue(tournament)))
