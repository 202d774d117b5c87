"""Single-elimination brackets and the bracket engine shared with double elimination.

This module owns:

* the bracket size (next power of two) and the standard seeding order, in which
  seeds ``1..2^j`` always sit in different sections of size ``size / 2^j`` (so
  seeds 1 and 2 can only meet in the final).  The order is built recursively:
  a section's favourite plays, in its last match, the favourite of the other
  half; the half holding seed 1 is drawn on top, every other section keeps its
  favourite in its lower half, and inside a round-one match the better seed is
  on top.  It gives 1-8, 4-5, 3-6, 2-7 for 8 and 1-16, 8-9, 5-12, 4-13, 6-11,
  3-14, 7-10, 2-15 for 16 (the NBA and NCAA layouts);
* byes: the ``size - N`` missing entrants are the lowest seeds, so the byes go
  to the top seeds, and since ``N > size / 2`` no match is bye against bye:
  byes exist in round one only;
* the bracket model: rounds of :class:`BracketMatch` with two :class:`Slot` each,
  every later slot naming its :class:`Source` (winner or loser of which match)
  so a UI can draw the tree (for example as SVG) before results exist;
* the engine: a bracket is a fixed layout plus the recorded winners; every
  other fact (who sits in which slot, bye matches, the champion) is derived by
  :func:`record_results`, which validates each result;
* :func:`next_round`, the plain "winners of this round make the next round"
  step for single elimination, and the optional third-place match between the
  semifinal losers.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from .base import PairId, require_unique

__all__ = [
    "Section",
    "Source",
    "Slot",
    "BracketMatch",
    "EliminationBracket",
    "bracket_size",
    "standard_seed_order",
    "first_round_pairs",
    "same_draw",
    "single_elimination",
    "next_round",
    "record_results",
]


class Section(str, Enum):
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    THIRD_PLACE = "third_place"
    CLASSIFICATION = "classification"  # places 5-8, played beside the semifinals and the final


@dataclass(frozen=True)
class Source:
    """Where a slot's occupant comes from: the ``winner`` or ``loser`` of ``match_id``."""

    match_id: str
    takes: str  # "winner" | "loser"


@dataclass(frozen=True)
class Slot:
    """One side of a match.  Empty (``pair is None`` and not ``bye``) means "not known yet"."""

    pair: PairId | None = None
    seed: int | None = None
    bye: bool = False
    source: Source | None = None

    @property
    def known(self) -> bool:
        return self.pair is not None or self.bye


@dataclass(frozen=True)
class BracketMatch:
    match_id: str
    section: Section
    round_number: int
    position: int  # 0-based, top to bottom within its round
    top: Slot
    bottom: Slot
    winner: PairId | None = None
    unplayed: bool = False  # decided without play: a bye, or a bracket reset not needed

    @property
    def decided(self) -> bool:
        return self.winner is not None or self.unplayed

    @property
    def playable(self) -> bool:
        """Both pairs are known and no result is in yet."""
        return not self.decided and self.top.pair is not None and self.bottom.pair is not None

    @property
    def loser(self) -> PairId | None:
        if self.unplayed or self.winner is None:
            return None
        return self.bottom.pair if self.winner == self.top.pair else self.top.pair


