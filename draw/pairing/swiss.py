"""Swiss-system pairing of one round as a maximum-weight matching.

This module owns the pairing of a Swiss round: given the pairs in standing
order with their score, past opponents and byes received, it returns the
boards of the next round and the bye.

Criteria, in strict lexicographic priority
-------------------------------------------
1. **No rematch, no second bye, while avoidable.**  The number of rematches
   (plus byes given to a pair that already had more byes than the least
   served pair) is minimised globally.
2. **The bye** goes to the lowest-standing pair among those with the fewest
   byes so far (so nobody gets a second bye while a pair without one remains).
3. **Score**: minimise the sum over boards of the squared score difference
   (in half points), i.e. pair inside score groups and float as little and as
   near as possible.
4. **Standing order** (stable tie-break), by the round's :class:`SwissOrder`:

   * ``FOLD`` (the default; FIDE's Dutch system, Challonge, start.gg): inside
     a score group of ``m`` pairs the top half meets the bottom half, 1-5, 2-6,
     3-7, 4-8 for 8 (round one is one score group, so 1-5, 2-6, 3-7, 4-8 for 8
     pairs seeded by order or rating).  For two pairs of one score group at
     places ``a < b`` in it (0-based) the cost is ``(b - a - m // 2) ** 2``,
     plus ``m ** 2`` when both sit in the same half (``b < m // 2`` or
     ``a >= m - m // 2``), so a rematch is avoided by moving a bottom-half
     pair (1-6, 2-5) rather than by pairing inside a half (1-4, 5-8).  In an
     odd group the middle pair belongs to either half, since one pair is left
     over: the lowest when it floats down (1-3, 2-4 and 5 floats, for 5), the
     highest when it meets a pair floating down from above (then 2-4, 3-5).
     A board across score groups (a floater) costs the squared distance in the
     standing order, so the floater meets the nearest pair of the next group;
   * ``NEIGHBOUR`` (an option, the "Monrad" pattern): the squared distance in
     the standing order for every board, which yields 1-2, 3-4, ... whenever
     nothing above forbids it, and otherwise the nearest deviation (1-3, 2-4
     rather than 1-4, 2-3).

   The minimised quantity is the sum of these costs over the boards.

Each criterion is an integer tier of the edge weight, and the tiers are
scaled (with Python's exact big integers) so that any gain in a higher tier
outweighs every possible loss in all lower tiers together.  A maximum-weight
maximum-cardinality matching (:mod:`.matching`, rustworkx's exact Edmonds
blossom algorithm) therefore optimises the criteria exactly over the graph it
is given; when the score groups can be provably paired apart, each block of
groups is matched on its own (:mod:`.swiss_blocks`, same optimum, faster).
This is not a greedy pass: floaters, crossings and chains of swaps are all
found by the matching.  With an odd number of pairs a dummy "bye" vertex is
added and its edges carry tier 2.

Candidate window (how 4,096 pairs fit in a second or so)
---------------------------------------------------------
The complete graph on 4,096 pairs has 8.4 million edges, far too many for a
blossom algorithm within a second.  Every pair is instead connected only to the pairs
within ``window`` places of it in the standing order (default
``2 * max_games_played + 8``, which spans the own score group and, near a
group boundary, the neighbouring groups), and with ``FOLD`` also to the pairs
of its score group within ``window`` places of its fold partner (half the
group further down), minus past opponents; the bye vertex is connected to
every bye-eligible pair.  Then:

* if the matching on that graph is **not perfect**, the unmatched pairs are
  connected to every allowed opponent, and if that is not enough the window is
  doubled, up to the complete graph of allowed (non-rematch) edges;
* only if even the complete allowed graph has no perfect matching are
  rematches (and repeated byes) admitted, over the complete graph, with the
  tier-1 penalty, so their number is the smallest possible.  By Dirac's theorem
  (minimum degree at least half the order gives a Hamiltonian cycle, hence a
  perfect matching on an even order) this can only happen when some pair has
  already met about half of the field, or, with an odd field, when fewer than
  about half of the pairs are still bye-eligible: small or very long events.

Guarantees (what is proven, and what is not)
---------------------------------------------
* Tier 1 is **exact** (globally optimal): a rematch or repeated bye is
  returned only when no pairing of the whole field avoids it.  Widening is
  driven by perfectness, and the last resort is the complete graph.
* Tier 2 (who gets the bye) is exact among all pairings on the candidate
  graph, whose bye edges are complete, so the bye always goes to the
  lowest-standing eligible pair for which the rest of the field can still be
  paired without rematch inside the candidate graph.
* Tiers 3 and 4 are **exact on the candidate graph** but not proven globally
  optimal: a pairing that needs a partner more than ``window`` places away in
  the standing order is not considered while a perfect matching exists inside
  the window.  Since the weights penalise standing distance quadratically such
  pairings are never attractive unless the window is exhausted; the tests
  compare the windowed result with the complete-graph optimum on random
  5-round histories and with brute force on small fields.
* Determinism: the same input always gives the same output.  Among equally
  good pairings, the one returned is the one the matching search reaches first
  over the edges in the order the candidate graph lists them (the window's
  edges by standing of the higher pair, then of the lower; then the widened
  pairs' extra edges; the bye vertex's edges last): see :mod:`.matching`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from numbers import Real

from .base import PairId, require_unique
from .matching import max_weight_matching
from .standings import MatchResult, Standings
from .swiss_blocks import solve_by_score_groups

__all__ = [
    "SwissOrder",
    "SwissEntrant",
    "SwissPairing",
    "SwissRound",
    "pair_swiss_round",
    "default_window",
    "recommended_swiss_rounds",
    "entrants_from_history",
    "entrants_from_standings",
]


class SwissOrder(str, Enum):
    """How pairs of one score group are matched (criterion 4 of the module docstring)."""

    FOLD = "fold"  # top half v bottom half (1-5, 2-6, 3-7, 4-8): FIDE Dutch, Challonge, start.gg
    NEIGHBOUR = "neighbour"  # 1-2, 3-4, ... ("Monrad")


@dataclass(frozen=True)
class SwissEntrant:
    """A pair as the Swiss pairer sees it, listed in standing order.

    ``score`` is the match score so far (a multiple of 1/2); ``opponents`` the
    pairs already met (walkovers included or not, as the caller decides);
    ``byes`` how many byes the pair has received.
    """

    pair_id: PairId
    score: Real | Fraction | int = 0
    opponents: frozenset[PairId] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True)
class SwissPairing:
    """One board: ``home`` is the higher-standing pair."""

    board: int
    home: PairId
    away: PairId
    rematch: bool = False


@dataclass(frozen=True)
class SwissRound:
    """The result of :func:`pair_swiss_round`."""

    pairings: tuple[SwissPairing, ...]
    bye: PairId | None
    rematches: int
    repeated_bye: bool
    window: int
    complete_graph_fallback: bool
    # avoided pairs (``avoid``: same club, same family) paired all the same because no pairing of
    # the field without a rematch kept them apart, as (home, away)
    unavoided: tuple[tuple[PairId, PairId], ...] = ()


def recommended_swiss_rounds(pair_count: int) -> int:
    """``ceil(log2(pair_count))``: enough rounds to leave one unbeaten pair."""
    if pair_count <= 1:
        return 0
    return (pair_count - 1).bit_length()


def default_window(entrants: Sequence[SwissEntrant]) -> int:
    """Initial candidate window: ``2 * max opponents met + 8`` standing places."""
    played = max((len(e.opponents) for e in entrants), default=0)
    return 2 * played + 8


def _half_points(score: object) -> int:
    if type(score) is int:
        return 2 * score
    value = Fraction(score) * 2  # type: ignore[arg-type]
    if value.denominator != 1:
        raise ValueError(f"Swiss scores must be multiples of 1/2, got {score!r}")
    return int(value)


def pair_swiss_round(
    entrants: Sequence[SwissEntrant],
    *,
    window: int | None = None,
    order: SwissOrder | str = SwissOrder.FOLD,
    avoid: Iterable[Iterable[PairId]] = (),
) -> SwissRound:
    """Pair one Swiss round.

    ``entrants`` must be in standing order (best first).  They are stably
    re-sorted by score, so ties keep the caller's order (its tie-breaks).
    ``order`` chooses how a score group is paired: top half against bottom
    half (``"fold"``, the default) or neighbours (``"neighbour"``).
    ``avoid`` lists pairs of pairs that should not meet (same club, same family):
    a cost between criteria 1 and 2 (no avoidable rematch comes first; then as few
    avoided boards as possible, before the bye and the scores), never a hard
    rule; those paired all the same are in ``unavoided``.
    """
    order = SwissOrder(order)
    require_unique((e.pair_id for e in entrants), "Swiss entrants")
    halves = [_half_points(e.score) for e in entrants]
    by_score = sorted(range(len(entrants)), key=lambda i: -halves[i])
    players = [entrants[i] for i in by_score]
    n = len(players)
    if window is None:
        window = default_window(players)
    if window < 1:
        raise ValueError("window must be at least 1")
    if n == 0:
        return SwissRound((), None, 0, False, window, False)
    if n == 1:
        only = players[0]
        return SwissRound((), only.pair_id, 0, only.byes > 0, window, False)

    index = {p.pair_id: i for i, p in enumerate(players)}
    score = [halves[i] for i in by_score]
    forbidden: list[set[int]] = [set() for _ in range(n)]
    for i, p in enumerate(players):
        for opp in p.opponents:
            j = index.get(opp)
            if j is not None and j != i:
                forbidden[i].add(j)
                forbidden[j].add(i)

    avoided: list[set[int]] = [set() for _ in range(n)]
    for pair in avoid:
        a, b = tuple(pair)
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and i != j:
            avoided[i].add(j)
            avoided[j].add(i)
    any_avoided = any(avoided)

    odd = n % 2 == 1
    bye_vertex = n if odd else -1
    vertex_count = n + 1 if odd else n
    fewest_byes = min(p.byes for p in players)
    bye_eligible = [p.byes == fewest_byes for p in players]

    solver = _Solver(n, score, forbidden, bye_vertex, bye_eligible, order, avoided)
    wide: set[int] = set()
    current = min(window, n)
    mate: list[int] | None = None
    fallback = False
    while True:
        weighted = solver.weigh(solver.candidate_edges(current, wide), rematch_penalty=False)
        # the blocks' proof holds for the tiers below the bye only: not with an avoidance tier above it
        mate = None if any_avoided else solve_by_score_groups(vertex_count, weighted, score, bye_vertex,
                                                               bye_eligible)
        if mate is None:
            mate = max_weight_matching(vertex_count, weighted)
        unmatched = [v for v in range(vertex_count) if mate[v] == -1]
        if not unmatched:
            if current < n and any(mate[v] in avoided[v] for v in range(n)):
                # an avoided board inside the window: the complete allowed graph says whether a
                # pairing without it exists (exact for criteria 1 and 1b, as rematches are)
                wide_mate = max_weight_matching(vertex_count, solver.weigh(solver.candidate_edges(n, set(range(n))),
                                                                           rematch_penalty=False))
                if all(v != -1 for v in wide_mate):
                    mate, current = wide_mate, n
            break
        if current >= n:
            # Even the complete allowed graph has no perfect matching.
            fallback = True
            candidate = solver.complete_edges()
            mate = max_weight_matching(vertex_count, solver.weigh(candidate, rematch_penalty=True))
            break
        new_wide = set(unmatched) - {bye_vertex}
        if new_wide - wide:
            wide |= new_wide
        else:
            current = min(2 * current, n)
            if current >= n:
                wide = set(range(n))

    assert mate is not None and all(v != -1 for v in mate)
    boards: list[tuple[int, int]] = []
    bye_pair: PairId | None = None
    repeated_bye = False
    rematches = 0
    for v in range(n):
        u = mate[v]
        if u == bye_vertex:
            bye_pair = players[v].pair_id
            repeated_bye = not bye_eligible[v]
        elif u > v:
            boards.append((v, u))
    pairings = []
    unavoided = []
    for board, (v, u) in enumerate(sorted(boards), start=1):
        is_rematch = u in forbidden[v]
        rematches += is_rematch
        pairings.append(SwissPairing(board, players[v].pair_id, players[u].pair_id, is_rematch))
        if u in avoided[v]:
            unavoided.append((players[v].pair_id, players[u].pair_id))
    return SwissRound(tuple(pairings), bye_pair, rematches, repeated_bye, current, fallback, tuple(unavoided))


class _Solver:
    """Builds candidate graphs and their lexicographic integer weights."""

    def __init__(
        self,
        n: int,
        score: list[int],
        forbidden: list[set[int]],
        bye_vertex: int,
        bye_eligible: list[bool],
        order: SwissOrder = SwissOrder.FOLD,
        avoided: list[set[int]] | None = None,
    ) -> None:
        self.n = n
        self.avoided = avoided or [set() for _ in range(n)]
        self.score = score
        self.forbidden = forbidden
        self.bye_vertex = bye_vertex
        self.bye_eligible = bye_eligible
        self.order = order
        # Score groups: where each pair's group starts in the standing order, and its size.
        self.group_start: list[int] = []
        self.group_size: dict[int, int] = {}
        for i in range(n):
            start = i if i == 0 or score[i] != score[i - 1] else self.group_start[i - 1]
            self.group_start.append(start)
            self.group_size[start] = self.group_size.get(start, 0) + 1

    def order_cost(self, i: int, j: int) -> int:
        """Tier 4 of board ``i < j`` (standing places): see :class:`SwissOrder`."""
        if self.order is SwissOrder.NEIGHBOUR or self.score[i] != self.score[j]:
            return (j - i) * (j - i)
        start = self.group_start[i]
        m = self.group_size[start]
        half = m // 2
        a, b = i - start, j - start
        cost = (b - a - half) * (b - a - half)
        if b < half or a >= m - half:  # both in the top half, or both in the bottom half
            cost += m * m
        return cost

    def candidate_edges(self, window: int, wide: set[int]) -> list[tuple[int, int, bool]]:
        """Allowed edges ``(i, j, is_rematch=False)`` inside the window, plus wide vertices' edges."""
        n = self.n
        forbidden = self.forbidden
        edges: list[tuple[int, int, bool]] = []
        for i in range(n):
            fi = forbidden[i]
            hi = n if i in wide else min(n, i + window + 1)
            for j in range(i + 1, hi):
                if j not in fi:
                    edges.append((i, j, False))
        for i in sorted(wide):
            fi = forbidden[i]
            for j in range(0, i - window):
                # j < i - window: outside j's own window, add unless j is wide too.
                if j not in wide and j not in fi:
                    edges.append((j, i, False))
        if self.order is SwissOrder.FOLD:
            # The fold partner sits half a score group away: add the window around it too.
            for i in range(n):
                if i in wide:
                    continue  # already joined to every later pair
                start = self.group_start[i]
                centre = i + self.group_size[start] // 2
                lo = max(i + window + 1, centre - window)
                hi = min(start + self.group_size[start], centre + window + 1)
                fi = forbidden[i]
                for j in range(lo, hi):
                    # j > i + window; (i, j) is already there when j is wide and i is outside its window.
                    if j not in fi and not (j in wide and i < j - window):
                        edges.append((i, j, False))
        if self.bye_vertex != -1:
            for i in range(n):
                if self.bye_eligible[i]:
                    edges.append((i, self.bye_vertex, False))
        return edges

    def complete_edges(self) -> list[tuple[int, int, bool]]:
        n = self.n
        edges = [(i, j, j in self.forbidden[i]) for i in range(n) for j in range(i + 1, n)]
        if self.bye_vertex != -1:
            edges.extend((i, self.bye_vertex, not self.bye_eligible[i]) for i in range(n))
        return edges

    def weigh(
        self, edges: Iterable[tuple[int, int, bool]], *, rematch_penalty: bool
    ) -> list[tuple[int, int, int]]:
        edges = list(edges)
        n = self.n
        score = self.score
        bye_vertex = self.bye_vertex
        max_sc = 0
        max_rc = 0
        for i, j, _ in edges:
            if j == bye_vertex:
                continue
            d = score[i] - score[j]
            if d * d > max_sc:
                max_sc = d * d
            r = self.order_cost(i, j)
            if r > max_rc:
                max_rc = r
        boards = n // 2 + 1
        k_score = boards * max_rc + 1
        k_bye = boards * (k_score * max_sc + max_rc) + 1
        below = boards * (k_score * max_sc + max_rc) + k_bye * (n + 1) + 1  # more than every lower tier
        # tier 1b: one avoided board fewer outweighs the bye, the scores and the order together
        k_avoid = below if any(self.avoided) else 0
        k_rematch = below + k_avoid * boards  # the weights of a field without avoided pairs are unchanged
        avoided = self.avoided
        out: list[tuple[int, int, int]] = []
        for i, j, rematch in edges:
            if j == bye_vertex:
                # Every perfect matching holds exactly one bye edge, so the
                # constant shift (keeping weights <= 0) changes no comparison.
                w = -k_bye * (n - i)
            else:
                d = score[i] - score[j]
                w = -(k_score * d * d + self.order_cost(i, j))
                if j in avoided[i]:
                    w -= k_avoid
            if rematch and rematch_penalty:
                w -= k_rematch
            out.append((i, j, w))
        return out


