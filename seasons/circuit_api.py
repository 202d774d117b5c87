"""The API of circuits and ratings (docs/circuits.md, docs/ratings.md), read only and
public like the pages, in the schema at ``/api/schema/``:

- ``GET /api/circuits/``: the circuits with their rules and stages;
- ``GET /api/circuits/<slug>/``: one circuit with its ranking per player and per pair (``?by=pair``
  for the pairs only, ``?by=player`` for the players only): place, points counted, all points, each
  stage's points and whether it counted, the tiebreak that decided;

(A player's rating and its history, ``/api/people/players/<id>/ratings/``, is ``seasons.rating_api``.)
Thin: the data is ``services.circuits.circuit_ranking_of``; nothing writes.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from tournaments.serializers import TournamentErrorSerializer

from .models import Circuit, CircuitStage
from .services import circuits

NOT_FOUND = {404: OpenApiResponse(TournamentErrorSerializer)}


class CircuitStageSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    tournament_name = serializers.CharField(source="tournament.name", read_only=True)
    date = serializers.DateField(source="tournament.date", read_only=True)
    final = serializers.SerializerMethodField()

    class Meta:
        model = CircuitStage
        fields = ["number", "tournament", "tournament_name", "date", "final", "final_at"]

    def get_final(self, obj) -> bool:
        return obj.final_at is not None


class CircuitSerializer(serializers.ModelSerializer):
    stages = CircuitStageSerializer(many=True, read_only=True)
    points = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                   help_text="The points of the 1st, 2nd, 3rd... final places.")

    class Meta:
        model = Circuit
        fields = ["slug", "name", "season", "points", "beyond_points", "best_of", "escalation_across_stages",
                  "stages"]


class StageScoreSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the entrant's best N stages.")


class RankedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RankingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    players = RankedPlayerSerializer(many=True, help_text="One player (per player), or the pair's two.")
    counted_points = serializers.IntegerField()
    total_points = serializers.IntegerField()
    stages_played = serializers.IntegerField()
    stages = StageScoreSerializer(many=True)
    decided_by = serializers.CharField(allow_null=True, help_text="The tiebreak that put it below the line above.")


class CircuitRankingSerializer(serializers.Serializer):
    circuit = CircuitSerializer()
    players = RankingLineSerializer(many=True, required=False)
    pairs = RankingLineSerializer(many=True, required=False)


def _lines(rows) -> list[dict]:
    return [{"rank": r.line.rank, "players": [{"id": p.pk, "name": p.name} for p in r.players],
             "counted_points": r.line.counted_points, "total_points": r.line.total_points,
             "stages_played": r.line.played, "decided_by": r.line.decided_by,
             "stages": [{"stage": s.stage, "place": s.place, "points": s.points, "counted": s.counted}
                        for s in r.line.stages]} for r in rows]


class CircuitListView(GenericAPIView):
    """Every circuit with its rules and stages (public)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = CircuitSerializer

    def get_queryset(self):
        return Circuit.objects.prefetch_related("stages__tournament").order_by("-created_at", "name")

    @extend_schema(responses=CircuitSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        rows = page if page is not None else self.get_queryset()
        data = CircuitSerializer(rows, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)


class CircuitDetailView(GenericAPIView):
    """A circuit and its ranking per player and per pair (public; the stages whose placings are final)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = CircuitRankingSerializer
    pagination_class = None

    @extend_schema(parameters=[OpenApiParameter("by", OpenApiTypes.STR, enum=["player", "pair"], required=False,
                                                description="Only the ranking per player, or per pair.")],
                   responses={200: CircuitRankingSerializer, **NOT_FOUND})
    def get(self, request, slug: str):
        circuit = get_object_or_404(Circuit.objects.prefetch_related("stages__tournament"), slug=slug)
        ranking = circuits.circuit_ranking_of(circuit)
        by = request.query_params.get("by")
        data = {"circuit": CircuitSerializer(circuit).data}
        if by != "pair":
            data["players"] = _lines(ranking.players)
        if by != "player":
            data["pairs"] = _lines(ranking.pairs)
        return Response(data)


app_name = "circuits-api"
urlpatterns = [
    path("", CircuitListView.as_view(), name="list"),
    path("<slug:slug>/", CircuitDetailView.as_view(), name="detail"),
]
