"""The room monitor's pages, mounted at ``/torneios/<slug>/sala/``: the tiles (live: the
fragment ``?parte=1``), the marker ``versao/`` (ETag, 304 while nothing changed: one query) and the
actions of a tile (``acao/``: call the next ready match to a free table, confirm a W.O. proposal,
assign the table's referee);
the súmula and the receipt open the existing pages. ``referee.monitor`` builds the tiles."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import quote_etag
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.errors import ServiceError
from scoring import access
from scoring.models import Match
from public.live import POLL_SECONDS
from tournaments.models import Tournament
from tournaments import pages, services
from room.services import presence, ready

from . import monitor


def _watched(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not monitor.may_watch(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organizer and referees see the room monitor."))
    return tournament


@require_GET
def room(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _watched(request, slug)
    tiles, next_change = monitor.tiles(tournament)
    context = {"tournament": tournament, "tiles": tiles, "next_change": next_change,
               "manages": access.manages(request.user, tournament),
               "referees": pages.referee_choices(tournament) if access.manages(request.user, tournament) else [],
               "assign_table": int(request.GET["mesa"]) if request.GET.get("mesa", "").isdigit() else None,
               "queue": ready.room_queue(tournament), "poll_seconds": POLL_SECONDS,
               "version": monitor.monitor_version(slug)}
    if request.GET.get("parte") == "1":
        response = render(request, "referee/_monitor_tiles.html", context)
    else:
        response = render(request, "referee/monitor.html", context)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def version(request, slug: str):
    """The monitor's marker as a strong ETag; 304 when ``If-None-Match`` names it (one query)."""
    tag = monitor.monitor_version(slug)
    if tag is None:
        return JsonResponse({"field": "slug", "message": _("No tournament with this slug.")}, status=404)
    etag = quote_etag(tag)
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"version": tag})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_POST
def action(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("monitor:room", kwargs={"slug": slug}))
    tournament = _watched(request, slug)
    what = request.POST.get("do", "")
    try:
        if what == "call":
            table = request.POST.get("table", "")
            queue = ready.room_queue(tournament)
            if not queue.ready:
                raise ServiceError(_("No match is ready now."), "match")
            done = ready.call_match(queue.ready[0].match.pk, request.user,
                                    table=int(table) if table.isdigit() else None)
            messages.success(request, _("Match called to table %(table)s.") % {"table": done.table})
        elif what == "referee":  # the referee of the tile's table for every round (the dashboard's assignment)
            table = request.POST.get("table", "")
            # one of the tournament's people (services.referees), or refused naming the field
            referee = services.referees.referee_by_id(tournament, request.POST.get("referee", ""))
            services.assign_referee(tournament, request.user, table=int(table) if table.isdigit() else table,
                                    referee=referee)
            messages.success(request, _("Referee assigned to table %(table)s.") % {"table": table})
        elif what == "walkover":
            match = get_object_or_404(Match, pk=int(request.POST.get("match", "0") or 0), tournament=tournament)
            absent = request.POST.get("absent", "")
            presence.confirm_proposal(match, int(absent) if absent.isdigit() else 0, request.user)
            messages.success(request, _("W.O. recorded (audited)."))
        else:
            raise ServiceError(_("Unknown action."), "do")
    except ServiceError as error:
        if error.status == 403:
            raise PermissionDenied(error.message) from None
        messages.error(request, error.message)
    return redirect(reverse("monitor:room", kwargs={"slug": slug}))
