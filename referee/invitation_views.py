"""Pages of the referees' invitation links (the rules in ``referee.invitations``).

- ``invitations`` (organizer): the tournament's invitations with their state, the form to invite a
  referee, revoke and reissue; a link just made is shown there with its QR code and a copy button.
  The token is not stored on the server: the page that makes it hands it over in a signed cookie
  (``SHOWN_COOKIE``, this page's path only, 30 minutes), so a reload still shows it.
- ``accept`` (anyone holding the link): choose a login and a password, then land signed in on
  "Minhas mesas"; a link used, expired or revoked says so (410) without looking at the password, an
  unknown one 404. Posts are throttled like ``/entrar/`` (django-axes, per account and address: 429):
  to a dead link as the login typed, to a pending one as the invitation, whose refused logins count.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import login
from django.contrib.auth.signals import user_login_failed
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import Forbidden, ServiceError
from scoring import site
from scoring.pdf_sheets import qr_svg
from tournaments.models import Tournament
from tournaments.view_helpers import organizer_only

from . import invitations
from .models import RefereeInvitation

SHOWN_COOKIE = "referee_invitation"
SHOWN_SALT = "referee.invitation.shown"
SHOWN_SECONDS = 30 * 60
QR_MM = 48
BACKEND = "django.contrib.auth.backends.ModelBackend"
FIELD_LABELS = {"name": lambda: _("Referee's name"), "login": lambda: _("Suggested login"),
                "table": lambda: _("Table (optional)"), "username": lambda: _("Login"),
                "password": lambda: _("Password"), "password2": lambda: _("Password again")}


def _page_path(tournament: Tournament) -> str:
    return reverse("invitations:list", kwargs={"slug": tournament.slug})


def _labelled(error: ServiceError) -> str:
    label = FIELD_LABELS.get((getattr(error, "field", "") or "").split(".")[0])
    return f"{label()}: {error.message}" if label else error.message


def _show(tournament: Tournament, invitation: RefereeInvitation, token: str):
    """Back to the list, carrying the new link for this browser only."""
    response = redirect(_page_path(tournament) + "#new-link")
    value = signing.dumps({"id": invitation.pk, "token": token}, salt=SHOWN_SALT)
    response.set_cookie(SHOWN_COOKIE, value, max_age=SHOWN_SECONDS, path=_page_path(tournament),
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Strict")
    return response


def _shown(request, tournament: Tournament, pending: dict) -> dict | None:
    try:
        data = signing.loads(request.COOKIES.get(SHOWN_COOKIE, ""), salt=SHOWN_SALT, max_age=SHOWN_SECONDS)
    except signing.BadSignature:
        return None
    invitation = pending.get(data.get("id")) if isinstance(data, dict) else None
    token = data.get("token") if invitation is not None else None
    if not isinstance(token, str) or invitations.token_hash(token) != invitation.token_hash:
        return None
    url = site.absolute(reverse("invitations:accept", kwargs={"token": token}), request)
    return {"invitation": invitation, "url": url, "qr": mark_safe(qr_svg(url, QR_MM))}


def _int(value) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 7 else None


@never_cache
@organizer_only
@require_http_methods(["GET", "POST"])
def invitations_page(request, tournament: Tournament):
    if request.method == "POST":
        data = request.POST
        table = (data.get("table") or "").strip()
        try:
            if table and _int(table) is None:
                raise ServiceError(_("A table is a number from 1 to 10,000."), "table")
            invitation, token = invitations.invite(tournament, request.user, name=data.get("name", ""),
                                                   login=data.get("login", ""), table=_int(table))
        except Forbidden as error:
            raise PermissionDenied(error.message) from None
        except ServiceError as error:
            messages.error(request, _labelled(error))
            return redirect(_page_path(tournament) + "#invite")
        messages.success(request, _("Invitation for %(name)s created: hand over the link below.")
                         % {"name": invitation.name})
        return _show(tournament, invitation, token)
    now = timezone.now()
    rows = list(RefereeInvitation.objects.filter(tournament=tournament).select_related("user", "created_by")[:200])
    for row in rows:
        row.state = invitations.state(row, now)
    pending = {row.pk: row for row in rows if row.state == invitations.PENDING}
    return render(request, "referee/invitations.html", {
        "tournament": tournament, "rows": rows, "shown": _shown(request, tournament, pending),
        "days": invitations.validity().days or 1,
    })


def _invitation(tournament: Tournament, pk: int) -> RefereeInvitation:
    return get_object_or_404(RefereeInvitation, pk=pk, tournament=tournament)


@organizer_only
@require_POST
def reissue(request, tournament: Tournament, pk: int):
    try:
        invitation, token = invitations.reissue(_invitation(tournament, pk), request.user)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(_page_path(tournament))
    messages.success(request, _("New link for %(name)s: the previous one no longer works.") % {"name": invitation.name})
    return _show(tournament, invitation, token)


@organizer_only
@require_POST
def revoke(request, tournament: Tournament, pk: int):
    try:
        invitation = invitations.revoke(_invitation(tournament, pk), request.user)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The invitation for %(name)s was revoked: its link no longer works.")
                         % {"name": invitation.name})
    return redirect(_page_path(tournament))


def _throttled_as(invitation: RefereeInvitation | None, username: str) -> dict:
    """The credentials a post to the link is throttled as (django-axes, per account and address as
    ``/entrar/``): on a link that no longer works, the login typed (its failures are the login page's);
    on a pending link, the invitation (a login refused as taken counts, so its holder cannot test
    logins in bulk)."""
    if invitation is None or invitations.state(invitation) != invitations.PENDING:
        return {"username": username[:150]}
    return {"username": f"invitation:{invitation.pk}"}


def _count_failure(request, credentials: dict) -> None:
    user_login_failed.send(sender=__name__, credentials=credentials, request=request)


@never_cache
@require_http_methods(["GET", "POST"])
def accept(request, token: str):
    invitation = invitations.find(token)
    reason = invitations.refusal(invitation)
    context = {"invitation": invitation, "error": None, "refusal": reason,
               "username": (invitation.login if invitation is not None else ""), "field": ""}
    if request.method == "POST" and invitation is not None:
        context["username"] = (request.POST.get("username") or "").strip()
        credentials = _throttled_as(invitation, context["username"])
        if AxesProxyHandler.is_locked(request, credentials):
            return render(request, settings.AXES_LOCKOUT_TEMPLATE, status=429)
        try:
            user = invitations.accept(token, username=request.POST.get("username", ""),
                                      password=request.POST.get("password", ""),
                                      password2=request.POST.get("password2", ""), signed_in_as=request.user)
        except ServiceError as error:
            if getattr(error, "field", "") == "token":
                context["refusal"] = error.message
                _count_failure(request, _throttled_as(None, context["username"]))  # a dead link: like /entrar/
            else:
                context["error"], context["field"] = _labelled(error), error.field
                if isinstance(error, invitations.LoginRefused):
                    _count_failure(request, credentials)
        else:
            login(request, user, backend=BACKEND)
            messages.success(request, _("Welcome, %(name)s: these are your tables.")
                             % {"name": user.get_full_name() or user.get_username()})
            return redirect("referee:tables")
    status = 404 if invitation is None else 410 if context["refusal"] else 400 if context["error"] else 200
    response = render(request, "referee/invitation_accept.html", context, status=status)
    # the token never leaves in a Referer ("no-referrer" would post with "Origin: null": a CSRF failure)
    response["Referrer-Policy"] = "same-origin"
    return response
