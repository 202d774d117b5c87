"""REST serializers of the tournaments API: the shapes read and written at /api/tournaments/ about the
tournament, its players and pairs, its stages, its standings and its audit (a tournament's play, rounds to
results, is ``tournaments.play_serializers``).

Input serializers only check the shape of a request (types, required fields); every rule
of the tournament (who may do it, when, which pairs) is checked by ``tournaments.services``.
A player's contact (phone or e-mail) is shown only to those who manage the tournament.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.serializers import JSONObjectField

from . import players
from .csv_import import Mode
from .models import AuditEntry, Pair, Player, Stage, Tournament
from draw.pairing.standings import Tiebreak

# The statuses a tournament is written with (services.tournament): the draw sets the others.
WRITABLE_STATUSES = [Tournament.Status.DRAFT.value, Tournament.Status.REGISTRATION.value]


class TournamentErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The field or rule refused (may be empty).")
    message = serializers.CharField()


# ---- tournaments


class TournamentOrganizationSerializer(serializers.Serializer):
    """The club or federation that owns a tournament (``/api/organizations/`` lists the caller's)."""

    id = serializers.IntegerField(read_only=True)
    slug = serializers.CharField(read_only=True)
    name = serializers.CharField(read_only=True)
    kind = serializers.CharField(read_only=True, help_text="club or federation")


class TournamentSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="draft, registration, in_progress or finished")
    organizer = serializers.CharField(source="organizer.username", read_only=True)
    organization = TournamentOrganizationSerializer(read_only=True, allow_null=True,
                                                    help_text="Who owns it (null: a tournament from before "
                                                              "organizations, run by its organizer).")
    format = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "venue", "date", "status", "organizer", "organization", "best_of", "rule_set",
                  "check_in_required", "format", "created_at"]
        read_only_fields = ["id", "organizer", "organization", "created_at", "format"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_format(self, obj: Tournament) -> str | None:
        """The first stage's format (``stages/`` lists every stage)."""
        stages = sorted(obj.stages.all(), key=lambda st: st.position)
        return stages[0].format if stages else None


class TournamentWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    slug = serializers.CharField(max_length=140, required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    date = serializers.DateField(required=False)
    status = serializers.ChoiceField(choices=WRITABLE_STATUSES, required=False, help_text="draft or registration (the "
                                     "draw starts the tournament, it finishes by itself)")
    best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False, help_text="1, 3 or 5 games to 12")
    rule_set = JSONObjectField(required=False)
    check_in_required = serializers.BooleanField(required=False)


# ---- players and pairs


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.SerializerMethodField()
    contact = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "club", "contact"]

    @extend_schema_field(serializers.CharField())
    def get_club(self, obj: Player) -> str:
        """The player's club, by name ("" when none): people.Club."""
        return obj.club.name if obj.club_id else ""

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_contact(self, obj: Player) -> str | None:
        request = self.context.get("request")
        if not self.context.get("manage") or not players.contact_visible(obj, getattr(request, "user", None)):
            return None
        return obj.contact


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    nickname = serializers.CharField(max_length=60, required=False, allow_blank=True)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    contact = serializers.CharField(max_length=200, required=False, allow_blank=True)
    federation_number = serializers.CharField(max_length=30, required=False, allow_blank=True)


class PlayerConsentSerializer(serializers.Serializer):
    """A player of another organizer, who consents with their PIN (tournaments.players)."""

    id = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    pin = serializers.CharField(max_length=64, trim_whitespace=False)


@extend_schema_field({"oneOf": [{"type": "integer", "description": "the id of a player of your tournaments"},
                                {"$ref": "#/components/schemas/PlayerInput"},
                                {"$ref": "#/components/schemas/PlayerConsent"}]})
