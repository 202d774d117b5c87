"""Serializers of the referee API: they document the hand report and its verdict.

This module owns the OpenAPI description (through drf-spectacular) of what
``POST /api/referee/hands/validate/`` receives and returns. The serializers are not
used to validate requests: the body goes straight to :func:`referee.engine.check_report`,
which owns the rules and gives friendlier errors than field validation would.
The engine is the authority on the verdict's shape; keep these in step with it.
"""
from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

SEAT_HELP = "Seat 0..3, counter-clockwise; seats 0 and 2 are team 0, seats 1 and 3 are team 1."
CARD_HELP = 'A card as "RANK-SUIT": rank 4 5 6 7 Q J K A 2 3, suit ouros, espadas, copas or paus.'


class RulesSerializer(serializers.Serializer):
    """The rule set the hand is played under: a named preset and its variant options."""

    preset = serializers.CharField(
        help_text='Name of the rule set: "regulamento-tecnico" (the default: the REGULAMENTO '
                  'TÉCNICO DE TRUCO that governs tournaments), or a variant such as "regras-4-jogadores" '
                  'or "jtb".',
    )
    options = serializers.DictField(
        required=False,
        help_text="Options that change the preset, by name, e.g. "
                  '{"all_tied": "dealer_team"}; in a request, empty or absent for the preset as it is; '
                  "in a verdict, every option with the value applied.",
    )


class HandEventSerializer(serializers.Serializer):
    """One event of the hand, in the order it happened.

    Exactly one action key is set: play, call, answer, eleven, prove, fold, ask or
    infraction; seat (or team, for eleven and prove) says who.
    """

    seat = serializers.IntegerField(
        required=False, min_value=0, max_value=3,
        help_text=f"Who acted (for play, call and answer). {SEAT_HELP}",
    )
    team = serializers.IntegerField(
        required=False, min_value=0, max_value=1,
        help_text="Which team decided (for eleven): 0 or 1.",
    )
    play = serializers.CharField(required=False, help_text=f"The card played. {CARD_HELP}")
    covered = serializers.BooleanField(
        required=False, default=False,
        help_text="With play: the card was played face down (carta coberta); it is worth nothing.",
    )
    call = serializers.CharField(
        required=False,
        help_text='A raise (provocação): "truco", "seis", "nove" or "doze".',
    )
    answer = serializers.CharField(
        required=False,
        help_text='The answer to the last raise, e.g. "accept" or "run" (correr: refuse it).',
    )
    said = serializers.CharField(
        required=False,
        help_text='With call: the word actually said, for a false call such as "Jorge" (art. 16).',
    )
    eleven = serializers.CharField(
        required=False,
        help_text='Mão de onze: the decision of the team at 11, "play" or "run".',
    )
    prove = serializers.BooleanField(
        required=False,
        help_text="Mão de onze: the team at 11 shows a sure win instead of playing (art. 21); needs deal.",
    )
    fold = serializers.BooleanField(
        required=False, help_text="true: the seat's team gives up the hand without a raise pending.",
    )
    ask = serializers.CharField(
        required=False,
        help_text='"cards": the dealer asks whether everyone has three cards (art. 6); needs deal.',
    )
    infraction = serializers.CharField(
        required=False,
        help_text="Code of an infraction the referee saw at this seat (e.g. talking to the partner, art. 24).",
    )


class ClaimSerializer(serializers.Serializer):
    """What the players say the result was; the verdict tells whether it matches."""

    winner = serializers.IntegerField(min_value=0, max_value=1, help_text="Team that won the hand: 0 or 1.")
    points = serializers.IntegerField(min_value=0, help_text="Points the winner scored: 1, 3, 6, 9 or 12.")


