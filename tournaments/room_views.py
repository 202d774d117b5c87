"""The room, from the organizer's dashboard: its section (ready matches and free tables, "call" in one
tap or "call every ready match", and the room's options: ready matches, calling by itself, tables,
lateness tolerance, time limit, end-of-time procedure), the tables' referees (assigning one, creating
a referee's account) and the phones notified of a pair's calls. Services: ``tournaments.services.ready``
and ``notify``, ``tournaments.organizer_tools`` (the referee's account), through
:func:`~tournaments.view_helpers.act`."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import organizer_tools, services
from .models import RoomSettings, Round, Tournament
from .services import notify, ready
from .view_helpers import act, back, fail_naming_field, organizer_only


def dashboard_room(tournament: Tournament, drawn: bool, stage=None) -> dict:
    """The dashboard's room context (the queue once drawn, the options always); ``stage``: the stage in
    play, when the caller has it."""
    room = ready.room_of(tournament)
    queue = ready.room_queue(tournament, room=room, stage=stage) if drawn and stage is not None else None
    context = {"room": room, "room_queue": queue,
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
def assign_referee(request, tournament: Tournament):
    table = request.POST.get("table", "")
    referee_id = request.POST.get("referee", "")
    round_number = request.POST.get("round_only", "")
    referee = None
    if referee_id.isdigit():
        referee = get_user_model().objects.filter(pk=int(referee_id), is_active=True).first()
        if referee is None:
            messages.error(request, _("Choose an active user as the referee."))
            return back(tournament, request, "tables")
    rnd = Round.objects.filter(tournament=tournament, number=int(round_number)).first() \
        if round_number.isdigit() else None
    if referee is None:
        done = _("Table %(table)s has no referee now.") % {"table": table}
    else:
        done = _("%(referee)s referees table %(table)s.") % {"referee": referee.get_username(), "table": table}
    return act(request, tournament, lambda: services.assign_referee(
        tournament, request.user, table=int(table) if table.isdigit() else table, referee=referee, round=rnd),
        done, "tables")


@organizer_only
@require_POST
def create_referee(request, tournament: Tournament):
    data = request.POST
    table = data.get("table", "").strip()

    def created(user) -> str:
        if table.isdigit():
            return (_("Referee %(name)s created (login %(login)s) and assigned to table %(table)s.")
                    % {"name": user.get_full_name(), "login": user.get_username(), "table": table})
        return _("Referee %(name)s created (login %(login)s).") % {"name": user.get_full_name(),
                                                                   "login": user.get_username()}

    return act(request, tournament, lambda: organizer_tools.create_referee(
        tournament, request.user, name=data.get("name", ""), username=data.get("username", ""),
        password=data.get("password", ""), table=int(table) if table.isdigit() else None),
        created, "tables", on_refusal=fail_naming_field)


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