class PlayerRefField(serializers.Field):
    """A player: an existing player's id, or ``{"name", "nickname", "club", "contact"}``."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            raise serializers.ValidationError(_("A player is an id or an object."))
        if isinstance(data, int):
            return data
        if isinstance(data, dict) and "id" in data:
            inner = PlayerConsentSerializer(data=data)
            inner.is_valid(raise_exception=True)
            return dict(inner.validated_data)
        if isinstance(data, dict):
            inner = PlayerInputSerializer(data=data)
            inner.is_valid(raise_exception=True)
            return dict(inner.validated_data)
        raise serializers.ValidationError(_("A player is an id or an object."))

    def to_representation(self, value):
        return value


class PairSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="pending, confirmed or withdrawn")
    first_player = PlayerSerializer(read_only=True)
    second_player = PlayerSerializer(read_only=True)
    substitute = PlayerSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Pair
        fields = ["id", "name", "status", "rating", "seed", "first_player", "second_player", "substitute",
                  "registered_at", "withdrawn_at", "withdrawal_reason", "disqualified", "avoid_tags"]


class PairCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    first_player = PlayerRefField()
    second_player = PlayerRefField()
    substitute = PlayerRefField(required=False, allow_null=True)
    rating = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    status = serializers.CharField(required=False, help_text="confirmed (default) or pending")
    avoid_tags = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                       help_text="Club, family... comma separated: pairs sharing one are kept apart "
                                                 "in the group draw and the Swiss rounds when possible.")
    different_people = serializers.BooleanField(
        required=False, default=False,
        help_text="A new player named like a player already registered (in this tournament or by this organizer) "
                  "is refused (400, the field names the player) until the request says they are different people "
                  "(true), or gives the registered player by id.")


class PairUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    substitute = PlayerRefField(required=False, allow_null=True)
    rating = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    status = serializers.CharField(required=False, help_text="confirmed or pending")
    avoid_tags = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                       help_text="Club, family... comma separated (kept apart when possible).")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class PlacingOverrideSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True, min_value=1, help_text="null: take the decision back.")
    reason = serializers.CharField(max_length=300)


class CsvImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV in UTF-8 (BOM allowed) or Windows-1252 (Excel pt-BR), comma, "
                                           "semicolon or tab separated.")
    mode = serializers.ChoiceField(choices=[m.value for m in Mode], default=Mode.ALL_OR_NOTHING.value)
    namesakes = serializers.ChoiceField(
        choices=["ask", "reuse", "different"], default="ask",
        help_text="A new player named like a registered one: ask (report the row), reuse (this organizer's one "
                  "registered player of that name from an earlier tournament), different (a new player).")


class RowErrorSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="Line number in the file; the header is row 1.")
    column = serializers.CharField()
    message = serializers.CharField()


class ImportReportSerializer(serializers.Serializer):
    mode = serializers.CharField()
    rows = serializers.IntegerField()
    created = serializers.ListField(child=serializers.IntegerField())
    created_count = serializers.IntegerField()
    errors = RowErrorSerializer(many=True)


# ---- format


class StageSerializer(serializers.ModelSerializer):
    class Meta:
        model = Stage
        fields = ["format", "seeding", "third_place", "grand_final_reset", "group_count", "qualifiers_per_group",
                  "swiss_rounds", "tiebreaks", "walkover_scores", "lot_seed", "standings_lot_seed",
                  "bracket_first_round", "swiss_order", "legs", "best_of", "round_best_of", "withdrawn_last",
                  "third_place_best_of", "bye_value", "bye_played", "avoid_rounds", "classification"]
        read_only_fields = fields


@extend_schema_field({"type": "array", "minItems": 1, "uniqueItems": True, "items": {
    "type": "string", "enum": [t.value for t in Tiebreak],
    "description": "\n".join(f"* `{t.value}` - {t.value}" for t in Tiebreak)}})  # TiebreakEnum, as before
class TiebreakListField(serializers.ListField):
    """A stage's tiebreaks in order: at least one, each once, as ``services.formats.clean_tiebreaks`` wants
    them (Buchholz only in a Swiss is the service's: it depends on the format)."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.ChoiceField(choices=[t.value for t in Tiebreak]), allow_empty=False,
                         **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        repeated = next((name for i, name in enumerate(value) if name in value[:i]), None)
        if repeated is not None:
            raise serializers.ValidationError(_("Each tiebreak may appear once (%(name)s is repeated).")
                                              % {"name": repeated})
        return value


class StageWriteSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=Stage.Format.choices, required=False)
    seeding = serializers.ChoiceField(choices=Stage.Seeding.choices, required=False)
    third_place = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    group_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    qualifiers_per_group = serializers.IntegerField(required=False, min_value=1, max_value=64)
    swiss_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=64)
    tiebreaks = TiebreakListField(required=False, help_text="In order, each once; ties left are separated by lot.")
    walkover_scores = serializers.BooleanField(required=False)
    swiss_order = serializers.ChoiceField(choices=Stage.SwissOrder.choices, required=False,
                                          help_text="fold: top half against bottom half (default); neighbour: 1-2, 3-4")
    legs = serializers.ChoiceField(choices=[1, 2], required=False, help_text="2: a double round robin")
    best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False, allow_null=True,
                                      help_text="Games per match in this stage: 1, 3 or 5; null: the tournament's.")
    round_best_of = serializers.DictField(child=serializers.IntegerField(), required=False,
                                          help_text='Per round of the stage; "-1" the last: {"-2": 3, "-1": 3}.')
    bye_value = serializers.ChoiceField(choices=Stage.ByeValue.choices, required=False,
                                        help_text="A bye is worth: win (default), draw (half) or nothing.")
    bye_played = serializers.BooleanField(required=False, help_text="A bye counts in played and won (drawn, lost): "
                                          "P = W + L (default true).")
    third_place_best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False,
                                                  allow_null=True, help_text="Games in the third-place match: 1, 3 "
                                                  "or 5; null: the stage's (not the final's).")
    withdrawn_last = serializers.BooleanField(required=False, help_text="Withdrawn and disqualified pairs rank "
                                              "below every pair still in (default true).")
    avoid_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=64,
                                            help_text="Pairs sharing an avoid tag "
                                            "are kept apart when possible up to this round; null: every round.")
    classification = serializers.BooleanField(required=False, help_text="A single elimination of 8 or more: the "
                                              "quarterfinal losers play for places 5 to 8 beside the semifinals.")


