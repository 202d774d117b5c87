"""A pair's rulings and the organizer's review (mounted at /arbitragem/ with the other referee pages):

- ``pair_history``: a pair's rulings and appeals in its tournament (its referees and organizer);
- ``review``: the organizer's list of escalated rulings and open appeals with their decide forms
  (``services.decide_escalated`` / ``decide_appeal``, art. 26, with a reason); reached from a
  tournament's dashboard (``?painel=<slug>``) it leads back there, and a decision that leaves nothing
  of that tournament to review returns to its dashboard.

Thin views: ``referee.services`` decides; a refusal becomes a message in the page's words.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from config.errors import Forbidden, ServiceError
from referee.engine.infractions import CATALOG
from scoring import access
from scoring.display import seat_names
from scoring.models import Match
from scoring.words import pair_names
from tournaments.models import Pair, TableAssignment, Tournament

from . import appeals, services
from .models import Appeal, Ruling
from .views import _fail, _int, _step_label


def _referees_in(user, tournament_id: int) -> bool:
    """``user`` referees a match or a table of the tournament."""
    return (Match.objects.filter(tournament_id=tournament_id, referee=user).exists()
            or TableAssignment.objects.filter(tournament_id=tournament_id, referee=user).exists())


def appeal_answer(appeal: Appeal) -> str:
    """What deciding an appeal did, in words (not "Recurso decidido: Mantida")."""
    if appeal.decision == Appeal.Decision.UPHELD:
        return _("Appeal decided (art. 26): the ruling stands; the súmula does not change.")
    if appeal.decision == Appeal.Decision.OVERTURNED:
        return _("Appeal decided (art. 26): the ruling is overturned; its tentos were taken off the súmula, "
                 "which both pairs sign again.")
    return ngettext("Appeal decided (art. 26): the ruling now gives %(points)s tento; the súmula changed and "
                    "both pairs sign it again.",
                    "Appeal decided (art. 26): the ruling now gives %(points)s tentos; the súmula changed and "
                    "both pairs sign it again.", appeal.new_points or 0) % {"points": appeal.new_points or 0}


def _ruling_rows(rulings, pair=None) -> list[dict]:
    rows = []
    for ruling in rulings:
        match = ruling.match
        entry = CATALOG.get(ruling.code)
        row = {"ruling": ruling, "match": match, "title": entry.title if entry else _("Case not covered"),
               "offender": match.pair(ruling.offender_team), "claimant": match.pair(ruling.claimant_team),
               "offender_player": seat_names(match)[ruling.offender_seat],  # a name, not "(assento 1)"
               "beneficiary": match.pair(ruling.beneficiary) if ruling.beneficiary is not None else None,
               "appeals": list(ruling.appeals.all()), "step_label": _step_label(ruling.step)}
        if pair is not None:
            row["against"] = row["offender"].pk == pair.pk
        rows.append(row)
    return rows


@require_GET
def pair_history(request, pk: int):
    pair = Pair.objects.select_related("tournament").filter(pk=pk).first()
    if pair is None:
        raise Http404(_("No pair with this number."))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (services.is_organizer(request.user, pair.tournament) or _referees_in(request.user, pair.tournament_id)):
        raise PermissionDenied(_("A pair's rulings are shown to the tournament's referees and organizer."))
    rulings = services.history(pair).select_related(
        "match__pair_a__first_player", "match__pair_a__second_player", "match__pair_b__first_player",
        "match__pair_b__second_player", "referee").prefetch_related("appeals__player")
    rows = _ruling_rows(rulings, pair)
    window, now = appeals.appeal_window(pair.tournament), timezone.now()
    for row in rows:  # appeals.appeal_deadline, with the tournament's window read once
        ruling = row["ruling"]
        if ruling.status == Ruling.Status.CONFIRMED and not ruling.decided_by_id and ruling.confirmed_at:
            deadline = ruling.confirmed_at + window
            if deadline > now and not any(a.decided_at is None for a in row["appeals"]):
                row["appeal_until"] = deadline
    return render(request, "referee/pair_history.html", {
        "pair": pair, "rows": rows, "against": sum(1 for r in rows if r["against"]),
        "is_organizer": services.is_organizer(request.user, pair.tournament)})


def _review_scope(user):
    """The rulings an organizer reviews: their tournaments' (every one for staff and superusers)."""
    rulings = Ruling.objects.filter(access.operates_site_condition(user) | access.organizes(user, "match__tournament"))
    return rulings.select_related("match__pair_a__first_player", "match__pair_a__second_player",
                                  "match__pair_b__first_player", "match__pair_b__second_player",
                                  "match__tournament", "referee").prefetch_related("appeals__player")


