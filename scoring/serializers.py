"""Shapes of the súmula REST API (requests and responses). Validation of the rules is the
service's (``scoring.services``); these only describe and coerce the JSON."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import Match


def _rows_of(field: str):
    """Every row a ``Match`` foreign key may point to (tournaments, rounds, pairs): reached through the
    match's own fields, as scoring imports no app above it (docs/architecture.md)."""
    return Match._meta.get_field(field).related_model._default_manager.all()


@extend_schema_field({"type": "object", "additionalProperties": {}})
class JSONObjectField(serializers.JSONField):
    """A JSON object (a rule set, a hand report): documented as one, and anything else (null, a list, a
    number) refused here as the services refuse it."""

    default_error_messages = {"not_object": _("Send a JSON object.")}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_object")
        return value


ENDED_BY = ["tricks", "run", "eleven_refused", "all_tied", "deal_lost", "fold"]


class ErrorDetailSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="Where: a request field, e.g. `value`, `report.events[3]`, `player`.")
    message = serializers.CharField(help_text="Why, citing the article (e.g. `art. 19`), in the request's language "
                                              "(engine messages are in Portuguese).")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class MatchCreateSerializer(serializers.Serializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=_rows_of("tournament"), required=False,
                                              allow_null=True, help_text="Tournament slug; omit for a friendly.")
    round = serializers.PrimaryKeyRelatedField(queryset=_rows_of("round"), required=False, allow_null=True)
    table = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)
    referee = serializers.PrimaryKeyRelatedField(queryset=get_user_model().objects.all(), required=False,
                                                 allow_null=True, help_text="User id of the match's referee.")
    pair_a = serializers.PrimaryKeyRelatedField(queryset=_rows_of("pair_a"), help_text="Team 0.")
    pair_b = serializers.PrimaryKeyRelatedField(queryset=_rows_of("pair_b"), help_text="Team 1.")
    best_of = serializers.ChoiceField(choices=[1, 3, 5], required=False, help_text="Default: the tournament's.")
    rule_set = JSONObjectField(required=False, help_text="Friendlies only; tournament matches copy the "
                                                         "tournament's rule set.")
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, required=False, default=0,
                                            help_text="Seat that deals first in game 1 (art. 1: the table draws).")


class HandSerializer(serializers.Serializer):
    """A summary (winner, ended_by, value) or a full hand report (``report``)."""

    winner = serializers.IntegerField(required=False, allow_null=True, help_text="Team that scored: 0, 1 or null.")
    ended_by = serializers.ChoiceField(choices=ENDED_BY, required=False, default="tricks")
    value = serializers.IntegerField(required=False, help_text="1, 3, 6, 9 or 12 (art. 11, 13); 0 when nobody "
                                                               "scores.")
    dealer = serializers.IntegerField(required=False, min_value=0, max_value=3,
                                      help_text="Only for a game's first hand: the seat the table drew (art. 1).")
    report = JSONObjectField(required=False, help_text="A full hand report (docs/hand-report.md); its "
                                                       "dealer and score must be the game's.")
    game = serializers.IntegerField(required=False, min_value=1,
                                    help_text="The game the device expects to enter (with `hand`); else 409.")
    hand = serializers.IntegerField(required=False, min_value=1,
                                    help_text="The hand number the device expects to enter (with `game`); else 409.")


class PinUnlockSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="Id of a player of the match.")


class PenaltySerializer(serializers.Serializer):
    offender = serializers.IntegerField(min_value=0, max_value=1,
                                        help_text="Team that broke the rule (0 or 1); the other team scores.")
    # art. 11, 13: the tento in play is worth 1 to 12; 0 only with ruling_id (a ruling's warning)
    points = serializers.IntegerField(min_value=0, max_value=12,
                                      help_text="1 to 12: the tento in play (art. 11, 13); 0 only with "
                                                "`ruling_id` (a ruling's warning).")
    article = serializers.CharField(help_text="Required: the article of the regulation, e.g. `art. 24`.")
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    ruling_id = serializers.IntegerField(required=False, allow_null=True)


class CorrectionSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, help_text="Required (art. 25): printed on the new version.")
    changes = serializers.ListField(
        child=serializers.JSONField(),
        help_text='In order: {"op": "remove_entry", "game", "position"}, {"op": "replace_hand", "game", "hand", '
                  '"winner", "ended_by", "value"}, {"op": "insert_hand", "game", "after", ...}, '
                  '{"op": "insert_penalty", "game", "after", "offender", "points", "article", "reason"}, '
                  '{"op": "set_first_dealer", "game", "dealer"}.',
    )


class SignSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["team0", "team1"], help_text="The pair signing: only its own players.")
    player = serializers.IntegerField(help_text="Id of the signing player (a player of that pair).")
    pin = serializers.CharField(required=False, allow_blank=True, help_text="The player's personal PIN.")
    code = serializers.CharField(required=False, allow_blank=True, help_text="Or a one-time code from the referee.")
    digest = serializers.CharField(required=False, allow_blank=True,
                                   help_text="The digest read; refused if the súmula changed meanwhile.")


class CountersignSerializer(serializers.Serializer):
    digest = serializers.CharField(required=False, allow_blank=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300, default="",
                                   help_text="Required when the organizer countersigns in the referee's place.")


class CodeRequestSerializer(serializers.Serializer):
    team = serializers.IntegerField(min_value=0, max_value=1,
                                    help_text="0 or 1: the pair of the player without a PIN.")


class CodeSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    code = serializers.CharField(help_text="6 digits, shown once; single use.")
    expires_at = serializers.DateTimeField()


class SignatureSerializer(serializers.Serializer):
    role = serializers.CharField()
    name = serializers.CharField()
    at = serializers.CharField()
    digest = serializers.CharField()
    version = serializers.IntegerField()
    valid = serializers.BooleanField(help_text="False once a later version voided it.")


class VersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    digest = serializers.CharField()
    reason = serializers.CharField()
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    is_current = serializers.BooleanField()
    signatures = SignatureSerializer(many=True)
    verify_url = serializers.CharField()


class EntryStateSerializer(serializers.Serializer):
    over = serializers.BooleanField()
    game = serializers.IntegerField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField(), required=False)
    dealer = serializers.IntegerField(required=False)
    hand = serializers.IntegerField(required=False)
    state = serializers.CharField(required=False, help_text="normal, eleven (mão de onze) or iron (mão de ferro).")
    allowed = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()), required=False,
                                    help_text="Values the engine allows for each ending now.")


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    is_official = serializers.BooleanField()
    tournament = serializers.CharField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    referee = serializers.CharField(allow_null=True)
    pair_a = serializers.IntegerField()
    pair_b = serializers.IntegerField()
    best_of = serializers.IntegerField()
    games = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    state = EntryStateSerializer()
    current_version = VersionSerializer(allow_null=True)
    document = serializers.JSONField(help_text="The súmula document (docs/sumula-document.md) as the match stands.")
    page_url = serializers.CharField()
    integrity = serializers.JSONField(allow_null=True, help_text="Signed or received súmulas: {\"intact\", "
                                                                  "\"problems\"} from the row check.")
    table_url = serializers.CharField(required=False, allow_null=True,
                                      help_text="Only for the organizer and the match's referee: the table's link.")


class ConflictSettleSerializer(serializers.Serializer):
    """What the phone whose entry was refused as stale chose (``scoring.conflicts``)."""

    how = serializers.ChoiceField(choices=["keep", "after", "discard", "same", "referee"], help_text=(
        "`keep`: the server's entry stays, mine is dropped; `after`: mine is sent after it; `discard`: mine and "
        "the ones after it are dropped; `same`: it equalled the server's; `referee`: settled by a referee."))


class UndoSerializer(serializers.Serializer):
    """The entry an undo removes: refused with 409 and ``state`` unless it is the last one."""

    game = serializers.IntegerField(min_value=1, help_text="The game of the entry to remove (`entries[].game` of "
                                                           "the table page's state).")
    position = serializers.IntegerField(min_value=1, help_text="Its position in that game (`entries[].position`; "
                                                               "for the game being played, `state.entries` is "
                                                               "the last one's).")


class MatchEnvelopeSerializer(serializers.Serializer):
    """Responses of the write endpoints: the match after the change, plus what was made."""

    match = MatchSerializer()
    created = serializers.JSONField(required=False)


class VerificationSerializer(serializers.Serializer):
    digest = serializers.CharField()
    match = serializers.IntegerField()
    version = serializers.IntegerField()
    is_current = serializers.BooleanField()
    current_version = serializers.IntegerField()
    intact = serializers.BooleanField(help_text="The document gives its digest, every shown field agrees with "
                                                "the entries, the server's seal holds and, for the current "
                                                "version, the match's rows still make it.")
    server_seal = serializers.BooleanField(allow_null=True, help_text="Whether the server's Ed25519 seal holds "
                                                                     "(false also for a blank seal: not verifiable; null only for a "
                                                                     "version the operator named as older than the "
                                                                     "seals, SUMULA_UNSEALED_UNTIL).")
    problems = serializers.ListField(child=serializers.CharField(), help_text="What differs, by path.")
    server_key = serializers.CharField(help_text="Id of the server's key (16 hex).")
    public_key = serializers.CharField(help_text="The server's Ed25519 public key, base64.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    is_official = serializers.BooleanField()
    signatures = SignatureSerializer(many=True)
    document = serializers.JSONField()

