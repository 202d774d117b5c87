"""The API of people across tournaments (docs/people.md), mounted at ``/api/people/``:

- ``POST merges/`` ``{"kept", "duplicate", "reason", "pin"?}``: two records of one person become one
  (``tournaments.players.may_merge``: a site operator, an organizer who knows both, or one who knows a
  record and has the other's PIN, the player's consent); audited, 201 with what moved;
- ``POST merges/<id>/undo/``: the merge undone (its author, or a site operator);
- ``GET players/<id>/``: a player's public identity (name, nickname, club, federation number);
- (``GET players/<id>/ratings/``, the player's rating now and its history, is the seasons app's:
  ``seasons.circuit_api``, mounted under the same prefix);
- ``POST clubs/`` ``{"name", "city"}``: a club, managed by who creates it;
- ``POST players/<id>/club/`` ``{"club", "since"?}``: the player plays for that club from ``since`` (today)
  on (``people.services.clubs.join_club``: the open membership closes); a manager of that club who
  organized an event the player entered, or a site operator; ``club`` null: no club.
"""
from __future__ import annotations

from django.db import models
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from config.api import error_body
from config.errors import Conflict, Forbidden, ServiceError
from events import access
from people.models import Club, ClubMembership, Player, PlayerMerge
from people.services import clubs, merges
from scoring.pins import client_of

from . import players
from .serializers import TournamentErrorSerializer


class MergeRequestSerializer(serializers.Serializer):
    kept = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The player who stays.")
    duplicate = serializers.IntegerField(min_value=1, max_value=2**63 - 1,
                                         help_text="The record of the same person that joins the kept one.")
    reason = serializers.CharField(max_length=300)
    pin = serializers.CharField(max_length=64, required=False, trim_whitespace=False,
                                help_text="The PIN of the record you do not know (the player consents).")


class TextField(serializers.CharField):
    """Text only, as the schema says: DRF's ``CharField`` turns a number into text (``0`` into ``"0"``)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ClubSerializer(serializers.ModelSerializer):
    serializer_field_mapping = {**serializers.ModelSerializer.serializer_field_mapping, models.CharField: TextField}

    class Meta:
        model = Club
        fields = ["id", "name", "city"]
        validators: list = []  # a club already in the city is the view's 409, its name compared without case


class JoinClubSerializer(serializers.Serializer):
    club = serializers.IntegerField(min_value=1, max_value=2**63 - 1, allow_null=True)
    since = serializers.DateField(required=False)


class MembershipSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name")

    class Meta:
        model = ClubMembership
        fields = ["club", "since", "until"]


class MergeSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerMerge
        fields = ["id", "kept", "duplicate", "reason", "moved", "filled", "merged_at", "undone_at"]


class PublicPlayerSerializer(serializers.ModelSerializer):
    club = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "club", "federation_number"]

    def get_club(self, obj: Player) -> str:
        return obj.club.name if obj.club_id else ""


def _errors(*codes: int) -> dict:
    return {code: OpenApiResponse(TournamentErrorSerializer) for code in codes}


class PeopleAPIView(GenericAPIView):
    pagination_class = None  # single objects, and a history answering a write

    def handle_exception(self, exc):
        if isinstance(exc, ServiceError):
            return Response(error_body(exc.field, exc.message), status=exc.status)
        return super().handle_exception(exc)


class MergeView(PeopleAPIView):
    """Merge two records of one person (audited, reversible; docs/people.md)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MergeRequestSerializer

    @extend_schema(request=MergeRequestSerializer, responses={201: MergeSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        kept = get_object_or_404(Player, pk=data.validated_data["kept"])
        duplicate = get_object_or_404(Player, pk=data.validated_data["duplicate"])
        players.may_merge(request.user, kept, duplicate, pin=data.validated_data.get("pin"),
                          client=client_of(request))
        merge = players.merge_players(kept, duplicate, by=request.user, reason=data.validated_data["reason"])
        return Response(MergeSerializer(merge).data, status=status.HTTP_201_CREATED)


class MergeUndoView(PeopleAPIView):
    """Undo a merge: the rows it moved go back to the duplicate (its author or a site operator)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MergeSerializer

    @extend_schema(request=None, responses={200: MergeSerializer, **_errors(403, 404, 409)})
    def post(self, request, merge_id: int):
        merge = get_object_or_404(PlayerMerge, pk=merge_id)
        user = request.user
        if not (access.operates_site(user) or merge.merged_by_id == user.pk):
            raise Forbidden(_("Only who made the merge, or a site operator, undoes it."), "merge")
        return Response(MergeSerializer(players.unmerge(merge, by=user)).data)


class PlayerView(PeopleAPIView):
    """A player's public identity (a merged record answers with the player it became)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = PublicPlayerSerializer

    def get(self, request, player_id: int):
        player = merges.canonical(get_object_or_404(Player.objects.select_related("club"), pk=player_id))
        return Response(PublicPlayerSerializer(player).data)


class ClubCreateView(PeopleAPIView):
    """A new club; who creates it manages it (its roster)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ClubSerializer

    @extend_schema(request=ClubSerializer, responses={201: ClubSerializer, **_errors(400, 409)})
    def post(self, request):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        name, city = (" ".join(data.validated_data.get(k, "").split()) for k in ("name", "city"))
        if Club.objects.filter(name__iexact=name, city__iexact=city).exists():
            raise Conflict(_("This city already has a club with this name."), "name")
        club = Club.objects.create(name=name, city=city)
        club.organizers.add(request.user)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class PlayerClubView(PeopleAPIView):
    """The player plays for a club from a date on; the membership history keeps the earlier ones."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = JoinClubSerializer

    @extend_schema(request=JoinClubSerializer, responses={200: MembershipSerializer(many=True),
                                                          **_errors(400, 403, 404, 409)})
    def post(self, request, player_id: int):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = merges.canonical(get_object_or_404(Player, pk=player_id))
        club = get_object_or_404(Club, pk=data.validated_data["club"]) if data.validated_data["club"] else None
        user = request.user
        operator = access.operates_site(user)
        if not operator and not players.organized_events_entered(player, user):
            raise Forbidden(_("Only the organizers of events this player entered change their club."), "player")
        if not operator and club is not None and not clubs.manages(user, club):
            raise Forbidden(_("Only the club's organizers add players to it."), "club")
        clubs.join_club(player, club, on=data.validated_data.get("since"))
        return Response(MembershipSerializer(clubs.history(player), many=True).data)


app_name = "people-api"
urlpatterns = [
    path("merges/", MergeView.as_view(), name="merges"),
    path("merges/<int:merge_id>/undo/", MergeUndoView.as_view(), name="merge-undo"),
    path("players/<int:player_id>/", PlayerView.as_view(), name="player"),
    path("players/<int:player_id>/club/", PlayerClubView.as_view(), name="player-club"),
    path("clubs/", ClubCreateView.as_view(), name="clubs"),
]