@dataclass(frozen=True)
class EliminationBracket:
    """A single- or double-elimination bracket with its results so far.

    ``winners`` / ``losers`` are lists of rounds (top to bottom); ``finals``
    holds the grand final and, if enabled, the bracket reset (double
    elimination only); ``third_place`` the optional third-place match (single
    elimination only).
    """

    double: bool
    size: int
    seeds: tuple[PairId, ...]
    winners: tuple[tuple[BracketMatch, ...], ...]
    losers: tuple[tuple[BracketMatch, ...], ...] = ()
    finals: tuple[BracketMatch, ...] = ()
    third_place: BracketMatch | None = None
    results: Mapping[str, PairId] = field(default_factory=dict)
    # places 5-8 (single elimination of 8 or more): "5S-1", "5S-2" (the quarterfinal losers, 1 v 2
    # and 3 v 4), then "5P" (their winners, for 5th) and "7P" (their losers, for 7th)
    classification: tuple[BracketMatch, ...] = ()

    def matches(self) -> Iterator[BracketMatch]:
        """All matches in an order where every match comes after its sources."""
        by_id = {m.match_id: m for m in self.all_matches()}
        for match_id in _topological_order(self):
            yield by_id[match_id]

    def all_matches(self) -> Iterator[BracketMatch]:
        """Every match: winners' rounds, losers' rounds, finals, the third-place match."""
        for rnd in self.winners:
            yield from rnd
        for rnd in self.losers:
            yield from rnd
        yield from self.finals
        if self.third_place is not None:
            yield self.third_place
        yield from self.classification

    def match(self, match_id: str) -> BracketMatch:
        for m in self.all_matches():
            if m.match_id == match_id:
                return m
        raise KeyError(match_id)

    def playable(self) -> list[BracketMatch]:
        return [m for m in self.matches() if m.playable]

    @property
    def champion(self) -> PairId | None:
        if not self.double:
            final = self.winners[-1][0] if self.winners else None
            return final.winner if final is not None else None
        if not self.finals:
            return None
        first = self.finals[0]
        if first.winner is None:
            return None
        if first.winner == first.top.pair or len(self.finals) == 1:
            return first.winner
        return self.finals[1].winner

    @property
    def complete(self) -> bool:
        return all(m.decided for m in self.all_matches())


def bracket_size(entrants: int) -> int:
    """Smallest power of two >= ``entrants`` (at least 2)."""
    if entrants < 2:
        raise ValueError("an elimination bracket needs at least 2 entrants")
    return 1 << (entrants - 1).bit_length()


def standard_seed_order(size: int) -> list[int]:
    """Seed numbers in bracket slot order (top to bottom) for a power-of-two ``size``."""
    if size < 1 or size & (size - 1):
        raise ValueError("size must be a power of two")
    if size == 1:
        return [1]

    def section(favourite: int, span: int) -> list[int]:
        sections = size // span  # sections of this span; their favourites are 1..sections
        other = 2 * sections + 1 - favourite  # favourite of the other half
        if span == 2:
            return [favourite, other]
        upper, lower = section(favourite, span // 2), section(other, span // 2)
        return upper + lower if favourite == 1 else lower + upper

    return section(1, size)


def first_round_pairs(size: int) -> list[tuple[int, int]]:
    """Round-one matches as seed pairs, top to bottom."""
    order = standard_seed_order(size)
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]


def same_draw(seeded_a: Sequence[PairId], seeded_b: Sequence[PairId]) -> bool:
    """Whether two seedings give the same single-elimination bracket but for the seed numbers: the
    same pairs, the same round-one meetings (and byes), and the same matches feeding every later
    match (each section of the bracket holds the same pairs), so every meeting the one bracket can
    have the other has too. Seeds 2 and 3 of four swapped: 1 v 4 and 2 v 3 either way."""
    if len(seeded_a) != len(seeded_b) or set(seeded_a) != set(seeded_b):
        return False
    if len(seeded_a) < 2:
        return True
    size = bracket_size(len(seeded_a))
    order = standard_seed_order(size)

    def sections(seeded: Sequence[PairId]) -> list[set[frozenset]]:
        slots = [(seeded[s - 1],) if s <= len(seeded) else () for s in order]
        out, span = [], 2
        while span <= size:
            out.append({frozenset(p for slot in slots[i:i + span] for p in slot) for i in range(0, size, span)})
            span *= 2
        return out

    return sections(seeded_a) == sections(seeded_b)


def _seed_slot(seeds: Sequence[PairId], seed: int) -> Slot:
    if seed <= len(seeds):
        return Slot(pair=seeds[seed - 1], seed=seed)
    return Slot(bye=True, seed=seed)


