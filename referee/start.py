"""Where each role starts: the redirect after signing in (``start``) and the organizer's page of
their tournaments with what needs them now (``organizer_home``, from ``tournaments.waiting``: sign-ups
to approve, súmulas to receive, calls, disputes, late tables, escalated rulings and appeals; players
locked out of their PIN with a one-tap unlock; each with its link; the logins locked out by wrong passwords it may unlock, on the page "Contas"). The referee's start page is ``referee:tables``."""
from __future__ import annotations

from django.contrib.auth.views import LoginView, redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring import pin_notices
from scoring.models import Match
from tournaments import waiting

from . import lockouts, roles


class RoleLoginView(LoginView):
    """The login page; without a ``next`` it lands on the user's start page (``roles.start_url``)."""

    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        return roles.start_url(self.request.user)


@require_GET
def start(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return redirect(roles.start_url(request.user))


@require_GET
def organizer_home(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    role = roles.summary(request.user)
    if not role.organizer:
        raise PermissionDenied(_("This page is for the organizers of tournaments."))
    signed = Q(matches__status=Match.Status.SIGNED)
    tournaments = list(roles.tournaments_of(request.user).select_related("signup_settings").annotate(
        to_receive=Count("matches", filter=signed, distinct=True),
        pair_count=Count("pairs", distinct=True),
    ).order_by("-date", "name"))
    ids = [t.pk for t in tournaments]
    signed_matches = {}
    for match in (Match.objects.filter(tournament__in=ids, status=Match.Status.SIGNED)
                  .select_related("pair_a", "pair_b").order_by("table", "pk")):
        signed_matches.setdefault(match.tournament_id, []).append(match)
    locked = {}
    for lock in pin_notices.lockouts(pin_notices.open_matches(Match.objects.filter(tournament__in=ids))):
        locked.setdefault(lock.match.tournament_id, []).append(lock)
    waits = waiting.of_tournaments(tournaments)  # sign-ups to approve, calls, disputes, late tables, appeals…
    for t in tournaments:
        t.lockouts = locked.get(t.pk, [])
        t.waiting = waits.get(t.pk, [])
        t.signed_matches = signed_matches.get(t.pk, [])
        t.needs_me = sum(item.count for item in t.waiting) + len(t.lockouts)
    active = [t for t in tournaments if t.status != t.Status.FINISHED or t.needs_me]
    finished = [t for t in tournaments if t not in active]
    needs = [(t, item) for t in active for item in t.waiting]
    return render(request, "referee/organizer_home.html", {
        "role": role, "active": active, "needs": needs, "finished": finished, "lockouts": sum(len(t.lockouts) for t in tournaments),
        "login_locks": len(lockouts.visible_to(request.user)),  # unlocked on the page "Contas"
    })
