"""The organizer's page of a tournament's categories (flights, docs/ratings.md):
``/torneios/<slug>/painel/categorias/``. The categories one per line, the strongest first
("A: 1100", "B: 950", "C": a minimum rating after the colon, none for the last), placed by the pairs'
combined ratings now or declared pair by pair. Thin: every rule, check and audit is
``services.flights``; a refusal comes back with what was typed and the field it names."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError

from events.models import Pair, Tournament
from tournaments.view_helpers import organizer_only

from .models import FlightMember
from .services import flights


def parse_lines(text: str) -> list[dict]:
    """``"A: 1100\\nB"`` → ``[{"name": "A", "min_rating": 1100}, {"name": "B"}]`` (400 naming the line)."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, low = line.partition(":")
        item: dict = {"name": name.strip()}
        if colon and low.strip():
            try:
                item["min_rating"] = int(low.strip())
            except ValueError:
                raise ServiceError(_("Categories, line %(n)s: the minimum rating after the colon is a whole "
                                     "number.") % {"n": number}, "min_rating") from None
        out.append(item)
    return out


def as_lines(tournament: Tournament) -> str:
    return "\n".join(f"{f.name}: {f.min_rating}" if f.min_rating is not None else f.name
                     for f in tournament.flights.order_by("position"))


def _page(tournament: Tournament) -> str:
    return reverse("seasons:flights-admin", kwargs={"slug": tournament.slug})


@never_cache
@organizer_only
@require_http_methods(["GET", "POST"])
def flights_admin(request, tournament: Tournament):
    typed, status = None, 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "pair":
                pair = get_object_or_404(Pair, pk=request.POST.get("pair") or 0, tournament=tournament)
                flights.set_pair_flight(pair, request.user, request.POST.get("flight") or None)
                messages.success(request, _("%(pair)s: category saved.") % {"pair": pair.name})
            else:
                typed = request.POST.get("flights", "")
                by_rating = request.POST.get("by_rating") == "on"
                made = flights.set_flights(tournament, request.user, parse_lines(typed), by_rating=by_rating)
                messages.success(request, _("Categories saved: %(names)s.") % {"names": ", ".join(f.name for f in made)})
            return redirect(_page(tournament))
        except ServiceError as error:
            messages.error(request, f"{error.field}: {error.message}" if error.field else error.message)
            status = error.status
    members = dict(FlightMember.objects.filter(flight__tournament=tournament).values_list("pair_id", "flight__name"))
    pairs = list(Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN).order_by("name"))
    for pair in pairs:
        pair.flight_name = members.get(pair.pk, "")
    return render(request, "seasons/flights_admin.html", {
        "tournament": tournament, "lines": as_lines(tournament) if typed is None else typed,
        "flights": list(tournament.flights.order_by("position")), "pairs": pairs,
    }, status=status)
