"""Categories (flights) of a tournament and the placings within each (pure: no Django).

A tournament's pairs all play one event; its flights (A, B, C...) only rank them apart, as
bridge and golf flights do. A pair's flight is either declared (its level, chosen at
registration) or given by its rating: the flights are ordered from the strongest, each with the
lowest rating it takes (``min_rating``); a pair goes to the first flight whose minimum its
rating reaches, the last flight (no minimum) takes the rest, unrated pairs included.

The placings of a flight are the tournament's final places of its pairs, renumbered: a pair's
place in its flight is one more than the number of pairs of that flight placed strictly
better overall (a place shared overall stays shared: 1, 2, 2, 4).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence


@dataclass(frozen=True)
class FlightRule:
    name: str
    min_rating: int | None = None


def check_flights(flights: Sequence[FlightRule]) -> None:
    """Names given and distinct; minimums strictly decreasing; only the last flight without one."""
    names = [f.name.strip() for f in flights]
    if any(not n for n in names) or len(set(names)) != len(names):
        raise ValueError("flights: each flight has a name of its own")
    mins = [f.min_rating for f in flights]
    if any(m is None for m in mins[:-1]):
        raise ValueError("min_rating: every flight but the last has a minimum rating")
    given = [m for m in mins if m is not None]
    if any(a <= b for a, b in zip(given, given[1:])):
        raise ValueError("min_rating: the minimums go down from the first flight to the last")


def flight_for(rating: float | None, flights: Sequence[FlightRule]) -> str:
    """The flight a pair of ``rating`` (``None``: unrated) plays in: the first whose minimum it reaches."""
    if not flights:
        raise ValueError("flights: no flight")
    for f in flights:
        if f.min_rating is None or (rating is not None and rating >= f.min_rating):
            return f.name
    return flights[-1].name


def flight_places(ranked: Iterable[tuple[Hashable, int]], flight_of: Mapping[Hashable, str]
                  ) -> dict[str, list[tuple[int, Hashable]]]:
    """``(pair, overall place)`` in the overall order, to each flight's ``(place, pair)`` list;
    pairs without a flight are left out."""
    per: dict[str, list[tuple[Hashable, int]]] = defaultdict(list)
    for pair, place in ranked:
        if pair in flight_of:
            per[flight_of[pair]].append((pair, place))
    out: dict[str, list[tuple[int, Hashable]]] = {}
    for name, rows in per.items():
        rows = sorted(rows, key=lambda r: r[1])  # stable: equal places keep the overall order
        out[name] = [(1 + sum(1 for _, q in rows if q < place), pair) for pair, place in rows]
    return out
