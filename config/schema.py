"""The OpenAPI schema's agreement with the API: :class:`AutoSchema` (``DEFAULT_SCHEMA_CLASS``: JSON request
bodies, optional credentials on what anonymous callers may use) and the hooks (drf-spectacular
``POSTPROCESSING_HOOKS``; texts refused blank say so): the components the serializers
refer to by name, and the API's one error shape (config/api.py) as the ``Error`` component that
every 4xx answer of every operation documents (in JSON, and in the operation's other format too:
the CSV exports write their errors as CSV). The writes of views that honour ``Idempotency-Key``
(``honours_idempotency_key``: tables/idempotency.py) document the header and its 422."""
from __future__ import annotations

import re

from drf_spectacular.openapi import AutoSchema as _SpectacularAutoSchema

ERROR = {
    "type": "object",
    "description": "Every API error: the first problem's field and message (repeated in `detail` and "
                   "`error` for older clients) and, for a refused request body, every field's message.",
    "properties": {
        "field": {"type": "string", "description": "Where: a request field, e.g. `value`, `report.events[3]`."},
        "message": {"type": "string", "description": "Why, citing the article when a rule refuses it."},
        "detail": {"type": "string"},
        "error": {"type": "object", "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
                  "required": ["field", "message"]},
        "errors": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["field", "message", "detail", "error"],
}
PLAYER_INPUT = {
    "type": "object",
    "description": "A new player (matched with this organizer's own player of the same name and contact).",
    "properties": {"name": {"type": "string", "maxLength": 120, "minLength": 1},
                   "nickname": {"type": "string", "maxLength": 60},
                   "club": {"type": "string", "maxLength": 120},
                   "contact": {"type": "string", "maxLength": 200},
                   "federation_number": {"type": "string", "maxLength": 30}},
    "required": ["name"],
}
PLAYER_CONSENT = {
    "type": "object",
    "description": "A player of another organizer, who consents with their PIN.",
    "properties": {"id": {"type": "integer", "minimum": 1}, "pin": {"type": "string", "maxLength": 64}},
    "required": ["id", "pin"],
}
ERROR_CODES = ("400", "401", "403", "404", "405", "406", "409", "413", "415")
WRITES = ("post", "put", "patch", "delete")
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    "description": "Send the same key again with the same request (a retry) and get the first answer back, "
                   "with `Idempotent-Replayed: true`, the work done once; the key with another request is a 422.",
}


def _shape(path: str) -> str:
    """A path with its parameters unnamed (the schema may name ``{pk}`` as ``{id}``)."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def _idempotent_operations(generator) -> set[tuple[str, str]]:
    found = set()
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        view = getattr(callback, "cls", None)
        if getattr(view, "honours_idempotency_key", False) and method.lower() in WRITES:
            found.add((_shape(path), method.lower()))
    return found


def _not_blank(node) -> None:
    """A text the API trims and refuses blank (DRF's ``CharField``: ``minLength: 1``) says so: at least one
    character that is not a space (``pattern: \\S``), so that "   " is not a valid value in the schema
    while the API answers "may not be blank"."""
    if isinstance(node, list):
        for item in node:
            _not_blank(item)
    elif isinstance(node, dict):
        if node.get("type") == "string" and node.get("minLength", 0) >= 1 and "pattern" not in node \
                and "enum" not in node and "format" not in node:
            node["pattern"] = r"\S"
        for value in node.values():
            _not_blank(value)


def add_shared_components(result, generator, request, public):
    _not_blank([result.get("components", {}).get("schemas", {}), result.get("paths", {})])
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("PlayerInput", PLAYER_INPUT)
    schemas.setdefault("PlayerConsent", PLAYER_CONSENT)
    schemas["Error"] = ERROR
    idempotent = _idempotent_operations(generator)
    for route, path in result.get("paths", {}).items():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            # An operation that also answers in another format (CSV exports) writes its errors in it too.
            other = sorted({media for code, answer in responses.items() if str(code).startswith("2")
                            for media in (answer.get("content") or {}) if "json" not in media})
            for code in ERROR_CODES:
                described = responses.get(code, {}).get("description") or "Refused: see `field` and `message`."
                error = {"$ref": "#/components/schemas/Error"}
                # an operation that answers its own report with this code (the CSV import's 400) keeps it
                own = ((responses.get(code) or {}).get("content") or {}).get("application/json", {}).get("schema")
                content = {"application/json": {"schema": {"anyOf": [own, error]} if own and own != error
                                                else error}}
                content.update({media: {"schema": {"type": "string"}} for media in other})
                responses[code] = {"content": content, "description": described}
            if (_shape(route), method) in idempotent:
                responses["422"] = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                                    "description": "This Idempotency-Key was used for another request."}
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == IDEMPOTENCY_KEY["name"] for p in parameters):
                    parameters.append(dict(IDEMPOTENCY_KEY))
    return result


class AutoSchema(_SpectacularAutoSchema):
    """drf-spectacular's schema of a view, saying what the API answers:

    - a request body is documented as JSON only when the view reads JSON (the form parsers stay for
      browsers' forms, undocumented: a form cannot carry the nested objects and lists most bodies have);
    - an operation that an anonymous caller may use (its permissions let an anonymous request of that
      method through, as the public reads do) documents its security as optional (``{}``), so a client
      knows the credential is not required there."""

    def map_parsers(self):
        media = super().map_parsers()
        json_media = [m for m in media if m == "application/json"]
        return json_media or media

    def get_auth(self):
        auths = super().get_auth()
        if {} not in auths and self._anonymous_allowed():
            auths.append({})
        return auths

    def _anonymous_allowed(self) -> bool:
        from django.contrib.auth.models import AnonymousUser
        from django.http import HttpRequest
        from rest_framework.request import Request

        raw = HttpRequest()
        raw.method = self.method
        request = Request(raw)
        request.user = AnonymousUser()
        try:
            return all(p.has_permission(request, self.view) for p in self.view.get_permissions())
        except Exception:  # noqa: BLE001 - a permission that needs the real request: not known to be public
            return False
