"""The súmula REST API (mounted at /api/scoring/, documented in the OpenAPI schema).

Thin views over ``scoring.services``: every permission is checked there too, so the API and
the pages refuse the same things (403 when the user or signer may not, 409 when the súmula's
state forbids it, 400 for bad input), always in the API's one error shape (config/api.py: ``field``, ``message``, ``error``...).

Every view is an ``IdempotentAPIView`` (``Idempotency-Key``, ``tables.idempotency``). The table's
link (``Authorization: Table <token>``, ``tables.links``) may enter and undo hands, sign
with the pairs' PINs and read its own match; the services refuse it everything else.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from config.api import error_body
from tables import links as table_links
from tables.conflicts import as_data as conflict_data
from tables.idempotency import IdempotentAPIView as APIView
from tables.links import IsUserOrTable, TableScope

from . import access, conflicts, pins, row_check, services, site
from .services.hand_entry import hand_data
from .content import as_shown_at_the_table, load_games, person_name, signature_document, signature_is_valid, sumula_document
from .display import load_match, verification
from .models import Match, Signature
from .serializers import (
    CodeRequestSerializer, CodeSerializer, ConflictSettleSerializer, CorrectionSerializer, CountersignSerializer, ErrorSerializer,
    HandSerializer, MatchCreateSerializer, PinUnlockSerializer, MatchEnvelopeSerializer, MatchSerializer, PenaltySerializer,
    SignSerializer, UndoSerializer, VerificationSerializer, VersionSerializer,
)

ERRORS = {400: OpenApiResponse(ErrorSerializer, description="Bad input: the field and the rule (article)."),
          403: OpenApiResponse(ErrorSerializer, description="Not allowed: wrong user, wrong pair, wrong PIN/code."),
          404: OpenApiResponse(ErrorSerializer, description="No such match."),
          409: OpenApiResponse(ErrorSerializer, description="Not in this state: locked (art. 25), match over, "
                                                            "already signed, changed meanwhile.")}


def _error(error: services.ScoringError) -> Response:
    body = error_body(error.field, error.message)
    if getattr(error, "state", None) is not None:
        body["state"] = error.state  # where the súmula stands (a device that is behind)
    if getattr(error, "conflict", None) is not None:
        body["conflict"] = conflict_data(error.conflict)  # recorded: the other phone and the referee see it
    return Response(body, status=error.status)


def _forbidden(message: str) -> Response:
    return Response(error_body("", message), status=status.HTTP_403_FORBIDDEN)


def _signature_row(signature: Signature, version, current) -> dict:
    row = signature_document(signature)
    row.update({"version": version.number, "valid": signature_is_valid(signature, version, current)})
    return row


def _version_data(version, current, request) -> dict:
    return {
        "number": version.number, "digest": version.digest, "reason": version.reason,
        "created_by": person_name(version.created_by), "created_at": version.created_at,
        "is_current": current is not None and version.pk == current.pk,
        "signatures": [_signature_row(s, version, current)
                       for s in version.signatures.select_related("player", "user").order_by("signed_at")],
        "verify_url": site.absolute(reverse("scoring:verify", kwargs={"digest": version.digest}), request),
    }


def match_data(match: Match, request) -> dict:
    match = load_match(match.pk)
    current = services.current_version(match)
    state = services.entry_state(match, load_games(match))
    state = {k: state[k] for k in ("over", "game", "score", "dealer", "hand", "state", "allowed") if k in state}
    return {
        "id": match.pk, "status": match.status, "is_official": match.is_official,
        "tournament": match.tournament.slug if match.tournament else None,
        "round": match.round.number if match.round else None, "table": match.table,
        "referee": person_name(match.referee), "pair_a": match.pair_a_id, "pair_b": match.pair_b_id,
        "best_of": match.best_of, "games": [match.games_a, match.games_b], "winner": match.winner,
        "state": state,
        "current_version": _version_data(current, current, request) if current else None,
        "document": _document_for(match, request.user),
        "page_url": site.absolute(reverse("scoring:match", kwargs={"pk": match.pk}), request),
        "integrity": _integrity(match),
    }


def _integrity(match: Match) -> dict | None:
    """For a signed or received súmula: whether its rows, stored version, digest and seal still agree."""
    if match.status not in row_check.CHECKED:
        return None
    problems = row_check.check_match(match)
    return {"intact": not problems, "problems": problems}


def _document_for(match: Match, user) -> dict:
    """The whole document for the referee and the organizer; while the match is played, the public sees
    only what was shown at the table (no deal)."""
    document = sumula_document(match)
    if match.winner is None and not access.can_enter(user, match):
        return as_shown_at_the_table(document)
    return document


def with_table_url(data: dict, match: Match, request) -> dict:
    """The organizer and the match's referee see the table's link."""
    if access.is_organizer(request.user, match) or access.is_referee(request.user, match):
        link = table_links.ensure_links([match]).get(match.pk)
        data["table_url"] = site.absolute(table_links.table_path(link), request) if link else None
    return data


def _get(pk: int) -> Match:
    return get_object_or_404(Match, pk=pk)


class MatchCreateView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer, **ERRORS},
                   summary="Create a match (organizer; staff for friendlies)",
                   description="Tournament matches copy the tournament's rule set and format; both pairs must be "
                               "registered in it. Game 1 starts with `first_dealer` (art. 1).")
    def post(self, request):
        data = MatchCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            match = services.create_match(
                pair_a=v["pair_a"], pair_b=v["pair_b"], tournament=v.get("tournament"), round=v.get("round"),
                table=v.get("table"), referee=v.get("referee"), best_of=v.get("best_of"),
                rule_set=v.get("rule_set"), first_dealer=v.get("first_dealer", 0), by=request.user,
            )
        except services.ScoringError as error:
            return _error(error)
        return Response(match_data(match, request), status=status.HTTP_201_CREATED)


class _OneMatch:
    """A table link may only reach its own match (``TableScope``)."""

    def table_match_id(self, request) -> int:
        return int(self.kwargs["pk"])


class MatchDetailView(_OneMatch, APIView):
    permission_classes = [AllowAny, TableScope]

    @extend_schema(responses={200: MatchSerializer, **ERRORS}, summary="A match with its súmula document",
                   description="Public for tournament matches; friendlies only for their referee and staff.")
    def get(self, request, pk: int):
        match = _get(pk)
        if not access.can_read(request.user, match):
            return _forbidden(_("Only the referee and the organizers read a friendly's súmula."))
        return Response(with_table_url(match_data(match, request), match, request))


class _WriteView(_OneMatch, APIView):
    permission_classes = [IsUserOrTable]
    serializer_class = None

    def act(self, request, match, data):  # pragma: no cover - overridden
        raise NotImplementedError

    def post(self, request, pk: int):
        match = _get(pk)
        data = {}
        if self.serializer_class is not None:
            serializer = self.serializer_class(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
        try:
            created = self.act(request, match, data)
        except services.ScoringError as error:
            return _error(error)
        body = {"match": match_data(match, request)}
        if created is not None:
            body["created"] = created
        return Response(body, status=status.HTTP_201_CREATED if created is not None else status.HTTP_200_OK)


class PinUnlockView(_WriteView):
    serializer_class = PinUnlockSerializer

    @extend_schema(request=PinUnlockSerializer, responses={200: MatchEnvelopeSerializer, **ERRORS},
                   summary="Unlock a player's PIN (the match's referee or the organizer)",
                   description="Clears the failed attempts and lockouts of the PIN of a player of this match "
                               "(scoring/pins.py); recorded in the match's audit trail.")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        pins.unlock(match, data["player"], request.user)
        return None


class HandView(_WriteView):
    serializer_class = HandSerializer
    # A repeat that waited for the first entry's commit is refused as behind (the expected position), so
    # the key is claimed after the work, with the answer, in the same transaction (``tables.idempotency``).
    claim_after_work = True

    @extend_schema(request=HandSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="Record the next hand (referee or organizer)",
                   description="A summary `{winner, ended_by, value}` checked by the engine (art. 11, 13, 18-20), "
                               "or `{report: {...}}`, a full hand report checked by `check_report`: refused when the "
                               "engine cannot read it, recorded with its violations otherwise. Refused once the "
                               "match is over or the súmula is locked (art. 25). Send `game` and `hand`, the "
                               "position the device expects: a device that is behind gets 409 with `state`. "
                               "The answer carries the hand, the next `state` and `game_over`; the whole "
                               "`match` only when the hand decided it. Also `Authorization: Table <token>`.")
    def post(self, request, pk: int):  # the response carries only what the page needs
        serializer = HandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "report" in data:
            entry = {"report": data["report"]}
        else:
            entry = {k: data[k] for k in ("winner", "ended_by", "value", "dealer") if k in data}
        position = (data["game"], data["hand"]) if "game" in data and "hand" in data else None
        if ("game" in data) != ("hand" in data):
            return _error(services.ScoringError(_("The expected position is both \"game\" and \"hand\"."), "hand"))
        try:
            hand = services.record_hand(pk, entry, request.user, position=position)  # locks the match
        except Match.DoesNotExist:
            return Response(error_body("", _("No such match.")), status=status.HTTP_404_NOT_FOUND)
        except services.ScoringError as error:
            return _error(error)
        body = {"created": hand_data(hand), "state": hand.state, "game_over": hand.game_over}
        if hand.state["over"]:  # the match is decided: the version to sign
            body["match"] = match_data(hand.game.match, request)
        return Response(body, status=status.HTTP_201_CREATED)


class PenaltyView(_WriteView):
    serializer_class = PenaltySerializer

    @extend_schema(request=PenaltySerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="Record a penalty (tentos by a ruling; the article is required)")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        penalty = services.record_penalty(match, data["offender"], data["points"], data["article"],
                                          data.get("reason", ""), request.user, ruling_id=data.get("ruling_id"))
        return {"game": penalty.game.number, "position": penalty.position, "article": penalty.article,
                "score": [penalty.score_a, penalty.score_b]}


class UndoView(_WriteView):
    serializer_class = UndoSerializer

    @extend_schema(request=UndoSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="Undo the last entry (while open and unsigned; kept in the audit trail)",
                   description="Name the entry to remove: `{\"game\": g, \"position\": p}` (the table page's "
                               "`entries[]` give both). Anything but the súmula's last entry gets 409 with "
                               "`state` and nothing is removed (a phone that has not seen the other "
                               "phone's hand cannot remove it). `created` is `{removed, state}`: the entry "
                               "removed (with its `game` and `position`) and the next hand to enter. "
                               "Also `Authorization: Table <token>`.")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        from .services.game_state import current_state

        removed = services.undo_last(match, request.user, last=(data["game"], data["position"]))
        return {"removed": removed, "state": current_state(match)}


class ConflictView(_WriteView):
    serializer_class = ConflictSettleSerializer

    @extend_schema(request=ConflictSettleSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="Settle a table's conflict (an entry or undo refused as stale)",
                   description="A 409 to a table's entry or undo names the conflict it recorded (`conflict.id`): "
                               "the other phone and the referee see it pending (the table page's state "
                               "`conflicts`) until the phone that sent it says what it chose, or a referee "
                               "settles it. Settling a settled conflict changes nothing. "
                               "Also `Authorization: Table <token>`.")
    def post(self, request, pk: int, conflict: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        settled = conflicts.settle(match, self.kwargs["conflict"], request.user, data["how"])
        return conflict_data(settled)


class CorrectionView(_WriteView):
    serializer_class = CorrectionSerializer

    @extend_schema(request=CorrectionSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="Correct the súmula with a reason: a new version, signatures voided")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        version = services.correct(match, list(data["changes"]), data["reason"], request.user)
        return {"version": version.number, "digest": version.digest}


class CodeView(_WriteView):
    serializer_class = CodeRequestSerializer
    secret_response_fields = ("code",)  # a repeat gets 410: the code is never stored

    @extend_schema(request=CodeRequestSerializer, responses={
        201: CodeSerializer, **ERRORS,
        410: OpenApiResponse(ErrorSerializer, description="A repeat under the same Idempotency-Key: the code was "
                                                          "shown once and is not kept; ask for a new one.")},
                   summary="A one-time signing code for a player without a PIN (referee or organizer)")
    def post(self, request, pk: int):
        match = _get(pk)
        serializer = CodeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            record, code = services.issue_code(match, serializer.validated_data["team"], request.user)
        except services.ScoringError as error:
            return _error(error)
        return Response({"team": record.team, "code": code, "expires_at": record.expires_at},
                        status=status.HTTP_201_CREATED)


class SignView(_OneMatch, APIView):
    permission_classes = [AllowAny, TableScope]  # the PIN or one-time code is the signer's credential

    @extend_schema(request=SignSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="A player signs for their own pair (PIN or one-time code)",
                   description="The server refuses (403) a player of the other pair, a wrong PIN, a used or "
                               "expired code. When both pairs signed, the súmula is locked (art. 25).")
    def post(self, request, pk: int):
        match = _get(pk)
        serializer = SignSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        v = serializer.validated_data
        try:
            signature = services.sign(match, v["role"], v["player"], pin=v.get("pin") or None,
                                      code=v.get("code") or None, digest=v.get("digest") or None,
                                      client=pins.client_of(request), by=request.user)
        except services.ScoringError as error:
            return _error(error)
        return Response({"match": match_data(match, request), "created": signature_document(signature)},
                        status=status.HTTP_201_CREATED)


class CountersignView(_WriteView):
    serializer_class = CountersignSerializer

    @extend_schema(request=CountersignSerializer, responses={201: MatchEnvelopeSerializer, **ERRORS},
                   summary="The match's referee countersigns (after both pairs)")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        return signature_document(services.countersign(match, request.user, digest=data.get("digest") or None,
                                                       reason=data.get("reason", "")))


class ReceivedView(_WriteView):
    @extend_schema(request=None, responses={200: MatchEnvelopeSerializer, **ERRORS},
                   summary="The organizer receives the signed súmula: the result becomes official (art. 25)")
    def post(self, request, pk: int):
        return super().post(request, pk)

    def act(self, request, match, data):
        services.mark_received(match, request.user)
        return None


class VersionListView(_OneMatch, APIView):
    permission_classes = [AllowAny, TableScope]

    @extend_schema(responses={200: VersionSerializer(many=True), **ERRORS},
                   summary="Every version of the súmula, oldest first, with its signatures (valid or voided)")
    def get(self, request, pk: int):
        match = _get(pk)
        if not access.can_read(request.user, match):
            return _forbidden(_("Only the referee and the organizers read a friendly's súmula."))
        versions = list(match.versions.select_related("created_by").order_by("number"))
        current = versions[-1] if versions else None
        return Response([_version_data(v, current, request) for v in versions])


class VerifyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: VerificationSerializer, 404: ErrorSerializer},
                   summary="Verify a digest: which match and version, current or not, signatures, document")
    def get(self, request, digest: str):
        found = verification(digest.strip().lower())
        if found is None:
            return Response(error_body("digest", _("No version of any súmula on record has this digest.")),
                            status=status.HTTP_404_NOT_FOUND)
        version, current = found["version"], found["current"]
        return Response({
            "digest": version.digest, "match": found["match"].pk, "version": version.number,
            "is_current": found["is_current"], "current_version": current.number, "intact": found["intact"],
            "server_seal": found["seal"], "problems": found["problems"], "server_key": found["key_id"],
            "public_key": found["public_key"],
            "status": found["match"].status, "is_official": found["is_official"],
            "signatures": [_signature_row(row["signature"], version, current) for row in found["signatures"]],
            "document": found["document"],
        })
