"""What the team API reads and writes (``teams.api``)."""
from __future__ import annotations

from rest_framework import serializers

from draw.pairing.teams import TeamTiebreak
from events.models import Tournament

from .models import Team, TeamMatch, TeamMatchTable, TeamRule, TeamSettings

MAX_ID = 2**63 - 1  # the ids' column (a big integer): a larger number is a 400, not a database error


class TeamSettingsSerializer(serializers.ModelSerializer):
    rule = serializers.ChoiceField(choices=TeamRule.choices, required=False)
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=[c.value for c in TeamTiebreak]),
                                      required=False)

    class Meta:
        model = TeamSettings
        fields = ["rule", "games_to_win", "min_players", "max_players", "pairs_per_match", "win_points", "tiebreaks"]
        extra_kwargs = {name: {"required": False} for name in fields}


class TeamSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    pairs = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "club", "seed", "players", "pairs"]

    def get_players(self, team) -> list[dict]:
        return [{"player": row.player_id, "name": row.player.name, "position": row.position, "reserve": row.reserve}
                for row in team.roster.select_related("player").order_by("position")]

    def get_pairs(self, team) -> list[dict]:
        return [{"pair": row.pair_id, "name": row.pair.name, "table": row.position}
                for row in team.pairs.select_related("pair").order_by("position")]


class NewTeamSerializer(serializers.Serializer):
    club = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    name = serializers.CharField(max_length=120)
    seed = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)


class NewPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    reserve = serializers.BooleanField(default=False)


class RoundRobinSerializer(serializers.Serializer):
    best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False, allow_null=True)


class TeamMatchTableSerializer(serializers.ModelSerializer):
    pair_a = serializers.IntegerField(source="match.pair_a_id")
    pair_b = serializers.IntegerField(source="match.pair_b_id")
    physical_table = serializers.IntegerField(source="match.table", allow_null=True)

    class Meta:
        model = TeamMatchTable
        fields = ["table", "match", "decider", "closed_at", "pair_a", "pair_b", "physical_table"]


class TeamMatchSerializer(serializers.ModelSerializer):
    tables = TeamMatchTableSerializer(many=True)
    score = serializers.SerializerMethodField()

    class Meta:
        model = TeamMatch
        fields = ["id", "round_number", "stage", "home", "away", "rule", "games_to_win", "winner", "reason",
                  "pair_wins_home", "pair_wins_away", "games_home", "games_away", "decided_at", "tables", "score"]

    def get_score(self, team_match) -> str:
        from .services import describe

        return describe(team_match)


class TeamStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    pair_win_difference = serializers.IntegerField()
    game_difference = serializers.IntegerField()
    values = serializers.DictField()


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()


class PairRankingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    pair = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.IntegerField()
    table = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    game_difference = serializers.IntegerField()
