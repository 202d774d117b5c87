"""Prohibited pairings: pairs that should not meet early (same club, same family), as a cost.

This module owns the avoidance rule (docs/tournaments.md) for the draws that are not a Swiss
round (the Swiss pairer takes the same pairs as a tier of its matching weight, :mod:`.swiss`):

* :func:`avoided_pairs` turns each pair's tags (``"Clube Lagoa"``, ``"família Souza"``) into the
  set of pairs that share one: those should not meet;
* :func:`avoiding_groups` splits seeded entrants into groups as snake seeding does
  (:func:`.round_robin.snake_groups`) and then moves entrants *inside their pot* (the snake's row:
  seeds 1..G, G+1..2G, ...) to other groups so that as few avoided pairs as possible share a group.
  The groups keep their sizes and every pot stays spread one per group, so the seeding's balance is
  kept; among the draws with the fewest avoided pairs together, the one moving the fewest entrants
  from their snake group is kept; among several equally good ones, one by lot with ``lot_seed``
  (``random.Random(lot_seed)`` over the first :data:`LOT_AMONG` found, in search order; the seed is
  recorded with the draw, so the same seed gives the same groups), else the first found.

Never a hard rule: when no draw keeps every avoided pair apart, the best one is returned with the
pairs left together (``unavoided``), for the organizer's pages to say so.

Exactness: the search is a depth-first branch and bound over the pots, in which only the entrants
that have an avoided partner are placed (the others fill the free places in snake order), so it is
exact (a draw avoiding every prohibited pair is found when one exists) while it stays within
``budget`` search nodes; past that it returns the best draw found so far (``exhausted`` says so).
Field sizes met in a club (up to a few hundred pairs, a few dozen tagged) stay far below it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from random import Random

from .base import PairId, require_unique

__all__ = ["avoided_pairs", "avoiding_groups", "GroupDraw", "meetings", "LOT_AMONG"]

LOT_AMONG = 512  # equally good draws collected for the lot (the search stops collecting past it)


def avoided_pairs(tags: Mapping[PairId, Iterable[str]]) -> frozenset[frozenset[PairId]]:
    """Every two pairs sharing a tag (compared without case and surrounding spaces)."""
    holders: dict[str, list[PairId]] = {}
    for pair_id, pair_tags in tags.items():
        for tag in {t.strip().casefold() for t in pair_tags if t and t.strip()}:
            holders.setdefault(tag, []).append(pair_id)
    out: set[frozenset[PairId]] = set()
    for members in holders.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if a != b:
                    out.add(frozenset((a, b)))
    return frozenset(out)


def meetings(groups: Sequence[Sequence[PairId]], avoid: Iterable[frozenset[PairId]]) -> tuple[tuple[PairId, PairId], ...]:
    """The avoided pairs that share a group (or a board: a group of two), each in seed order."""
    where = {p: g for g, members in enumerate(groups) for p in members}
    rank = {p: k for members in groups for k, p in enumerate(members)}
    out = []
    for pair in avoid:
        a, b = sorted(pair, key=lambda p: (where.get(p, -1), rank.get(p, -1)))
        if a in where and where.get(a) == where.get(b):
            out.append((a, b))
    return tuple(sorted(out, key=lambda ab: (where[ab[0]], rank[ab[0]], rank[ab[1]])))


@dataclass(frozen=True)
class GroupDraw:
    groups: tuple[tuple[PairId, ...], ...]
    unavoided: tuple[tuple[PairId, PairId], ...]  # avoided pairs left in one group (none could be moved)
    moved: int  # entrants not in their snake group
    exhausted: bool = False  # the search budget ran out: the best draw found, maybe not the best
    equally_good: int = 1  # draws as good as this one found (the lot chose among them; capped at LOT_AMONG)


def avoiding_groups(seeded: Sequence[PairId], group_count: int, avoid: Iterable[frozenset[PairId]] = (),
                    *, budget: int = 200_000, lot_seed: int | None = None) -> GroupDraw:
    """Snake seeding into ``group_count`` groups, with avoided pairs apart when possible (above);
    ``lot_seed``: a lot among the equally good draws."""
    ids = require_unique(seeded)
    if group_count < 1:
        raise ValueError("group_count must be at least 1")
    present = set(ids)
    avoid = [p for p in {frozenset(p) for p in avoid} if len(p) == 2 and p <= present]
    partners: dict[PairId, set[PairId]] = {}
    for pair in avoid:
        a, b = tuple(pair)
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    # the snake: pot r holds seeds r*G+1..(r+1)*G, and snake_column[k] is seed k's group
    pots = [list(ids[i:i + group_count]) for i in range(0, len(ids), group_count)]
    columns = []
    for r, pot in enumerate(pots):
        cols = [c if r % 2 == 0 else group_count - 1 - c for c in range(len(pot))]
        columns.append(cols)
    groups: list[list[PairId]] = [[] for _ in range(group_count)]
    placed: dict[PairId, int] = {}
    best: list = [None, None, None]  # (conflicts, moved), placement, groups
    ties: list[dict] = []  # every placement found as good as best[0] (with a lot)
    nodes = [0]
    exhausted = [False]

    def conflicts_of(pair_id: PairId, group: int) -> int:
        return sum(1 for q in partners.get(pair_id, ()) if placed.get(q) == group)

    def search(r: int, conflicts: int, moved: int) -> None:
        if best[0] is not None:
            collecting = lot_seed is not None and len(ties) < LOT_AMONG
            if (conflicts, moved) > best[0] or ((conflicts, moved) == best[0] and not collecting):
                return
        if r == len(pots):
            if best[0] is None or (conflicts, moved) < best[0]:
                ties.clear()
            best[0], best[1] = (conflicts, moved), dict(placed)
            ties.append(best[1])
            return
        nodes[0] += 1
        if nodes[0] > budget and best[0] is not None:
            exhausted[0] = True
            return
        pot, cols = pots[r], columns[r]
        tagged = [k for k, p in enumerate(pot) if p in partners]
        free = [k for k, p in enumerate(pot) if p not in partners]
        options = []
        for chosen in permutations(cols, len(tagged)):
            rest = [c for c in cols if c not in chosen]  # the untagged keep the snake's order of places
            assign = dict(zip(tagged, chosen)) | dict(zip(free, rest))
            cost = 0
            for k in tagged:
                cost += conflicts_of(pot[k], assign[k])
            # two tagged of one pot never share a group (one per group), so no pot-internal conflict
            shift = sum(1 for k, c in assign.items() if c != cols[k])
            options.append((cost, shift, [assign[k] for k in range(len(pot))]))
            if not tagged:
                break
        options.sort(key=lambda o: (o[0], o[1]))
        for cost, shift, assignment in options:
            for k, p in enumerate(pot):
                placed[p] = assignment[k]
            search(r + 1, conflicts + cost, moved + shift)
            for p in pot:
                placed.pop(p, None)
            if exhausted[0]:
                return

    search(0, 0, 0)
    if lot_seed is not None and len(ties) > 1:
        best[1] = ties[Random(lot_seed).randrange(len(ties))]
    for pot in pots:
        for p in pot:
            groups[best[1][p]].append(p)
    result = tuple(tuple(g) for g in groups)
    return GroupDraw(result, meetings(result, avoid), best[0][1], exhausted[0], max(1, len(ties)))
