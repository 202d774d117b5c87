"""Standings: a total order of the pairs from match results and a chosen tiebreak order.

This module owns the ranking rules.  Input: the match results (pair A, pair B,
games and points ("tentos") won by each, the winner or ``None`` for a draw, a
walkover flag) and, for Swiss events, the byes.  Output: a ranking in which
every pair has a distinct rank, with the value of each criterion per pair.

Criteria (:class:`Tiebreak`), applied in the order the tournament chooses:

* ``MATCHES_WON`` - matches won (byes count as won when a bye is worth a win);
* ``MATCH_POINTS`` - 1 per win, 1/2 per draw (the "score" that Buchholz,
  median-Buchholz and Sonneborn-Berger are built on);
* ``GAMES_WON`` - games won;
* ``POINT_DIFFERENCE`` - "saldo de tentos": points scored minus conceded;
* ``POINTS_SCORED`` - points (tentos) scored;
* ``HEAD_TO_HEAD`` - match points in the matches played *among the pairs
  still tied* when the criterion is reached (a mini-table recomputed for each
  tied group, never over the whole field; the value reported for a pair that
  was no longer tied at that point is 0).  When the mini-table separates some
  of the tied pairs but not all, it is recomputed among each subset still
  tied, and so on until it separates no more; only then does the next
  criterion apply (A>B, A>C, D>A, B>C, B>D, C>D: A and B on 2, C and D on 1,
  then A>B and C>D give A, B, C, D).  The value reported is the pair's points
  in the last mini-table it was ranked in;
* ``BUCHHOLZ`` - sum of the opponents' match points;
* ``MEDIAN_BUCHHOLZ`` - Buchholz without the best and the worst opponent
  (only when there are at least three opponents);
* ``SONNEBORN_BERGER`` - opponents' match points, in full for wins and half
  for draws.

Pairs still tied after all criteria are separated by lot: a permutation drawn
with ``random.Random(lot_seed)`` over the pairs in input order.  The seed is
recorded in the result (drawn fresh when not given), so the same results and
the same seed always give the same standings.

Conventions (documented choices): a bye counts as a match won (``bye_value``:
a win, by default, as FIDE's pairing-allocated bye; a draw's half; or nothing)
and gives nothing in games or points; with ``bye_played`` it is also a match
played and won (drawn, lost), so played = won + drawn + lost; it has no
opponent, so it adds nothing to Buchholz or Sonneborn-Berger.  Games and points of a walkover count only with
``count_walkover_scores=True`` (default: the walkover counts as a win and
nothing else); walkover opponents count for Buchholz and head-to-head.  A
double forfeit (both pairs absent) is a match played and lost by each, with
no winner, no games, no points and no opponent met (nothing for Buchholz or
head-to-head): a "double W.O.", both lose.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from .base import PairId, require_unique

__all__ = [
    "ByeValue",
    "Tiebreak",
    "MatchResult",
    "PairRecord",
    "StandingRow",
    "Standings",
    "DEFAULT_TIEBREAKS",
    "DEFAULT_SWISS_TIEBREAKS",
    "default_tiebreaks_for",
    "compute_standings",
    "pair_records",
]


class Tiebreak(str, Enum):
    MATCHES_WON = "matches_won"
    MATCH_POINTS = "match_points"
    GAMES_WON = "games_won"
    POINT_DIFFERENCE = "point_difference"
    POINTS_SCORED = "points_scored"
    HEAD_TO_HEAD = "head_to_head"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"


#: the tiebreaks as an API's choices (the schema names their set ``TiebreakEnum``)
TIEBREAK_CHOICES = [(t.value, t.value) for t in Tiebreak]


class ByeValue(str, Enum):
    """What a bye (a round without an opponent) is worth, as the club decides (per stage)."""

    WIN = "win"  # a match won (FIDE's pairing-allocated bye: the points of a win), the default
    DRAW = "draw"  # half: a draw's match points, no match won
    NOTHING = "nothing"  # a rest: no points, no match won


BYE_POINTS = {ByeValue.WIN: Fraction(1), ByeValue.DRAW: Fraction(1, 2), ByeValue.NOTHING: Fraction(0)}


DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.MATCHES_WON,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.POINT_DIFFERENCE,
    Tiebreak.POINTS_SCORED,
)
"""Round robin, groups and knockouts: everybody meets the same opponents, so their results decide."""

DEFAULT_SWISS_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.MATCHES_WON,
    Tiebreak.BUCHHOLZ,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.POINT_DIFFERENCE,
    Tiebreak.POINTS_SCORED,
)
"""A Swiss: pairs level on wins met different opponents, so the strength of those opponents
(Buchholz, FIDE's first Swiss tiebreak) comes before head-to-head and the tentos."""


def default_tiebreaks_for(format: str | None) -> tuple[Tiebreak, ...]:
    """The default tiebreak order of a stage of ``format`` (the format's name, ``"swiss"`` ...)."""
    return DEFAULT_SWISS_TIEBREAKS if format == "swiss" else DEFAULT_TIEBREAKS


@dataclass(frozen=True)
class MatchResult:
    """One finished match between two pairs."""

    pair_a: PairId
    pair_b: PairId
    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0
    winner: PairId | None = None  # None: a draw (or, with double_forfeit, nobody)
    walkover: bool = False
    double_forfeit: bool = False  # both absent: no winner, a loss for each, nothing else

    def __post_init__(self) -> None:
        if self.pair_a == self.pair_b:
            raise ValueError("a pair cannot play itself")
        if self.double_forfeit and self.winner is not None:
            raise ValueError("a double forfeit has no winner")
        if self.winner is not None and self.winner not in (self.pair_a, self.pair_b):
            raise ValueError(f"winner {self.winner!r} did not play this match")


@dataclass
class PairRecord:
    """Raw totals of one pair (before ranking)."""

    pair_id: PairId
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    games_for: int = 0
    games_against: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: list[tuple[PairId, Fraction]] = field(default_factory=list)  # (opponent, result 1/½/0)
    bye_value: ByeValue = ByeValue.WIN
    bye_played: bool = False  # the byes are in played and in won / drawn / lost already

    @property
    def match_points(self) -> Fraction:
        extra = Fraction(0) if self.bye_played else BYE_POINTS[self.bye_value] * self.byes
        return Fraction(self.won) + Fraction(self.drawn, 2) + extra

    @property
    def matches_won(self) -> int:
        """Matches won, a bye worth a win included (once: ``won`` holds it when byes count as played)."""
        if self.bye_value is ByeValue.WIN and not self.bye_played:
            return self.won + self.byes
        return self.won


@dataclass(frozen=True)
class StandingRow:
    rank: int
    pair_id: PairId
    values: Mapping[Tiebreak, Fraction | int]
    lot: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    games_for: int
    games_against: int
    points_for: int
    points_against: int
    score: Fraction = Fraction(0)  # match points, the bye's value included


@dataclass(frozen=True)
class Standings:
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[Tiebreak, ...]
    lot_seed: int
    bye_value: ByeValue = ByeValue.WIN
    bye_played: bool = False

    def ranking(self) -> list[PairId]:
        return [r.pair_id for r in self.rows]


def pair_records(
    results: Iterable[MatchResult],
    *,
    pairs: Sequence[PairId] = (),
    byes: Iterable[PairId] = (),
    count_walkover_scores: bool = False,
    bye_value: ByeValue | str = ByeValue.WIN,
    bye_played: bool = False,
) -> dict[PairId, PairRecord]:
    """Totals per pair, in order of first appearance (``pairs`` first). With ``bye_played`` a bye
    is also a match played and, by ``bye_value``, won, drawn or lost, so that played = won +
    drawn + lost always holds."""
    records: dict[PairId, PairRecord] = {}
    bye_value = ByeValue(bye_value)

    def rec(p: PairId) -> PairRecord:
        if p not in records:
            records[p] = PairRecord(p, bye_value=bye_value, bye_played=bye_played)
        return records[p]

    for p in require_unique(pairs):
        rec(p)
    for r in results:
        a, b = rec(r.pair_a), rec(r.pair_b)
        for me, other, gf, ga, pf, pa in (
            (a, b, r.games_a, r.games_b, r.points_a, r.points_b),
            (b, a, r.games_b, r.games_a, r.points_b, r.points_a),
        ):
            me.played += 1
            if r.double_forfeit:
                me.lost += 1
                outcome = Fraction(0)
            elif r.winner is None:
                me.drawn += 1
                outcome = Fraction(1, 2)
            elif r.winner == me.pair_id:
                me.won += 1
                outcome = Fraction(1)
            else:
                me.lost += 1
                outcome = Fraction(0)
            if r.double_forfeit:
                continue  # no opponent met, no games, no tentos
            me.opponents.append((other.pair_id, outcome))
            if count_walkover_scores or not r.walkover:
                me.games_for += gf
                me.games_against += ga
                me.points_for += pf
                me.points_against += pa
    for p in byes:
        r = rec(p)
        r.byes += 1
        if bye_played:
            r.played += 1
            if bye_value is ByeValue.WIN:
                r.won += 1
            elif bye_value is ByeValue.DRAW:
                r.drawn += 1
            else:
                r.lost += 1
    return records


def lot_numbers(ids: Iterable[PairId], lot_seed: int) -> dict[PairId, int]:
    """Each pair's lot, 1..n: each pair draws from ``Random(f"{seed}:{pair!r}")``, so the draw of a
    pair depends only on the recorded seed and the pair itself, and the pairs tied in a group
    table come in the same order as in the overall table (or any other subset)."""
    keyed = sorted(ids, key=lambda p: (random.Random(f"{lot_seed}:{p!r}").random(), repr(p)))
    return {p: n for n, p in enumerate(keyed, start=1)}


def compute_standings(
    results: Iterable[MatchResult],
    tiebreaks: Sequence[Tiebreak | str] = DEFAULT_TIEBREAKS,
    *,
    pairs: Sequence[PairId] = (),
    byes: Iterable[PairId] = (),
    lot_seed: int | None = None,
    count_walkover_scores: bool = False,
    bye_value: ByeValue | str = ByeValue.WIN,
    bye_played: bool = False,
    ranked_last: Collection[PairId] = (),
) -> Standings:
    """Rank every pair: criteria in ``tiebreaks`` order, then lot with ``lot_seed``. A bye is
    worth ``bye_value`` (a win by default) and, with ``bye_played``, counts in played / won /
    drawn / lost too. ``ranked_last`` (withdrawn and disqualified pairs, when the stage ranks them
    last) come after every other pair, each part ranked on its own: head-to-head is then counted
    among the pairs still in only (a cycle broken by a disqualified pair's results does not decide
    between the pairs that stayed)."""
    results = list(results)
    order = tuple(Tiebreak(t) for t in tiebreaks)
    if len(set(order)) != len(order):
        raise ValueError("each tiebreak may appear once")
    bye_value = ByeValue(bye_value)
    records = pair_records(results, pairs=pairs, byes=byes, count_walkover_scores=count_walkover_scores,
                           bye_value=bye_value, bye_played=bye_played)
    ids = list(records)
    if lot_seed is None:
        lot_seed = random.SystemRandom().randrange(2**31)
    lot_of = lot_numbers(ids, lot_seed)

    score = {p: records[p].match_points for p in ids}
    static: dict[Tiebreak, dict[PairId, Fraction | int]] = {}
    for t in order:
        if t is Tiebreak.HEAD_TO_HEAD:
            continue
        static[t] = {p: _value(t, records[p], score) for p in ids}

    head_to_head: dict[PairId, Fraction] = {}
    results_of: dict[PairId, list[int]] = {}
    for k, r in enumerate(results):
        results_of.setdefault(r.pair_a, []).append(k)
        results_of.setdefault(r.pair_b, []).append(k)

    def split(group: list[PairId], level: int) -> list[list[PairId]]:
        """Order ``group`` (tied on criteria < level) by criteria >= level."""
        if len(group) == 1 or level == len(order):
            return [sorted(group, key=lambda p: lot_of[p])]
        t = order[level]
        if t is Tiebreak.HEAD_TO_HEAD:
            members = set(group)
            values: dict[PairId, Fraction | int] = {p: Fraction(0) for p in group}
            seen: set[int] = set()
            for k in (k for p in group for k in results_of.get(p, ())):
                if k in seen:
                    continue
                seen.add(k)
                r = results[k]
                if r.pair_a in members and r.pair_b in members and not r.double_forfeit:
                    if r.winner is None:
                        values[r.pair_a] += Fraction(1, 2)
                        values[r.pair_b] += Fraction(1, 2)
                    else:
                        values[r.winner] += 1
            for p in group:
                head_to_head[p] = values[p]  # type: ignore[assignment]
        else:
            values = static[t]
        buckets: dict[Fraction | int, list[PairId]] = {}
        for p in group:
            buckets.setdefault(values[p], []).append(p)
        out: list[list[PairId]] = []
        for v in sorted(buckets, reverse=True):
            bucket = buckets[v]
            if t is Tiebreak.HEAD_TO_HEAD and 1 < len(bucket) < len(group):
                # The mini-table separated some pairs: head-to-head again among those still tied.
                out.extend(split(bucket, level))
            else:
                out.extend(split(bucket, level + 1))
        return out

    last = set(ranked_last)
    parts = [[p for p in ids if p not in last], [p for p in ids if p in last]]
    ranked = [p for part in parts if part for chunk in split(part, 0) for p in chunk]
    rows = []
    for rank, p in enumerate(ranked, start=1):
        rec_ = records[p]
        values: dict[Tiebreak, Fraction | int] = {}
        for t in order:
            values[t] = head_to_head.get(p, Fraction(0)) if t is Tiebreak.HEAD_TO_HEAD else static[t][p]
        rows.append(
            StandingRow(
                rank=rank,
                pair_id=p,
                values=values,
                lot=lot_of[p],
                played=rec_.played,
                won=rec_.won,
                drawn=rec_.drawn,
                lost=rec_.lost,
                byes=rec_.byes,
                games_for=rec_.games_for,
                games_against=rec_.games_against,
                points_for=rec_.points_for,
                points_against=rec_.points_against,
                score=rec_.match_points,
            )
        )
    return Standings(tuple(rows), order, lot_seed, bye_value, bye_played)


def _value(t: Tiebreak, rec: PairRecord, score: Mapping[PairId, Fraction]) -> Fraction | int:
    if t is Tiebreak.MATCHES_WON:
        return rec.matches_won
    if t is Tiebreak.MATCH_POINTS:
        return rec.match_points
    if t is Tiebreak.GAMES_WON:
        return rec.games_for
    if t is Tiebreak.POINT_DIFFERENCE:
        return rec.points_for - rec.points_against
    if t is Tiebreak.POINTS_SCORED:
        return rec.points_for
    opp_scores = [score[o] for o, _ in rec.opponents]
    if t is Tiebreak.BUCHHOLZ:
        return sum(opp_scores, Fraction(0))
    if t is Tiebreak.MEDIAN_BUCHHOLZ:
        if len(opp_scores) >= 3:
            opp_scores = sorted(opp_scores)[1:-1]
        return sum(opp_scores, Fraction(0))
    if t is Tiebreak.SONNEBORN_BERGER:
        return sum((score[o] * outcome for o, outcome in rec.opponents), Fraction(0))
    raise ValueError(f"unknown tiebreak {t!r}")  # pragma: no cover
