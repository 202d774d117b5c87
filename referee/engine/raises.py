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
