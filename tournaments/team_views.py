"""A tournament's organizers (co-organizers): the page listing them, adding one by login or by an
invitation link (shown once, carried to the page in a signed short-lived cookie as the referees' links
are), removing one, revoking a link; and ``/organizar/<token>/`` where the signed-in invitee accepts.
Rules and audit in ``tournaments.services.organizers``."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import Forbidden, ServiceError
from scoring import site

from .models import CoOrganizer, OrganizerInvitation, Tournament
from .services import organizers
from .view_helpers import organizer_only

SHOWN_COOKIE = "truco_organizer_link"
SHOWN_SALT = "tournaments.team_views.shown"
SHOWN_SECONDS = 30 * 60


def _page(tournament: Tournament) -> str:
    return reverse("tournaments:organizers", kwargs={"slug": tournament.slug})


def _shown(request, tournament: Tournament) -> str:
    try:
        data = signing.loads(request.COOKIES.get(SHOWN_COOKIE, ""), salt=SHOWN_SALT, max_age=SHOWN_SECONDS)
    except signing.BadSignature:
        return ""
    token = data.get("token") if isinstance(data, dict) else None
    invitation = organizers.find(token) if isinstance(token, str) else None
    if invitation is None or invitation.tournament_id != tournament.pk or organizers.refusal(invitation):
        return ""
    return site.absolute(reverse("tournaments:organizer-invitation", kwargs={"token": token}), request)


def _refused(request, error: ServiceError):
    if isinstance(error, Forbidden):
        raise PermissionDenied(error.message)
    messages.error(request, error.message)


@never_cache
@organizer_only
@require_http_methods(["GET", "POST"])
def organizers_page(request, tournament: Tournament):
    if request.method == "POST":
        if request.POST.get("action") == "link":
            try:
                _invitation, token = organizers.invite(tournament, request.user)
            except ServiceError as error:
                _refused(request, error)
                return redirect(_page(tournament))
            messages.success(request, _("Invitation link created: send it to the person; it works once."))
            response = redirect(_page(tournament) + "#new-link")
            response.set_cookie(SHOWN_COOKIE, signing.dumps({"token": token}, salt=SHOWN_SALT),
                                max_age=SHOWN_SECONDS, path=_page(tournament), httponly=True, samesite="Strict",
                                secure=settings.SESSION_COOKIE_SECURE)
            return response
        try:
            row = organizers.add_co_organizer(tournament, request.user, request.POST.get("username", ""))
        except ServiceError as error:
            _refused(request, error)
        else:
            messages.success(request, _("%(login)s now organizes this tournament with you.")
                             % {"login": row.user.get_username()})
        return redirect(_page(tournament))
    now = timezone.now()
    invitations = list(OrganizerInvitation.objects.filter(tournament=tournament).select_related("used_by")[:50])
    for row in invitations:
        row.pending = row.used_at is None and row.revoked_at is None and row.expires_at > now
    return render(request, "tournaments/organizers.html", {
        "tournament": tournament, "owner": tournament.organizer,
        "co_organizers": CoOrganizer.objects.filter(tournament=tournament).select_related("user", "added_by"),
        "invitations": invitations, "shown": _shown(request, tournament),
        "days": organizers.validity().days or 1})


@organizer_only
@require_POST
def remove(request, tournament: Tournament, user: int):
    try:
        organizers.remove_co_organizer(tournament, request.user, user)
    except ServiceError as error:
        _refused(request, error)
    else:
        messages.success(request, _("Co-organizer removed."))
        if user == request.user.pk:
            return redirect("organizer-home")
    return redirect(_page(tournament))


@organizer_only
@require_POST
def revoke(request, tournament: Tournament, pk: int):
    invitation = get_object_or_404(OrganizerInvitation, pk=pk, tournament=tournament)
    try:
        organizers.revoke_invitation(invitation, request.user)
    except ServiceError as error:
        _refused(request, error)
    else:
        messages.success(request, _("Invitation revoked."))
    response = redirect(_page(tournament))
    response.delete_cookie(SHOWN_COOKIE, path=_page(tournament))
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def accept(request, token: str):
    """The invitee signs in, then accepts here (a POST: opening a link changes nothing)."""
    invitation = organizers.find(token)
    why = organizers.refusal(invitation, request.user if request.user.is_authenticated else None)
    if why is None and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if why is None and request.method == "POST":
        try:
            organizers.accept(token, request.user)
        except ServiceError as error:
            why = error.message
        else:
            messages.success(request, _("You now organize %(name)s.") % {"name": invitation.tournament.name})
            return redirect("tournaments:dashboard", slug=invitation.tournament.slug)
    return render(request, "tournaments/organizer_invitation.html", {
        "invitation": invitation if why is None else None, "why": why}, status=410 if why else 200)