def _require_organizer_somewhere(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    user = request.user
    if not (access.operates_site(user) or Tournament.objects.filter(access.organizes(user, "")).exists()):
        raise PermissionDenied(_("Only an organizer reviews escalated rulings and appeals (art. 26)."))
    return None


FROM = "painel"  # the review reached from a tournament's dashboard ("Needs you now"): where it leads back


def _from_dashboard(request) -> Tournament | None:
    """The tournament whose dashboard sent the organizer here (``?painel=<slug>``, carried by the decision
    forms), when the user organizes it: the page's way back, and where a decision leads once nothing else of
    that tournament waits here."""
    slug = (request.GET.get(FROM) or request.POST.get(FROM) or "").strip()
    tournament = Tournament.objects.filter(slug=slug).first() if slug and request.user.is_authenticated else None
    return tournament if tournament is not None and access.manages(request.user, tournament) else None


def _after_decision(request, scope_user):
    """Back to the review page (with its way back to the dashboard), or to the dashboard itself when that
    tournament has no other escalated ruling or open appeal: one page less for the organizer."""
    tournament = _from_dashboard(request)
    if tournament is None:
        return redirect("referee:review")
    rulings = _review_scope(scope_user).filter(match__tournament=tournament)
    waiting = (rulings.filter(status=Ruling.Status.ESCALATED).exists()
               or Appeal.objects.filter(decided_at__isnull=True, ruling__in=rulings).exists())
    if waiting:
        return redirect(f"{reverse('referee:review')}?{FROM}={tournament.slug}")
    return redirect("tournaments:dashboard", slug=tournament.slug)


@require_GET
def review(request):
    denied = _require_organizer_somewhere(request)
    if denied:
        return denied
    scope = _review_scope(request.user)
    escalated = _ruling_rows(scope.filter(status=Ruling.Status.ESCALATED).order_by("escalated_at", "pk"))
    open_appeals = Appeal.objects.filter(decided_at__isnull=True).values("ruling_id")
    appealed = _ruling_rows(scope.filter(pk__in=open_appeals).order_by("confirmed_at", "pk"))
    for row in appealed:
        row["open_appeal"] = next((a for a in row["appeals"] if a.decided_at is None), None)
    return render(request, "referee/review.html", {"escalated": escalated, "appealed": appealed,
                                                   "values": range(0, 13), "from_dashboard": _from_dashboard(request)})


@require_http_methods(["POST"])
def decide_ruling(request, pk: int):
    ruling = Ruling.objects.select_related("match").filter(pk=pk).first()
    if ruling is None:
        raise Http404(_("No ruling with this number."))
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:review"))
    beneficiary = _int(request.POST.get("beneficiary"))
    try:
        ruling = services.decide_escalated(ruling, request.user, _int(request.POST.get("points"), -1),
                                           beneficiary if beneficiary in (0, 1) else None,
                                           request.POST.get("reason", ""))
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, _fail(request, error))
    else:
        messages.success(request, _("Decided (art. 26): %(effect)s.") % {
            "effect": ngettext("%(pair)s scores %(points)s", "%(pair)s scores %(points)s",
                               pair_names.number(ruling.match.pair(ruling.beneficiary).name))
            % {"pair": ruling.match.pair(ruling.beneficiary).name, "points": ruling.points}
            if ruling.beneficiary is not None and ruling.points else _("nobody scores")})
    return _after_decision(request, request.user)


@require_http_methods(["POST"])
def decide_appeal(request, pk: int):
    appeal = Appeal.objects.select_related("ruling__match").filter(pk=pk).first()
    if appeal is None:
        raise Http404(_("No appeal with this number."))
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:review"))
    decision = request.POST.get("decision", "")
    try:
        appeal = appeals.decide_appeal(appeal, request.user, decision, request.POST.get("reason", ""),
                                        _int(request.POST.get("new_points")) if decision == "changed" else None)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, _fail(request, error))
    else:
        messages.success(request, appeal_answer(appeal))
    return _after_decision(request, request.user)
