"""The API's one error shape (described in ``config.api``), for DRF's errors and the services' alike."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.api import _too_large, error_body


def _flatten(detail, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix
            out.update(_flatten(value, name))
    elif isinstance(detail, list):
        if detail and all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix] = " ".join(str(item) for item in detail)
        else:
            for i, item in enumerate(detail):
                out.update(_flatten(item, f"{prefix}[{i}]"))
    else:
        out[prefix] = str(detail)
    return out


def exception_handler(exc, context):
    """Every API error in one shape (see the module docstring); service errors too."""
    from config.errors import ServiceError
    from config.outage import database_down, unavailable_response

    if isinstance(exc, ServiceError):
        headers = {"Retry-After": str(exc.retry_after)} if getattr(exc, "retry_after", None) else None
        return Response(error_body(exc.field, exc.message), status=exc.status, headers=headers)
    reason = database_down(exc)
    if reason:  # the database is down: 503 with Retry-After, in the one shape
        return unavailable_response(context.get("request"), reason)
    if isinstance(exc, RequestDataTooBig):
        exc = _too_large()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    if isinstance(detail, dict) and set(detail) == {"field", "message"}:
        response.data = error_body(str(detail["field"]), str(detail["message"]))
        return response
    flat = _flatten(detail)
    field, message = next(iter(flat.items())) if flat else ("", str(detail))
    errors = flat if isinstance(detail, dict) else None
    response.data = error_body(field, message, errors)
    if isinstance(detail, dict):  # DRF's own shape stays readable: {field: [messages]}
        for key, value in detail.items():
            if key not in response.data:
                response.data[key] = value
    return response


