"""The end of a game, the dealer in turn and the value in play: one engine function each (referee.engine.game).

A game ends when a team reaches 12 (the regulation's digest: "a hand cannot take a team past 12";
art. 25 "terminada a partida"), so 12-12 cannot exist; the deal passes to the right after every hand,
played out or ended by a tento (art. 4); the tento in play of a mão de onze or de ferro is the hand's
value, nobody raising there (art. 18, 19, 24 "perda do tento em jogo").
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.errors import ReportError
from referee.engine.game import (GAME_POINTS, add_points, dealer_in_turn, game_winner, hand_start, next_dealer,
                                 value_in_play)
from referee.engine.rules import DEFAULT, rule_set_from
from referee.engine.verdict import check_report

UNCAPPED = rule_set_from({"options": {"score_cap": False}})


def _won_by_team_one_at_ten_all(*extra: dict) -> dict:
    """10-10, dealer 0: seat 1 calls truco, seat 2 accepts, team 1 makes tricks 1 and 2 (12 points: game)."""
    return {"dealer": 0, "vira": "7-ouros", "score": [10, 10], "events": [
        {"seat": 1, "call": "truco"}, {"seat": 2, "answer": "accept"},
        {"seat": 1, "play": "3-copas"}, {"seat": 2, "play": "4-paus"}, {"seat": 3, "play": "5-paus"},
        {"seat": 0, "play": "6-paus"},
        {"seat": 1, "play": "3-espadas"}, {"seat": 2, "play": "4-copas"}, {"seat": 3, "play": "5-copas"},
        {"seat": 0, "play": "6-copas"}, *extra]}


@pytest.mark.parametrize("code", ["stolen_points", "stolen_card", "looked_at_covered"])
@pytest.mark.parametrize("offender", [1, 0])
def test_a_tento_after_the_game_winning_hand_changes_nothing(code, offender):
    """Game to 12 (digest's score limit): team 1's truco at 10-10 ends the game 10-12; a house-rule tento
    claimed after that hand (regras 4 jogadores, tento ex. 1-3) is recorded and scores nothing, whoever
    offended: never 12-12, never the game to the loser."""
    verdict = check_report(_won_by_team_one_at_ten_all({"seat": offender, "infraction": code}))
    assert "error" not in verdict, verdict
    assert verdict["score_after"] == [10, 12]
    assert verdict["game_winner"] == 1
    assert "tentos" not in verdict
    claim = verdict["violations"][-1]
    assert claim["code"] == code and claim["key"] == "ruling.after_game"
    assert "a partida já terminou" in claim["message"] and "dupla 1" in claim["message"]


def test_a_tento_after_a_hand_that_does_not_end_the_game_still_scores():
    """regras 4 jogadores, tento ex. 3: at 5-5 the same hand takes team 1 to 8; the stolen points cost it 3."""
    report = _won_by_team_one_at_ten_all({"seat": 1, "infraction": "stolen_points"})
    report["score"] = [5, 5]
    verdict = check_report(report)
    assert verdict["score_after"] == [8, 8]
    assert verdict["tentos"][0]["team"] == 0 and verdict["game_winner"] is None


scores = st.tuples(st.integers(0, 11), st.integers(0, 11))
additions = st.lists(st.tuples(st.sampled_from([0, 1, None]), st.sampled_from([0, 1, 3, 6, 9, 12])), max_size=12)


@given(scores, additions, st.sampled_from([DEFAULT, UNCAPPED]))
def test_only_one_team_ever_reaches_twelve(score, steps, rules):
    """Digest's score limit: once a team has 12 the game is over; whatever is added after, the score
    does not move, only one team has 12 or more and it stays the winner."""
    winner = None
    for team, points in steps:
        before = score
        score = add_points(score, team, points, rules)
        if winner is not None:
            assert score == before
        winner = game_winner(score)
        assert not (score[0] >= GAME_POINTS and score[1] >= GAME_POINTS)
        if rules.score_cap:
            assert max(score) <= GAME_POINTS


def test_twelve_all_is_no_score():
    with pytest.raises(ValueError):
        game_winner((12, 12))


@given(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=8))
def test_the_deal_passes_to_the_right_after_every_ended_hand(first, dealers):
    """art. 1 (the draw deals the first hand), art. 4 (then the deal passes to the right)."""
    assert dealer_in_turn(first) == dealer_in_turn(first, [None, None]) == first
    for i, dealer in enumerate(dealers):
        ended = [*dealers[:i + 1], None]  # an entry that ended no hand (a warning) changes nothing
        assert dealer_in_turn(first, ended) == next_dealer(dealer) == (dealer + 1) % 4


@given(scores)
def test_the_value_in_play_of_a_mao_de_onze_or_de_ferro_is_the_hand_value(score):
    """art. 24 "perda do tento em jogo": at 11 nobody raises (art. 19), the tento in play is the hand's
    value (art. 18: 3; a mão de ferro iron_hand_value), stated or not; otherwise 1 before any raise."""
    iron, eleven, start = hand_start(score, DEFAULT)
    if iron or eleven is not None:
        assert value_in_play(score, DEFAULT) == start == 3
        assert value_in_play(score, DEFAULT, 3) == 3
        with pytest.raises(ReportError) as refused:
            value_in_play(score, DEFAULT, 1)
        assert refused.value.code == ("value.fixed_iron" if iron else "value.fixed_eleven")
    else:
        assert value_in_play(score, DEFAULT) == 1
        assert value_in_play(score, DEFAULT, 6) == 6


def test_the_mao_de_ferro_value_follows_the_option():
    """art. 18 calls the mão de ferro a mão de onze (3); the option iron_hand_value may make it 1."""
    assert value_in_play((11, 11), DEFAULT) == 3
    assert value_in_play((11, 11), rule_set_from({"options": {"iron_hand_value": 1}})) == 1
