"""Which match a referee's ruling belongs to, for the penalties that cite it.

A penalty may name the ruling that awarded it (``PenaltyEntry.ruling_id``); the ruling must be one of
the same match. Rulings are the referee app's (a layer above, which scoring does not import:
docs/architecture.md): that app registers a lookup here when it starts (``RefereeConfig.ready``).

This module owns the registry and :func:`match_of`.
"""
from __future__ import annotations

from typing import Callable

_lookup: Callable[[int], int | None] | None = None


def register(lookup: Callable[[int], int | None]) -> None:
    """``lookup(ruling_id)`` answers the ruling's match id, or None when there is no such ruling."""
    global _lookup
    _lookup = lookup


def match_of(ruling_id: int) -> int | None:
    """The match id of ruling ``ruling_id``; None when unknown (or no app registered rulings: then no
    ruling can be cited)."""
    return _lookup(ruling_id) if _lookup is not None else None
