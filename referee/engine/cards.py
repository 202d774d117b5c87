"""Cards and decks: parsing card names, the decks in use, the truco order of ranks.

A card is an ``int`` 0..39: ``rank_index * 4 + suit_index``. Ranks are in truco order,
low to high (4 5 6 7 Q J K A 2 3, all texts agree); suits are in manilha order, low to
high: ouros < espadas < copas < paus (zap). Decks: *sujo* (40 cards, the default; art. 10
names the 4 de ouros), *limpo* (Q J K A 2 3, 24 cards) and *limpo+7* (28 cards), the last
two from the common texts (como jogar; JTB "baralho limpo").
"""
from __future__ import annotations

import re
import unicodedata

from .errors import ReportError, shown

RANKS: tuple[str, ...] = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
SUITS: tuple[str, ...] = ("ouros", "espadas", "copas", "paus")
SUIT_LETTERS = "OECP"
SUIT_SYMBOLS = "♦♠♥♣"

DECKS: dict[str, tuple[int, ...]] = {
    # rank indexes (into RANKS) in the deck, in truco order
    "sujo": tuple(range(10)),
    "limpo": (4, 5, 6, 7, 8, 9),
    "limpo+7": (3, 4, 5, 6, 7, 8, 9),
}

CARD_NAMES: tuple[str, ...] = tuple(f"{RANKS[c // 4]}-{SUITS[c % 4]}" for c in range(40))

_SUIT_WORDS = {
    "ouros": 0, "ouro": 0, "o": 0, "♦": 0, "♢": 0,
    "espadas": 1, "espada": 1, "e": 1, "♠": 1, "♤": 1,
    "copas": 2, "copa": 2, "c": 2, "♥": 2, "♡": 2,
    "paus": 3, "pau": 3, "p": 3, "♣": 3, "♧": 3,
}
_RANK_WORDS = {r.lower(): i for i, r in enumerate(RANKS)}
_CARD_RE = re.compile(r"^\s*([4-7qjka23])\s*(?:-|\s+de\s+|\s+|)\s*(ouros?|espadas?|copas?|paus?|[oecp]|[♦♢♠♤♥♡♣♧])\s*$")

# Every common spelling of every card, built once: parsing is a dict lookup on the hot path.
_LOOKUP: dict[str, int] = {}
for _c in range(40):
    _r, _s = RANKS[_c // 4], _c % 4
    for _rank in {_r, _r.lower()}:
        for _form in (
            f"{_rank}-{SUITS[_s]}", f"{_rank} de {SUITS[_s]}", f"{_rank}{SUIT_LETTERS[_s]}",
            f"{_rank}{SUIT_LETTERS[_s].lower()}", f"{_rank}{SUIT_SYMBOLS[_s]}", f"{_rank}-{SUIT_LETTERS[_s]}",
        ):
            _LOOKUP[_form] = _c


CARD_LOOKUP = _LOOKUP  # every common spelling → card; callers on hot paths look up first


def parse_card(text: object, field: str) -> int:
    """Read ``7-paus``, ``7P``, ``7♣`` or ``7 de paus`` (any case); anything else is a ReportError."""
    try:
        return _LOOKUP[text]
    except (KeyError, TypeError):
        return _parse_spelling(text, field)


def _parse_spelling(text: object, field: str) -> int:
    if not isinstance(text, str):
        raise ReportError(field, "card.not_text", {"value": shown(text)})
    normal = unicodedata.normalize("NFC", text).replace("\ufe0f", "").lower()
    match = _CARD_RE.match(normal)
    if not match:
        raise ReportError(field, "card.invalid", {"value": shown(text)})
    return _RANK_WORDS[match.group(1)] * 4 + _SUIT_WORDS[match.group(2)]


def deck_cards(deck: str) -> frozenset[int]:
    """The cards of a deck in use."""
    return frozenset(r * 4 + s for r in DECKS[deck] for s in range(4))


DECK_CARDS: dict[str, frozenset[int]] = {name: deck_cards(name) for name in DECKS}
DECK_MASKS: dict[str, int] = {name: sum(1 << card for card in cards) for name, cards in DECK_CARDS.items()}


def card_name(card: int) -> str:
    """Canonical name: ``7-paus``."""
    return CARD_NAMES[card]
