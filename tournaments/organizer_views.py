"""Organizer pages beside the dashboard's (``tournaments.views``): editing a pair and creating a
referee's account. Both post from the dashboard and come back to where the organizer was (the
pair's row; the tables section); the writes are in ``tournaments.organizer_tools``."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from scoring.models import Match
from scoring.words import pair_names

from . import organizer_tools, services
from .models import Pair, Tournament
from .views import _back, _fail, organizer_only

FIELD_LABELS = {
    "name": lambda: _("Pair name"), "first_player": lambda: _("First player"),
    "second_player": lambda: _("Second player"), "substitute": lambda: _("Substitute"),
    "rating": lambda: _("Rating"), "seed": lambda: _("Seed"), "username": lambda: _("Login"),
    "password": lambda: _("Password"), "table": lambda: _("Table"),
}


def _error(request, error: ServiceError) -> None:
    field = (getattr(error, "field", "") or "").split(".")[0]
    label = FIELD_LABELS.get(field)
    if label is None:
        _fail(request, error)
    else:
        _fail(request, type(error)(f"{label()}: {error.message}", error.field))


def _number(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


def _player(data, prefix: str) -> dict | None:
    name = (data.get(f"{prefix}_name") or "").strip()
    nickname = (data.get(f"{prefix}_nickname") or "").strip()
    return {"name": name, "nickname": nickname} if name or nickname else None


@organizer_only
@require_POST
def edit_pair(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    data = request.POST
    try:
        pair = organizer_tools.edit_pair(
            pair, request.user, name=data.get("name", ""), first_player=_player(data, "first"),
            second_player=_player(data, "second"), substitute=_player(data, "substitute"),
            rating=_number(data.get("rating")), seed=_number(data.get("seed")))
    except ServiceError as error:
        _error(request, error)
    else:
        messages.success(request, pair_names.contract(_("Changes to %(pair)s saved.") % {"pair": pair.name}, pair.name))
    return _back(tournament, request, f"pair-{pk}")


@organizer_only
@require_POST
def create_referee(request, tournament: Tournament):
    data = request.POST
    table = data.get("table", "").strip()
    try:
        user = organizer_tools.create_referee(
            tournament, request.user, name=data.get("name", ""), username=data.get("username", ""),
            password=data.get("password", ""), table=int(table) if table.isdigit() else None)
    except ServiceError as error:
        _error(request, error)
    else:
        if table.isdigit():
            messages.success(request, _("Referee %(name)s created (login %(login)s) and assigned to table %(table)s.")
                             % {"name": user.get_full_name(), "login": user.get_username(), "table": table})
        else:
            messages.success(request, _("Referee %(name)s created (login %(login)s).")
                             % {"name": user.get_full_name(), "login": user.get_username()})
    return _back(tournament, request, "tables")


@organizer_only
@require_POST
def undo_withdrawal(request, tournament: Tournament, pk: int):
    """The toast's "Desfazer" after a withdrawal (issue 26 §5): reinstates the pair through the same
    service as its row, naming the audit entry it undoes (``services.undo_withdrawal``)."""
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    try:
        services.undo_withdrawal(pair, request.user, request.POST.get("entry"))
    except ServiceError as error:
        _fail(request, error)
    else:
        messages.success(request, pair_names.contract(
            _("Withdrawal of %(pair)s undone: the pair is back in the tournament.") % {"pair": pair.name}, pair.name))
    return _back(tournament, request, f"pair-{pair.pk}")


@organizer_only
@require_POST
def undo_result(request, tournament: Tournament, pk: int):
    """The toast's "Desfazer" after a result typed by hand (issue 26 §5, art. 26): the match is open again,
    naming the audit entry it undoes (``services.undo_result``); a stale or late undo is refused."""
    match = get_object_or_404(Match, pk=pk, tournament=tournament)
    try:
        services.undo_result(match, request.user, request.POST.get("entry"))
    except ServiceError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Result undone: the match is open again."))
    return _back(tournament, request, f"match-{match.pk}")
