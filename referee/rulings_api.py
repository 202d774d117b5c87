"""The rulings REST API (mounted under /api/referee/, in the OpenAPI schema): the infraction catalog,
rulings of a match (propose, confirm, escalate, the organizer's decision), appeals and their decision,
a pair's history, escalation policies and referee settings.

Thin views over ``referee.services``: every permission is checked there, so the API refuses what the
pages refuse (403 wrong user, wrong pair, wrong PIN/code; 409 wrong state; 400 bad input), always as
the API's one error shape (config/api.py). Reads are public for tournament matches; writes by players
(claims, appeals) need no login: the player is identified by their PIN or a one-time code.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from django.utils.translation import gettext as _

from config.api import error_body
from config.errors import Forbidden, ServiceError
from scoring.content import person_name
from scoring import pins
from scoring.models import Match
from scoring.words import engine_messages
from tables.idempotency import IdempotentAPIView as APIView  # every write honours Idempotency-Key
from tables.links import TableAuthentication, TableScope
from tournaments.models import Pair, Tournament

from . import appeals, services
from .engine.infractions import CATALOG
from .models import NOT_COVERED, Appeal, EscalationPolicy, Ruling
from .ruling_serializers import (
    AppealDecisionSerializer, AppealRequestSerializer, AppealSerializer, DecideSerializer, ErrorSerializer,
    InfractionSerializer, PolicySerializer, ProposeSerializer, EscalationReasonSerializer, RejectionSerializer,
    RulingSerializer, SettingsSerializer,
)

ERRORS = {400: OpenApiResponse(ErrorSerializer, description="Bad input: the field and the rule (article)."),
          403: OpenApiResponse(ErrorSerializer, description="Not allowed: wrong user, wrong pair, wrong PIN/code."),
          404: OpenApiResponse(description="Not found."),
          409: OpenApiResponse(ErrorSerializer, description="Not in this state (match over, already confirmed, "
                                                            "appeal window over...).")}
REQUIRES_FACTS = {"raised": "raised_team", "start": "any_card", "wrong_deal": "wrong_deal"}


def _error(error: ServiceError) -> Response:
    return Response(error_body(error.field, error.message), status=error.status)


def infraction_data(code: str) -> dict:
    if code == NOT_COVERED:
        return {"code": NOT_COVERED, "article": "art. 26", "title": "Caso omisso: decidido pelo organizador",
                "consequence": "organizer", "claim_window": "a qualquer momento",
                "claimed_by": "opponents", "requires": [], "facts": ["description"],
                "sanction": "organizer"}
    entry = CATALOG[code]
    facts = ["value"] + [REQUIRES_FACTS[r] for r in entry.requires if r in REQUIRES_FACTS]
    if code == "wrong_card_count":
        facts.append("outcome")
    return {"code": entry.code, "article": entry.article, "title": entry.title, "consequence": entry.consequence,
            "claim_window": entry.claim_window, "claimed_by": "opponents", "requires": list(entry.requires),
            "facts": facts, "sanction": entry.sanction}


def appeal_data(appeal: Appeal) -> dict:
    return {"id": appeal.pk, "ruling": appeal.ruling_id, "team": appeal.team, "player": appeal.player.name,
            "reason": appeal.reason, "filed_at": appeal.filed_at, "decision": appeal.decision,
            "decision_reason": appeal.decision_reason, "new_points": appeal.new_points,
            "decided_at": appeal.decided_at}


def ruling_data(ruling: Ruling, match=None) -> dict:
    """A ruling as the API answers it; its message in the request's language with the pairs named
    (``scoring.words.engine_messages``), and as data (``message_data``: key and parameters; {} on rulings
    recorded before messages were data)."""
    return {"id": ruling.pk, "match": ruling.match_id, "game": ruling.game_number, "hand": ruling.hand_number,
            "claimant_team": ruling.claimant_team, "offender_seat": ruling.offender_seat,
            "offender_team": ruling.offender_team, "code": ruling.code, "article": ruling.article,
            "facts": ruling.facts, "points": ruling.points, "beneficiary": ruling.beneficiary,
            "ends_hand": ruling.ends_hand, "deal_lost": ruling.deal_lost,
            "message": engine_messages.render_stored(ruling.message_data, ruling.message, match or ruling.match),
            "message_data": ruling.message_data,
            "step": ruling.step, "step_number": ruling.step_number, "status": ruling.status,
            "referee": person_name(ruling.referee), "created_at": ruling.created_at,
            "confirmed_at": ruling.confirmed_at, "escalation_reason": ruling.escalation_reason,
            "decision_reason": ruling.decision_reason, "rejection_reason": ruling.rejection_reason,
            "appeals": [appeal_data(a) for a in ruling.appeals.select_related("player")]}


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class CatalogView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], responses={200: InfractionSerializer(many=True)},
                   summary="The infraction catalog",
                   description="Every infraction a claim may name: its article, title, consequence, when it may "
                               "be claimed, who claims it (always the offender's opponents) and the facts the "
                               "referee gives. `not_covered`: a case the regulation does not cover (art. 26).")
    def get(self, request):
        return Response([infraction_data(code) for code in [*CATALOG, NOT_COVERED]])


class MatchRulingsView(APIView):
    permission_classes = [AllowAny, TableScope]  # the services decide (players claim without a login)

    def table_match_id(self, request) -> int:
        return int(self.kwargs["pk"])

    @extend_schema(tags=["referee"], responses={200: RulingSerializer(many=True), **ERRORS},
                   summary="Rulings of a match", description="Public for tournament matches.")
    def get(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk)
        try:
            rulings = services.rulings_of(match, request.user)
        except ServiceError as error:
            return _error(error)
        return Response([ruling_data(r, match) for r in rulings])

    @extend_schema(tags=["referee"], request=ProposeSerializer, responses={201: RulingSerializer, **ERRORS},
                   summary="Claim an infraction (propose a ruling)",
                   description="By the match's referee or the organizer (logged in), or by a player for their own "
                               "pair with `player` and `pin` (or `code_once`). The engine gives the consequence "
                               "with its article; the tournament's escalation policy applies.")
    def post(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk)
        data = _valid(ProposeSerializer, request)
        try:
            ruling = services.propose(match, data["claimant_team"], data["offender_seat"], data["code"],
                                      data.get("facts"), request.user, player=data.get("player"),
                                      pin=data.get("pin"), one_time_code=data.get("code_once"),
                                      client=pins.client_of(request))
        except ServiceError as error:
            return _error(error)
        return Response(ruling_data(ruling), status=status.HTTP_201_CREATED)


class RulingDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], responses={200: RulingSerializer, **ERRORS}, summary="A ruling")
    def get(self, request, pk: int):
        ruling = get_object_or_404(Ruling, pk=pk)
        if not services.can_read(request.user, ruling.match):
            return _error(Forbidden(_("The rulings of a friendly are shown to its referee and staff only.")))
        return Response(ruling_data(ruling))


class _RulingAction(APIView):
    permission_classes = [AllowAny]  # the services decide and answer 403

    def run(self, request, ruling):  # pragma: no cover - overridden
        raise NotImplementedError

    def post(self, request, pk: int):
        ruling = get_object_or_404(Ruling, pk=pk)
        try:
            result = self.run(request, ruling)
        except ServiceError as error:
            return _error(error)
        return Response(result)


class ConfirmView(_RulingAction):
    @extend_schema(tags=["referee"], request=None, responses={200: RulingSerializer, **ERRORS},
                   summary="Confirm a ruling (referee or organizer)",
                   description="Records it on the súmula as a penalty entry with its article and the ruling's id "
                               "(0 points for a warning).")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, ruling):
        return ruling_data(services.confirm(ruling, request.user))


class EscalateView(_RulingAction):
    @extend_schema(tags=["referee"], request=EscalationReasonSerializer, responses={200: RulingSerializer, **ERRORS},
                   summary="Escalate a ruling to the organizer (art. 26)")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, ruling):
        data = _valid(EscalationReasonSerializer, request)
        return ruling_data(services.escalate(ruling, request.user, data["reason"]))


class RejectView(_RulingAction):
    @extend_schema(tags=["referee"], request=RejectionSerializer, responses={200: RulingSerializer, **ERRORS},
                   summary="Reject an unfounded claim (referee or organizer)",
                   description="Nothing goes on the súmula; the reason is shown to the pairs. Only a proposed "
                               "ruling is rejected (409 otherwise).")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, ruling):
        data = _valid(RejectionSerializer, request)
        return ruling_data(services.reject(ruling, request.user, data["reason"]))


class DecideView(_RulingAction):
    @extend_schema(tags=["referee"], request=DecideSerializer, responses={200: RulingSerializer, **ERRORS},
                   summary="The organizer decides an escalated ruling (art. 26)")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, ruling):
        data = _valid(DecideSerializer, request)
        return ruling_data(services.decide_escalated(ruling, request.user, data["points"], data["beneficiary"],
                                                     data["reason"]))


class AppealView(APIView):
    permission_classes = [AllowAny, TableScope]
    # a player identified by PIN or one-time code, not a login; at the table, through its link
    authentication_classes: list = [TableAuthentication]

    def table_match_id(self, request) -> int | None:
        return Ruling.objects.filter(pk=self.kwargs["pk"]).values_list("match_id", flat=True).first()

    @extend_schema(tags=["referee"], request=AppealRequestSerializer, responses={201: AppealSerializer, **ERRORS},
                   summary="Appeal a ruling (a player of the pair, with PIN or one-time code)",
                   description="Within the tournament's appeal window after the ruling was confirmed; one open "
                               "appeal per ruling.")
    def post(self, request, pk: int):
        ruling = get_object_or_404(Ruling, pk=pk)
        data = _valid(AppealRequestSerializer, request)
        try:
            appeal = appeals.appeal(ruling, data["team"], data["player"], pin=data.get("pin"),
                                     code=data.get("code"), reason=data["reason"], client=pins.client_of(request),
                                     by=request.user)
        except ServiceError as error:
            return _error(error)
        return Response(appeal_data(appeal), status=status.HTTP_201_CREATED)


class AppealDecisionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], request=AppealDecisionSerializer, responses={200: AppealSerializer, **ERRORS},
                   summary="The organizer decides an appeal (art. 26)",
                   description="`overturned` removes the ruling's entries and `changed` replaces them, by a "
                               "correction of the súmula: a new version, signatures voided.")
    def post(self, request, pk: int):
        appeal = get_object_or_404(Appeal, pk=pk)
        data = _valid(AppealDecisionSerializer, request)
        try:
            appeal = appeals.decide_appeal(appeal, request.user, data["decision"], data["reason"],
                                            data.get("new_points"))
        except ServiceError as error:
            return _error(error)
        return Response(appeal_data(appeal))


class PairHistoryView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], responses={200: RulingSerializer(many=True)},
                   summary="Every ruling of a pair in its tournament")
    def get(self, request, pk: int):
        pair = get_object_or_404(Pair, pk=pk)
        return Response([ruling_data(r) for r in services.history(pair)])


class PoliciesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], responses={200: PolicySerializer(many=True)},
                   summary="Escalation policies of a tournament")
    def get(self, request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        return Response([{"code": p.code, "steps": p.steps}
                         for p in EscalationPolicy.objects.filter(tournament=tournament)])

    @extend_schema(tags=["referee"], request=PolicySerializer, responses={200: PolicySerializer, **ERRORS},
                   summary="Set an escalation policy (organizer)",
                   description='e.g. {"code": "guidance_word", "steps": ["warning", "tento", "match_loss"]}: the '
                               "nth confirmed ruling of the code against the same pair takes step n.")
    def put(self, request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        data = _valid(PolicySerializer, request)
        try:
            appeals.set_policy(tournament, request.user, data["code"], data["steps"])
        except ServiceError as error:
            return _error(error)
        return Response({"code": data["code"], "steps": data["steps"]})


class SettingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["referee"], responses={200: SettingsSerializer}, summary="Referee settings")
    def get(self, request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        return Response({"appeal_window_minutes": appeals.settings_of(tournament).appeal_window_minutes})

    @extend_schema(tags=["referee"], request=SettingsSerializer, responses={200: SettingsSerializer, **ERRORS},
                   summary="Set the referee settings (organizer)")
    def put(self, request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        data = _valid(SettingsSerializer, request)
        try:
            row = appeals.set_settings(tournament, request.user, data["appeal_window_minutes"])
        except ServiceError as error:
            return _error(error)
        return Response({"appeal_window_minutes": row.appeal_window_minutes})
