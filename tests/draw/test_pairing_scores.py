"""Games and tentos checked against the winner (games to 12 points)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from draw.pairing.scores import ScoreError, check_match_score, points_bounds


def test_winner_on_3_and_loser_on_12_is_refused():
    """A result with the winner on 3 and the loser on 12 was accepted."""
    with pytest.raises(ScoreError) as caught:
        check_match_score(1, (1, 0), (3, 12))
    assert caught.value.field == "points" and caught.value.code == "winner_points"
    assert caught.value.bounds == (12, 12)


def test_sixty_to_nothing_in_a_best_of_one_is_refused():
    with pytest.raises(ScoreError) as caught:
        check_match_score(1, (1, 0), (60, 0))
    assert caught.value.code == "winner_points"
    check_match_score(1, (1, 0), (12, 0))
    check_match_score(1, (1, 0), (12, 11))
    with pytest.raises(ScoreError) as caught:
        check_match_score(1, (1, 0), (12, 12))  # the loser of the game stayed below 12
    assert caught.value.code == "loser_points" and caught.value.bounds == (0, 11)


def test_best_of_three_totals():
    check_match_score(3, (2, 0), (24, 0))
    check_match_score(3, (2, 1), (24 + 11, 22 + 12))
    check_match_score(3, (2, 1), (24, 12))
    with pytest.raises(ScoreError):
        check_match_score(3, (2, 1), (23, 12))  # two games won need 24 at least
    with pytest.raises(ScoreError):
        check_match_score(3, (2, 1), (24, 11))  # the game the loser won needs its 12
    with pytest.raises(ScoreError):
        check_match_score(3, (2, 0), (24, 23))  # 11 + 11 at most in two lost games


def test_games_and_format():
    with pytest.raises(ScoreError) as caught:
        check_match_score(3, (1, 0), (12, 0))
    assert caught.value.field == "games"
    with pytest.raises(ScoreError):
        check_match_score(3, (2, 2), (24, 24))
    with pytest.raises(ScoreError) as caught:
        check_match_score(2, (1, 0), (12, 0))
    assert caught.value.field == "best_of"


def test_without_the_score_cap_a_game_ends_above_12():
    with pytest.raises(ScoreError):
        check_match_score(1, (1, 0), (14, 11))
    check_match_score(1, (1, 0), (14, 11), score_cap=False)  # 11, then a mão de onze worth 3
    assert points_bounds(1, 0, score_cap=False).winner == (12, 23)


def reachable(won: int, lost: int, cap: int) -> tuple[set[int], set[int]]:
    """Every total the match winner and loser can have, game by game (a game's winner 12..cap, its loser 0..11)."""
    winner, loser = {0}, {0}
    for _ in range(won):
        winner = {t + p for t in winner for p in range(12, cap + 1)}
        loser = {t + p for t in loser for p in range(0, 12)}
    for _ in range(lost):
        winner = {t + p for t in winner for p in range(0, 12)}
        loser = {t + p for t in loser for p in range(12, cap + 1)}
    return winner, loser


@given(
    st.sampled_from([1, 3, 5]),
    st.integers(0, 2),
    st.integers(0, 130),
    st.integers(0, 130),
    st.booleans(),
)
def test_accepted_exactly_when_some_games_give_those_totals(best_of, lost, winner_points, loser_points, cap):
    need = best_of // 2 + 1
    lost = min(lost, need - 1)
    winner_totals, loser_totals = reachable(need, lost, 12 if cap else 23)
    possible = winner_points in winner_totals and loser_points in loser_totals
    try:
        check_match_score(best_of, (need, lost), (winner_points, loser_points), score_cap=cap)
    except ScoreError as error:
        assert not possible, error
        assert error.field == "points"
    else:
        assert possible
