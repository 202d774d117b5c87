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

#: Proper words for each call (regras 4 jogadores and JTB vocabularies).
PROPER_WORDS: dict[str, frozenset[str]] = {
    "truco": frozenset({"truco"}),
    "seis": frozenset({"seis", "meio-pau", "meio pau", "meio-saco", "meio saco", "meia-vara", "meia vara"}),
    "nove": frozenset({"nove"}),
    "doze": frozenset({"doze", "queda"}),
}


def normal_word(word: str) -> str:
    """Lower case, accents off, single spaces: how words are compared."""
    stripped = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
    return " ".join(stripped.lower().split())


def is_false_call(call: str, said: str | None) -> bool:
    """True when the words said are not a proper name of the call (art. 15-16)."""
    return said is not None and normal_word(said) not in PROPER_WORDS[call]