def _winners_bracket(seeds: Sequence[PairId], size: int) -> list[list[BracketMatch]]:
    rounds: list[list[BracketMatch]] = []
    first = [
        BracketMatch(f"W1-{i + 1}", Section.WINNERS, 1, i, _seed_slot(seeds, a), _seed_slot(seeds, b))
        for i, (a, b) in enumerate(first_round_pairs(size))
    ]
    rounds.append(first)
    r = 1
    while len(rounds[-1]) > 1:
        r += 1
        prev = rounds[-1]
        rounds.append(
            [
                BracketMatch(
                    f"W{r}-{i + 1}",
                    Section.WINNERS,
                    r,
                    i,
                    Slot(source=Source(prev[2 * i].match_id, "winner")),
                    Slot(source=Source(prev[2 * i + 1].match_id, "winner")),
                )
                for i in range(len(prev) // 2)
            ]
        )
    return rounds


def single_elimination(seeded: Sequence[PairId], *, third_place: bool = False,
                       classification: bool = False) -> EliminationBracket:
    """Build a single-elimination bracket from entrants in seed order (best first).

    Bye matches are resolved at once; every other match waits for
    :func:`record_results`. ``classification`` (a bracket of 8 or more) adds the matches for
    places 5-8 between the quarterfinal losers (start.gg's classification phases): each is
    playable as soon as its two quarterfinals are decided, beside the semifinals, and the 5th- and
    7th-place matches beside the final; a bye in a quarterfinal gives its classification match
    a bye too.
    """
    seeds = tuple(require_unique(seeded))
    size = bracket_size(len(seeds))
    winners = _winners_bracket(seeds, size)
    third = None
    if third_place and size >= 4:
        semis = winners[-2]
        third = BracketMatch(
            "3P",
            Section.THIRD_PLACE,
            len(winners),
            0,
            Slot(source=Source(semis[0].match_id, "loser")),
            Slot(source=Source(semis[1].match_id, "loser")),
        )
    places = ()
    if classification and size >= 8:
        quarters = winners[-3]
        r = len(winners) - 1  # beside the semifinals, then beside the final

        def loser_of(k: int) -> Slot:
            return Slot(source=Source(quarters[k].match_id, "loser"))

        semi_1 = BracketMatch("5S-1", Section.CLASSIFICATION, r, 0, loser_of(0), loser_of(1))
        semi_2 = BracketMatch("5S-2", Section.CLASSIFICATION, r, 1, loser_of(2), loser_of(3))
        fifth = BracketMatch("5P", Section.CLASSIFICATION, r + 1, 0, Slot(source=Source("5S-1", "winner")),
                             Slot(source=Source("5S-2", "winner")))
        seventh = BracketMatch("7P", Section.CLASSIFICATION, r + 1, 1, Slot(source=Source("5S-1", "loser")),
                               Slot(source=Source("5S-2", "loser")))
        places = (semi_1, semi_2, fifth, seventh)
    bracket = EliminationBracket(
        double=False,
        size=size,
        seeds=seeds,
        winners=tuple(tuple(r) for r in winners),
        third_place=third,
        classification=places,
    )
    return _resolve(bracket, {})


def next_round(matches: Sequence[BracketMatch], winners: Mapping[str, PairId]) -> tuple[BracketMatch, ...]:
    """From one single-elimination round and its winners, build the next round.

    ``winners`` maps match ids to the winning pair; bye matches need no entry.
    Match ``2k`` and ``2k + 1`` feed match ``k`` of the next round.
    """
    if len(matches) < 2 or len(matches) % 2:
        raise ValueError("a round feeding another must have an even number (>= 2) of matches")
    decided: list[Slot] = []
    for m in matches:
        winner = m.winner if m.decided else winners.get(m.match_id)
        if m.decided and m.winner is None:  # bye against bye
            decided.append(Slot(bye=True, source=Source(m.match_id, "winner")))
            continue
        if winner is None:
            raise ValueError(f"no winner for match {m.match_id}")
        side = _side_of(m, winner)
        decided.append(Slot(pair=winner, seed=side.seed, source=Source(m.match_id, "winner")))
    section = matches[0].section
    prefix = matches[0].match_id.split("-")[0][0]
    r = matches[0].round_number + 1
    out = []
    for i in range(len(matches) // 2):
        m = BracketMatch(f"{prefix}{r}-{i + 1}", section, r, i, decided[2 * i], decided[2 * i + 1])
        out.append(_auto_bye(m))
    return tuple(out)


def _side_of(match: BracketMatch, pair: PairId) -> Slot:
    if match.top.pair == pair and pair is not None:
        return match.top
    if match.bottom.pair == pair and pair is not None:
        return match.bottom
    raise ValueError(f"{pair!r} does not play in match {match.match_id}")


def _auto_bye(m: BracketMatch) -> BracketMatch:
    if m.decided or not (m.top.known and m.bottom.known):
        return m
    if m.top.bye and m.bottom.bye:
        return replace(m, unplayed=True)
    if m.top.bye:
        return replace(m, winner=m.bottom.pair, unplayed=True)
    if m.bottom.bye:
        return replace(m, winner=m.top.pair, unplayed=True)
    return m


def record_results(bracket: EliminationBracket, winners: Mapping[str, PairId]) -> EliminationBracket:
    """Record winners (``match_id -> pair``) and propagate them through the bracket.

    Results may be given for any matches, in any order, as long as each names
    one of the two pairs of its match once the earlier results are applied.
    Raises ``ValueError`` for an unknown match, a match that is not playable
    (a bye, a reset that is not needed, a pair not yet known) or a pair that
    is not in the match.
    """
    merged = dict(bracket.results)
    known_ids = {m.match_id for m in bracket.all_matches()}
    for match_id, winner in winners.items():
        if match_id not in known_ids:
            raise ValueError(f"unknown match {match_id!r}")
        merged[match_id] = winner
    return _resolve(bracket, merged)


def _topological_order(bracket: EliminationBracket) -> list[str]:
    all_matches = list(bracket.all_matches())
    by_id = {m.match_id: m for m in all_matches}
    order: list[str] = []
    state: dict[str, int] = {}
    for m in all_matches:
        if m.match_id in state:
            continue
        stack: list[tuple[str, bool]] = [(m.match_id, False)]
        while stack:
            mid, done = stack.pop()
            if done:
                state[mid] = 2
                order.append(mid)
                continue
            if state.get(mid):
                continue
            state[mid] = 1
            stack.append((mid, True))
            cur = by_id[mid]
            for slot in (cur.bottom, cur.top):
                if slot.source is not None and not state.get(slot.source.match_id):
                    stack.append((slot.source.match_id, False))
    return order


def _resolve(bracket: EliminationBracket, results: Mapping[str, PairId]) -> EliminationBracket:
    """Derive every slot and winner from the layout, the seeds and ``results``."""
    seed_of = {p: i + 1 for i, p in enumerate(bracket.seeds)}
    all_matches = list(bracket.all_matches())
    by_id = {m.match_id: m for m in all_matches}
    resolved: dict[str, BracketMatch] = {}
    reset_id = bracket.finals[1].match_id if len(bracket.finals) > 1 else None
    first_final_id = bracket.finals[0].match_id if bracket.finals else None

    def fill(slot: Slot) -> Slot:
        if slot.source is None:
            return slot
        src = resolved[slot.source.match_id]
        if not src.decided:
            return Slot(source=slot.source)
        pair = src.winner if slot.source.takes == "winner" else src.loser
        if pair is None:
            return Slot(bye=True, source=slot.source)
        return Slot(pair=pair, seed=seed_of.get(pair), source=slot.source)

    for match_id in _topological_order(bracket):
        m = by_id[match_id]
        m = replace(m, top=fill(m.top), bottom=fill(m.bottom), winner=None, unplayed=False)
        if match_id == reset_id:
            first = resolved[first_final_id]  # type: ignore[index]
            if not first.decided:  # the reset is only known after the first final
                m = replace(m, top=Slot(source=m.top.source), bottom=Slot(source=m.bottom.source))
            elif first.winner == first.top.pair:
                m = replace(m, unplayed=True)  # the winners' bracket champion won: no reset
        m = _auto_bye(m)
        if match_id in results:
            winner = results[match_id]
            if m.decided:
                raise ValueError(f"match {match_id} is not played (bye or reset not needed)")
            if not m.playable:
                raise ValueError(f"match {match_id} is not ready: its pairs are not known yet")
            _side_of(m, winner)
            m = replace(m, winner=winner)
        resolved[match_id] = m

    return replace(
        bracket,
        winners=tuple(tuple(resolved[m.match_id] for m in rnd) for rnd in bracket.winners),
        losers=tuple(tuple(resolved[m.match_id] for m in rnd) for rnd in bracket.losers),
        finals=tuple(resolved[m.match_id] for m in bracket.finals),
        third_place=resolved[bracket.third_place.match_id] if bracket.third_place else None,
        classification=tuple(resolved[m.match_id] for m in bracket.classification),
        results=dict(results),
    )
