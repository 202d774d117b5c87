"""The ``hands`` rating method (draw/pairing/ratings.py) rewards winning: a match winner never loses
rating for winning, a larger win never counts less, and its ratings read on the ``match`` method's
scale (Hypothesis properties, and the cases that the former hand-by-hand method got wrong)."""
from __future__ import annotations

import statistics

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.seasons import season
from draw.pairing.ratings import RatedMatch, Rating, Ratings, compute, hand_factor, hand_tentos

PLAYERS = ("a1", "a2", "b1", "b2")
rating_st = st.builds(Rating, st.floats(-20, 70, allow_nan=False), st.floats(0.05, 9, allow_nan=False))
hand_st = st.tuples(st.integers(0, 1), st.sampled_from([1, 3, 6, 9, 12]))


def rate(state, winner, hands):
    ratings = Ratings("hands", current=dict(zip(PLAYERS, state)))
    points = (12, 5) if winner == 0 else (5, 12)
    ratings.rate([RatedMatch((0,), 1, PLAYERS[:2], PLAYERS[2:], winner, *points, tuple(hands))])
    return [ratings.get(p) for p in PLAYERS]


def sides(winner):
    return ((0, 1), (2, 3)) if winner == 0 else ((2, 3), (0, 1))


@settings(max_examples=300, deadline=None)
@given(st.lists(rating_st, min_size=4, max_size=4), st.integers(0, 1), st.lists(hand_st, max_size=30))
def test_a_winner_never_loses_rating_for_winning(state, winner, hands):
    after = rate(state, winner, hands)
    won, lost = sides(winner)
    for i in won:
        assert after[i].mu >= state[i].mu
        assert after[i].sigma <= state[i].sigma
        assert after[i].display >= state[i].display
    for i in lost:
        assert after[i].mu <= state[i].mu


def changed(hands, winner, change, at, value):
    """``hands`` with one hand more for ``winner``, a hand of its raised, a loser's hand taken away or lowered."""
    hands = list(hands)
    won = [i for i, (side, _v) in enumerate(hands) if side == winner]
    lost = [i for i, (side, _v) in enumerate(hands) if side != winner]
    if change == "add":
        hands.insert(at % (len(hands) + 1), (winner, value))
    elif change == "raise" and won:
        i = won[at % len(won)]
        hands[i] = (winner, max(hands[i][1], value))
    elif change == "drop" and lost:
        del hands[lost[at % len(lost)]]
    elif change == "lower" and lost:
        i = lost[at % len(lost)]
        hands[i] = (1 - winner, min(hands[i][1], value))
    return hands


@settings(max_examples=300, deadline=None)
@given(st.lists(rating_st, min_size=4, max_size=4), st.integers(0, 1), st.lists(hand_st, min_size=1, max_size=40),
       st.sampled_from(["add", "raise", "drop", "lower"]), st.integers(0, 100), st.sampled_from([1, 3, 6, 9, 12]))
def test_a_larger_win_never_counts_less(state, winner, hands, change, at, value):
    """A larger win: the winner scored no fewer tentos and the loser no more (the hands' tentos,
    game by game, as the score counts them)."""
    other = changed(hands, winner, change, at, value)
    small, big = sorted([hands, other], key=lambda h: (hand_tentos(h)[winner], -hand_tentos(h)[1 - winner]))
    t_small, t_big = hand_tentos(small), hand_tentos(big)
    assume(t_big[winner] >= t_small[winner] and t_big[1 - winner] <= t_small[1 - winner])
    assert hand_factor(big, winner) >= hand_factor(small, winner)
    after_small, after_big = rate(state, winner, small), rate(state, winner, big)
    won, lost = sides(winner)
    for i in won:
        assert after_big[i].mu >= after_small[i].mu
    for i in lost:
        assert after_big[i].mu <= after_small[i].mu


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 11), st.integers(0, 11), st.lists(st.sampled_from([1, 3, 6, 9, 12]), min_size=1, max_size=12))
def test_a_game_won_by_more_tentos_counts_more(low, high, values):
    """One game to 12: whatever the hands, 12-x counts no less than 12-y when x < y."""
    low, high = sorted((low, high))

    def game(loser_tentos):
        hands = [(1, 1)] * loser_tentos
        while hand_tentos(hands)[0] < 12:
            hands.append((0, values[len(hands) % len(values)]))
        return hands

    assert hand_factor(game(low), 0) >= hand_factor(game(high), 0)
    assert rate([Rating()] * 4, 0, game(low))[0].mu >= rate([Rating()] * 4, 0, game(high))[0].mu


def test_the_cases_the_hand_by_hand_method_got_wrong():
    # an underdog's 12-point hand counts no less than its 1-point hand (the former: +0.20 against +0.29)
    state = [Rating(20, 3), Rating(20, 3), Rating(30, 3), Rating(30, 3)]
    by_one = rate(state, 0, [(1, 1)] * 3 + [(0, 1)] * 11 + [(0, 1)])
    by_twelve = rate(state, 0, [(1, 1)] * 3 + [(0, 1)] * 11 + [(0, 12)])
    assert by_twelve[0].mu >= by_one[0].mu > 20
    # 12-2 by one 12-point hand counts no less than 12-3 by twelve 1-point hands
    assert rate(state, 0, [(1, 1), (1, 1), (0, 12)])[0].mu >= rate(state, 0, [(1, 1)] * 3 + [(0, 1)] * 12)[0].mu
    # won 12-10 by two 6-point hands against ten 1-point hands: the winners go up, the losers down
    after = rate([Rating()] * 4, 0, [(1, 1)] * 10 + [(0, 6), (0, 6)])
    assert after[0].display > 1000 > after[2].display


def test_its_ratings_read_on_the_match_methods_scale():
    matches = season(seed=6)
    by_match, by_hands = compute(matches, "match"), compute(matches, "hands")
    players = list(by_match.current)
    shift = statistics.mean(by_hands.get(p).display - by_match.get(p).display for p in players)
    assert abs(shift) < 15  # the former hand-by-hand method: +422
    winners_fell = 0
    ratings = Ratings("hands")
    for m in matches:
        won = m.team_a if m.winner == 0 else m.team_b
        before = [ratings.get(p).display for p in won]
        ratings.rate([m])
        winners_fell += sum(1 for p, b in zip(won, before) if ratings.get(p).display < b)
    assert winners_fell == 0
