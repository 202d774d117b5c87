"""The súmula entry page updating in place: what ``/sumulas/partida/<id>/`` needs beside its
plain forms, for the referee and the organizer on a phone.

The page carries the entry screen of the table page (scoring/entry_screen.py): its script
(``/sumulas/lancamento.js``: ``scoring/_entry_core.js`` and ``scoring/entry_page.js``) posts each hand to the
hands API with the session, the CSRF token, an ``Idempotency-Key`` and the expected position, and redraws
the score, the buttons and the last entries without a reload. ``/sumulas/partida/<id>/estado/`` is the
screen's state as JSON; an expired session gets 401 there, and the page keeps its unsent hands (IndexedDB)
until the login, then sends them. Without JavaScript the page's plain forms post as before.
"""
from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render, resolve_url
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.api import error_body

from . import access
from .display import load_match
from .entry_screen import screen_boot, screen_state
from .holds import open_holds
from .models import Match

REPORT_HINT = gettext_lazy("The rules engine checks it: %(name)s deals, score %(a)s–%(b)s before the hand.")


def login_url(match: Match) -> str:
    """The login page, back to the entry page after it."""
    page = reverse("scoring:match", kwargs={"pk": match.pk})
    return f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': page})}"


def report_hint(seats: list[dict], dealer: int, score) -> str:
    """The hand report's reminder: who deals (by name: the súmula's pages name people, never a seat) and the
    score."""
    return str(REPORT_HINT) % {
        "name": seats[dealer]["name"], "seat": dealer, "a": score[0], "b": score[1]}


def page_boot(request, match: Match, games: list) -> dict:
    """The entry screen's data for the súmula page: its state now, its URLs, the words of this page."""
    boot = screen_boot(match)
    boot["t"].update({
        "expired": _("Your session expired: log in again. The hands not sent yet stay on this phone and are "
                     "sent after the login."),
        "report_hint": str(REPORT_HINT),
    })
    boot["urls"].update({
        "state": reverse("scoring:state", kwargs={"pk": match.pk}), "page": request.path, "login": login_url(match),
    })
    boot.update({"initial": screen_state(match, games, disputes=_disputed(match)), "csrf": get_token(request),
                 "csrf_cookie": settings.CSRF_COOKIE_NAME,
                 "store": f"sumula-{match.pk}-{request.user.pk}"})
    return boot


@never_cache
@require_GET
def state(request, pk: int):
    """The entry screen's state (JSON) for the match's referee and the tournament's organizer."""
    try:
        match = load_match(pk)
    except Match.DoesNotExist:
        raise Http404(_("No match with this number.")) from None
    if not request.user.is_authenticated:
        body = error_body("", _("Your session expired: log in again."))
        return JsonResponse({**body, "login": login_url(match)}, status=401)
    if not access.can_enter(request.user, match):
        return JsonResponse(error_body("", _("Only the match's referee or the tournament's organizer enters this "
                                             "súmula.")), status=403)
    return JsonResponse(screen_state(match, disputes=_disputed(match), known_preview=request.GET.get("preview")))


@require_GET
def script(request):
    """The page's script: the shared entry screen and this page's part, one file."""
    response = HttpResponse(render(request, "scoring/entry_page.js").content, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def _disputed(match) -> set[tuple[int, int]]:
    """The (game, hand) of the open disputes (scoring/holds.py): marked "disputed" in the list of entries."""
    return {(hold.game, hold.hand) for hold in open_holds(match)}
