"""The organizer's actions on the format and the rounds, posted from the dashboard: the format of the
first stage, the draw, the next round, a round generated again (with the reason, kept in the audit
log). The later stages are ``tournaments.stage_pages``'.

Thin views over ``tournaments.forms.StageForm`` and ``tournaments.services`` through
:func:`~tournaments.view_helpers.act`; a new round opens the dashboard on its matches.
"""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .forms import StageForm
from .models import Round, Tournament
from .view_helpers import act, back, dashboard_url, organizer_only
from .views import _dashboard_context


def _lot_seed(request) -> int | None:
    text = (request.POST.get("seed") or "").strip()
    return int(text) if text.isdigit() else None


def _on_its_matches(tournament: Tournament):
    return lambda rnd: redirect(dashboard_url(tournament, "matches", rnd.number))


@organizer_only
@require_POST
def configure(request, tournament: Tournament):
    form = StageForm(request.POST, tournament=tournament)
    if form.save(by=request.user) is None:
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, stage_form=form), status=400)
    messages.success(request, _("Format saved."))
    return back(tournament, request, "format")


@organizer_only
@require_POST
def draw(request, tournament: Tournament):
    return act(request, tournament,
               lambda: services.generate_first_round(tournament, request.user, seed=_lot_seed(request)),
               lambda rnd: _("Draw made: %(round)s is paired.") % {"round": rnd.display_name}, "rounds",
               then=lambda rnd: redirect(dashboard_url(tournament, "matches")))


@organizer_only
@require_POST
def next_round(request, tournament: Tournament):
    return act(request, tournament, lambda: services.generate_next_round(tournament, request.user),
               lambda rnd: _("%(round)s is paired.") % {"round": rnd.display_name}, "rounds",
               then=_on_its_matches(tournament))


@organizer_only
@require_POST
def regenerate(request, tournament: Tournament, number: int):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    reason = request.POST.get("reason", "")
    if not reason.strip():
        messages.error(request, _("Say why the round is generated again: it is kept in the audit log."))
        return back(tournament, request, "rounds")
    return act(request, tournament,
               lambda: services.regenerate_round(rnd, request.user, seed=_lot_seed(request), reason=reason),
               lambda again: _("%(round)s was generated again.") % {"round": again.display_name}, "rounds",
               then=_on_its_matches(tournament))
