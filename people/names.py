"""Names as people compare them (no accents, no case, single spaces), for players and clubs."""
from __future__ import annotations

import unicodedata


def plain_name(name: str) -> str:
    """A name as people compare it: no accents, no case, single spaces ("José  Antônio" = "jose antonio")."""
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())
