"""OpenAPI schema hooks (drf-spectacular ``POSTPROCESSING_HOOKS``): the components the serializers
refer to by name, and the API's one error shape (config/api.py) as the ``Error`` component that
every 4xx answer of every operation documents (in JSON, and in the operation's other format too:
the CSV exports write their errors as CSV). The writes of views that honour ``Idempotency-Key``
(``honours_idempotency_key``: tables/idempotency.py) document the header and its 422."""
from __future__ import annotations

import re

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


def add_shared_components(result, generator, request, public):
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
                content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                content.update({media: {"schema": {"type": "string"}} for media in other})
                responses[code] = {"content": content, "description": described}
            if (_shape(route), method) in idempotent:
                responses["422"] = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                                    "description": "This Idempotency-Key was used for another request."}
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == IDEMPOTENCY_KEY["name"] for p in parameters):
                    parameters.append(dict(IDEMPOTENCY_KEY))
    return result
