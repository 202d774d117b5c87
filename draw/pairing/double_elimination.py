"""Double-elimination layout: winners' bracket, losers' bracket and grand final.

This module owns where every loser goes.  The winners' bracket is the
single-elimination bracket of :mod:`.elimination` (standard seeding, byes in
round one).  For a bracket of ``size = 2^k`` the losers' bracket has
``2(k - 1)`` rounds:

* losers' round 1: the losers of winners' round 1, in pairs of neighbouring
  matches (loser of W1-1 v loser of W1-2, ...);
* losers' round ``2(r - 1)`` (r = 2..k): the survivors of the previous losers'
  round against the losers of winners' round ``r`` ("drop" rounds);
* losers' round ``2(r - 1) + 1``: the survivors of the drop round, in pairs.

The dropping losers are crossed so that they meet pairs coming from the other
side of the winners' bracket.  On the ``d``-th drop round (d = 1 for the
losers of winners' round 2) they enter in a cycle of four orders: reversed,
each half reversed, halves swapped, straight (see :func:`drop_order`).  With
that cycle a loser dropping from winners' round 2, 3 or 4 can never meet, in
its first losers' match, any pair from its own winners' sub-bracket, hence no
rematch, as soon as that drop round has at least 2, 4 and 4 matches (a
bracket of 8, 32 and 64 or more).  Later drop rounds cannot be made
rematch-free by any order (every losers' match by then holds pairs from every
region); the cycle was chosen because it gave the fewest rematches in random
simulations among the usual alternatives (always reversed; reversed and
swapped alternately).  The tests check the structural claim.

The grand final sets the winners' bracket champion (top) against the losers'
bracket champion.  With ``reset=True`` a second final is played only if the
losers' champion wins the first one (both then have one loss); otherwise that
match is marked ``unplayed``.  Byes of winners' round one cascade into the
first two losers' rounds as unplayed matches.

Results are recorded with :func:`.elimination.record_results`, which validates
and propagates them; :attr:`EliminationBracket.champion` gives the champion.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import PairId, require_unique
from .elimination import (
    BracketMatch,
    EliminationBracket,
    Section,
    Slot,
    Source,
    _resolve,
    _winners_bracket,
    bracket_size,
)

__all__ = ["double_elimination", "drop_order"]


def drop_order(matches: int, drop_round: int) -> list[int]:
    """Index of the winners' match whose loser enters losers' drop-round match ``j``.

    ``drop_round`` counts from 1 (losers of winners' round 2).  The cycle of
    four orders is reversed, halves reversed, halves swapped, straight.
    """
    base = list(range(matches))
    if matches < 2:
        return base
    half = matches // 2
    step = (drop_round - 1) % 4
    if step == 0:
        return base[::-1]
    if step == 1:
        return base[:half][::-1] + base[half:][::-1]
    if step == 2:
        return base[half:] + base[:half]
    return base


def double_elimination(seeded: Sequence[PairId], *, reset: bool = True) -> EliminationBracket:
    """Build a double-elimination bracket from entrants in seed order (best first)."""
    seeds = tuple(require_unique(seeded))
    size = bracket_size(len(seeds))
    winners = _winners_bracket(seeds, size)
    k = len(winners)
    losers: list[list[BracketMatch]] = []

    def lmatch(r: int, i: int, top: Source, bottom: Source) -> BracketMatch:
        return BracketMatch(f"L{r}-{i + 1}", Section.LOSERS, r, i, Slot(source=top), Slot(source=bottom))

    if k >= 2:
        first = winners[0]
        losers.append(
            [
                lmatch(1, j, Source(first[2 * j].match_id, "loser"), Source(first[2 * j + 1].match_id, "loser"))
                for j in range(len(first) // 2)
            ]
        )
        for r in range(2, k + 1):
            dropping = winners[r - 1]
            prev = losers[-1]
            perm = drop_order(len(dropping), r - 1)
            number = len(losers) + 1
            losers.append(
                [
                    lmatch(
                        number,
                        j,
                        Source(prev[j].match_id, "winner"),
                        Source(dropping[perm[j]].match_id, "loser"),
                    )
                    for j in range(len(dropping))
                ]
            )
            if r < k:
                prev = losers[-1]
                number = len(losers) + 1
                losers.append(
                    [
                        lmatch(
                            number,
                            j,
                            Source(prev[2 * j].match_id, "winner"),
                            Source(prev[2 * j + 1].match_id, "winner"),
                        )
                        for j in range(len(prev) // 2)
                    ]
                )
        losers_champion = Source(losers[-1][0].match_id, "winner")
    else:
        losers_champion = Source(winners[-1][0].match_id, "loser")

    winners_champion = Source(winners[-1][0].match_id, "winner")
    finals = [
        BracketMatch(
            "GF1", Section.GRAND_FINAL, 1, 0, Slot(source=winners_champion), Slot(source=losers_champion)
        )
    ]
    if reset:
        finals.append(
            BracketMatch(
                "GF2", Section.GRAND_FINAL, 2, 0, Slot(source=winners_champion), Slot(source=losers_champion)
            )
        )
    bracket = EliminationBracket(
        double=True,
        size=size,
        seeds=seeds,
        winners=tuple(tuple(r) for r in winners),
        losers=tuple(tuple(r) for r in losers),
        finals=tuple(finals),
    )
    return _resolve(bracket, {})
