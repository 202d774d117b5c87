"""The API of a player's rating (docs/ratings.md), read only and public like the rating page, mounted
under ``/api/people/`` beside the people API (config/urls.py):

- ``GET /api/people/players/<id>/ratings/``: a player's rating now and its history (one row per rated
  match); a merged record answers with the player it became.

Thin: the data is ``services.ratings``; nothing writes.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from draw.pairing.ratings import Rating
from people.models import Player
from people.services import merges

from .circuit_api import NOT_FOUND, RankedPlayerSerializer
from .services import ratings


class RatingPointSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(help_text="The match's place in the rating order.")
    match = serializers.IntegerField()
    date = serializers.DateField()
    method = serializers.CharField()
    rating = serializers.IntegerField(help_text="1000 + 40 × (mu − 3 sigma).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class PlayerRatingSerializer(serializers.Serializer):
    player = RankedPlayerSerializer()
    method = serializers.CharField(help_text="The site's rating method now: match, margin or hands.")
    rating = serializers.IntegerField(help_text="The rating now (1000 before any rated match).")
    matches = serializers.IntegerField()
    history = RatingPointSerializer(many=True)


class PlayerRatingView(GenericAPIView):
    """A player's rating now and its history, one row per rated match (public, as the rating page)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = PlayerRatingSerializer
    pagination_class = None

    @extend_schema(responses={200: PlayerRatingSerializer, **NOT_FOUND})
    def get(self, request, player_id: int):
        player = merges.canonical(get_object_or_404(Player, pk=player_id))
        rows = ratings.history(player)
        now = rows[-1].rating if rows else Rating().display
        return Response({
            "player": {"id": player.pk, "name": player.name}, "method": ratings.rating_method(), "rating": now,
            "matches": len(rows),
            "history": [{"sequence": r.sequence, "match": r.match_id, "date": r.date, "method": r.method,
                         "rating": r.rating, "mu": r.mu, "sigma": r.sigma} for r in rows]})


app_name = "ratings-api"
urlpatterns = [
    path("players/<int:player_id>/ratings/", PlayerRatingView.as_view(), name="player-ratings"),
]
