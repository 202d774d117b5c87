"""REST serializers of a tournament's play at /api/tournaments/ (``tournaments.api_play``): rounds, check-ins,
tables and their referees, matches and their results, and what is written on them (generate, W.O., a manual
result, a pairing changed, tables swapped). The tournament, its pairs, its stages and its standings are
``tournaments.serializers``.

Input serializers only check the shape of a request; every rule is checked by ``tournaments.services``.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import Match

from .models import CheckIn, Pair, Result, Round, TableAssignment

class TournamentResultSerializer(serializers.ModelSerializer):
    games = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = ["kind", "winner", "absent", "games", "points", "reason", "recorded_at"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_games(self, obj: Result) -> list[int]:
        return [obj.games_a, obj.games_b]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_points(self, obj: Result) -> list[int]:
        return [obj.points_a, obj.points_b]


class PairRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Pair
        fields = ["id", "name"]


class TournamentMatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    pair_a = PairRefSerializer(read_only=True)
    pair_b = PairRefSerializer(read_only=True)
    referee = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    bracket_code = serializers.SerializerMethodField()
    sumula_status = serializers.CharField(source="status", read_only=True)

    class Meta:
        model = Match
        fields = ["id", "round", "table", "referee", "pair_a", "pair_b", "best_of", "sumula_status",
                  "bracket_code", "result"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_referee(self, obj) -> str | None:
        return public_name(obj.referee)

    @extend_schema_field(TournamentResultSerializer(allow_null=True))
    def get_result(self, obj: Match):
        result = getattr(obj, "tournament_result", None) if _has(obj, "tournament_result") else None
        if result is None:
            return None
        return TournamentResultSerializer(result).data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_bracket_code(self, obj: Match) -> str | None:
        node = getattr(obj, "bracket_node", None) if _has(obj, "bracket_node") else None
        return node.code if node is not None else None


def _has(obj, relation: str) -> bool:
    try:
        getattr(obj, relation)
    except Exception:  # RelatedObjectDoesNotExist
        return False
    return True


class RoundSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)
    matches = serializers.IntegerField(source="match_count", read_only=True, default=0)
    official = serializers.IntegerField(source="official_count", read_only=True, default=0)
    byes = serializers.SerializerMethodField()
    unavoided = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), read_only=True,
        help_text="Pairs sharing an avoid tag (club, family) that meet in this round, or share a group of its draw: "
                  "no pairing kept them apart.")

    class Meta:
        model = Round
        fields = ["number", "name", "display_name", "phase", "generated_at", "lot_seed", "matches", "official",
                  "byes", "unavoided"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_byes(self, obj: Round) -> list[int]:
        return [b.pair_id for b in obj.byes.all()]


class RoundDetailSerializer(RoundSerializer):
    match_list = serializers.SerializerMethodField()

    class Meta(RoundSerializer.Meta):
        fields = RoundSerializer.Meta.fields + ["match_list"]

    @extend_schema_field(TournamentMatchSerializer(many=True))
    def get_match_list(self, obj: Round):
        return TournamentMatchSerializer(self.context.get("matches", []), many=True).data


class GenerateSerializer(serializers.Serializer):
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                    help_text="Draw by lot with this seed (recorded); a fresh one when absent.")


class RegenerateSerializer(GenerateSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class CheckInSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    pair_name = serializers.CharField(source="pair.name", read_only=True)

    class Meta:
        model = CheckIn
        fields = ["id", "round", "pair", "pair_name", "checked_in_at"]
        read_only_fields = fields


class CheckInWriteSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    round = serializers.IntegerField(required=False, min_value=1,
                                     help_text="Round number; the upcoming round when absent.")


def public_name(user) -> str | None:
    """A user's name as the public sees it: never their login."""
    if user is None:
        return None
    return user.get_full_name() or _("Referee #%(id)s") % {"id": user.pk}


class TableAssignmentSerializer(serializers.ModelSerializer):
    """A table's referee: their name for everyone; their login (``referee_username``) only for who
    manages the tournament (they assign referees by account)."""

    round = serializers.IntegerField(source="round.number", read_only=True, allow_null=True, default=None)
    referee_name = serializers.SerializerMethodField()
    referee_username = serializers.SerializerMethodField()

    class Meta:
        model = TableAssignment
        fields = ["id", "table", "round", "referee", "referee_name", "referee_username"]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_referee_name(self, obj) -> str | None:
        return public_name(obj.referee)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_referee_username(self, obj) -> str | None:
        return obj.referee.get_username() if self.context.get("manage") and obj.referee_id else None


class TableAssignmentWriteSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=32767)
    referee = serializers.IntegerField(allow_null=True, help_text="User id; null removes the assignment.")
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                     help_text="Only for this round number; every round when absent.")


class WalkoverSerializer(serializers.Serializer):
    absent = serializers.IntegerField(help_text="Id of the absent pair (it loses).")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class ManualResultSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text="Id of the winning pair.")
    games = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2, max_length=2,
                                  help_text="[pair A, pair B]")
    points = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2, max_length=2,
                                   required=False, allow_null=True, default=None,
                                   help_text="[pair A, pair B] tentos, checked against the winner (games to 12); "
                                             "left out: not known, recorded 0-0 and not checked.")
    reason = serializers.CharField(max_length=300)


class PairingSerializer(serializers.Serializer):
    pair_a = serializers.IntegerField()
    pair_b = serializers.IntegerField()
    reason = serializers.CharField(max_length=300)


class SwapTablesSerializer(serializers.Serializer):
    other = serializers.IntegerField(help_text="Id of the other match of the same round.")
    reason = serializers.CharField(max_length=300)
