"""Groups then knockout: which group finishers meet in the knockout bracket.

This module owns the crossing of group qualifiers.  The top ``K`` of each of
``G`` groups qualify; they are seeded by place (all group winners first, then
all runners-up, ...) and laid out with the standard seeding order of
:mod:`.elimination`, so byes go to the group winners.  The group winners are
seeded by their records (``cross_ranking``, for example
:func:`rank_across_groups` of the group tables), so with fewer qualifiers than
the bracket's size the byes go to the best group winners, not to groups A and
B; without a ranking, in group order.  Which qualifier of a lower place gets
which seed number within its tier is chosen, tier by tier, by an exact
assignment (a maximum-weight matching) that:

1. keeps pairs from the same group apart for as long as possible: a meeting
   in an earlier round is worse than any number of meetings in later rounds
   (so two pairs of one group never meet in round one when avoidable, and with
   two qualifiers per group they sit in opposite halves);
2. then prefers the classic crossing, in which the winner of group A meets the
   runner-up of group B, B1 meets A2, C1 meets D2, D1 meets C2, ... (groups
   paired A-B, C-D, ...);
3. then follows the records (``cross_ranking``): the better record, the
   better seed of the tier (without a ranking, the group order).

For two groups and ``K = 2`` that is A1 v B2 and B1 v A2; for four groups
A1 v B2, D1 v C2, C1 v D2, B1 v A2, with A1 and A2 in opposite halves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from .base import PairId, require_unique
from .elimination import EliminationBracket, bracket_size, single_elimination, standard_seed_order
from .matching import max_weight_matching
from .round_robin import group_name
from .standings import BYE_POINTS, ByeValue, MatchResult, Standings, Tiebreak, compute_standings

__all__ = ["Qualifier", "UnequalGroups", "knockout_seeding", "groups_to_knockout", "rank_across_groups"]


@dataclass(frozen=True)
class Qualifier:
    """A pair entering the knockout: ``place`` (1-based) in group ``group`` (0-based index)."""

    pair_id: PairId
    group: int
    place: int
    seed: int

    @property
    def label(self) -> str:
        """For example "A1" for the winner of group A."""
        return f"{group_name(self.group)}{self.place}"


class UnequalGroups(str, Enum):
    """How pairs of one place in groups of different sizes are compared (:func:`rank_across_groups`)."""

    DROP_LAST = "drop_last"
    """Default: a larger group's results against its last placed pairs (as many as it has more than the
    smallest group) are left out, so every pair is compared over the same number of opponents (FIFA
    World Cup 2026 regulations art. 13, UEFA's rule for the best thirds of unequal groups)."""
    PER_MATCH = "per_match"
    """Every result, each criterion divided by the matches played."""


def rank_across_groups(
    group_tables: Sequence[Standings],
    *,
    lot: bool = True,
    group_results: Sequence[Sequence[MatchResult]] | None = None,
    unequal: UnequalGroups | str = UnequalGroups.DROP_LAST,
    count_walkover_scores: bool = False,
) -> list[PairId]:
    """Every pair of the groups, by place in its group, then pairs of the same place by their record.

    Pairs of different groups did not meet, so head-to-head does not compare them; every other
    criterion of the tables' tiebreak order is taken per match played.  A bye is a rest, not a
    match: it scores nothing here (FIDE Handbook C.04.1.c gives the bye's point for the group's own
    table only) and is not a match played, so a group of odd size gives its pairs no edge over a
    group of even size.  Groups of different sizes are compared as ``unequal`` says (default
    :attr:`UnequalGroups.DROP_LAST`: the results against the last of the larger groups are left
    out, which needs ``group_results``, each group's match results).  The lot comes last (each
    pair's lot depends only on the seed and the pair, so it is the same in every table drawn with
    one seed).  With ``lot=False`` pairs of one place and equal records keep the group order (A
    before B) instead: what the tournament service uses to seed a knockout, so equal records seed
    as the groups are lettered and only a better record moves a pair up.
    """
    unequal = UnequalGroups(unequal)
    smallest = min((len(table.rows) for table in group_tables), default=0)
    keyed = []
    for group, table in enumerate(group_tables):
        criteria = [t for t in table.tiebreaks if t is not Tiebreak.HEAD_TO_HEAD]
        rows = {row.pair_id: row for row in table.rows}
        dropped = ()
        if unequal is UnequalGroups.DROP_LAST and len(table.rows) > smallest:
            if group_results is None:
                raise ValueError("groups of different sizes: give group_results to leave out the last pairs")
            dropped = {row.pair_id for row in table.rows[smallest:]}
        if group_results is not None:
            kept = [r for r in group_results[group] if r.pair_a not in dropped and r.pair_b not in dropped]
            again = compute_standings(kept, criteria, pairs=[p for p in rows if p not in dropped],
                                      lot_seed=table.lot_seed, count_walkover_scores=count_walkover_scores)
            records = {row.pair_id: (row.played, dict(row.values)) for row in again.rows}
        else:
            records = {p: (row.played - (row.byes if table.bye_played else 0), _without_byes(table, row, criteria))
                       for p, row in rows.items()}
        for place, row in enumerate(table.rows, start=1):
            played, values = records.get(row.pair_id, (0, {t: 0 for t in criteria}))
            games = max(1, played)
            record = tuple(Fraction(values[t]) / games for t in criteria)
            keyed.append((place, record, row.lot if lot else group, row.pair_id))
    # Best first: lowest place, then the highest record, then the lowest lot number.
    keyed.sort(key=lambda item: (item[0], tuple(-v for v in item[1]), item[2]))
    return [pair_id for *_, pair_id in keyed]


def _without_byes(table: Standings, row, criteria) -> dict:
    """A table row's criteria with its byes taken out (a bye counts in its group's own table only)."""
    values = dict(row.values)
    if Tiebreak.MATCHES_WON in values and table.bye_value is ByeValue.WIN:
        values[Tiebreak.MATCHES_WON] -= row.byes
    if Tiebreak.MATCH_POINTS in values:
        values[Tiebreak.MATCH_POINTS] -= BYE_POINTS[table.bye_value] * row.byes
    return values


def knockout_seeding(
    group_rankings: Sequence[Sequence[PairId]],
    qualifiers_per_group: int,
    *,
    cross_ranking: Sequence[PairId] | None = None,
    extras: Sequence[PairId] = (),
) -> tuple[Qualifier, ...]:
    """Qualifiers in knockout seed order (seed 1 first), ready for :func:`.single_elimination`.

    ``cross_ranking`` orders the qualifiers of one place across the groups (best first, any
    superset of the qualifiers): the group winners take seeds 1..G in that order, and it is the
    last preference of the lower tiers.  ``None`` keeps the group order.

    ``extras`` are the further qualifiers (the best thirds of 3 groups when 8 enter...), best
    first, each a pair of one of the groups below its top ``qualifiers_per_group``.  They take
    the seeds after the group qualifiers as one more tier, placed by the same assignment, so a
    best third is not drawn against a pair of its own group in round one when another seed of
    the tier avoids it (with two or more extras it always can)."""
    groups = [list(g) for g in group_rankings]
    k = qualifiers_per_group
    g_count = len(groups)
    if g_count < 1 or k < 1:
        raise ValueError("need at least one group and one qualifier per group")
    for i, g in enumerate(groups):
        if len(g) < k:
            raise ValueError(f"group {group_name(i)} has fewer than {k} pairs")
    require_unique([*(p for g in groups for p in g[:k]), *extras], "qualifiers")
    extra_of: list[tuple[int, int]] = []  # (group, place) of each extra
    for p in extras:
        found = [(gi, g.index(p) + 1) for gi, g in enumerate(groups) if p in g[k:]]
        if not found:
            raise ValueError(f"extra qualifier {p!r} is not a pair below the top {k} of a group")
        extra_of.append(found[0])
    if cross_ranking is None:
        tier_rank = [list(range(g_count)) for _ in range(k)]  # tier_rank[place - 1][g]: g's rank in the tier
    else:
        position = {p: i for i, p in enumerate(cross_ranking)}
        tier_rank = []
        for place in range(1, k + 1):
            missing = [g[place - 1] for g in groups if g[place - 1] not in position]
            if missing:
                raise ValueError(f"cross_ranking does not rank {missing[0]!r}")
            order = sorted(range(g_count), key=lambda gi: position[groups[gi][place - 1]])
            tier_rank.append([order.index(gi) for gi in range(g_count)])
    total = g_count * k + len(extras)
    if total < 2:
        raise ValueError("a knockout needs at least 2 qualifiers")
    size = bracket_size(total)
    position = {seed: pos for pos, seed in enumerate(standard_seed_order(size))}
    rounds = size.bit_length() - 1

    def meeting_round(seed_a: int, seed_b: int) -> int:
        return (position[seed_a] ^ position[seed_b]).bit_length()

    group_of_seed: dict[int, int] = {}
    entrant_of_seed: dict[int, tuple[int, int]] = {}  # seed -> (group, place)
    for g in range(g_count):
        group_of_seed[tier_rank[0][g] + 1] = g  # winners by record (or group order)
        entrant_of_seed[tier_rank[0][g] + 1] = (g, 1)
    base = total * total + 1
    # Each lower tier: (group, place, rank in the tier) of its entrants, and its seeds.
    tiers = [([(g, place, tier_rank[place - 1][g]) for g in range(g_count)],
              [(place - 1) * g_count + i + 1 for i in range(g_count)]) for place in range(2, k + 1)]
    if extras:
        tiers.append(([(g, place, i) for i, (g, place) in enumerate(extra_of)],
                      [g_count * k + i + 1 for i in range(len(extras))]))
    for entrants, seeds in tiers:
        n = len(seeds)
        natural_weight = n + 1
        crossing_weight = natural_weight * (n + 1) * n + 1
        conflict_weight = (crossing_weight + natural_weight * n) * n + 1
        edges: list[tuple[int, int, int]] = []
        for ei, (g, _place, rank) in enumerate(entrants):
            for si, seed in enumerate(seeds):
                conflict = 0
                for other_seed, other_group in group_of_seed.items():
                    if other_group == g:
                        conflict += base ** (rounds - meeting_round(seed, other_seed))
                opponent = _first_round_opponent(seed, size, position)
                crossing = 1
                if opponent in group_of_seed and opponent <= g_count:
                    crossing = 0 if g == _partner(group_of_seed[opponent], g_count) else 1
                natural = abs(si - rank)
                cost = conflict * conflict_weight + crossing * natural_weight * n + natural
                edges.append((ei, n + si, -cost))
        mate = max_weight_matching(2 * n, edges)
        for ei, (g, place, _rank) in enumerate(entrants):
            seed = seeds[mate[ei] - n]
            group_of_seed[seed] = g
            entrant_of_seed[seed] = (g, place)
    _improve(entrant_of_seed, [seeds for _entrants, seeds in tiers], meeting_round, rounds, base)
    out = []
    for seed in sorted(entrant_of_seed):
        g, place = entrant_of_seed[seed]
        out.append(Qualifier(groups[g][place - 1], g, place, seed))
    return tuple(out)


def _improve(entrant_of_seed: dict[int, tuple[int, int]], tiers: list[list[int]], meeting_round, rounds: int,
             base: int) -> None:
    """Swap two seeds of one tier (never the group winners') while that makes the group mates meet
    later: the tiers are matched one after the other, so a tier cannot see the groups of the tiers
    after it (a best third may face a runner-up of its own group); this undoes such meetings."""

    def cost() -> int:
        seeds = sorted(entrant_of_seed)
        return sum(base ** (rounds - meeting_round(a, b)) for i, a in enumerate(seeds) for b in seeds[i + 1:]
                   if entrant_of_seed[a][0] == entrant_of_seed[b][0])

    best = cost()
    improved = True
    while improved:
        improved = False
        for seeds in tiers:
            for i, a in enumerate(seeds):
                for b in seeds[i + 1:]:
                    entrant_of_seed[a], entrant_of_seed[b] = entrant_of_seed[b], entrant_of_seed[a]
                    now = cost()
                    if now < best:
                        best, improved = now, True
                    else:
                        entrant_of_seed[a], entrant_of_seed[b] = entrant_of_seed[b], entrant_of_seed[a]


def _partner(group: int, group_count: int) -> int:
    partner = group ^ 1
    return partner if partner < group_count else group


def _first_round_opponent(seed: int, size: int, position: dict[int, int]) -> int:
    order = standard_seed_order(size)
    return order[position[seed] ^ 1]


def groups_to_knockout(
    group_rankings: Sequence[Sequence[PairId]],
    qualifiers_per_group: int,
    *,
    third_place: bool = False,
    cross_ranking: Sequence[PairId] | None = None,
    extras: Sequence[PairId] = (),
) -> EliminationBracket:
    """The knockout bracket for the top ``qualifiers_per_group`` of each group (and the ``extras``)."""
    seeding = knockout_seeding(group_rankings, qualifiers_per_group, cross_ranking=cross_ranking, extras=extras)
    return single_elimination([q.pair_id for q in seeding], third_place=third_place)
