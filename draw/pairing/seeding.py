"""Seeding: the order in which entrants enter a bracket, a table or a Swiss round one.

Three methods: the organizer's own order, by rating (descending, stable), or
by lot.  A draw by lot records the integer seed given to
:class:`random.Random`, so the same seed always reproduces the same draw and
an organizer can publish it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .base import PairId, require_unique

__all__ = [
    "SeedingMethod",
    "Seeding",
    "seed_by_order",
    "seed_by_rating",
    "seed_by_lot",
    "new_lot_seed",
]


class SeedingMethod(str, Enum):
    ORDER = "order"
    RATING = "rating"
    LOT = "lot"


@dataclass(frozen=True)
class Seeding:
    """Seeded entrants, best seed first; ``lot_seed`` is set for draws by lot."""

    order: tuple[PairId, ...]
    method: SeedingMethod
    lot_seed: int | None = None

    def seed_of(self, pair_id: PairId) -> int:
        """1-based seed number of ``pair_id``."""
        return self.order.index(pair_id) + 1


def new_lot_seed() -> int:
    """A fresh random seed for a draw (record it with the draw)."""
    return random.SystemRandom().randrange(2**31)


def seed_by_order(entrants: Sequence[PairId]) -> Seeding:
    """Keep the organizer's order."""
    return Seeding(tuple(require_unique(entrants)), SeedingMethod.ORDER)


def seed_by_rating(entrants: Sequence[PairId], ratings: Mapping[PairId, float]) -> Seeding:
    """Highest rating first; equal ratings keep their order in ``entrants``.

    Entrants without a rating go last (in their given order).
    """
    ids = require_unique(entrants)
    rated = [p for p in ids if ratings.get(p) is not None]
    unrated = [p for p in ids if ratings.get(p) is None]
    rated.sort(key=lambda p: -ratings[p])  # list.sort is stable
    return Seeding(tuple(rated + unrated), SeedingMethod.RATING)


def seed_by_lot(entrants: Sequence[PairId], seed: int | None = None) -> Seeding:
    """Shuffle with ``random.Random(seed)``; a fresh seed is drawn (and returned) if ``None``.

    The draw depends only on the seed and the order of ``entrants``.
    """
    ids = require_unique(entrants)
    if seed is None:
        seed = new_lot_seed()
    if not isinstance(seed, int):
        raise TypeError("the lot seed must be an integer")
    rng = random.Random(seed)
    rng.shuffle(ids)
    return Seeding(tuple(ids), SeedingMethod.LOT, seed)
