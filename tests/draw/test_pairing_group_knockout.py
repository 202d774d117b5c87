"""Groups then knockout: crossing of group qualifiers."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.group_knockout import (
    Qualifier,
    UnequalGroups,
    groups_to_knockout,
    knockout_seeding,
    rank_across_groups,
)
from draw.pairing.standings import MatchResult, Tiebreak, compute_standings


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


# ---- byes by the group winners' records, not by group letter



def test_byes_go_to_the_best_group_winners():
    """3 groups, 2 qualifiers each, a bracket of 8: the byes went to A1 and B1 by letter."""
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
    assert rank_across_groups(tables, unequal=UnequalGroups.PER_MATCH)[:4] == ["b1", "a1", "b2", "a2"]
    with pytest.raises(ValueError):  # groups of 3 and 4 left out of the last: the results are needed
        rank_across_groups(tables)
    # Without b4 (the last of the larger group): b2 won 1 of 2 (b3), saldo -12 +1; a2 1 of 2, -2 +12: a2 first.
    assert rank_across_groups(tables, group_results=[a, b])[:4] == ["b1", "a1", "a2", "b2"]


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


# ---- the best of the next place seeded inside the crossing


def test_best_thirds_avoid_their_own_group_winner():
    """The reported event: 3 groups, 2 per group + the 2 best thirds (B3 then A3), winners by record A1 C1
    B1. Appended as seeds 7-8 after the crossing (the standard order of 8 is 1-8, 4-5, 3-6, 2-7), the
    quarterfinals were A1-A3, C2-B2, B1-A2, C1-B3; swapping the two thirds (A1-B3, C1-A3) avoids any
    same-group meeting, which is what was found by hand."""
    tables = groups(3, 4)
    ranking = ["A1", "C1", "B1", "C2", "B2", "A2", "B3", "A3"]
    appended = [q.pair_id for q in knockout_seeding(tables, 2, cross_ranking=ranking)] + ["B3", "A3"]
    from draw.pairing.elimination import single_elimination
    assert first_round(single_elimination(appended)) == [("A1", "A3"), ("C2", "B2"), ("B1", "A2"), ("C1", "B3")]
    seeding = knockout_seeding(tables, 2, cross_ranking=ranking, extras=["B3", "A3"])
    assert [q.label for q in seeding] == ["A1", "C1", "B1", "C2", "B2", "A2", "A3", "B3"]
    assert [q.place for q in seeding][6:] == [3, 3]
    assert first_round(groups_to_knockout(tables, 2, cross_ranking=ranking, extras=["B3", "A3"])) == [
        ("A1", "B3"), ("C2", "B2"), ("B1", "A2"), ("C1", "A3")]


def test_an_extra_must_come_from_below_the_qualifiers():
    with pytest.raises(ValueError):
        knockout_seeding(groups(3, 4), 2, extras=["A2"])
    with pytest.raises(ValueError):
        knockout_seeding(groups(3, 4), 2, extras=["Z3"])


def _first_round_conflicts(seeding):
    size = 1
    while size < len(seeding):
        size *= 2
    from draw.pairing.elimination import standard_seed_order

    order = standard_seed_order(size)
    group_of = {q.seed: q.group for q in seeding}
    meetings = [(order[i], order[i + 1]) for i in range(0, size, 2)]
    return sum(1 for a, b in meetings if a in group_of and b in group_of and group_of[a] == group_of[b])


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=1, max_value=3), st.data())
def test_extras_meet_no_group_mate_in_round_one_when_avoidable(g, k, data):
    """The extras stay below every group qualifier and the winners keep their seeds by record; among the
    seedings that keep those tiers, none has fewer round-one meetings of group mates (checked against
    every such seeding, for up to 3 groups)."""
    tables = groups(g, k + 2)
    n = data.draw(st.integers(min_value=1, max_value=g - 1 if g > 1 else 1))
    picked = data.draw(st.permutations(range(g)))[:n]
    extras = [tables[i][k] for i in picked]
    ranking = [p for place in range(k) for p in data.draw(st.permutations([t[place] for t in tables]))]
    seeding = knockout_seeding(tables, k, cross_ranking=ranking, extras=extras)
    assert sorted(q.pair_id for q in seeding) == sorted([p for t in tables for p in t[:k]] + extras)
    assert [q.pair_id for q in seeding[:g]] == ranking[:g]  # the winners keep their seeds by record
    assert {q.pair_id for q in seeding[g * k:]} == set(extras)  # the extras stay below every group qualifier
    if g <= 3:  # against every seeding that keeps the tiers (the winners' seeds by record): as few meetings
        tiers = [list(range(g * place + 1, g * place + g + 1)) for place in range(1, k)]
        tiers.append(list(range(g * k + 1, g * k + n + 1)))
        by_seed = {q.seed: q for q in seeding}
        best = None
        for orders in itertools.product(*(itertools.permutations(t) for t in tiers)):
            moved = dict(by_seed)
            for tier, order in zip(tiers, orders):
                for seed, new in zip(tier, order):
                    moved[new] = Qualifier(by_seed[seed].pair_id, by_seed[seed].group, by_seed[seed].place, new)
            conflicts = _first_round_conflicts(tuple(moved.values()))
            best = conflicts if best is None else min(best, conflicts)
        assert _first_round_conflicts(seeding) == best


# ---- a bye is no match won across groups; unequal groups on equal terms

def _win(winner, loser, points_won, points_lost):
    return MatchResult(winner, loser, 1, 0, points_won, points_lost, winner)


def _thirds_of_13():
    """13 pairs in groups of 5, 4, 4. In A (odd, one bye each) a3 won 1 of 4: a cycle a3 > a4 >
    a5 > a3 (head-to-head 1 each), then the saldo: a3 -1 -1 +2 -1 = -1, a4 -1 -1 -2 +1 = -3, a5 -12 -12
    -1 +1 = -24. In B b3 won 1 of 3 with saldo -1 -1 +12 = +10, in C c3 1 of 3 with -12 -12 +2 = -22."""
    a = [_win("a1", x, 12, y) for x, y in (("a2", 0), ("a3", 11), ("a4", 11), ("a5", 0))]
    a += [_win("a2", x, 12, y) for x, y in (("a3", 11), ("a4", 11), ("a5", 0))]
    a += [_win("a3", "a4", 12, 10), _win("a4", "a5", 12, 11), _win("a5", "a3", 12, 11)]
    b = [_win("b1", x, 12, y) for x, y in (("b2", 0), ("b3", 11), ("b4", 0))]
    b += [_win("b2", "b3", 12, 11), _win("b2", "b4", 12, 0), _win("b3", "b4", 12, 0)]
    c = [_win("c1", x, 12, 0) for x in ("c2", "c3", "c4")]
    c += [_win("c2", "c3", 12, 0), _win("c2", "c4", 12, 0), _win("c3", "c4", 12, 10)]
    order = [Tiebreak.MATCHES_WON, Tiebreak.HEAD_TO_HEAD, Tiebreak.POINT_DIFFERENCE, Tiebreak.POINTS_SCORED]
    tables = [compute_standings(a, order, byes=["a1", "a2", "a3", "a4", "a5"], lot_seed=1),
              compute_standings(b, order, lot_seed=1), compute_standings(c, order, lot_seed=1)]
    return tables, [a, b, c]


def test_the_table_of_13_pairs_is_as_built():
    tables, _results = _thirds_of_13()
    assert [t.ranking() for t in tables] == [["a1", "a2", "a3", "a4", "a5"], ["b1", "b2", "b3", "b4"],
                                             ["c1", "c2", "c3", "c4"]]
    thirds = [table.rows[2] for table in tables]
    assert [(r.won, r.lost, r.byes, r.points_for - r.points_against) for r in thirds] == [
        (1, 3, 1, -1), (1, 2, 0, 10), (1, 2, 0, -22)]


def test_a_bye_scores_nothing_when_thirds_are_compared():
    """Per match: a3 1/4 (the bye is not a win: 2/5 before), b3 1/3 (saldo +10/3), c3 1/3 (-22/3)."""
    tables, _results = _thirds_of_13()
    assert rank_across_groups(tables, unequal="per_match")[6:9] == ["b3", "c3", "a3"]


def test_thirds_of_unequal_groups_without_the_results_against_the_last():
    """Without a5 (the last of A, the larger group): a3 won 1 of 3 (a4), saldo -1 -1 +2 = 0 (0 a match);
    b3 1 of 3 and +10 (+10/3); c3 1 of 3 and -22 (-22/3): b3, a3, c3 (the default rule)."""
    tables, results = _thirds_of_13()
    assert rank_across_groups(tables, group_results=results)[6:9] == ["b3", "a3", "c3"]
    assert rank_across_groups(tables, group_results=results, unequal="drop_last")[6:9] == ["b3", "a3", "c3"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=2, max_value=6), min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_a_bye_never_changes_the_order_across_groups(sizes, rng):
    """Giving one more bye to every pair of a group (a rest round) changes nothing across groups."""
    results, tables, tables_with_byes = [], [], []
    for g, n in enumerate(sizes):
        ids = [f"{chr(97 + g)}{i}" for i in range(1, n + 1)]
        group = [MatchResult(x, y, 1, 0, rng.randint(0, 12), rng.randint(0, 12), rng.choice([x, y]))
                 for i, x in enumerate(ids) for y in ids[i + 1:]]
        results.append(group)
        tables.append(compute_standings(group, pairs=ids, lot_seed=3))
        tables_with_byes.append(compute_standings(group, pairs=ids, byes=ids, lot_seed=3))
    for mode in UnequalGroups:
        assert rank_across_groups(tables, group_results=results, unequal=mode) == \
            rank_across_groups(tables_with_byes, group_results=results, unequal=mode)
    assert rank_across_groups(tables, unequal="per_match") == rank_across_groups(tables_with_byes, unequal="per_match")
