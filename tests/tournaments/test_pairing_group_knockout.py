"""Groups then knockout: crossing of group qualifiers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.group_knockout import groups_to_knockout, knockout_seeding, rank_across_groups
from tournaments.pairing.standings import MatchResult, Tiebreak, compute_standings


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


# ---- byes by the group winners' records, not by group letter (issue 13, section 0)



def test_byes_go_to_the_best_group_winners():
    """Issue 13: 3 groups, 2 qualifiers each, a bracket of 8: the byes went to A1 and B1 by letter."""
    tables = groups(3, 3)
    ranking = ["C1", "A1", "B1", "B2", "C2", "A2"]  # C's winner has the best record, then A's
    bracket = groups_to_knockout(tables, 2, cross_ranking=ranking)
    byes = [m.top.pair for m in bracket.winners[0] if m.bottom.bye]
    assert sorted(byes) == ["A1", "C1"]
    seeding = knockout_seeding(tables, 2, cross_ranking=ranking)
    assert [q.label for q in seeding][:3] == ["C1", "A1", "B1"]
    assert first_round(groups_to_knockout(tables, 2))[0] == ("A1", None)  # without records: group order


def test_rank_across_groups_by_record_per_match():
    # Group A (3 pairs): a1 wins both; group B (4 pairs): b1 wins all three, with a better saldo per match.
    a = [MatchResult("a1", "a2", 1, 0, 12, 10, "a1"), MatchResult("a1", "a3", 1, 0, 12, 10, "a1"),
         MatchResult("a2", "a3", 1, 0, 12, 0, "a2")]
    b = [MatchResult("b1", x, 1, 0, 12, 0, "b1") for x in ("b2", "b3", "b4")] + [
        MatchResult("b2", "b3", 1, 0, 12, 11, "b2"), MatchResult("b2", "b4", 1, 0, 12, 11, "b2"),
        MatchResult("b3", "b4", 1, 0, 12, 11, "b3")]
    order = [Tiebreak.MATCHES_WON, Tiebreak.HEAD_TO_HEAD, Tiebreak.POINT_DIFFERENCE]
    tables = [compute_standings(a, order, lot_seed=1), compute_standings(b, order, lot_seed=1)]
    # Both winners won every match (1 per match); b1's saldo is +12 a match, a1's +2: b1 first.
    # Runners-up: a2 won 1 of 2 (1/2 a match), b2 2 of 3 (2/3): b2 first.
    assert rank_across_groups(tables)[:4] == ["b1", "a1", "b2", "a2"]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=1, max_value=4), st.randoms(use_true_random=False))
def test_winners_are_seeded_by_record_and_group_mates_still_apart(g, k, rng):
    tables = groups(g, k)
    ranking = [p for place in range(k) for p in rng.sample([t[place] for t in tables], g)]
    seeding = knockout_seeding(tables, k, cross_ranking=ranking)
    assert [q.pair_id for q in seeding[:g]] == ranking[:g]
    assert sorted(q.pair_id for q in seeding) == sorted(p for t in tables for p in t[:k])
    bracket = groups_to_knockout(tables, k, cross_ranking=ranking)
    for top, bottom in first_round(bracket):
        if top and bottom:
            assert top[0] != bottom[0]


def test_cross_ranking_must_rank_every_qualifier():
    with pytest.raises(ValueError):
        knockout_seeding(groups(2, 2), 2, cross_ranking=["A1", "B1", "A2"])
