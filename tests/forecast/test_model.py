"""The forecast model of a game and a match (referee.engine.forecast): a Markov chain over the game's score
states, the mão de onze and de ferro as the engine makes them (art. 18), a game ending at 12; a match is best
of N games; the minutes come from a pace. Properties: probabilities between 0 and 1 that sum to 1, exact at
the end of a game, monotone in the score and in the hand's chance, symmetric between the teams; and the
chain against a plain simulation of the same hands through the engine's own functions."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.forecast import HandModel, Pace, forecast, game_solution, hand_probability, hands_distribution
from referee.engine.forecast.chain import DEFAULT_POINTS, POINTS, STATES, game_win_probability, observed_hands, outcomes
from referee.engine.forecast.match import blended_pace, match_hands, match_win_probability, minutes_cdf
from referee.engine.game import add_points, eleven_refused, game_winner, hand_start
from referee.engine.rules import rule_set_from

RULES = st.sampled_from([
    rule_set_from(None),
    rule_set_from({"options": {"iron_hand_value": 1}}),
    rule_set_from({"options": {"eleven_run_points": 3}}),
    rule_set_from({"options": {"score_cap": False}}),
    rule_set_from({"preset": "jtb"}),  # a tied hand goes to the dealer's team
])
SHARE = st.floats(0.01, 1.0)
MODELS = st.builds(
    HandModel, p=st.floats(0.02, 0.98), points=st.tuples(SHARE, SHARE, SHARE, SHARE, SHARE),
    no_score=st.floats(0.0, 0.3), eleven_refused=st.floats(0.0, 0.9), rules=RULES)
SCORES = st.sampled_from(STATES)


@given(MODELS, SCORES)
def test_each_hand_leads_somewhere_with_probabilities_summing_to_one(model, score):
    """art. 18: the hand's value from the engine; every outcome a score of the game, the total 1."""
    after = outcomes(score, model)
    assert sum(after.values()) == pytest.approx(1.0)
    assert all(0 <= p <= 1 for p in after.values())
    assert all(a >= score[0] and b >= score[1] for a, b in after)  # points only add up


@given(MODELS)
def test_game_probabilities_lie_between_0_and_1_and_hands_are_at_least_one(model):
    solution = game_solution(model)
    for score in STATES:
        assert 0.0 <= solution.win[score] <= 1.0
        assert solution.mean[score] >= 1.0
        assert solution.variance[score] >= 0.0


@given(MODELS, SCORES)
def test_the_distribution_of_hands_sums_to_one_and_agrees_with_the_exact_solution(model, score):
    won, lost = hands_distribution(score, model)
    assert sum(won) + sum(lost) == pytest.approx(1.0, abs=1e-6)
    assert won[0] == lost[0] == 0.0  # a game in play needs one more hand at least
    solution = game_solution(model)
    assert sum(won) == pytest.approx(solution.win[score], abs=1e-6)
    mean = sum(k * (w + lo) for k, (w, lo) in enumerate(zip(won, lost)))
    assert mean == pytest.approx(solution.mean[score], rel=1e-5)


@given(MODELS, st.integers(0, 11))
def test_exact_at_the_end_of_a_game(model, other):
    """A game ends when a team reaches 12 (game.game_winner): certain, no hand left."""
    assert game_win_probability((12, other), model) == 1.0
    assert game_win_probability((other, 12), model) == 0.0
    assert hands_distribution((12, other), model) == ((1.0,), (0.0,))
    f = forecast((12, other), (1, 0), model, Pace(2.0), best_of=3)  # the match's last game is won: over
    assert (f.match_probability, f.expected_hands, f.minutes, f.high) == (1.0, 0.0, 0.0, 0.0)


REALISTIC = st.builds(
    HandModel, p=st.floats(0.25, 0.75),
    points=st.tuples(*(st.floats(0.7 * q, 1.3 * q) for q in DEFAULT_POINTS)),
    no_score=st.floats(0.0, 0.1), eleven_refused=st.floats(0.0, 0.3), rules=RULES)


