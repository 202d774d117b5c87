"""Final placings of a knockout come from the bracket (champion, final, third place, round lost)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.double_elimination import double_elimination
from draw.pairing.elimination import EliminationBracket, record_results, single_elimination
from draw.pairing.placings import bracket_placings, overall_placings


def play(bracket: EliminationBracket, pick) -> EliminationBracket:
    """Play every match to the end, the winner chosen by ``pick(match)``."""
    while not bracket.complete:
        bracket = record_results(bracket, {m.match_id: pick(m) for m in bracket.playable()})
    return bracket


def favourite(m):
    """The better seed wins (seeds are 1..n, the pair ids here)."""
    return min(m.top.pair, m.bottom.pair)


def places(bracket) -> list[tuple[int | None, object]]:
    return [(row.place, row.pair_id) for row in bracket_placings(bracket).rows]


def test_single_elimination_with_third_place_favourites_win():
    """The standings read 1, 4, 2, 3; the placings are 1, 2, 3, 4 then the quarterfinal losers."""
    done = play(single_elimination(list(range(1, 9)), third_place=True), favourite)
    assert places(done) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (5, 7), (5, 8)]
    assert bracket_placings(done).complete


def test_single_elimination_without_third_place_semifinal_losers_share_third():
    done = play(single_elimination(list(range(1, 9))), favourite)
    assert [p for p, _ in places(done)] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_byes_keep_the_competition_ranking():
    done = play(single_elimination(list(range(1, 7))), favourite)  # 6 pairs in a bracket of 8
    assert places(done) == [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6)]


def test_third_place_winner_can_be_the_lower_seed():
    bracket = single_elimination(["a", "b", "c", "d"], third_place=True)
    bracket = record_results(bracket, {"W1-1": "a", "W1-2": "c"})  # a v d, b v c
    partial = bracket_placings(bracket)
    assert partial.rows[0].place is None and partial.rows[1].place is None  # a and c still in
    assert {row.pair_id: row.place for row in partial.rows[2:]} == {"b": 3, "d": 3}  # third place to play
    assert not partial.complete
    done = record_results(bracket, {"W2-1": "c", "3P": "d"})
    assert places(done) == [(1, "c"), (2, "a"), (3, "d"), (4, "b")]
    assert bracket_placings(done).rows[0].decided_by == "W2-1"


def test_double_elimination_losers_finalist_who_lost_the_reset_is_second():
    """The losers' bracket finalist who won the first final and lost the reset was listed first."""
    bracket = double_elimination(["a", "b", "c", "d"])
    bracket = record_results(bracket, {"W1-1": "a", "W1-2": "b", "L1-1": "d", "W2-1": "a", "L2-1": "b"})
    bracket = record_results(bracket, {"GF1": "b"})
    assert [p for p, _ in places(bracket)][:2] == [None, None]  # the reset decides
    done = record_results(bracket, {"GF2": "a"})
    assert places(done) == [(1, "a"), (2, "b"), (3, "d"), (4, "c")]


def test_double_elimination_favourites_win():
    done = play(double_elimination(list(range(1, 9))), favourite)
    assert places(done) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7), (7, 8)]


def test_overall_placings_after_groups_or_swiss():
    done = play(single_elimination([3, 1, 4, 2], third_place=True), favourite)  # seeds: 3, 1, 4, 2
    rows = overall_placings(bracket_placings(done), [1, 2, 9, 3, 8, 4, 7])
    assert [(row.place, row.pair_id) for row in rows] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 9), (6, 8), (7, 7)
    ]


def _random_play(bracket, seed):
    rng = random.Random(seed)
    return play(bracket, lambda m: rng.choice([m.top.pair, m.bottom.pair]))


@given(st.integers(min_value=2, max_value=40), st.integers(0, 10**6), st.sampled_from(["single", "third", "double", "double_no_reset"]))
def test_placings_are_a_competition_ranking_led_by_the_final(n, seed, kind):
    if kind in ("single", "third"):
        bracket = single_elimination(list(range(n)), third_place=kind == "third")
    else:
        bracket = double_elimination(list(range(n)), reset=kind == "double")
    done = _random_play(bracket, seed)
    result = bracket_placings(done)
    assert result.complete
    assert sorted(result.ranking()) == list(range(n))
    numbers = [row.place for row in result.rows]
    assert numbers == sorted(numbers)
    for place in numbers:  # competition ranking: one more than the pairs placed better
        assert place == 1 + sum(1 for other in numbers if other < place)
    assert result.rows[0].pair_id == done.champion and numbers[:2] == [1, 2]
    final = result.rows[0].decided_by
    assert result.rows[1].decided_by == final  # the runner-up lost the match that made the champion
    if kind == "third" and n >= 4:
        third = done.third_place
        place = {row.pair_id: row.place for row in result.rows}
        assert (place[third.winner], place[third.loser]) == (3, 4)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(0, 10**6))
def test_single_elimination_place_follows_the_round_lost(n, seed):
    """A pair knocked out in a later round is always placed above one knocked out earlier."""
    done = _random_play(single_elimination(list(range(n))), seed)
    round_lost = {}
    for rnd in done.winners:
        for m in rnd:
            if m.loser is not None:
                round_lost[m.loser] = m.round_number
    result = bracket_placings(done)
    for a in result.rows[1:]:
        for b in result.rows[1:]:
            if round_lost[a.pair_id] > round_lost[b.pair_id]:
                assert a.place < b.place
            elif round_lost[a.pair_id] == round_lost[b.pair_id]:
                assert a.place == b.place

