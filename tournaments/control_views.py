"""The organizer's controls that were in the API only (issue 24 point 11), as dashboard actions:
the tournament's details (name, date, venue), deleting a pair registered by mistake (before the
draw), reinstating a withdrawn pair, disqualifying a pair, a double W.O. (point 6), a final place
set by hand, the avoid tags of a pair (club, family: point 10), and the settings of a stage not
started yet (every option of ``services.update_stage``: tiebreaks, seeding,
grand-final reset, legs, the match format per round...). The appeal window and the escalation
policy are the referee app's (``referee.settings_views``), linked from the dashboard.

Thin views: each reads its form, calls one service (``tournaments.services``), turns a refusal into
a message and comes back to the dashboard's section (POST-redirect-GET). Irreversible ones are
confirmed in the page first (``data-confirm``).
"""
from __future__ import annotations

import datetime
from dataclasses import replace

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.models import Match
from scoring.words import pair_names

from . import services
from .models import Pair, Stage, Tournament
from .stage_pages import LaterStageForm
from .views import _back, _fail, _form_errors, organizer_only


class TournamentDetailsForm(forms.Form):
    """The tournament's name, date and venue (``services.update_tournament``)."""

    name = forms.CharField(label=gettext_lazy("name"), max_length=120)
    date = forms.DateField(label=gettext_lazy("date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=gettext_lazy("venue"), max_length=200, required=False)

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "details_%s")
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = capfirst(field.label)


def details_form(tournament: Tournament) -> TournamentDetailsForm:
    return TournamentDetailsForm(initial={"name": tournament.name, "venue": tournament.venue,
                                          "date": tournament.date.isoformat() if isinstance(tournament.date,
                                                                                            datetime.date) else ""})


def dashboard_controls(tournament: Tournament, context: dict) -> dict:
    """The dashboard's context for these controls: the details form, a prefilled settings form for
    each later stage not started yet (the first has the Format panel) on its stage row."""
    rows = [replace(row, edit_form=LaterStageForm.for_stage(row.stage))
            if row.stage.position > 1 and row.stage.started_at is None else row
            for row in context.get("stage_rows", [])]
    return {"details_form": details_form(tournament), "stage_rows": rows}


@organizer_only
@require_POST
def edit_details(request, tournament: Tournament):
    form = TournamentDetailsForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament, request, "details")
    try:
        services.update_tournament(tournament, request.user, **form.cleaned_data)
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Tournament details saved."))
    return _back(tournament, request, "details")


@organizer_only
@require_POST
def delete_pair(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    name = pair.name
    try:
        services.delete_pair(pair, request.user, reason=request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
        return _back(tournament, request, f"pair-{pk}")
    messages.success(request, pair_names.contract(_("%(pair)s deleted.") % {"pair": name}, name))
    return _back(tournament, request, "pairs")


@organizer_only
@require_POST
def reinstate_pair(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    try:
        services.reinstate_pair(pair, request.user, request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, pair_names.contract(_("%(pair)s is back in the tournament.") % {"pair": pair.name},
                                                     pair.name))
    return _back(tournament, request, f"pair-{pk}")


@organizer_only
@require_POST
def avoid_tags(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    try:
        services.update_pair(pair, request.user, avoid_tags=request.POST.get("avoid_tags", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, pair_names.contract(_("Changes to %(pair)s saved.") % {"pair": pair.name},
                                                     pair.name))
    return _back(tournament, request, f"pair-{pk}")


@organizer_only
@require_POST
def edit_stage(request, tournament: Tournament, position: int):
    stage = get_object_or_404(Stage, tournament=tournament, position=position)
    form = LaterStageForm(request.POST, auto_id=f"stage{position}_%s")
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament, request, "stages")
    try:
        stage = services.update_stage(stage, request.user, **form.settings())
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, _("%(stage)s saved.") % {"stage": stage.display_name})
    return _back(tournament, request, "stages")


@organizer_only
@require_POST
def disqualify_pair(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    try:
        services.disqualify_pair(pair, request.user, request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, pair_names.contract(_("%(pair)s disqualified.") % {"pair": pair.name}, pair.name))
    return _back(tournament, request, f"pair-{pk}")


@organizer_only
@require_POST
def double_walkover(request, tournament: Tournament, pk: int):
    match = get_object_or_404(Match, pk=pk, tournament=tournament)
    try:
        services.record_double_walkover(match, request.user, reason=request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Double W.O. recorded: no winner, a loss for each pair."))
    return _back(tournament, request, f"match-{pk}")


@organizer_only
@require_POST
def override_placing(request, tournament: Tournament):
    pair = request.POST.get("pair", "")
    place = request.POST.get("place", "").strip()
    try:
        services.override_placing(tournament, request.user, pair=int(pair) if pair.isdigit() else -1,
                                  place=int(place) if place.isdigit() else None,
                                  reason=request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Final place saved.") if place else _("Final place taken back."))
    return _back(tournament, request, "details")
