"""The page where a signed-in user makes and revokes their API tokens (``/conta/tokens/``).

A new key is carried to the page that shows it in a signed, HttpOnly, path-limited cookie that lives ten
minutes (POST-redirect-GET, as the referees' invitation links); only its hash is in the database, so once
that page is gone the key is gone too.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import ServiceError

from . import api_tokens

SHOWN_COOKIE = "truco_new_token"
SHOWN_SALT = "scoring.token_views.shown"
SHOWN_SECONDS = 10 * 60


def _page() -> str:
    return reverse("api-tokens:list")


def _shown(request) -> dict | None:
    try:
        data = signing.loads(request.COOKIES.get(SHOWN_COOKIE, ""), salt=SHOWN_SALT, max_age=SHOWN_SECONDS)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        return None
    token = api_tokens.tokens_of(request.user).filter(pk=data.get("id"), revoked_at__isnull=True).first()
    if token is None or api_tokens.key_hash(data["key"]) != token.key_hash:
        return None
    return {"token": token, "key": data["key"]}


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request):
    if request.method == "POST":
        days = (request.POST.get("days") or "").strip()
        try:
            token, key = api_tokens.create(request.user, request.POST.get("name", ""),
                                           int(days) if days.isdigit() and len(days) < 6 else (days or None))
        except ServiceError as error:
            label = _("Name") if error.field == "name" else _("Valid for (days, empty: until revoked)")
            messages.error(request, f"{label}: {error.message}")
            return redirect(_page())
        messages.success(request, _("Token %(name)s created: copy its key now, it is not shown again.")
                         % {"name": token.name})
        response = redirect(_page() + "#new-token")
        response.set_cookie(SHOWN_COOKIE, signing.dumps({"id": token.pk, "key": key}, salt=SHOWN_SALT),
                            max_age=SHOWN_SECONDS, path=_page(), secure=settings.SESSION_COOKIE_SECURE,
                            httponly=True, samesite="Strict")
        return response
    return render(request, "scoring/api_tokens.html", {
        "tokens": list(api_tokens.tokens_of(request.user)[:100]), "shown": _shown(request),
        "schema_url": reverse("api-docs"),
    })


@login_required
@require_POST
def revoke(request, pk: int):
    try:
        token = api_tokens.revoke(pk, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Token %(name)s revoked: scripts using it are refused from now on.")
                         % {"name": token.name})
    response = redirect(_page())
    response.delete_cookie(SHOWN_COOKIE, path=_page())
    return response
