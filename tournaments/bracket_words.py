"""What a bracket says, apart from its picture (pure: no Django, no database): the words of a drawing
(:class:`Labels`, English by default; pages pass translated ones) and what a match box prints besides
the names (:class:`MatchDisplay`); which matches the draw makes byes (:class:`BracketStructure`);
the numbers people see on the matches (:func:`match_numbers`: the súmula, its PDF and the referee
pages show the same, ``tournaments.numbering``); what an empty slot says ("Winner of 5", "Loser of 9",
:func:`pending_text`) and each round's and match's title (:func:`round_title`, :func:`match_title`). ``tournaments.svg`` draws with them.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from draw.pairing.elimination import BracketMatch, EliminationBracket, Section, Slot


@dataclass(frozen=True)
class MatchDisplay:
    """What to print on a match box besides the names (usually only for official results).

    ``top_score`` / ``bottom_score``: short texts (up to 4 characters) for each side: games
    won, tentos of a single game, or "W.O." for a walkover; ``href``: where the box links to.
    """

    top_score: str = ""
    bottom_score: str = ""
    href: str = ""


@dataclass(frozen=True)
class Labels:
    """The words in the drawing; ``{number}`` and ``{match}`` are filled in."""

    title: str = "Bracket"
    round: str = "Round {number}"
    final: str = "Final"
    semifinal: str = "Semifinals"
    quarterfinal: str = "Quarterfinals"
    winners_bracket: str = "Winners' bracket"
    losers_bracket: str = "Losers' bracket"
    winners_final: str = "Winners' final"
    losers_round: str = "Losers' round {number}"
    losers_final: str = "Losers' final"
    grand_final: str = "Grand final"
    reset: str = "Grand final, 2nd match"
    reset_not_needed: str = "not needed"
    third_place: str = "Third place"
    classification: str = "Places 5 to 8"
    classification_semifinal: str = "Places 5 to 8: semifinal"
    fifth_place: str = "Fifth-place match"
    seventh_place: str = "Seventh-place match"
    champion: str = "Champion"
    bye: str = "bye"
    winner_of: str = "Winner of {match}"
    loser_of: str = "Loser of {match}"
    to_be_decided: str = "to be decided"
    match: str = "Match {number}"


ENGLISH = Labels()  # the default words


class BracketStructure:
    """What the draw alone decides: which matches are byes (never played, whatever the results)."""

    def __init__(self, bracket: EliminationBracket) -> None:
        self.by_id = {m.match_id: m for m in bracket.all_matches()}
        self._byes: dict[str, tuple[bool, bool]] = {}
        for m in bracket.matches():  # sources first
            self._byes[m.match_id] = (self._slot_bye(m.top), self._slot_bye(m.bottom))

    def _slot_bye(self, slot: Slot) -> bool:
        if slot.source is None:
            return slot.bye  # a seed slot beyond the number of entrants
        top, bottom = self._byes[slot.source.match_id]
        # the loser of a match against a bye is nobody; the winner is nobody only if both were byes
        return (top or bottom) if slot.source.takes == "loser" else (top and bottom)

    def is_bye_match(self, match_id: str) -> bool:
        return any(self._byes[match_id])

    def source(self, slot: Slot):
        """The source to name for an empty slot, skipping bye matches (their winner is the other side's)."""
        source = slot.source
        while source is not None and source.takes == "winner" and self.is_bye_match(source.match_id):
            m = self.by_id[source.match_id]
            top_bye, _bottom_bye = self._byes[source.match_id]
            source = (m.bottom if top_bye else m.top).source
        return source


def bracket_structure(bracket: EliminationBracket) -> BracketStructure:
    """What the draw alone decides about ``bracket`` (its bye matches), computed once: a page
    naming many empty slots passes it to :func:`pending_text` (each new one walks the whole
    bracket)."""
    return BracketStructure(bracket)


def match_numbers(bracket: EliminationBracket, structure: BracketStructure | None = None) -> dict[str, int]:
    """Match id -> number shown to people (1, 2, ...), column by column, top to bottom.

    Matches the draw makes byes get no number. The numbering depends only on the layout
    and the number of entrants, so it never changes while results come in.
    """
    structure = structure or BracketStructure(bracket)
    numbers: dict[str, int] = {}
    for m in bracket.all_matches():
        if not structure.is_bye_match(m.match_id):
            numbers[m.match_id] = len(numbers) + 1
    return numbers


def pending_text(bracket: EliminationBracket, slot: Slot, labels: Labels = Labels(),
                 numbers: Mapping[str, int] | None = None, structure: BracketStructure | None = None) -> str:
    """What an empty slot says: "Winner of 5", "Loser of 9", "bye" or "to be decided"
    (``structure``: :func:`bracket_structure` of ``bracket``, when the caller has it)."""
    if slot.bye:
        return labels.bye
    structure = structure or BracketStructure(bracket)
    numbers = numbers if numbers is not None else match_numbers(bracket, structure)
    source = structure.source(slot)
    if source is not None and source.match_id in numbers:
        template = labels.winner_of if source.takes == "winner" else labels.loser_of
        return template.format(match=numbers[source.match_id])
    return labels.to_be_decided


def match_title(bracket: EliminationBracket, match: BracketMatch, labels: Labels = Labels()) -> str:
    """The title of one match: its round's (:func:`round_title`), but the 5th- and 7th-place matches,
    played in the same round, each by its own name."""
    if match.section is Section.CLASSIFICATION and match.match_id in ("5P", "7P"):
        return labels.fifth_place if match.match_id == "5P" else labels.seventh_place
    return round_title(bracket, match.section, match.round_number, labels)


def round_title(bracket: EliminationBracket, section: Section, round_number: int, labels: Labels = Labels()) -> str:
    """The column title of a round: Final, Semifinals, Quarterfinals, Round n, Losers' round n..."""
    if section is Section.LOSERS:
        if round_number == len(bracket.losers):
            return labels.losers_final
        return labels.losers_round.format(number=round_number)
    if section is Section.GRAND_FINAL:
        return labels.grand_final if round_number == 1 else labels.reset
    if section is Section.THIRD_PLACE:
        return labels.third_place
    if section is Section.CLASSIFICATION:
        first = min((m.round_number for m in bracket.classification), default=round_number)
        return labels.classification_semifinal if round_number == first else labels.classification
    from_end = len(bracket.winners) - round_number
    if from_end == 0:
        return labels.winners_final if bracket.double else labels.final
    if from_end == 1 and not bracket.double:
        return labels.semifinal
    if from_end == 2 and not bracket.double:
        return labels.quarterfinal
    return labels.round.format(number=round_number)
