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
from fractions import Fraction

from .base import PairId, require_unique
from .elimination import EliminationBracket, bracket_size, single_elimination, standard_seed_order
from .matching import max_weight_matching
from .round_robin import group_name
from .standings import Standings, Tiebreak

__all__ = ["Qualifier", "knockout_seeding", "groups_to_knockout", "rank_across_groups"]


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


def rank_across_groups(group_tables: Sequence[Standings], *, lot: bool = True) -> list[PairId]:
    """Every pair of the groups, by place in its group, then pairs of the same place by their record.

    Pairs of different groups did not meet, so head-to-head does not compare them; every other
    criterion of the tables' tiebreak order is taken per match played (byes count as played), so
    groups of different sizes compare fairly, and the lot last (each pair's lot depends only on
    the seed and the pair, so it is the same in every table drawn with one seed). With
    ``lot=False`` pairs of one place and equal records keep the group order (A before B)
    instead: what the tournament service uses to seed a knockout, so equal records seed as the
    groups are lettered and only a better record moves a pair up.
    """
    keyed = []
    for group, table in enumerate(group_tables):
        criteria = [t for t in table.tiebreaks if t is not Tiebreak.HEAD_TO_HEAD]
        for place, row in enumerate(table.rows, start=1):
            games = max(1, row.played + row.byes)
            record = tuple(Fraction(row.values[t]) / games for t in criteria)
            keyed.append((place, record, row.lot if lot else group, row.pair_id))
    # Best first: lowest place, then the highest record, then the lowest lot number.
    keyed.sort(key=lambda item: (item[0], tuple(-v for v in item[1]), item[2]))
    return [pair_id for *_, pair_id in keyed]


def knockout_seeding(
    group_rankings: Sequence[Sequence[PairId]],
    qualifiers_per_group: int,
    *,
    cross_ranking: Sequence[PairId] | None = None,
) -> tuple[Qualifier, ...]:
    """Qualifiers in knockout seed order (seed 1 first), ready for :func:`.single_elimination`.

    ``cross_ranking`` orders the qualifiers of one place across the groups (best first, any
    superset of the qualifiers): the group winners take seeds 1..G in that order, and it is the
    last preference of the lower tiers.  ``None`` keeps the group order."""
    groups = [list(g) for g in group_rankings]
    k = qualifiers_per_group
    g_count = len(groups)
    if g_count < 1 or k < 1:
        raise ValueError("need at least one group and one qualifier per group")
    for i, g in enumerate(groups):
        if len(g) < k:
            raise ValueError(f"group {group_name(i)} has fewer than {k} pairs")
    require_unique((p for g in groups for p in g[:k]), "qualifiers")
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
    total = g_count * k
    if total < 2:
        raise ValueError("a knockout needs at least 2 qualifiers")
    size = bracket_size(total)
    position = {seed: pos for pos, seed in enumerate(standard_seed_order(size))}
    rounds = size.bit_length() - 1

    def meeting_round(seed_a: int, seed_b: int) -> int:
        return (position[seed_a] ^ position[seed_b]).bit_length()

    group_of_seed: dict[int, int] = {}
    for g in range(g_count):
        group_of_seed[tier_rank[0][g] + 1] = g  # winners by record (or group order)
    base = total * total + 1
    for place in range(2, k + 1):
        seeds = [(place - 1) * g_count + i + 1 for i in range(g_count)]
        natural_weight = g_count + 1
        crossing_weight = natural_weight * (g_count + 1) * g_count + 1
        conflict_weight = (crossing_weight + natural_weight * g_count) * g_count + 1
        edges: list[tuple[int, int, int]] = []
        for g in range(g_count):
            for si, seed in enumerate(seeds):
                conflict = 0
                for other_seed, other_group in group_of_seed.items():
                    if other_group == g:
                        conflict += base ** (rounds - meeting_round(seed, other_seed))
                opponent = _first_round_opponent(seed, size, position)
                crossing = 1
                if opponent in group_of_seed and opponent <= g_count:
                    crossing = 0 if g == _partner(group_of_seed[opponent], g_count) else 1
                natural = abs(si - tier_rank[place - 1][g])
                cost = conflict * conflict_weight + crossing * natural_weight * g_count + natural
                edges.append((g, g_count + si, -cost))
        mate = max_weight_matching(2 * g_count, edges)
        for g in range(g_count):
            group_of_seed[seeds[mate[g] - g_count]] = g
    out = []
    for seed in sorted(group_of_seed):
        g = group_of_seed[seed]
        place = (seed - 1) // g_count + 1
        out.append(Qualifier(groups[g][place - 1], g, place, seed))
    return tuple(out)


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
) -> EliminationBracket:
    """The knockout bracket for the top ``qualifiers_per_group`` of each group."""
    seeding = knockout_seeding(group_rankings, qualifiers_per_group, cross_ranking=cross_ranking)
    return single_elimination([q.pair_id for q in seeding], third_place=third_place)
