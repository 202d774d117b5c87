"""The organizer's referee settings of a tournament, as a page (once in the
API only, ``escalation-policies/``): the appeal window (how many minutes after a ruling is confirmed
a pair may appeal, art. 26) and the escalation policy of each infraction of the catalog (the steps
of a repeated infraction by the same pair: warning, tento, match loss; none: the regulation's own
consequence). Thin: the writes are ``referee.appeals.set_settings`` / ``set_policy``.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError
from referee.engine.infractions import CATALOG
from tournaments.models import Tournament

from . import appeals, services
from .models import STEPS, EscalationPolicy

MAX_STEPS = 4


def step_labels() -> dict[str, str]:
    return {"warning": _("warning"), "tento": _("tento"), "match_loss": _("match loss")}


def _policy_rows(tournament: Tournament) -> list[dict]:
    policies = {p.code: p.steps for p in EscalationPolicy.objects.filter(tournament=tournament)}
    return [{"code": code, "article": infraction.article, "title": infraction.title,
             "steps": policies.get(code, []) + [""] * (MAX_STEPS - len(policies.get(code, [])))}
            for code, infraction in CATALOG.items()]


@require_http_methods(["GET", "POST"])
def referee_settings(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:settings", kwargs={"slug": slug}))
    if not services.is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organizer can do this."))
    if request.method == "POST":
        try:
            with transaction.atomic():  # all or nothing
                minutes = request.POST.get("appeal_window_minutes", "").strip()
                appeals.set_settings(tournament, request.user, int(minutes) if minutes.isdigit() else -1)
                for code in CATALOG:
                    steps = [s for s in request.POST.getlist(f"steps_{code}") if s]
                    appeals.set_policy(tournament, request.user, code, steps or None)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Referee settings saved."))
        return redirect(reverse("referee:settings", kwargs={"slug": slug}))
    return render(request, "referee/settings.html", {
        "tournament": tournament, "settings": appeals.settings_of(tournament),
        "rows": _policy_rows(tournament), "steps": [(s, step_labels()[s]) for s in STEPS],
    })