class HandReportSerializer(serializers.Serializer):
    """One hand (mão) as the table reports it: the deal, the vira and every event in order.

    Fields other than these make the report malformed.
    """

    id = serializers.JSONField(
        required=False,
        help_text="Optional identifier of the report, any JSON value; the verdict echoes it.",
    )

    rules = RulesSerializer(
        required=False,
        help_text='Rule set; defaults to {"preset": "regulamento-tecnico", "options": {}}.',
    )
    dealer = serializers.IntegerField(
        min_value=0, max_value=3,
        help_text=f"Seat of the dealer (pé); the player on the dealer's right leads. {SEAT_HELP}",
    )
    vira = serializers.CharField(
        help_text=f"The turned card; the next rank is the manilha. {CARD_HELP}",
    )
    score = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=2, max_length=2, required=False,
        help_text="Score of team 0 and team 1 before the hand; defaults to [0, 0].",
    )
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text='The three cards dealt to each seat, keyed by seat: {"0": [...], ..., "3": [...]}. '
                  "Optional; when given, every card played must come from its player's hand.",
    )
    events = HandEventSerializer(many=True, help_text="Everything that happened, in order.")
    claimed = ClaimSerializer(
        required=False,
        help_text="Optional result the table wrote down; the verdict then has claim_matches, and a "
                  "claim that does not match is a violation (art. 25).",
    )


class VerdictErrorSerializer(serializers.Serializer):
    """Why a report could not be refereed at all (it is malformed)."""

    field = serializers.CharField(
        allow_blank=True,
        help_text="The part of the report at fault; empty when it is the report as a whole.",
    )
    code = serializers.CharField(
        help_text="What is wrong, as a code of the engine (docs/hand-report.md lists them); \"json\" for a "
                  "line check_hand could not read as JSON.",
    )
    article = serializers.CharField(
        allow_blank=True,
        help_text="The regulation's article the refusal applies (\"art. 18\"); empty when it is about the "
                  "report's form.",
    )
    params = serializers.DictField(help_text="What the message speaks of (seats, teams, cards, values).")
    message = serializers.CharField(help_text="What is wrong, in Brazilian Portuguese.")
    internal = serializers.BooleanField(required=False, help_text="Present (true) when the engine itself failed.")


class ViolationSerializer(serializers.Serializer):
    """A rule the hand broke, with the article of the regulation it breaks."""

    code = serializers.CharField(help_text="Stable machine-readable name of the violation.")
    article = serializers.CharField(
        help_text='The article of the regulation, e.g. "art. 11.1"; empty when none applies.',
        allow_blank=True,
    )
    message = serializers.CharField(help_text="What happened and what the rule says, in Brazilian Portuguese.")
    event = serializers.IntegerField(
        required=False, allow_null=True, min_value=0,
        help_text="Index in events of the event at fault; null when no single event is.",
    )
    key = serializers.CharField(
        required=False, help_text="The message as data: the sentence's key (docs/hand-report.md, message codes).",
    )
    params = serializers.DictField(
        required=False, help_text="The message's parameters: seats, teams (0 or 1), values, cards, calls.",
    )


class NoteSerializer(serializers.Serializer):
    """Something the referee should know that broke no rule."""

    article = serializers.CharField(help_text='The article it concerns, e.g. "art. 6".')
    event = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, help_text="Index in events of the event concerned.",
    )
    message = serializers.CharField(help_text="The note, in Brazilian Portuguese.")
    code = serializers.CharField(required=False, help_text='What the note records, e.g. "pair_decision" (art. 17).')
    key = serializers.CharField(required=False, help_text="The message as data: the sentence's key.")
    params = serializers.DictField(required=False, help_text="The message's parameters.")


class TentoSerializer(serializers.Serializer):
    """A tento claimed after the hand (house rules, tento ex. 1-3): added to the score after the hand's result."""

    code = serializers.CharField(help_text='The infraction, e.g. "looked_at_covered".')
    article = serializers.CharField(help_text="Where the rule comes from.")
    event = serializers.IntegerField(min_value=0, help_text="Index in events of the claim.")
    offender = serializers.IntegerField(min_value=0, max_value=1, help_text="Team that broke the rule.")
    team = serializers.IntegerField(min_value=0, max_value=1, help_text="Team that scores the tento.")
    points = serializers.IntegerField(min_value=1, help_text="Points it scores.")