@given(REALISTIC, st.integers(0, 6), st.integers(0, 6))
def test_a_point_more_never_lowers_the_chance_of_winning_below_the_mao_de_onze(model, a, b):
    """Monotone in the score while both teams stay at 7 or less (with hands near the observed values);
    near 11 it is not, by the rules themselves (next test)."""
    solution = game_solution(model)
    assert solution.win[(a + 1, b)] >= solution.win[(a, b)] - 1e-9
    assert solution.win[(a, b + 1)] <= solution.win[(a, b)] + 1e-9


@given(st.floats(0.05, 0.95), st.floats(0.0, 0.5), SCORES)
def test_with_the_usual_hand_values_a_point_more_never_lowers_the_chance(p, refused, score):
    """The regulation's rules and the default hand values: monotone at every score of the game."""
    solution = game_solution(HandModel(p=p, eleven_refused=refused))
    a, b = score
    assert (game_win_probability((a + 1, b), HandModel(p=p, eleven_refused=refused))
            >= solution.win[score] - 1e-9)


def test_near_eleven_a_point_more_can_lower_the_chance_under_a_variant():
    """Not a theorem of the game: with the variant ``eleven_run_points: 3`` a refused mão de onze gives the
    opponents 3 (art. 18, the option), so at 10-11 a refusal wins the game for the team at 10, while at 11-11
    (the mão de ferro, art. 18, 20) nobody may refuse: 10-11 is better than 11-11. The chain keeps it."""
    model = HandModel(rules=rule_set_from({"options": {"eleven_run_points": 3}}))
    solution = game_solution(model)
    assert solution.win[(10, 11)] > solution.win[(11, 11)] + 0.05
    assert solution.win[(11, 11)] == pytest.approx(0.5)


@given(MODELS, SCORES, st.floats(0.0, 0.5))
def test_a_better_hand_chance_never_lowers_the_chance_of_winning(model, score, more):
    stronger = HandModel(min(1.0, model.p + more), model.points, model.no_score, model.eleven_refused, model.rules)
    assert game_solution(stronger).win[score] >= game_solution(model).win[score] - 1e-9


@given(MODELS, SCORES)
def test_the_teams_are_symmetric(model, score):
    mirror = HandModel(1.0 - model.p, model.points, model.no_score, model.eleven_refused, model.rules)
    a, b = score
    assert game_solution(model).win[score] == pytest.approx(1.0 - game_solution(mirror).win[(b, a)], abs=1e-9)


@given(MODELS, SCORES, st.sampled_from([1, 3, 5]), st.data())
def test_match_probabilities_and_hands(model, score, best_of, data):
    need = best_of // 2 + 1
    games = (data.draw(st.integers(0, need - 1)), data.draw(st.integers(0, need - 1)))
    p = match_win_probability(score, games, model, best_of)
    assert 0.0 <= p <= 1.0
    dist = match_hands(score, games, model, best_of)
    assert sum(dist) == pytest.approx(1.0, abs=1e-5)
    if games[0] == need - 1:  # one game from the match: winning this game wins it
        assert p >= game_solution(model).win[score] - 1e-9


def test_a_game_of_even_pairs_is_even_and_the_mao_de_ferro_is_one_hand_for_the_game():
    model = HandModel()
    assert game_solution(model).win[(0, 0)] == pytest.approx(0.5)
    assert game_solution(model).win[(6, 6)] == pytest.approx(0.5)
    # art. 18, 20: at 11-11 the hand decides; a tie scores nothing and the deal passes on
    assert game_solution(model).mean[(11, 11)] == pytest.approx(1 / (1 - model.no_score))
    with pytest.raises(ValueError, match="best_of"):
        match_win_probability((0, 0), (0, 0), model, best_of=2)


