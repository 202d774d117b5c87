"""The organizer's actions on a match and its result, posted from the dashboard: receiving the signed
súmula (art. 25), a W.O., a double W.O., a result set by hand and its undo (art. 26), swapping two
matches' tables.

Thin views: each calls one form or service through :func:`~tournaments.view_helpers.act` and comes
back to the match's row (POST-redirect-GET). A result form with errors is shown again on the
dashboard (``tournaments.views``), open with what was typed.
"""
from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services as scoring_services
from scoring.models import Match
from scoring.words import pair_names

from . import services, undo_toast
from .forms import ManualResultForm, WalkoverForm
from .models import Tournament
from .view_helpers import act, back, form_errors, organizer_only
from .views import _dashboard_context


def _match_of(tournament: Tournament, pk: int) -> Match:
    match = Match.objects.filter(pk=pk, tournament=tournament).select_related("pair_a", "pair_b", "round").first()
    if match is None:
        raise Http404(_("No match with this number in this tournament."))
    return match


@organizer_only
@require_POST
def receive(request, tournament: Tournament, pk: int):
    """Art. 25: the organizer receives the signed súmula at the organizing table; the result becomes
    official and the tournament follows it (the bracket's next match, the standings)."""
    match = _match_of(tournament, pk)
    # the tournament follows through scoring's hook (``scoring.hook.result_official``), in the same transaction
    return act(request, tournament, lambda: scoring_services.mark_received(match, request.user),
               _("Súmula received at the organizing table: the result is official (art. 25)."), f"match-{match.pk}")


@organizer_only
@require_POST
def walkover(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    form = WalkoverForm(request.POST, match=match)
    result = form.save(by=request.user)
    if result is None:
        form_errors(request, form)
    else:
        messages.success(request, pair_names.contract(
            _("W.O. recorded: %(winner)s wins.") % {"winner": result.winner.name}, result.winner.name))
    return back(tournament, request, f"match-{match.pk}")


@organizer_only
@require_POST
def double_walkover(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    return act(request, tournament,
               lambda: services.record_double_walkover(match, request.user, reason=request.POST.get("reason", "")),
               _("Double W.O. recorded: no winner, a loss for each pair."), f"match-{pk}")


@organizer_only
@require_POST
def set_result(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    form = ManualResultForm(request.POST, match=match)
    result = form.save(by=request.user)
    if result is None:  # the form stays open with what was typed, the errors above it
        form_errors(request, form)
        retry = {key: request.POST.get(key, "") for key in ("winner", "games_a", "games_b", "points_a", "points_b",
                                                              "reason", "loser_points")}
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, result_retry={"pk": match.pk, **retry}), status=400)
    # "Desfazer" for a few seconds instead of a dialog: the toast then says what was set
    if not undo_toast.offer_result(request, match):
        messages.success(request, pair_names.contract(
            _("Result set by hand: %(winner)s wins.") % {"winner": result.winner.name}, result.winner.name))
    return back(tournament, request, f"match-{match.pk}")


@organizer_only
@require_POST
def undo_result(request, tournament: Tournament, pk: int):
    """The toast's "Desfazer" after a result typed by hand (art. 26): the match is open again, naming
    the audit entry it undoes (``services.undo_result``); a stale or late undo is refused."""
    match = _match_of(tournament, pk)
    return act(request, tournament, lambda: services.undo_result(match, request.user, request.POST.get("entry")),
               _("Result undone: the match is open again."), f"match-{match.pk}")


@organizer_only
@require_POST
def swap_tables(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    table = request.POST.get("table", "")
    other = Match.objects.filter(round=match.round_id, table=int(table)).first() if table.isdigit() else None
    if other is None:
        messages.error(request, _("No match at that table in this round."))
        return back(tournament, request, f"match-{match.pk}")
    return act(request, tournament,
               lambda: services.swap_tables(match, other, request.user, reason=request.POST.get("reason", "")),
               _("Tables swapped."), "matches")