# ---- standings, bracket, audit


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    pair = serializers.IntegerField()
    pair_name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField(help_text="Byes worth a draw, when byes count as played.")
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    games_for = serializers.IntegerField()
    games_against = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.FloatField(), help_text="Value of each tiebreak.")
    lot = serializers.IntegerField(help_text="Draw number separating pairs tied on every tiebreak.")
    place = serializers.IntegerField(allow_null=True, help_text="Final place from a knockout's bracket (null while "
                                     "the pair is still in it, or without a knockout).")
    stage = serializers.IntegerField(allow_null=True, help_text="Overall table of several stages: the position of "
                                     "the stage that decided this place (its figures are that stage's).")
    stage_name = serializers.CharField()
    decided_by = serializers.CharField(help_text="bracket (the round reached), standings (the stage's tiebreaks), "
                                       "organizer (placed by hand: override_reason); empty in a one-stage table.")
    override_reason = serializers.CharField(help_text="Why the organizer set this place by hand (audited).")


class StandingGroupSerializer(serializers.Serializer):
    name = serializers.CharField()
    rows = StandingRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    tiebreaks = serializers.ListField(child=serializers.CharField())
    lot_seed = serializers.IntegerField()
    walkover_scores = serializers.BooleanField()
    rows = StandingRowSerializer(many=True)
    groups = StandingGroupSerializer(many=True)
    stages = serializers.ListField(child=serializers.DictField(), help_text="Overall table of several stages: "
                                   "each deciding stage (position, name, tiebreaks, decided_by, lot_seed).")


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", read_only=True, allow_null=True, default=None)
    round = serializers.IntegerField(source="round.number", read_only=True, allow_null=True, default=None)

    class Meta:
        model = AuditEntry
        fields = ["id", "action", "actor", "reason", "round", "match", "before", "after", "at"]
        read_only_fields = fields