@given(st.floats(0.05, 0.95))
def test_the_hand_chance_a_rating_implies_gives_back_its_game_chance(game):
    p = hand_probability(game)
    assert game_solution(HandModel(p=round(p, 9))).win[(0, 0)] == pytest.approx(game, abs=1e-4)


@given(st.floats(0.5, 5.0), st.floats(0.2, 1.0), st.integers(1, 40))
def test_minutes_quantiles_are_ordered_and_a_longer_pace_means_more_minutes(minutes, spread, hands):
    dist = tuple([0.0] * hands + [1.0])
    f_slow = forecast((0, 0), (0, 0), HandModel(), Pace(minutes * 2, spread))
    f = forecast((0, 0), (0, 0), HandModel(), Pace(minutes, spread))
    assert 0.0 <= f.low <= f.minutes <= f.high
    assert f_slow.minutes >= f.minutes
    assert minutes_cdf(minutes * hands * 10, dist, Pace(minutes, spread)) == pytest.approx(1.0, abs=1e-3)


def test_the_time_limit_risk_and_the_end_of_time_procedure():
    model, pace = HandModel(), Pace(2.0)
    plenty = forecast((0, 0), (0, 0), model, pace, time_left=200)
    short = forecast((0, 0), (0, 0), model, pace, time_left=5)
    assert plenty.time_risk < 0.01 and not plenty.at_risk
    assert short.time_risk > 0.9 and short.at_risk
    # "finish the hand in play; then the higher score wins": nothing lasts past the limit and one hand
    capped = forecast((0, 0), (0, 0), model, pace, time_left=5, procedure="higher_score")
    assert capped.high <= 5 + pace.minutes_per_hand
    with pytest.raises(ValueError, match="procedure"):
        forecast((0, 0), (0, 0), model, pace, procedure="sudden_death")


def test_the_table_pace_takes_over_from_the_prior_as_hands_come_in():
    assert blended_pace(0, 0.0, 2.0) == 2.0
    assert blended_pace(40, 40 * 3.0, 2.0) == pytest.approx(3.0, abs=0.1)


def _play(rng: random.Random, model: HandModel, score) -> tuple[int, int]:
    """One game from ``score`` hand by hand, through the engine's functions (the oracle)."""
    hands = 0
    while game_winner(score) is None:
        hands += 1
        iron, eleven, value = hand_start(score, model.rules)
        if eleven is not None and rng.random() < model.eleven_refused:
            score = add_points(score, *eleven_refused(eleven, model.rules), model.rules)
            continue
        if rng.random() < model.no_score:
            continue
        if not iron and eleven is None:
            value = rng.choices(POINTS, model.points)[0]
        score = add_points(score, 0 if rng.random() < model.p else 1, value, model.rules)
    return game_winner(score), hands


@pytest.mark.parametrize("start", [(0, 0), (6, 6), (11, 4), (9, 11)])
def test_the_chain_agrees_with_a_simulation_of_the_same_hands(start):
    model = HandModel(p=0.56, no_score=0.05)
    rng = random.Random(7)
    games = [_play(rng, model, start) for _ in range(20_000)]
    won = sum(1 for w, _ in games if w == 0) / len(games)
    mean = sum(h for _, h in games) / len(games)
    assert won == pytest.approx(game_solution(model).win[start], abs=0.015)
    assert mean == pytest.approx(game_solution(model).mean[start], rel=0.03)


@given(st.dictionaries(st.sampled_from(POINTS), st.integers(0, 500)), st.integers(0, 100))
def test_an_events_hands_give_shares_that_sum_to_about_one(scored, tied):
    points, no_score = observed_hands(scored, tied)
    assert sum(points) == pytest.approx(1.0, abs=0.05)  # rounded to 0.01 each; HandModel normalizes and all(q > 0 for q in points)
    assert 0.0 <= no_score <= 0.5
    assert observed_hands({}, 0) == (DEFAULT_POINTS, 0.02)  # no hand yet: the defaults
