"""The knockout after the round robin and the best pairs, as pure rules (art. 26: the event's team rules,
docs/teams.md): semifinals 1st × 4th and 2nd × 3rd, the final and the 3rd-place match, the final places,
and the pairs ranked by wins, tento difference, game difference, fewer appearances."""
from __future__ import annotations

import pytest

from draw.pairing.teams import (KnockoutMatch, PairMatchResult, final_places, knockout_finals,
                                knockout_semifinals, pair_ranking)


def test_the_semifinals_pit_first_against_fourth_and_second_against_third():
    assert knockout_semifinals(["a", "b", "c", "d", "e", "f"]) == [("a", "d"), ("b", "c")]
    with pytest.raises(ValueError):
        knockout_semifinals(["a", "b", "c"])


def test_the_final_takes_the_winners_and_the_third_place_match_the_losers():
    semis = [KnockoutMatch("a", "d", "d"), KnockoutMatch("b", "c", "b")]
    assert knockout_finals(semis) == (("d", "b"), ("a", "c"))
    with pytest.raises(ValueError):
        KnockoutMatch("a", "b", "c")


def test_the_places_come_from_the_knockout_then_the_round_robin():
    ranked = ["a", "b", "c", "d", "e", "f"]
    assert final_places(KnockoutMatch("d", "b", "b"), KnockoutMatch("a", "c", "c"), ranked) == [
        "b", "d", "c", "a", "e", "f"]


def test_the_best_pairs_by_wins_then_tentos_then_games_then_fewer_appearances():
    results = [
        PairMatchResult("p1", "q1", "p1", (2, 0), (24, 10)),
        PairMatchResult("p2", "q2", "p2", (2, 1), (30, 29)),
        PairMatchResult("p1", "r1", "r1", (1, 2), (30, 31)),
        PairMatchResult("p2", "r2", "p2", (2, 0), (24, 20)),
        PairMatchResult("q1", "r1", None),  # a double W.O.: played, no winner
        PairMatchResult("q2", "r2", "q2", (2, 0), (24, 0)),
    ]
    rows = pair_ranking(["p1", "p2", "q1", "q2", "r1", "r2"], results)
    # p2: 2 wins; the 1-win pairs by tento difference: q2 (+23), p1 (+13), r1 (+1); then q1 (-14), r2 (-28)
    assert [r.pair for r in rows] == ["p2", "q2", "p1", "r1", "q1", "r2"]
    assert [(r.played, r.won, r.point_difference) for r in rows[:3]] == [(2, 2, 5), (2, 1, 23), (2, 1, 13)]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_fewer_appearances_break_a_tie_on_everything_else():
    results = [PairMatchResult("a", "x", "a", (2, 0), (24, 0)), PairMatchResult("b", "y", "b", (2, 0), (24, 0)),
               PairMatchResult("b", "z", None)]  # b also met z: a double W.O.
    rows = pair_ranking(["b", "a", "x", "y", "z"], results)
    assert [(r.pair, r.played) for r in rows][:2] == [("a", 1), ("b", 2)]
