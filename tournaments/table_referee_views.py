"""The tables' referees, from the organizer's dashboard (its tables section): assigning one to a table
(``services.assign_referee``) and creating a referee's account (``organizer_tools.create_referee``),
through :func:`~tournaments.view_helpers.act`."""
from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import organizer_tools, services
from .models import Round, Tournament
from .view_helpers import act, back, fail_naming_field, organizer_only


@organizer_only
@require_POST
def assign_referee(request, tournament: Tournament):
    table = request.POST.get("table", "")
    referee_id = request.POST.get("referee", "")
    round_number = request.POST.get("round_only", "")
    referee = None
    if referee_id.strip():  # one of the tournament's people (services.referees): anyone else reads as unknown
        try:
            referee = services.referees.referee_by_id(tournament, referee_id)
        except services.TournamentError as refused:
            messages.error(request, refused.message)
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

