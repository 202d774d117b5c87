"""The tournament itself, from the organizer's side: a new tournament (the page), its details (name,
date, venue) and a final place set by hand, as dashboard actions; its results sheet to print (the PDF,
``results_sheet``); the dashboard's context for them
(:func:`dashboard_controls`: the details form, the settings form of each later stage not started
yet). The appeal window and the escalation policy are the referee app's
(``referee.settings_views``), linked from the dashboard.

Thin views: each reads its form, calls one service (``tournaments.services``) through
:func:`~tournaments.view_helpers.act` and comes back to the dashboard's section
(POST-redirect-GET).
"""
from __future__ import annotations

import datetime
from dataclasses import replace

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from . import results_sheet, services
from .models import Tournament
from .new_tournament import NewTournamentForm, earlier_tournaments
from .stage_pages import LaterStageForm
from .view_helpers import act, back, dashboard_url, form_errors, organizer_only


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
        form_errors(request, form)
        return back(tournament, request, "details")
    return act(request, tournament, lambda: services.update_tournament(tournament, request.user, **form.cleaned_data),
               _("Tournament details saved."), "details")


@organizer_only
@require_POST
def override_placing(request, tournament: Tournament):
    pair = request.POST.get("pair", "")
    place = request.POST.get("place", "").strip()
    return act(request, tournament, lambda: services.override_placing(
        tournament, request.user, pair=int(pair) if pair.isdigit() else -1,
        place=int(place) if place.isdigit() else None, reason=request.POST.get("reason", "")),
        _("Final place saved.") if place else _("Final place taken back."), "details")


def new_tournament(request):
    """A new tournament and its format, for users who may create tournaments; ``?como=<slug>``: like one
    of their earlier events (its format and options; 404 for one they do not run)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not services.can_create_tournament(request.user):
        raise PermissionDenied(_("Only organizers create tournaments."))
    earlier = earlier_tournaments(request.user)
    like = request.GET.get("como", "").strip()
    source = get_object_or_404(earlier, slug=like) if like else None
    if request.method == "POST":
        form = NewTournamentForm(request.POST, user=request.user, source=source)
    else:
        form = NewTournamentForm(user=request.user, source=source)
    if request.method == "POST":
        tournament = form.save(by=request.user)
        if tournament is not None:
            messages.success(request, _("Tournament created: register the pairs."))
            return redirect(dashboard_url(tournament, "registration"))  # the page puts the focus on the first pair
    return render(request, "tournaments/new.html", {
        "form": form, "source": source, "earlier": earlier.only("slug", "name", "date")[:50],
    }, status=400 if form.errors else 200)


@organizer_only
@require_GET
def results_sheet_pdf(request, tournament: Tournament):
    """The results sheet to print (``results_sheet``): the champion, the placings with the players, the date
    and the organizer; marked provisional until the tournament is over."""
    response = HttpResponse(results_sheet.sheet_pdf(tournament), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-resultado.pdf"'
    return response
