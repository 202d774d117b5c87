"""Raises (*provocação*): the ladder truco → seis → nove → doze and the words that name them.

art. 11 and 13: a hand starts at 1 and an accepted raise makes it 3, 6, 9 or 12.
art. 12: raised "pela ordem", by the player in turn, the teams alternating.
art. 13: whoever runs loses the value in play before the raise.
art. 15-16: a call must be clear; "Jorge", "Truca", "Turco" and the like count as truco
when accepted.
"""
from __future__ import annotations

import unicodedata

#: The call that asks for each value, and the value each call asks for.
CALLS: dict[str, int] = {"truco": 3, "seis": 6, "nove": 9, "doze": 12}
NEXT_VALUE: dict[int, int] = {1: 3, 3: 6, 6: 9, 9: 12}
CALL_FOR_VALUE: dict[int, str] = {v: k for k, v in CALLS.items()}

#: Proper words for each call (regras 4 jogadores and JTB vocabularies), as normal words (see ``normal_word``).
PROPER_WORDS: dict[str, frozenset[str]] = {
    "truco": frozenset({"truco"}),
    "seis": frozenset({"seis", "meio pau", "meio saco", "meia vara"}),
    "nove": frozenset({"nove"}),
    "doze": frozenset({"doze", "queda"}),
}


def normal_word(word: str) -> str:
    """Lower case, accents and punctuation off (a hyphen is a space), single spaces: how words are compared.

    art. 15 asks for a call "verbal e clara", not an exact string: "Truco!" and "truco" are the same call.
    """
    stripped = "".join(
        c if c.isalnum() else " "
        for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn"
    )
    return " ".join(stripped.lower().split())


def is_false_call(call: str, said: str | None) -> bool:
    """True when the words said hold no proper name of the call (art. 15-16).

    A proper name among other words is a clear call ("Truco, ladrão!"); a word that only sounds like it
    ("Truca", "Jorge", "Turco") is not.
    """
    if said is None:
        return False
    words = f" {normal_word(said)} "
    return not any(f" {proper} " in words for proper in PROPER_WORDS[call])


def raise_back_fault(call: str, team: int, pending_value: int, pending_team: int) -> str | None:
    """What is wrong with a call made while a call is pending (art. 12, 13), or None for a raise-back.

    ``repeated_call``: the pending call's own team says it again (nothing changes);
    ``raise_not_alternating``: that team asks more over its own pending call (void);
    ``raise_beyond_twelve``: the other team calls over a pending doze (void: nothing goes above doze).
    """
    if pending_team == team:
        return "repeated_call" if CALLS[call] == pending_value else "raise_not_alternating"
    if pending_value == 12:
        return "raise_beyond_twelve"
    return None


def new_raise_faults(call: str, team: int, seat: int, value: int, last_raiser: int | None,
                     seat_in_turn: int, in_turn: bool) -> list[str]:
    """The rules a call with no call pending breaks, in order (art. 12, 13): ``raise_not_alternating``
    (the same team raised last), ``raise_out_of_turn`` (``in_turn`` and not the player in turn), then
    ``raise_beyond_twelve`` (the hand is worth 12) or ``raise_out_of_order`` (not the next step)."""
    faults = []
    if last_raiser == team:
        faults.append("raise_not_alternating")
    if in_turn and seat != seat_in_turn:
        faults.append("raise_out_of_turn")
    asked = NEXT_VALUE.get(value)
    if asked is None:
        faults.append("raise_beyond_twelve")
    elif CALLS[call] != asked:
        faults.append("raise_out_of_order")
    return faults
