"""The room, from the organizer's dashboard: its section (ready matches and free tables, "call" in one
tap or "call every ready match", and the room's options: ready matches, calling by itself, tables,
lateness tolerance, time limit, end-of-time procedure) and the phones notified of a pair's calls.
Services: ``room.services.ready`` and ``notify``, through :func:`~tournaments.view_helpers.act`. The
dashboard gets its section through ``tournaments.room_hooks`` (``room.hooks`` registers it)."""
from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.models import Tournament
from tournaments.view_helpers import act, back, organizer_only

from .models import RoomSettings
from .services import notify, ready


def dashboard_room(tournament: Tournament, drawn: bool, stage=None) -> dict:
    """The dashboard's room context (the queue once drawn, the options always); ``stage``: the stage in
    play, when the caller has it."""
    room = ready.room_of(tournament)
    queue = ready.room_queue(tournament, room=room, stage=stage) if drawn and stage is not None else None
    context = {"room": room, "room_queue": queue, "room_template": "room/_dashboard.html",
               "end_of_time_choices": RoomSettings.EndOfTime.choices,
               "push_on": notify.push_configured()}  # §5: the pairs' "clear the notified phones"
    if room.ready_matches and drawn:
        context["can_next_round"] = False  # the schedule was made whole at the draw
    return context


@organizer_only
@require_POST
def call(request, tournament: Tournament):
    match, table = request.POST.get("match", ""), request.POST.get("table", "")
    if request.POST.get("all"):
        return act(request, tournament, lambda: ready.call_ready(tournament, request.user, automatic=False),
                   lambda calls: ngettext("%(count)s match called.", "%(count)s matches called.", len(calls))
                   % {"count": len(calls)}, "room")
    return act(request, tournament, lambda: ready.call_match(int(match) if match.isdigit() else match, request.user,
                                                             table=int(table) if table.isdigit() else None),
               lambda done: _("Match called to table %(table)s.") % {"table": done.table}, "room")


def _minutes(value: str):
    value = (value or "").strip()
    return int(value) if value.isdigit() else None if not value else value


@organizer_only
@require_POST
def options(request, tournament: Tournament):
    post = request.POST
    values = {"auto_call": post.get("auto_call") == "on", "tables": _minutes(post.get("tables")),
              "tolerance_first": _minutes(post.get("tolerance_first")),
              "tolerance_later": _minutes(post.get("tolerance_later")),
              "time_limit": _minutes(post.get("time_limit")), "end_of_time": post.get("end_of_time", "")}
    if "ready_matches" in post or "ready_shown" in post:
        values["ready_matches"] = post.get("ready_matches") == "on"
        if values["ready_matches"] == ready.room_of(tournament).ready_matches:
            values.pop("ready_matches")
    return act(request, tournament, lambda: ready.configure_room(tournament, request.user, **values),
               _("Room options saved."), "room")


@organizer_only
@require_POST
def clear_push(request, tournament: Tournament, pk: int):
    """The organizer stops every phone notified of a pair's calls (audited)."""
    pair = tournament.pairs.filter(pk=pk).first()
    if pair is None:
        messages.error(request, _("This tournament has no such pair."))
    else:
        count = notify.revoke_all(pair, request.user)
        messages.success(request, ngettext("%(n)s phone no longer notified.", "%(n)s phones no longer notified.",
                                           count) % {"n": count})
    return back(tournament, request, f"pair-{pk}")
