"""Ratings (draw/pairing/ratings.py): openskill 2 vs 2 from official matches,
reproducible whatever the order the matches come in, with the margin and hand-level options."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.ratings import RatedMatch, Rating, Ratings, compute, display, log_loss, pair_rating


def m(i, a, b, winner=0, pa=12, pb=5, hands=(), played=True, key=None):
    return RatedMatch(key or (i,), i, a, b, winner, pa, pb, hands, played)


def test_a_newcomer_shows_1000_and_the_winners_go_up():
    assert Rating().display == 1000 == display(25.0, 25.0 / 3.0)
    r = compute([m(1, (1, 2), (3, 4))])
    assert r.get(1).mu > 25 > r.get(3).mu
    assert r.get(1).sigma < 25 / 3
    assert [(c.sequence, c.match_id, c.player) for c in r.history] == [(1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4)]
    assert r.history[0].before == Rating()


def test_walkovers_and_double_walkovers_do_not_rate():
    r = compute([m(1, (1, 2), (3, 4), played=False), m(2, (1, 2), (3, 4), winner=None)])
    assert r.history == [] and r.current == {}


def test_margin_moves_a_favourites_big_win_further():
    # openskill's margin (scores, margin 6 tentos) scales the surprise by the rating difference:
    # between two newcomers it changes nothing; a favourite's 12-0 counts more than its 12-11
    before = [m(1, (1, 2), (5, 6))]
    big = compute(before + [m(2, (1, 2), (3, 4), pa=12, pb=0)], "margin").get(1).mu
    small = compute(before + [m(2, (1, 2), (3, 4), pa=12, pb=11)], "margin").get(1).mu
    assert big > small > 25
    assert compute([m(1, (1, 2), (3, 4), pa=12, pb=0)], "margin").current \
        == compute([m(1, (1, 2), (3, 4), pa=12, pb=0)], "match").current


def test_hands_scale_the_result_by_the_hands():
    won_most = compute([m(1, (1, 2), (3, 4), hands=((0, 3), (0, 3), (1, 1), (0, 6)))], "hands")
    assert won_most.get(1).mu > 25 > won_most.get(3).mu
    assert won_most.get(1).mu != compute([m(1, (1, 2), (3, 4))]).get(1).mu  # the hands, not the result alone
    # lost most hands but won the match: still a win, only a smaller one
    narrow = compute([m(1, (1, 2), (3, 4), hands=((1, 1), (1, 1), (1, 1), (0, 12)))], "hands").get(1).mu
    assert 25 < narrow < won_most.get(1).mu
    # without hands recorded the hand method rates the result
    assert compute([m(1, (1, 2), (3, 4))], "hands").get(1).mu == compute([m(1, (1, 2), (3, 4))]).get(1).mu


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        Ratings("elo")


def test_pair_rating_is_on_the_players_scale():
    assert pair_rating(Rating(), Rating()).mu == 25
    assert pair_rating(Rating(30, 2), Rating(20, 2)).mu == 25
    assert pair_rating(Rating(30, 2), Rating(20, 2)).sigma < 2


matches_st = st.lists(
    st.tuples(st.permutations(range(6)).map(lambda p: p[:4]), st.sampled_from([0, 1, None]),
              st.integers(0, 11), st.integers(0, 3), st.lists(st.tuples(st.integers(0, 1), st.sampled_from([1, 3, 6, 12])),
                                                                max_size=6)),
    max_size=25,
).map(lambda rows: [RatedMatch((i // 3,), i, (p[0], p[1]), (p[2], p[3]), w, 12 if w == 0 else lo,
                               12 if w == 1 else lo, tuple(h)) for i, (p, w, lo, _t, h) in enumerate(rows)])


@settings(max_examples=30, deadline=None)
@given(matches_st, st.sampled_from(["match", "margin", "hands"]), st.randoms(use_true_random=False))
def test_same_matches_same_ratings_whatever_their_order(matches, method, rnd):
    shuffled = list(matches)
    rnd.shuffle(shuffled)
    a, b = compute(matches, method), compute(shuffled, method)
    assert a.current == b.current
    assert a.history == b.history
    # rating in two steps (the tail after the head) gives the same as in one
    head = Ratings(method)
    ordered = sorted(matches, key=lambda x: (x.key, x.match_id))
    head.rate(ordered[: len(ordered) // 2])
    tail = Ratings(method, current=dict(head.current), sequence=head.sequence)
    tail.rate(ordered[len(ordered) // 2:])
    assert tail.current == a.current


@settings(max_examples=25, deadline=None)
@given(matches_st)
def test_predictions_are_probabilities_and_log_loss_is_positive(matches):
    r = compute(matches)
    for x in matches:
        p = r.win_probability(x.team_a, x.team_b)
        assert 0.0 <= p <= 1.0
        assert abs(p + r.win_probability(x.team_b, x.team_a) - 1.0) < 1e-9
    value, n = log_loss(matches)
    assert n == sum(1 for x in matches if x.rates)
    assert n == 0 or value > 0


def test_a_stronger_pair_is_predicted_to_win():
    rng = random.Random(3)
    matches = [m(i, (1, 2), (rng.choice([3, 5]), 4)) for i in range(20)]
    r = compute(matches)
    assert r.win_probability((1, 2), (3, 4)) > 0.7


rating_st = st.tuples(st.floats(-20, 70, allow_nan=False), st.floats(0.01, 9, allow_nan=False))


@settings(max_examples=150, deadline=None)
@given(st.lists(rating_st, min_size=4, max_size=4), st.integers(0, 1), st.sampled_from(["match", "margin", "hands"]),
       st.integers(1, 11))
def test_a_match_is_rated_as_openskill_rates_it_bit_for_bit(state, winner, method, loser_points):
    """One match through ``Ratings`` gives exactly openskill's PlackettLuce.rate with the documented
    parameters (the betas, taus and margins of each method; the hands one by one)."""
    from openskill.models import PlackettLuce

    from draw.pairing import ratings as r

    points = (12, loser_points) if winner == 0 else (loser_points, 12)
    hands = ((winner, 3), (1 - winner, 1), (winner, 9))
    match = RatedMatch((0,), 1, ("a1", "a2"), ("b1", "b2"), winner, *points, hands)
    ratings = Ratings(method, current={p: Rating(mu, s) for p, (mu, s) in zip(("a1", "a2", "b1", "b2"), state)})
    mine = [(c.after.mu, c.after.sigma) for c in ratings.rate([match])]

    margin = r.MARGIN if method == "margin" else 0.0
    model = PlackettLuce(mu=r.MU, sigma=r.SIGMA, beta=r.BETA, tau=r.TAU, margin=margin)

    def rate(now, **outcome):
        teams = [[model.rating(mu=mu, sigma=s) for mu, s in now[:2]], [model.rating(mu=mu, sigma=s) for mu, s in now[2:]]]
        return [(p.mu, p.sigma) for team in model.rate(teams, **outcome) for p in team]

    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    if method == "match":
        expected = rate(state, ranks=ranks)
    elif method == "margin":
        diff = float(12 - loser_points)
        expected = rate(state, scores=[diff, 0.0] if winner == 0 else [0.0, diff])
    else:  # openskill's result, the move on the mean scaled by the hands; a winner's sigma never grows
        share = 12 / 13  # the winner's 3 and 9 reach 12 (the game's score), the loser's 1
        factor = math.exp(r.HAND_STRENGTH * (share - r.HAND_CENTER))
        winners = (0, 1) if winner == 0 else (2, 3)
        expected = [(b[0] + factor * (a[0] - b[0]), min(a[1], b[1]) if i in winners else a[1])
                    for i, (b, a) in enumerate(zip(state, rate(state, ranks=ranks)))]
    assert mine == expected
