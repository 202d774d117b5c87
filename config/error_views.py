"""The pages of 400, 403, 404 and 500 (and CSRF failures): in the site's layout, in the
visitor's language, with a way back. Never a developer's screen. An error because the database
cannot be reached is a 503 instead (``config.outage``): JSON under ``/api/``, a short page elsewhere."""
from __future__ import annotations

import logging
import sys

from django.http import HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

from .outage import database_down, unavailable_response

log = logging.getLogger(__name__)

FALLBACK_500 = (
    '<!doctype html><html lang="pt-br"><head><meta charset="utf-8"><title>Erro no servidor</title></head>'
    '<body><h1>Erro no servidor</h1><p>Algo deu errado do nosso lado. Tente de novo em instantes.</p>'
    '<p><a href="/">Voltar ao início</a></p></body></html>'
)


def _render(request, status: int, extra: dict | None = None) -> HttpResponse:
    context = {"status": status, **(extra or {})}
    return HttpResponse(loader.render_to_string(f"errors/{status}.html", context, request), status=status)


@requires_csrf_token
def bad_request(request, exception=None):
    return _render(request, 400)


@requires_csrf_token
def permission_denied(request, exception=None):
    return _render(request, 403)


@requires_csrf_token
def page_not_found(request, exception=None):
    return _render(request, 404)


@requires_csrf_token
def server_error(request):
    reason = database_down(sys.exc_info()[1])
    if reason:  # the database is down: 503 and Retry-After, JSON for the API
        return unavailable_response(request, reason)
    try:
        return _render(request, 500)
    except Exception:  # noqa: BLE001 - the error page itself must never fail
        log.exception("the 500 page failed to render")
        return HttpResponseServerError(FALLBACK_500)


def csrf_failure(request, reason=""):
    return _render(request, 403, {"csrf": True})
