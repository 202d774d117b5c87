"""Shared vocabulary of the pairing package: how entrants (pairs, "duplas") are named.

The pairing package never sees Django models.  An entrant is identified by any
hashable value chosen by the caller (a primary key, a slug, a name); the
functions only compare identifiers for equality and hash them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

PairId = Hashable
"""Identifier of a pair (dupla).  Any hashable value; ``None`` is reserved for "nobody"."""


def require_unique(ids: Iterable[PairId], what: str = "entrants") -> list[PairId]:
    """Return ``ids`` as a list, rejecting duplicates and ``None``."""
    out = list(ids)
    seen: set[PairId] = set()
    for pair_id in out:
        if pair_id is None:
            raise ValueError(f"{what}: None is not a valid pair id")
        if pair_id in seen:
            raise ValueError(f"{what}: duplicate pair id {pair_id!r}")
        seen.add(pair_id)
    return out
