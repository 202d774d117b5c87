"""Groups then knockout: crossing of group qualifiers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.group_knockout import groups_to_knockout, knockout_seeding


def groups(g: int, size: int) -> list[list[str]]:
    return [[f"{chr(65 + i)}{p}" for p in range(1, size + 1)] for i in range(g)]


def first_round(bracket):
    return [(m.top.pair, m.bottom.pair) for m in bracket.winners[0]]


def test_two_groups_cross():
    assert first_round(groups_to_knockout(groups(2, 4), 2)) == [("A1", "B2"), ("B1", "A2")]


def test_four_groups_classic_crossing():
    assert first_round(groups_to_knockout(groups(4, 4), 2)) == [
        ("A1", "B2"),
        ("D1", "C2"),
        ("C1", "D2"),
        ("B1", "A2"),
    ]


def test_labels_and_seeds():
    seeding = knockout_seeding(groups(2, 3), 2)
    assert [q.label for q in seeding] == ["A1", "B1", "A2", "B2"]
    assert [q.seed for q in seeding] == [1, 2, 3, 4]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=1, max_value=4))
def test_group_mates_never_meet_in_round_one(g, k):
    bracket = groups_to_knockout(groups(g, k), k)
    for top, bottom in first_round(bracket):
        if top and bottom:
            assert top[0] != bottom[0]
    if k == 2:  # the two qualifiers of a group are in opposite halves
        half = bracket.size // 2
        slots = [p for m in bracket.winners[0] for p in (m.top.pair, m.bottom.pair)]
        for i in range(g):
            a, b = slots.index(f"{chr(65 + i)}1"), slots.index(f"{chr(65 + i)}2")
            assert (a < half) != (b < half)


def test_rejects_short_groups():
    with pytest.raises(ValueError):
        knockout_seeding([["a", "b"], ["c"]], 2)
