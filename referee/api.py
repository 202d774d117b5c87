"""REST views of the referee app (mounted under /api/referee/, see ``api_urls``).

This module owns ``POST /api/referee/hands/validate/``: the HTTP front end of
:func:`referee.engine.check_report`, the same job as ``manage.py check_hand`` for one
report or a list of them. The body is not validated here: it goes to the engine as it
is, and the engine's verdict (valid or not) is the 200 answer. Only a body that is not
JSON, or neither an object nor a list, is refused with 400. The request and response
shapes are documented by :mod:`referee.serializers`.

Validation messages are shown to the referee only: they can reveal hidden cards. The
endpoint answers authenticated referees and organizers (``referee.services.is_referee_or_organizer``),
by HTTP basic auth (no CSRF token) or a session; anyone else gets 401/403.
"""
from __future__ import annotations

import io

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, UnsupportedMediaType
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import CleanBasicAuthentication, SafeJSONParser, error_body
from referee.engine import check_report
from tables.idempotency import IdempotentAPIView as APIView  # every write honours Idempotency-Key
from tables.links import SessionUnlessTable

from .serializers import APIErrorSerializer, hand_report_or_list, verdict_or_list

# Most reports one request may carry; more gets a 400 (use check_hand for big batches).
MAX_REPORTS = 1000
# Largest body read: a thousand full hands (64 events each at most) fit; more gets a 413 unread.
MAX_BODY_BYTES = 4 * 1024 * 1024
# Most reports with an art. 21 proof in one request: each may search for up to half a second.
MAX_PROOF_REPORTS = 4


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


class HandReportJSONParser(SafeJSONParser):
    """DRF's strict JSON parser, with the project's error messages."""

    max_bytes = MAX_BODY_BYTES
    surrogates_ok = True  # nothing stored; the verdicts escape them (referee.engine)

    def parse(self, stream, media_type=None, parser_context=None):
        body = stream.read(self.max_bytes + 1) if stream is not None else b""
        if len(body) > self.max_bytes:
            raise BodyTooLarge(_("The request body is larger than %(limit)d bytes: send fewer hand reports at once "
                                 "(or use manage.py check_hand).") % {"limit": self.max_bytes})
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except ParseError as exc:
            if not str(exc.detail).startswith("JSON parse error"):
                raise  # config.api.SafeJSONParser's own answer (depth, NUL, numbers) is already worded
            error = str(exc.detail).removeprefix("JSON parse error - ")
            raise ParseError(_("The request body is not valid JSON: %(error)s") % {"error": error}) from None
        except RecursionError:
            raise ParseError(_("The request body is not valid JSON: %(error)s")
                             % {"error": _("nested too deeply")}) from None


EXAMPLE_REPORT = {
    "rules": {"preset": "regulamento-tecnico", "options": {}},
    "dealer": 3,
    "vira": "4-ouros",
    "score": [6, 7],
    "deal": {
        "0": ["3-espadas", "2-copas", "4-paus"],
        "1": ["K-ouros", "7-copas", "6-paus"],
        "2": ["A-espadas", "Q-ouros", "6-copas"],
        "3": ["J-paus", "2-ouros", "7-espadas"],
    },
    "events": [
        {"seat": 0, "play": "3-espadas"},
        {"seat": 1, "play": "K-ouros"},
        {"seat": 2, "play": "6-copas"},
        {"seat": 3, "play": "J-paus"},
        {"seat": 0, "call": "truco"},
        {"seat": 1, "answer": "accept"},
        {"seat": 0, "play": "2-copas"},
        {"seat": 1, "play": "7-copas"},
        {"seat": 2, "play": "A-espadas"},
        {"seat": 3, "play": "2-ouros"},
    ],
    "claimed": {"winner": 0, "points": 3},
}

# The documented examples are the engine's own verdicts, so they cannot drift from it.
EXAMPLE_VERDICT = check_report(EXAMPLE_REPORT)
# The same hand with the first card played face down (art. 11.1).
EXAMPLE_VIOLATION_VERDICT = check_report({
    **EXAMPLE_REPORT,
    "events": [{**EXAMPLE_REPORT["events"][0], "covered": True}, *EXAMPLE_REPORT["events"][1:]],
})
EXAMPLE_MALFORMED_REPORT = {"dealer": 0, "vira": "11-ouros", "events": []}
EXAMPLE_MALFORMED_VERDICT = check_report(EXAMPLE_MALFORMED_REPORT)


class IsRefereeOrOrganizer(BasePermission):
    """A logged-in referee (of a match or a table) or organizer (staff, a tournament's organizer)."""

    message = _("Hand validation is for referees and organizers: its messages can reveal hidden cards.")

    def has_permission(self, request, view) -> bool:
        from .services import is_referee_or_organizer

        return is_referee_or_organizer(request.user)



class CleanBasicScheme(OpenApiAuthenticationExtension):
    """The schema's name for the hand validator's HTTP Basic (config.api.CleanBasicAuthentication)."""

    target_class = "config.api.CleanBasicAuthentication"
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "basic"}