class TrickSerializer(serializers.Serializer):
    """One trick (vaza) as the engine replayed it."""

    number = serializers.IntegerField(min_value=1, max_value=3, help_text="1, 2 or 3.")
    winner = serializers.IntegerField(
        allow_null=True, min_value=0, max_value=1,
        help_text="Team that took the trick; null when it was tied (empate).",
    )
    seat = serializers.IntegerField(
        allow_null=True, min_value=0, max_value=3,
        help_text="Seat whose card took the trick; null when it was tied.",
    )
    tie = serializers.BooleanField(help_text="The trick was tied (cangada).")


class VerdictSerializer(serializers.Serializer):
    """The engine's verdict on one hand report.

    A malformed report gets ``valid: false`` and ``error`` only. A report that could be
    replayed gets the result (``winner``, ``points``, ``score_after``...) and the list
    of ``violations``; it is valid when nothing was violated.
    """

    valid = serializers.BooleanField(
        help_text="True when the report is well formed and the hand broke no rule.",
    )
    error = VerdictErrorSerializer(
        required=False, help_text="Only for a malformed report: what is wrong with it.",
    )
    rules = RulesSerializer(required=False, help_text="The rule set the hand was refereed under.")
    winner = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=1,
        help_text="Team that won the hand: 0 or 1; null when nobody scores (e.g. all tricks tied).",
    )
    points = serializers.IntegerField(required=False, min_value=0, help_text="Points the winner scores.")
    hand_value = serializers.IntegerField(
        required=False, min_value=1, help_text="What the hand was worth when it ended: 1, 3, 6, 9 or 12.",
    )
    score_before = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Score [team 0, team 1] before the hand.",
    )
    score_after = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Score [team 0, team 1] after the hand.",
    )
    tricks = TrickSerializer(many=True, required=False, help_text="The tricks played, in order.")
    ended_by = serializers.CharField(
        required=False,
        help_text='How the hand ended, e.g. "tricks" (decided by the tricks), "all_tied", "run" (a raise '
                  'refused), "eleven_refused", "penalty", "fold", "proof", "deal_lost" or "incomplete" '
                  "(the events stop before the hand is decided).",
    )
    game_winner = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=1,
        help_text="Team that reached 12 and won the game with this hand; null when the game goes on.",
    )
    next_dealer = serializers.IntegerField(
        required=False, min_value=0, max_value=3, help_text="Seat that deals the next hand.",
    )
    violations = ViolationSerializer(many=True, required=False, help_text="Rules the hand broke, in order.")
    notes = NoteSerializer(many=True, required=False, help_text="Remarks that are not violations; absent when none.")
    tentos = TentoSerializer(
        many=True, required=False,
        help_text="Tentos claimed after the hand, already in score_after; absent when none.",
    )
    claim_matches = serializers.BooleanField(
        required=False,
        help_text="Only when the report had claimed: whether the claimed winner and points are right.",
    )
    id = serializers.JSONField(required=False, help_text="The report's id, when it had one.")


class APIErrorSerializer(serializers.Serializer):
    """Why the request was refused before any report was refereed."""

    detail = serializers.CharField(
        help_text="What is wrong with the request, in the request's language (Accept-Language; "
                  "Brazilian Portuguese by default).",
    )


def hand_report_or_list() -> PolymorphicProxySerializer:
    """Request body of the validate endpoint: one hand report or a list of them."""
    return PolymorphicProxySerializer(
        component_name="HandReportOrList",
        serializers=[HandReportSerializer, HandReportSerializer(many=True)],
        resource_type_field_name=None,
        many=False,
    )


def verdict_or_list() -> PolymorphicProxySerializer:
    """Response body of the validate endpoint: one verdict, or a list for a list."""
    return PolymorphicProxySerializer(
        component_name="VerdictOrList",
        serializers=[VerdictSerializer, VerdictSerializer(many=True)],
        resource_type_field_name=None,
        many=False,
    )
