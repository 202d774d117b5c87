"""The REST API's edge, for every app: what a request may carry and how every error looks.

- **Parsing** (:class:`SafeJSONParser`): a body larger than ``API_MAX_BODY_BYTES`` is a 413; JSON
  nested deeper than ``API_MAX_JSON_DEPTH`` is a 400 before it is decoded; after decoding, a NUL
  character or a lone surrogate in any key or string, or an integer outside a 64-bit column, is a
  400 naming where it is. Forms get the same string checks (:class:`EdgeMiddleware`, which also
  refuses NUL in the path and the query string).
- **Answers**: JSON only (a browser asking for HTML gets JSON too: :class:`JSONFirstNegotiation`);
  ``OPTIONS`` describes the endpoint without running its queries (:class:`PlainMetadata`).
- **Errors** (``config.api_errors.exception_handler``): one shape for the whole API, documented in the schema as
  ``Error``: ``{"field": "...", "message": "...", "detail": "...", "error": {"field", "message"},
  "errors": {...}}`` — ``field``/``message`` name the first problem; ``detail`` (DRF's key) and
  ``error`` (the súmula and referee APIs' first shape) repeat them for older clients; ``errors``
  maps every field of a refused serializer to its message (DRF's ``{field: [...]}`` stays too).
"""
from __future__ import annotations

import json
import re

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.authentication import BasicAuthentication
from rest_framework.metadata import SimpleMetadata
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser

MAX_DEPTH = getattr(settings, "API_MAX_JSON_DEPTH", 64)
MAX_BODY = getattr(settings, "API_MAX_BODY_BYTES", 2 * 1024 * 1024)
INT_LIMIT = 2**63 - 1
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def _too_large() -> PayloadTooLarge:
    return PayloadTooLarge(_("The request body is larger than %(limit)s bytes.") % {"limit": MAX_BODY})


def read_bounded(stream, limit: int = MAX_BODY) -> bytes:
    """The body, refused with 413 past ``limit`` bytes."""
    if stream is None:
        return b""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large()
    return data


def depth_of(raw: bytes) -> int:
    """How deep arrays and objects nest in a JSON text (strings skipped)."""
    depth = deepest = 0
    for char in _STRING.sub(b"", raw):
        if char in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif char in (0x5D, 0x7D):
            depth -= 1
    return deepest


def bad_text(text: str, surrogates_ok: bool = False) -> str | None:
    """Why a string cannot be stored (NUL, lone surrogate), or None."""
    if "\x00" in text:
        return _("contains a NUL character")
    if surrogates_ok:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _("contains an unpaired surrogate (not valid Unicode)")
    return None


def check_value(value, where: str = "", surrogates_ok: bool = False) -> None:
    """Refuse (400, naming ``where``) strings that cannot be stored and integers beyond a 64-bit column
    (lone surrogates pass with ``surrogates_ok``: for endpoints that store nothing and escape them)."""
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            why = bad_text(item, surrogates_ok)
            if why:
                raise exceptions.ParseError({"field": path, "message": _("This text %(why)s.") % {"why": why}})
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not -INT_LIMIT - 1 <= item <= INT_LIMIT:
                raise exceptions.ParseError({"field": path, "message": _("This number is too large.")})
        elif isinstance(item, dict):
            for key, inner in item.items():
                child = f"{path}.{key}" if path else str(key)
                why = bad_text(str(key), surrogates_ok)
                if why:
                    raise exceptions.ParseError({"field": path, "message": _("A key %(why)s.") % {"why": why}})
                stack.append((inner, child))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{i}]") for i, inner in enumerate(item))


class SafeJSONParser(JSONParser):
    """DRF's strict JSON parser, bounded in size and depth, refusing what the database cannot store."""

    max_bytes = MAX_BODY
    surrogates_ok = False  # True where nothing is stored and the answer escapes them (the hand validator)

    def parse(self, stream, media_type=None, parser_context=None):
        raw = read_bounded(stream, max(self.max_bytes, MAX_BODY))
        if depth_of(raw) > MAX_DEPTH:
            raise exceptions.ParseError(_("The request body is not valid JSON: %(error)s")
                                        % {"error": _("nested deeper than %(limit)s levels") % {"limit": MAX_DEPTH}})
        try:
            data = json.loads(raw.decode(parser_context and parser_context.get("encoding") or "utf-8"),
                              parse_constant=self._no_constant)
        except (ValueError, UnicodeDecodeError) as error:
            raise exceptions.ParseError(_("The request body is not valid JSON: %(error)s") % {"error": error}) from None
        except RecursionError:
            raise exceptions.ParseError(_("The request body is not valid JSON: %(error)s")
                                        % {"error": _("nested too deeply")}) from None
        check_value(data, surrogates_ok=self.surrogates_ok)
        return data

    @staticmethod
    def _no_constant(name):
        raise ValueError(f"{name} is not valid JSON")


class JSONFirstNegotiation(DefaultContentNegotiation):
    """JSON whatever the client asks for (no HTML pages of the API)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except exceptions.NotAcceptable:
            return renderers[0], renderers[0].media_type


class PlainMetadata(SimpleMetadata):
    """OPTIONS: name, description, what it renders and parses; no per-object actions (no queries)."""

    def determine_actions(self, request, view):
        return {}


class CleanBasicAuthentication(BasicAuthentication):
    """HTTP Basic, kept only where documented API clients use it (the hand validator); credentials that
    cannot be stored (NUL, lone surrogates) are refused with a 401 before any query."""

    def authenticate_credentials(self, userid, password, request=None):
        if bad_text(userid) or bad_text(password):
            raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        return super().authenticate_credentials(userid, password, request)


# ------------------------------------------------------------------------------ errors


def error_body(field: str, message: str, errors: dict | None = None) -> dict:
    body = {"field": field, "message": message, "detail": message, "error": {"field": field, "message": message}}
    if errors:
        body["errors"] = errors
    return body


# ------------------------------------------------------------------------------ forms and URLs


class EdgeMiddleware:
    """Refuse NUL (and lone surrogates) in the path, the headers, the query string and form fields with a 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = self._problem(request)
        if problem:
            field, why = problem
            message = _("This text %(why)s.") % {"why": why}
            if request.path.startswith("/api/"):
                return JsonResponse(error_body(field, message), status=400)
            from django.http import HttpResponseBadRequest

            return HttpResponseBadRequest(f"{field}: {message}")
        return self.get_response(request)

    @staticmethod
    def _problem(request):
        why = bad_text(request.path)
        if why:
            return "path", why
        for name, value in request.META.items():  # headers (an Idempotency-Key is stored, for one)
            if name.startswith("HTTP_") and isinstance(value, str) and "\x00" in value:
                return name[5:].replace("_", "-").title(), _("contains a NUL character")
        sources = [request.GET]
        content_type = request.META.get("CONTENT_TYPE", "")
        if request.method == "POST" and content_type.startswith(("application/x-www-form-urlencoded",
                                                                 "multipart/form-data")):
            sources.append(request.POST)
        for source in sources:
            for key, values in source.lists():
                for text in [key, *values]:
                    why = bad_text(text)
                    if why:
                        return key, why
        return None


@csrf_exempt  # a write to no endpoint is a 404, not the pages' HTML 403 of a missing CSRF token
def api_not_found(request, *args, **kwargs):
    """A JSON 404 for any address under /api/ that names no endpoint (a non-numeric id, a typo), any method."""
    return JsonResponse(error_body("", _("Not found.")), status=404)
