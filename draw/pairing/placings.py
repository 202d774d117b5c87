"""Final placings of an elimination bracket, read from the bracket itself.

This module owns the order in which a knockout's pairs finish.  The placings of
a bracket are not a standings table (matches won, point difference ...): they
come from where each pair was eliminated, as in brackets-manager's final
standings.

Single elimination:

* 1: the champion; 2: the loser of the final;
* with a third-place match, 3: its winner and 4: its loser; without one, both
  semifinal losers share 3;
* then the losers of each earlier round share one place: the losers of the
  quarterfinals of an 8-pair bracket are all 5th, those of the round of 16 all
  9th;
* with the classification matches of places 5-8 (``single_elimination(...,
  classification=True)``) the quarterfinal losers are placed by them instead:
  5: the winner of the 5th-place match, 6: its loser, 7 and 8: those of the
  7th-place match; while they are being played, the pairs whose order is not
  known yet share a place (the two winners of the 5-8 semifinals share 5th
  until the 5th-place match, their losers 7th).

Double elimination:

* 1: the champion (the winner of the reset when it is played); 2: the loser
  of the grand final, or of the reset when it is played (the losers' bracket
  champion who won the first final and lost the reset is 2nd);
* then by the losers' round in which a pair took its second loss, latest
  first: the loser of the losers' final is 3rd, of the round before 4th, and
  the losers of an earlier losers' round share one place.

A shared place is the standard competition ranking: one more than the number
of pairs placed better (1, 2, 3, 4, 5, 5, 5, 5 for 8 pairs; byes leave the
numbers as they would be with fewer pairs: 1, 2, 3, 3, 5, 5 for 6 pairs without
third-place match).  Pairs still in the bracket have no place yet; an
eliminated pair's place is known as soon as it is eliminated, since every pair
still in will finish above it (the semifinal losers share 3rd until the
third-place match is decided).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import PairId
from .elimination import BracketMatch, EliminationBracket, Section

__all__ = ["Placing", "PlacingReason", "Placings", "bracket_placings", "overall_placings", "placing_reason"]


@dataclass(frozen=True)
class Placing:
    """One pair's place (``None`` while it is still in the bracket) and the match that decided it
    (the match it was eliminated in, or the last match it won for the champion)."""

    place: int | None
    pair_id: PairId
    decided_by: str | None = None


@dataclass(frozen=True)
class Placings:
    """Every pair of the bracket, best first: the pairs still in (place ``None``, in seed order), then
    the placed pairs by place, a shared place in seed order."""

    rows: tuple[Placing, ...]
    complete: bool

    def ranking(self) -> list[PairId]:
        return [row.pair_id for row in self.rows]


def _final_of(bracket: EliminationBracket) -> BracketMatch | None:
    """The match that decides the champion: the final, or the reset when it is played."""
    if not bracket.double:
        return bracket.winners[-1][0]
    if not bracket.finals:
        return None
    first = bracket.finals[0]
    if len(bracket.finals) > 1 and first.decided and first.winner != first.top.pair:
        return bracket.finals[1]  # the losers' champion won the first final: the reset decides
    return first


def _tiers(bracket: EliminationBracket) -> list[list[tuple[PairId, str]]]:
    """Eliminated pairs grouped by how far they went, best tier first (champion, runner-up, ...)."""
    tiers: list[list[tuple[PairId, str]]] = []
    final = _final_of(bracket)
    if final is not None and final.winner is not None and final.loser is not None:
        tiers.append([(final.winner, final.match_id)])
        tiers.append([(final.loser, final.match_id)])
    else:
        tiers.extend(([], []))

    def losers_of(matches) -> list[tuple[PairId, str]]:
        return [(m.loser, m.match_id) for m in matches if m.loser is not None]

    if not bracket.double:
        rounds = bracket.winners[:-1]  # every round but the final
        third = bracket.third_place
        if third is not None and rounds:
            semis = rounds[-1]
            if third.winner is not None and third.loser is not None:
                tiers.append([(third.winner, third.match_id)])
                tiers.append([(third.loser, third.match_id)])
            else:
                tiers.append(losers_of(semis))  # third place not played yet: they share 3rd for now
            rounds = rounds[:-1]
        quarters = bracket.winners[-3] if bracket.classification and len(bracket.winners) >= 3 else None
        for rnd in reversed(rounds):
            if rnd is quarters:
                tiers.extend(_classification_tiers(bracket))
                continue
            tiers.append(losers_of(rnd))
    else:
        for rnd in reversed(bracket.losers):
            tiers.append(losers_of(rnd))
    return tiers


def _classification_tiers(bracket: EliminationBracket) -> list[list[tuple[PairId, str]]]:
    """Places 5-8 from the classification matches: decided pairs in their own tier, the pairs whose
    order is not known yet sharing one (the semifinal pairs of 5-8 still to play, with the winners)."""
    by_id = {m.match_id: m for m in bracket.classification}
    semis = [by_id["5S-1"], by_id["5S-2"]]
    out: list[list[tuple[PairId, str]]] = []
    for final, took in ((by_id["5P"], "winner"), (by_id["7P"], "loser")):
        if final.winner is not None:
            out.append([(final.winner, final.match_id)])
            if final.loser is not None:
                out.append([(final.loser, final.match_id)])
            continue
        tier = []
        for semi in semis:
            if semi.decided:
                pair = semi.winner if took == "winner" else semi.loser
                if pair is not None:
                    tier.append((pair, semi.match_id))
            elif took == "winner":  # not played yet: both its pairs may still be 5th
                tier.extend((slot.pair, semi.match_id) for slot in (semi.top, semi.bottom) if slot.pair is not None)
        out.append(tier)
    return out


def bracket_placings(bracket: EliminationBracket) -> Placings:
    """The placings of ``bracket`` as far as its results go (see the module docstring)."""
    seed_of = {p: i for i, p in enumerate(bracket.seeds)}
    tiers = _tiers(bracket)
    placed = {p for tier in tiers for p, _ in tier}
    still_in = [p for p in bracket.seeds if p not in placed]
    rows = [Placing(None, p) for p in still_in]
    better = len(still_in)
    for tier in tiers:
        for pair_id, match_id in sorted(tier, key=lambda item: seed_of[item[0]]):
            rows.append(Placing(better + 1, pair_id, match_id))
        better += len(tier)
    return Placings(tuple(rows), not still_in and bracket.complete)


def overall_placings(knockout: Placings, earlier_ranking: list[PairId] | tuple[PairId, ...]) -> list[Placing]:
    """The final table of a tournament ending in a knockout after another stage (groups, Swiss):
    the knockout's placings first, then the pairs that did not reach it in the order of the earlier
    stage's standings (``earlier_ranking``, best first), each on its own place after every
    knockout pair."""
    in_knockout = set(knockout.ranking())
    rows = list(knockout.rows)
    place = len(rows)
    for pair_id in earlier_ranking:
        if pair_id in in_knockout:
            continue
        place += 1
        rows.append(Placing(place, pair_id))
    return rows


@dataclass(frozen=True)
class PlacingReason:
    """Why a bracket pair finished where it did, for people to read (pages translate ``kind``):

    * ``champion``; ``final`` (lost the final, or the grand final / its reset);
    * ``third_place_won`` / ``third_place_lost``; ``fifth_place_won`` / ``fifth_place_lost``;
      ``seventh_place_won`` / ``seventh_place_lost``; ``classification_won`` /
      ``classification_lost`` (a semifinal of places 5-8, the 5th/7th-place match still to play);
    * ``winners_round``: lost in the winners' round of ``pairs`` pairs (4: the semifinals, 8: the
      quarterfinals, 16: the round of 16...);
    * ``losers_round``: out in losers' round ``round`` (``last``: the losers' final);
    * ``still_in``: no place yet.
    """

    kind: str
    pairs: int = 0
    round: int = 0
    last: bool = False


def placing_reason(bracket: EliminationBracket, row: Placing) -> PlacingReason:
    """The reason of one row of :func:`bracket_placings` of ``bracket``."""
    if row.place is None or row.decided_by is None:
        return PlacingReason("still_in")
    m = bracket.match(row.decided_by)
    won = m.winner == row.pair_id
    if m.section is Section.GRAND_FINAL or (not bracket.double and m is bracket.winners[-1][0]):
        return PlacingReason("champion" if won else "final")
    if m.section is Section.THIRD_PLACE:
        return PlacingReason("third_place_won" if won else "third_place_lost")
    if m.section is Section.CLASSIFICATION:
        if not m.decided:  # a semifinal of places 5-8 not played yet: they share 5th as quarterfinal losers
            return PlacingReason("winners_round", pairs=8)
        if m.match_id in ("5P", "7P"):
            which = "fifth" if m.match_id == "5P" else "seventh"
            return PlacingReason(f"{which}_place_{'won' if won else 'lost'}")
        return PlacingReason("classification_won" if won else "classification_lost")
    if m.section is Section.LOSERS:
        return PlacingReason("losers_round", round=m.round_number, last=m.round_number == len(bracket.losers))
    return PlacingReason("winners_round", pairs=2 ** (len(bracket.winners) - m.round_number + 1),
                         round=m.round_number)