class ValidateHandsView(APIView):
    """Referee hand reports: one verdict per report."""

    # Basic auth first: API clients send no CSRF token; the site's session works too.
    authentication_classes = [CleanBasicAuthentication, SessionUnlessTable]
    permission_classes = [IsRefereeOrOrganizer]
    throttle_classes: list = []
    parser_classes = [HandReportJSONParser]
    max_reports = MAX_REPORTS

    @extend_schema(
        operation_id="referee_hands_validate",
        tags=["referee"],
        summary="Referee hand reports",
        description=(
            "Replays one hand report, or a list of them, under the rules of the tournament "
            "regulation and returns the verdict: who won, the points, the score after the "
            "hand and the rules broken, citing the articles.\n\n"
            "One report (a JSON object) gets one verdict; a list gets a list of verdicts in "
            f"the same order (at most {MAX_REPORTS} reports). The answer is 200 even for an "
            "invalid hand: the verdict has `valid: false` and says why, with `error` for a "
            "malformed report or `violations` for broken rules. 400 only when the body is "
            "not JSON, is neither an object nor a list, or is an empty or too long list, or "
            f"has more than {MAX_PROOF_REPORTS} reports with an art. 21 proof; 413 when it is larger than "
            f"{MAX_BODY_BYTES} bytes. A report holds at most 64 events and one proof.\n\n"
            "For referees and organizers only (the messages can reveal hidden cards): "
            "HTTP basic auth (no CSRF token needed) or the site's session; 401/403 otherwise."
        ),
        request=hand_report_or_list(),
        responses={
            200: OpenApiResponse(
                response=verdict_or_list(),
                description="The verdict (for one report) or the list of verdicts (for a list).",
            ),
            400: OpenApiResponse(
                response=APIErrorSerializer,
                description="The body is empty, not JSON (or not sent as application/json), neither "
                            "an object nor a list, or an empty or too long list.",
            ),
            413: OpenApiResponse(response=APIErrorSerializer,
                                 description=f"The body is larger than {MAX_BODY_BYTES} bytes (it is not read)."),
            401: OpenApiResponse(response=APIErrorSerializer, description="Not authenticated."),
            403: OpenApiResponse(response=APIErrorSerializer, description="Not a referee or an organizer."),
        },
        examples=[
            OpenApiExample("One hand report", value=EXAMPLE_REPORT, request_only=True),
            OpenApiExample(
                "A list of hand reports",
                value=[EXAMPLE_REPORT, EXAMPLE_MALFORMED_REPORT],
                request_only=True,
            ),
            OpenApiExample("Valid hand", value=EXAMPLE_VERDICT, response_only=True, status_codes=["200"]),
            OpenApiExample(
                "Hand that broke a rule", value=EXAMPLE_VIOLATION_VERDICT,
                response_only=True, status_codes=["200"],
            ),
            OpenApiExample(
                "Malformed report", value=EXAMPLE_MALFORMED_VERDICT,
                response_only=True, status_codes=["200"],
            ),
            OpenApiExample(
                "Verdicts of a list", value=[EXAMPLE_VERDICT, EXAMPLE_MALFORMED_VERDICT],
                response_only=True, status_codes=["200"],
            ),
            OpenApiExample(
                "Body that is not JSON",
                value=error_body("", "O corpo da requisição não é JSON válido: Expecting value: "
                                     "line 1 column 1 (char 0)"),
                response_only=True, status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        if request.stream is None:
            return self._refuse(_("The request body is empty: send a hand report or a list of them as JSON."))
        try:
            data = request.data
        except UnsupportedMediaType:
            return self._refuse(_("The request body must be JSON, sent as Content-Type: application/json."))
        except ParseError as exc:
            return self._refuse(str(exc.detail))

        if isinstance(data, dict):
            return Response(check_report(data))
        if not isinstance(data, list):
            return self._refuse(_("The body must be a hand report (a JSON object) or a list of hand reports."))
        proofs = sum(1 for report in data if _has_proof(report))
        if proofs > MAX_PROOF_REPORTS:
            return self._refuse(
                _("Too many hand reports with a proof (art. 21): %(count)d in one request, at most %(limit)d.")
                % {"count": proofs, "limit": MAX_PROOF_REPORTS}
            )
        if not data:
            return self._refuse(_("The list is empty: there is no hand report to check."))
        if len(data) > self.max_reports:
            return self._refuse(
                _("Too many hand reports: %(count)d in one request, at most %(limit)d.")
                % {"count": len(data), "limit": self.max_reports}
            )
        return Response([check_report(report) for report in data])

    @staticmethod
    def _refuse(message: str) -> Response:
        return Response(error_body("", message), status=status.HTTP_400_BAD_REQUEST)


def _has_proof(report: object) -> bool:
    """Whether a report carries a ``prove`` event (art. 21), the one costly search of the engine."""
    if type(report) is not dict or type(report.get("events")) is not list:
        return False
    return any(type(event) is dict and "prove" in event for event in report["events"])
