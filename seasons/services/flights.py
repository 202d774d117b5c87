"""Categories (flights) of a tournament: setting them, placing each pair in one (declared, or
by its combined rating: ``services.ratings.pair_ratings``), and the final placings per category
(``draw.pairing.flights``: the overall places of ``standings(t)``, renumbered within each).

Categories only rank pairs apart; they change nothing of the play. Setting them is audited
(``flights_set``, with the categories and each pair's before and after).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from draw.pairing.flights import FlightRule, check_flights, flight_for, flight_places

from draw.models import AuditEntry
from events.models import Pair, Tournament
from tournaments.services.base import TournamentError, _audit, _lock_tournament, _require_manager

from ..models import Flight, FlightMember


def _rules(flights: object) -> list[FlightRule]:
    if not isinstance(flights, list) or not flights:
        raise TournamentError(_("Give the categories as a list, the strongest first."), "flights")
    rules = []
    for item in flights:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise TournamentError(_("Each category has a name."), "flights")
        low = item.get("min_rating")
        if low is not None and (isinstance(low, bool) or not isinstance(low, int)):
            raise TournamentError(_("A minimum rating is a whole number."), "min_rating")
        rules.append(FlightRule(item["name"].strip()[:40], low))
    try:
        check_flights(rules)
    except ValueError as e:
        field = str(e).partition(":")[0]
        message = {"flights": _("Each category has a name of its own."),
                   "min_rating": _("Every category but the last has a minimum rating, lower from one category "
                                   "to the next.")}
        raise TournamentError(message[field], field) from None
    return rules


def _members(tournament: Tournament) -> dict[int, str]:
    return dict(FlightMember.objects.filter(flight__tournament=tournament).values_list("pair_id", "flight__name"))


@transaction.atomic
def set_flights(tournament: Tournament, by, flights: list, *, by_rating: bool) -> list[Flight]:
    """Replace the tournament's categories; ``by_rating``: place every pair not withdrawn by its
    combined rating now (the pairs' declared categories are replaced), else pairs keep a category
    of the same name and the others have none until :func:`set_pair_flight`."""
    _require_manager(by, tournament)
    tournament = _lock_tournament(tournament)
    rules = _rules(flights)
    if by_rating and any(r.min_rating is None for r in rules[:-1]):
        raise TournamentError(_("Every category but the last has a minimum rating."), "min_rating")
    before = {"flights": list(tournament.flights.values("name", "min_rating")), "pairs": _members(tournament)}
    kept = _members(tournament)
    tournament.flights.all().delete()
    made = [Flight.objects.create(tournament=tournament, name=r.name, position=i, min_rating=r.min_rating)
            for i, r in enumerate(rules, start=1)]
    by_name = {f.name: f for f in made}
    pairs = list(Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN))
    members = []
    if by_rating:
        from .ratings import pair_ratings

        combined = pair_ratings(pairs)
        for pair in pairs:
            shown = combined[pair.pk].display
            members.append(FlightMember(flight=by_name[flight_for(shown, rules)], pair=pair, by_rating=shown))
    else:
        members = [FlightMember(flight=by_name[kept[p.pk]], pair=p) for p in pairs if kept.get(p.pk) in by_name]
    FlightMember.objects.bulk_create(members)
    _audit(tournament, by, AuditEntry.Action.FLIGHTS_SET, before=before,
           after={"flights": [{"name": r.name, "min_rating": r.min_rating} for r in rules], "by_rating": by_rating,
                  "pairs": _members(tournament)})
    return made


@transaction.atomic
def set_pair_flight(pair: Pair, by, name: str | None) -> None:
    """A pair's declared category (``None``: none)."""
    tournament = pair.tournament
    _require_manager(by, tournament)
    _lock_tournament(tournament)
    flight = None
    if name is not None:
        flight = Flight.objects.filter(tournament=tournament, name=name).first()
        if flight is None:
            raise TournamentError(_("No category %(name)s in this tournament.") % {"name": name}, "flight")
    before = _members(tournament).get(pair.pk)
    FlightMember.objects.filter(pair=pair).delete()
    if flight is not None:
        FlightMember.objects.create(flight=flight, pair=pair)
    _audit(tournament, by, AuditEntry.Action.FLIGHTS_SET, before={"pair": pair.pk, "flight": before},
           after={"pair": pair.pk, "flight": name})


def flight_standings(tournament: Tournament) -> list[tuple[Flight, list]]:
    """Each category with its pairs' placings: ``[(flight, [(place in the category, StandingLine)])]``."""
    from tournaments.services.standings import standings

    flights = list(tournament.flights.order_by("position"))
    if not flights:
        return []
    rows = standings(tournament).rows
    line_of = {line.pair.pk: line for line in rows}
    places = flight_places([(line.pair.pk, line.rank) for line in rows], _members(tournament))
    return [(f, [(place, line_of[pk]) for place, pk in places.get(f.name, [])]) for f in flights]
