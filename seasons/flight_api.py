"""A tournament's categories (flights, docs/ratings.md) through the API, mounted under
``/api/tournaments/`` beside tournaments' own (config/urls.py), as the organizer's page
``painel/categorias/`` (``seasons.flight_views``):

- ``GET {slug}/categories/``: the categories, the strongest first, each with its minimum rating and its
  pairs (public, as the categories' page);
- ``PUT {slug}/categories/``: replace them (``{"categories": [{"name": "A", "min_rating": 1100}, {"name":
  "B"}], "by_rating": true}``; ``by_rating`` places every pair by its combined rating now);
- ``PUT {slug}/pairs/{pair_id}/category/``: a pair's declared category (``{"category": "A"}``, null: none).

Writes: whoever manages the tournament (``events.access.manages``, checked by the base view and again by
``services.flights``, which audits them).
"""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from config.api import INT_LIMIT
from events.models import Pair
from tournaments.api import TournamentAPIView, _errors

from .models import FlightMember
from .services import flights


class CategoryRuleSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    min_rating = serializers.IntegerField(required=False, allow_null=True, min_value=-100_000, max_value=100_000,
                                          help_text="The lowest combined rating it takes (none for the last).")


class CategoriesWriteSerializer(serializers.Serializer):
    categories = CategoryRuleSerializer(many=True, allow_empty=False, max_length=26, help_text="The strongest first.")
    by_rating = serializers.BooleanField(default=False,
                                         help_text="Place every pair not withdrawn by its combined rating now.")


class CategorySerializer(serializers.Serializer):
    name = serializers.CharField()
    min_rating = serializers.IntegerField(allow_null=True)
    pairs = serializers.ListField(child=serializers.IntegerField(), help_text="Its pairs' ids.")


class CategoriesSerializer(serializers.Serializer):
    categories = CategorySerializer(many=True)


class PairCategorySerializer(serializers.Serializer):
    category = serializers.CharField(max_length=40, allow_null=True, help_text="A category's name; null: none.")


def _categories(tournament) -> dict:
    members: dict[int, list[int]] = {}
    for flight_id, pair_id in (FlightMember.objects.filter(flight__tournament=tournament)
                               .order_by("pair_id").values_list("flight_id", "pair_id")):
        members.setdefault(flight_id, []).append(pair_id)
    return {"categories": [{"name": f.name, "min_rating": f.min_rating, "pairs": members.get(f.pk, [])}
                           for f in tournament.flights.order_by("position")]}


class CategoriesView(TournamentAPIView):
    """The tournament's categories and their pairs; PUT replaces them (organizers)."""

    serializer_class = CategoriesWriteSerializer
    pagination_class = None

    @extend_schema(responses={200: CategoriesSerializer, **_errors(404)})
    def get(self, request, slug):
        return Response(_categories(self.get_tournament()))

    @extend_schema(request=CategoriesWriteSerializer, responses={200: CategoriesSerializer, **_errors(400, 403, 404)})
    def put(self, request, slug):
        data = self.read(CategoriesWriteSerializer)
        rules = [{k: v for k, v in rule.items() if k != "min_rating" or v is not None} for rule in data["categories"]]
        tournament = self.get_tournament()
        flights.set_flights(tournament, request.user, rules, by_rating=data["by_rating"])
        return Response(_categories(tournament))


class PairCategoryView(TournamentAPIView):
    """A pair's declared category (organizers)."""

    serializer_class = PairCategorySerializer
    pagination_class = None

    @extend_schema(request=PairCategorySerializer, responses={200: CategoriesSerializer, **_errors(400, 403, 404)})
    def put(self, request, slug, pair_id):
        if not 1 <= pair_id <= INT_LIMIT:
            raise Http404(_("This tournament has no such pair."))
        tournament = self.get_tournament()
        pair = get_object_or_404(Pair, pk=pair_id, tournament=tournament)
        flights.set_pair_flight(pair, request.user, self.read(PairCategorySerializer)["category"])
        return Response(_categories(tournament))


app_name = "categories-api"
T = "<slug:slug>/"
urlpatterns = [
    path(T + "categories/", CategoriesView.as_view(), name="categories"),
    path(T + "pairs/<int:pair_id>/category/", PairCategoryView.as_view(), name="pair-category"),
]
