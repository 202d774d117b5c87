"""A circuit's (season's) ranking from its stages' final placings (pure: no Django).

A circuit groups tournaments ("stages") of one organizer. Each stage gives every entrant a
final place; the circuit's rules turn places into points and the points into a ranking:

* **points per final place**: a table (``points[0]`` for 1st, ``points[1]`` for 2nd, ...),
  never increasing down the table; a place past the table is worth ``beyond`` (participation
  points, default 0). A shared place (two pairs 3rd) gives each the points of that place.
* **best N of M**: only an entrant's ``best_of`` best stage scores count (``None``: all). The
  stages counted are chosen by points, then the better place, then the later stage.
* **entrants**: the same computation ranks players (the entrant is a player id: both partners
  of a pair get the pair's place) and pairs (the entrant is the *set* of its two player ids,
  so a pair that plays again together is the same entrant whatever its name; partners who
  change make new pairs). :func:`player_results` and :func:`pair_results` build both.

**Tiebreaks**, in order (the first that separates two entrants decides):

1. the counted points (best N), more is better;
2. the points of every stage played (the discarded ones included);
3. countback: more first places, then more second places, and so on (every stage played);
4. recency: the better place in the latest stage where the two differ (not playing that stage
   is worse than any place); "latest" by the stages' dates (``when``), not the order in which
   they were added to the circuit;
5. still equal: the place is shared (standard competition ranking 1, 2, 2, 4).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Hashable, Iterable, Mapping

TIEBREAKS = ("counted_points", "total_points", "countback", "recency")


@dataclass(frozen=True)
class CircuitRules:
    """Points per final place (1st first), the points of any place past the table, and how many
    stages count (``None``: all)."""

    points: tuple[int, ...]
    beyond: int = 0
    best_of: int | None = None

    def __post_init__(self) -> None:
        if not self.points:
            raise ValueError("points: the table needs at least the points of the 1st place")
        if any(p < 0 for p in self.points) or self.beyond < 0:
            raise ValueError("points: points are never negative")
        if any(a < b for a, b in zip(self.points, self.points[1:])) or self.beyond > self.points[-1]:
            raise ValueError("points: a better place is never worth fewer points")
        if self.best_of is not None and self.best_of < 1:
            raise ValueError("best_of: at least one stage counts")

    def points_for(self, place: int) -> int:
        if place < 1:
            raise ValueError("place: places are numbered from 1")
        return self.points[place - 1] if place <= len(self.points) else self.beyond


@dataclass(frozen=True)
class StageResult:
    """One entrant's final place in one stage; ``stage`` numbers the stages in the order played."""

    stage: int
    entrant: Hashable
    place: int


@dataclass(frozen=True)
class StageScore:
    stage: int
    place: int
    points: int
    counted: bool


@dataclass(frozen=True)
class CircuitLine:
    rank: int
    entrant: Hashable
    counted_points: int
    total_points: int
    stages: tuple[StageScore, ...]  # in the order played
    decided_by: str | None  # what put it below the line above (one of TIEBREAKS; None: first, or shared)

    @property
    def played(self) -> int:
        return len(self.stages)


def player_results(placings: Iterable[tuple[int, tuple[Hashable, ...], int]]) -> list[StageResult]:
    """``(stage, player ids of a pair, place)`` rows to per-player results."""
    return [StageResult(stage, player, place) for stage, players, place in placings for player in players]


def pair_results(placings: Iterable[tuple[int, tuple[Hashable, ...], int]]) -> list[StageResult]:
    """``(stage, player ids of a pair, place)`` rows to per-pair results (a pair is its players' set)."""
    return [StageResult(stage, frozenset(players), place) for stage, players, place in placings]


def _scores(rules: CircuitRules, results: list[StageResult], when) -> tuple[StageScore, ...]:
    later_first = sorted(results, key=lambda r: when(r.stage), reverse=True)
    by_value = sorted(later_first, key=lambda r: (-rules.points_for(r.place), r.place))
    keep = len(by_value) if rules.best_of is None else rules.best_of
    counted = {r.stage for r in by_value[:keep]}
    return tuple(StageScore(r.stage, r.place, rules.points_for(r.place), r.stage in counted)
                 for r in sorted(results, key=lambda r: when(r.stage)))


def _compare(a: tuple[StageScore, ...], b: tuple[StageScore, ...], when=lambda stage: stage) -> tuple[int, str | None]:
    """Negative when ``a`` ranks above ``b``, with the tiebreak that decided."""
    ca, cb = sum(s.points for s in a if s.counted), sum(s.points for s in b if s.counted)
    if ca != cb:
        return cb - ca, "counted_points"
    ta, tb = sum(s.points for s in a), sum(s.points for s in b)
    if ta != tb:
        return tb - ta, "total_points"
    places_a, places_b = sorted(s.place for s in a), sorted(s.place for s in b)
    for place in sorted(set(places_a) | set(places_b)):
        na, nb = places_a.count(place), places_b.count(place)
        if na != nb:
            return nb - na, "countback"
    by_stage_a, by_stage_b = {s.stage: s.place for s in a}, {s.stage: s.place for s in b}
    for stage in sorted(set(by_stage_a) | set(by_stage_b), key=when, reverse=True):
        pa, pb = by_stage_a.get(stage), by_stage_b.get(stage)
        if pa != pb:
            if pa is None:
                return 1, "recency"
            if pb is None:
                return -1, "recency"
            return pa - pb, "recency"
    return 0, None


def circuit_ranking(rules: CircuitRules, results: Iterable[StageResult],
                    when: Mapping[int, object] | None = None) -> list[CircuitLine]:
    """Rank every entrant of ``results`` (see the module's tiebreaks). Entrants fully tied share
    a rank and are listed in the order of ``repr`` of their ids (stable, not a ranking).
    ``when`` maps each stage to its place in time (a date, then the stage number: ``(date,
    number)``), what "later" means for recency and for the stages counted; without it the stage
    numbers are taken as the order played."""
    order_of = (lambda stage: when[stage]) if when is not None else (lambda stage: stage)
    per_entrant: dict[Hashable, list[StageResult]] = defaultdict(list)
    seen: set[tuple[int, Hashable]] = set()
    for r in results:
        if (r.stage, r.entrant) in seen:
            raise ValueError(f"results: entrant {r.entrant!r} has two places in stage {r.stage}")
        seen.add((r.stage, r.entrant))
        rules.points_for(r.place)  # validates the place
        per_entrant[r.entrant].append(r)
    scores = {e: _scores(rules, rs, order_of) for e, rs in per_entrant.items()}

    def order(e1, e2) -> int:
        c, _ = _compare(scores[e1], scores[e2], order_of)
        return c or ((_key(e1) > _key(e2)) - (_key(e1) < _key(e2)))

    entrants = sorted(scores, key=cmp_to_key(order))
    lines: list[CircuitLine] = []
    for i, e in enumerate(entrants):
        rank, decided = i + 1, None
        if i:
            c, decided = _compare(scores[entrants[i - 1]], scores[e], order_of)
            if c == 0:
                rank = lines[-1].rank
        s = scores[e]
        lines.append(CircuitLine(rank, e, sum(x.points for x in s if x.counted), sum(x.points for x in s), s,
                                 decided))
    return lines


def _key(entrant: Hashable) -> str:
    return repr(sorted(entrant, key=repr)) if isinstance(entrant, frozenset) else repr(entrant)
