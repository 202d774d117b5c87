"""A circuit's ranking (draw/pairing/circuit.py): points per final place, best N of M
stages, and the tiebreaks counted points, all points, countback, recency, then shared."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.circuit import (
    CircuitRules,
    StageResult,
    circuit_ranking,
    pair_results,
    player_results,
)

RULES = CircuitRules(points=(100, 80, 65, 55, 45, 40, 35, 30), beyond=10, best_of=2)


def ranks(lines):
    return [(line.rank, line.entrant, line.counted_points) for line in lines]


def test_points_table_and_beyond():
    assert [RULES.points_for(p) for p in (1, 2, 8, 9, 30)] == [100, 80, 30, 10, 10]
    with pytest.raises(ValueError, match="place"):
        RULES.points_for(0)


@pytest.mark.parametrize("kwargs, field", [
    ({"points": ()}, "points"),
    ({"points": (50, 80)}, "points"),
    ({"points": (50, 30), "beyond": 40}, "points"),
    ({"points": (50, -1)}, "points"),
    ({"points": (50,), "best_of": 0}, "best_of"),
])
def test_bad_rules_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        CircuitRules(**kwargs)


def test_best_n_of_m_counts_the_best_stages_only():
    results = [StageResult(1, "a", 1), StageResult(2, "a", 9), StageResult(3, "a", 2),
               StageResult(1, "b", 2), StageResult(2, "b", 2), StageResult(3, "b", 2)]
    a, b = circuit_ranking(RULES, results)
    assert (a.entrant, a.counted_points, a.total_points) == ("a", 180, 190)
    assert (b.entrant, b.counted_points, b.total_points) == ("b", 160, 240)
    assert [s.counted for s in a.stages] == [True, False, True]


def test_tiebreaks_in_order():
    rules = CircuitRules(points=(10, 6, 6, 4, 4), beyond=0, best_of=1)
    results = [
        # counted 10 each; total separates x (10+6) above y (10+4)
        StageResult(1, "x", 1), StageResult(2, "x", 2),
        StageResult(1, "y", 4), StageResult(2, "y", 1),
        # counted 6, total 6 each; countback: a 2nd place beats a 3rd
        StageResult(1, "p", 3), StageResult(2, "q", 2),
        # counted 4, total 4: same place (4th and 5th are worth 4 but differ), recency
        StageResult(1, "r", 5), StageResult(2, "s", 5),
        # fully equal: shared
        StageResult(3, "t", 9), StageResult(3, "u", 9),
    ]
    lines = circuit_ranking(rules, results)
    assert [(line.rank, line.entrant, line.decided_by) for line in lines] == [
        (1, "x", None), (2, "y", "total_points"), (3, "q", "counted_points"), (4, "p", "countback"),
        (5, "s", "counted_points"), (6, "r", "recency"), (7, "t", "counted_points"), (7, "u", None),
    ]


def test_pairs_are_their_players_set_and_players_share_the_pair_place():
    placings = [(1, (1, 2), 1), (1, (3, 4), 2), (2, (2, 1), 2), (2, (3, 4), 1)]
    pairs = circuit_ranking(CircuitRules(points=(10, 5)), pair_results(placings))
    assert {line.entrant for line in pairs} == {frozenset({1, 2}), frozenset({3, 4})}
    assert all(line.counted_points == 15 for line in pairs)
    players = circuit_ranking(CircuitRules(points=(10, 5)), player_results(placings))
    assert sorted(line.entrant for line in players) == [1, 2, 3, 4]


def test_two_places_in_one_stage_refused():
    with pytest.raises(ValueError, match="results"):
        circuit_ranking(RULES, [StageResult(1, "a", 1), StageResult(1, "a", 2)])


# ------------------------------------------------------------------------------------ properties

rules_st = st.builds(
    lambda pts, beyond, n: CircuitRules(tuple(sorted(pts, reverse=True)), min(beyond, min(pts)), n),
    st.lists(st.integers(0, 100), min_size=1, max_size=8), st.integers(0, 20),
    st.one_of(st.none(), st.integers(1, 4)),
)


@st.composite
def seasons(draw):
    stages = draw(st.integers(1, 5))
    entrants = draw(st.integers(1, 8))
    results = []
    for stage in range(1, stages + 1):
        field = draw(st.lists(st.integers(0, entrants - 1), unique=True, max_size=entrants))
        places = draw(st.lists(st.integers(1, 10), min_size=len(field), max_size=len(field)))
        results += [StageResult(stage, f"e{e}", p) for e, p in zip(field, places)]
    return results


@settings(max_examples=150, deadline=None)
@given(rules_st, seasons())
def test_ranking_properties(rules, results):
    lines = circuit_ranking(rules, results)
    assert sorted(line.entrant for line in lines) == sorted({r.entrant for r in results})
    for i, line in enumerate(lines):
        better = sum(1 for other in lines if other.rank < line.rank)
        assert line.rank == better + 1  # standard competition ranking
        points = sorted((s.points for s in line.stages), reverse=True)
        n = len(points) if rules.best_of is None else rules.best_of
        assert line.counted_points == sum(points[:n]) <= line.total_points
        assert sum(s.counted for s in line.stages) == min(n, len(points))
        if i:
            assert lines[i - 1].counted_points >= line.counted_points
    shuffled = list(results)
    random.Random(7).shuffle(shuffled)
    assert ranks(circuit_ranking(rules, shuffled)) == ranks(lines)


@settings(max_examples=150, deadline=None)
@given(rules_st, seasons(), st.data())
def test_a_better_place_never_lowers_the_rank(rules, results, data):
    if not results:
        return
    i = data.draw(st.integers(0, len(results) - 1))
    r = results[i]
    better = data.draw(st.integers(1, r.place))
    improved = results[:i] + [StageResult(r.stage, r.entrant, better)] + results[i + 1:]
    rank = {line.entrant: line.rank for line in circuit_ranking(rules, results)}
    rank2 = {line.entrant: line.rank for line in circuit_ranking(rules, improved)}
    assert rank2[r.entrant] <= rank[r.entrant]


@settings(max_examples=100, deadline=None)
@given(rules_st, seasons(), st.integers(1, 10))
def test_playing_one_more_stage_never_lowers_counted_points(rules, results, place):
    entrant = "e0"
    stage = 1 + max((r.stage for r in results), default=0)
    before = {line.entrant: line.counted_points for line in circuit_ranking(rules, results)}
    after = {line.entrant: line.counted_points
             for line in circuit_ranking(rules, results + [StageResult(stage, entrant, place)])}
    assert after[entrant] >= before.get(entrant, 0)