def entrants_from_history(
    standing_order: Sequence[PairId],
    scores: Mapping[PairId, object],
    opponents: Mapping[PairId, Iterable[PairId]],
    byes: Mapping[PairId, int] | None = None,
) -> list[SwissEntrant]:
    """Convenience: build :class:`SwissEntrant` rows from plain mappings."""
    byes = byes or {}
    return [
        SwissEntrant(
            pair_id=p,
            score=scores.get(p, 0),  # type: ignore[arg-type]
            opponents=frozenset(opponents.get(p, ())),
            byes=byes.get(p, 0),
        )
        for p in standing_order
    ]


def entrants_from_standings(
    standings: Standings,
    results: Iterable[MatchResult],
    *,
    walkovers_count_as_met: bool = True,
) -> list[SwissEntrant]:
    """Swiss entrants in the order of ``standings``, scored by match points.

    Past opponents come from ``results``; with ``walkovers_count_as_met=False``
    pairs whose only meeting was a walkover may be paired again.
    """
    opponents: dict[PairId, set[PairId]] = {}
    for r in results:
        if r.walkover and not walkovers_count_as_met:
            continue
        opponents.setdefault(r.pair_a, set()).add(r.pair_b)
        opponents.setdefault(r.pair_b, set()).add(r.pair_a)
    return [
        SwissEntrant(
            pair_id=row.pair_id,
            score=row.score,
            opponents=frozenset(opponents.get(row.pair_id, ())),
            byes=row.byes,
        )
        for row in standings.rows
    ]
