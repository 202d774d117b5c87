"""OpenAPI schema hooks (drf-spectacular ``POSTPROCESSING_HOOKS``): the components the serializers
refer to by name, and the API's one error shape (config/api.py) as the ``Error`` component that
every 4xx answer of every operation documents."""
from __future__ import annotations

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
                   "contact": {"type": "string", "maxLength": 200}},
    "required": ["name"],
}
PLAYER_CONSENT = {
    "type": "object",
    "description": "A player of another organizer, who consents with their PIN.",
    "properties": {"id": {"type": "integer", "minimum": 1}, "pin": {"type": "string", "maxLength": 64}},
    "required": ["id", "pin"],
}
ERROR_CODES = ("400", "401", "403", "404", "405", "406", "409", "413", "415")


def add_shared_components(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("PlayerInput", PLAYER_INPUT)
    schemas.setdefault("PlayerConsent", PLAYER_CONSENT)
    schemas["Error"] = ERROR
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code in ERROR_CODES:
                described = responses.get(code, {}).get("description") or "Refused: see `field` and `message`."
                responses[code] = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                                   "description": described}
    return result
