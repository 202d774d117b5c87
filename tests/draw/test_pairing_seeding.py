"""Seeding by order, by rating (stable) and by a reproducible lot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.seeding import SeedingMethod, seed_by_lot, seed_by_order, seed_by_rating


def test_by_order_keeps_the_order():
    s = seed_by_order(["c", "a", "b"])
    assert s.order == ("c", "a", "b") and s.method is SeedingMethod.ORDER and s.lot_seed is None
    assert s.seed_of("a") == 2


def test_by_rating_descending_and_stable():
    s = seed_by_rating(["a", "b", "c", "d", "e"], {"a": 1500, "b": 1700, "c": 1500, "e": 1800})
    assert s.order == ("e", "b", "a", "c", "d")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(), min_size=1, max_size=30, unique=True), st.integers(0, 2**31 - 1))
def test_lot_is_reproducible_from_its_seed(ids, seed):
    first = seed_by_lot(ids, seed)
    assert first.lot_seed == seed and first.method is SeedingMethod.LOT
    assert sorted(first.order) == sorted(ids)
    assert seed_by_lot(ids, seed) == first


def test_lot_without_seed_records_one():
    s = seed_by_lot(list(range(20)))
    assert isinstance(s.lot_seed, int)
    assert seed_by_lot(list(range(20)), s.lot_seed).order == s.order


def test_duplicates_rejected():
    with pytest.raises(ValueError):
        seed_by_order(["a", "a"])
