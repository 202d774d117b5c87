"""Serializers of the rulings API (``referee.rulings_api``): request bodies (validated here for
their shape only; every rule and permission is in ``referee.services``) and the answers' shapes
for the OpenAPI schema."""
from __future__ import annotations

from rest_framework import serializers

from scoring.serializers import ErrorSerializer  # noqa: F401  (one "Error" component in the schema)

from .engine.infractions import CATALOG
from .models import NOT_COVERED, STEPS

TEAM_HELP = "Team 0 (pair A: seats 0 and 2) or team 1 (pair B: seats 1 and 3)."


class InfractionSerializer(serializers.Serializer):
    code = serializers.CharField()
    article = serializers.CharField(help_text='The article that governs it, e.g. "art. 24".')
    title = serializers.CharField(help_text="What happened, in Portuguese (shown to referees).")
    consequence = serializers.CharField(help_text="tento | deal_lost | none | organizer (art. 26).")
    claim_window = serializers.CharField(help_text="When a claim is allowed, in Portuguese.")
    claimed_by = serializers.CharField(help_text="Always the offender's opponents.")
    requires = serializers.ListField(child=serializers.CharField(), help_text="Conditions the engine checks.")
    facts = serializers.ListField(child=serializers.CharField(), help_text="The facts the referee gives.")
    sanction = serializers.CharField(help_text="Where the consequence comes from: regulation (the article states "
                                               "it), house (the house rules fill a silence; the tournament's rule set "
                                               "option house_sanctions sets it: tento or warning) or organizer.")


class RulingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    game = serializers.IntegerField()
    hand = serializers.IntegerField()
    claimant_team = serializers.IntegerField()
    offender_seat = serializers.IntegerField()
    offender_team = serializers.IntegerField()
    code = serializers.CharField()
    article = serializers.CharField()
    facts = serializers.DictField()
    points = serializers.IntegerField()
    beneficiary = serializers.IntegerField(allow_null=True)
    ends_hand = serializers.BooleanField()
    deal_lost = serializers.BooleanField()
    message = serializers.CharField()
    step = serializers.CharField(help_text='Escalation step applied: "", warning, tento or match_loss.')
    step_number = serializers.IntegerField(help_text="The nth ruling of this code against the pair.")
    status = serializers.CharField()
    referee = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    escalation_reason = serializers.CharField()
    decision_reason = serializers.CharField()
    rejection_reason = serializers.CharField(help_text="Why the referee rejected the claim (status rejected).")
    appeals = serializers.ListField(child=serializers.DictField())


class ProposeSerializer(serializers.Serializer):
    claimant_team = serializers.IntegerField(min_value=0, max_value=1,
                                             help_text=TEAM_HELP + " The offender's opponents.")
    offender_seat = serializers.IntegerField(min_value=0, max_value=3, help_text="Seat 0..3 of the offender.")
    code = serializers.ChoiceField(choices=[*CATALOG, NOT_COVERED])
    facts = serializers.DictField(required=False, default=dict, help_text=(
        '{"value": 3, "raised_team": 1, "any_card": true, "wrong_deal": false, "outcome": "accepted", '
        '"description": "..."}: the value in play (default 1), the team facing a raise, whether a card is '
        'on the table, art. 6 facts; "description" for a case not covered (art. 26).'))
    player = serializers.IntegerField(required=False, help_text="A player claiming for their pair (no login).")
    pin = serializers.CharField(required=False)
    code_once = serializers.CharField(required=False, help_text="A one-time code (instead of the PIN).")


class EscalationReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class RejectionSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the claim is unfounded: the pairs see it.")


class DecideSerializer(serializers.Serializer):
    points = serializers.IntegerField(min_value=0, max_value=12)
    beneficiary = serializers.IntegerField(allow_null=True, required=False, default=None, min_value=0, max_value=1,
                                           help_text=TEAM_HELP + " null with 0 points: nobody scores (art. 26).")
    reason = serializers.CharField(max_length=300)


class AppealRequestSerializer(serializers.Serializer):
    team = serializers.IntegerField(min_value=0, max_value=1, help_text=TEAM_HELP + " The appellant's own pair.")
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="Id of a player of that pair.")
    pin = serializers.CharField(required=False)
    code = serializers.CharField(required=False, help_text="A one-time code (instead of the PIN).")
    reason = serializers.CharField(max_length=300)


class AppealSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruling = serializers.IntegerField()
    team = serializers.IntegerField()
    player = serializers.CharField()
    reason = serializers.CharField()
    filed_at = serializers.DateTimeField()
    decision = serializers.CharField()
    decision_reason = serializers.CharField()
    new_points = serializers.IntegerField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)


class AppealDecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["upheld", "overturned", "changed"])
    reason = serializers.CharField(max_length=300)
    new_points = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=12)


class PolicySerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(CATALOG))
    steps = serializers.ListField(child=serializers.ChoiceField(choices=list(STEPS)), allow_empty=True,
                                  help_text="Ordered steps; the last repeats. Empty removes the policy.")


class SettingsSerializer(serializers.Serializer):
    appeal_window_minutes = serializers.IntegerField(min_value=1, max_value=1440)
