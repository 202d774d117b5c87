"""The team pages: the organizer's team event page (``/equipes/<slug>/painel/``: the teams and their
rosters, the captains' links, the team matches round by round with their tables, links and scores, the
standings, the knockout, the places and the best pairs), the public standings (``/equipes/<slug>/``) and
the captain's line-up page (``/equipes/capitao/<token>/``: who holds the link acts for that team only).
Thin: every rule and check is ``teams.services``."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError
from events.access import manages
from events.models import Tournament
from scoring import site

from . import pages, services
from .models import Team, TeamMatch


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)


def _act(request, tournament: Tournament) -> str:
    action = request.POST.get("action")
    if action == "captain_link":
        team = get_object_or_404(Team, pk=request.POST.get("team") or 0, tournament=tournament)
        services.issue_captain_link(team, request.user)
        return _("%(team)s: new captain's link (the old one no longer works).") % {"team": team.name}
    if action == "round_robin":
        made = services.create_round_robin(tournament, request.user, best_of=int(request.POST.get("best_of") or 3))
        return _("Round robin drawn: %(n)s team matches.") % {"n": len(made)}
    if action == "knockout":
        made = services.create_knockout_round(tournament, request.user,
                                              best_of=int(request.POST.get("best_of") or 3))
        return _("Knockout drawn: %(n)s team matches.") % {"n": len(made)}
    raise ServiceError(_("Unknown action."), "action")


@never_cache
@require_http_methods(["GET", "POST"])
def event_page(request, slug: str):
    """The organizer's team event page."""
    tournament = _tournament(slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not manages(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organizers manage its teams."))
    if request.method == "POST":
        try:
            messages.success(request, _act(request, tournament))
        except ServiceError as refused:
            messages.error(request, str(refused))
        except ValueError:  # a best of that is not a number
            messages.error(request, _("Unknown action."))
        return redirect(reverse("teams:event", kwargs={"slug": slug}))
    context = pages.event_context(tournament, organizer=True)
    for row in context["team_rows"]:
        token = services.captain_link_token(row["team"])
        if token:
            row["link"] = site.absolute(reverse("teams:captain", kwargs={"token": token}), request)
    return render(request, "teams/event.html", context)


@require_http_methods(["GET"])
def standings_page(request, slug: str):
    """The public team standings: the team matches' scores, the standings, the places, the best pairs."""
    tournament = _tournament(slug)
    return render(request, "teams/standings.html", pages.event_context(tournament, organizer=False))


@never_cache
@require_http_methods(["GET", "POST"])
def captain_page(request, token: str):
    """The captain's line-up page: the team's matches; a line-up per match not yet started; the other
    team's line-up only once both are in."""
    team = services.team_of_link(token)
    if team is None:
        raise Http404(_("This captain's link does not work (it was replaced or never existed)."))
    if request.method == "POST":
        team_match = get_object_or_404(TeamMatch, pk=request.POST.get("team_match") or 0,
                                       tournament=team.tournament)
        count = team_match.tables.filter(decider=False).count()
        try:
            pair_ids = [int(request.POST.get(f"table_{n}") or 0) for n in range(1, count + 1)]
            services.submit_by_link(team, team_match, pair_ids)
            messages.success(request, _("Line-up submitted."))
        except ValueError:
            messages.error(request, _("Choose a pair for every table."))
        except ServiceError as refused:
            messages.error(request, str(refused))
        return redirect(reverse("teams:captain", kwargs={"token": token}))
    return render(request, "teams/captain.html", pages.captain_context(team))
