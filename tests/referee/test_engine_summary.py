"""Hands entered as summaries (the quick entry): art. 11, 13, 18, 19, 20 and the game to 12."""
import pytest

from referee.engine.errors import ReportError
from referee.engine.rules import DEFAULT, rule_set_from
from referee.engine.summary import check_summary


def check(score, entry, dealer=0, rules=DEFAULT):
    return check_summary(rules, tuple(score), dealer, entry)


@pytest.mark.parametrize("value", [1, 3, 6, 9, 12])
def test_art_11_13_a_hand_is_worth_one_three_six_nine_or_twelve(value):
    result = check((0, 0), {"winner": 1, "ended_by": "tricks", "value": value})
    assert result["points"] == value and result["score_after"] == [0, min(12, value)]


@pytest.mark.parametrize("value", [0, 2, 4, 13])
def test_other_values_are_refused_naming_the_field_and_article(value):
    with pytest.raises(ReportError) as error:
        check((0, 0), {"winner": 1, "ended_by": "tricks", "value": value})
    assert error.value.field == "value" and "art. 11" in error.value.message


def test_art_13_a_run_is_worth_the_value_before_the_refused_raise():
    assert check((3, 4), {"winner": 0, "ended_by": "run", "value": 9})["score_after"] == [12, 4]
    with pytest.raises(ReportError, match="art. 13"):
        check((3, 4), {"winner": 0, "ended_by": "run", "value": 12})


def test_art_18_19_mao_de_onze_is_worth_three_and_has_no_raise():
    assert check((11, 4), {"winner": 1, "ended_by": "tricks", "value": 3})["score_after"] == [11, 7]
    with pytest.raises(ReportError, match="art. 18, 19"):
        check((11, 4), {"winner": 0, "ended_by": "tricks", "value": 6})
    with pytest.raises(ReportError, match="art. 19"):
        check((11, 4), {"winner": 0, "ended_by": "run", "value": 1})


def test_refusing_the_mao_de_onze_gives_the_opponents_one():
    result = check((4, 11), {"winner": 0, "ended_by": "eleven_refused", "value": 1})
    assert result["score_after"] == [5, 11] and result["state"] == "eleven"
    with pytest.raises(ReportError, match="dupla 1"):
        check((4, 11), {"winner": 1, "ended_by": "eleven_refused", "value": 1})
    with pytest.raises(ReportError, match="art. 18"):
        check((4, 10), {"winner": 0, "ended_by": "eleven_refused", "value": 1})


def test_art_20_mao_de_ferro_tied_scores_nothing():
    result = check((11, 11), {"winner": None, "ended_by": "all_tied", "value": 0}, dealer=2)
    assert result["points"] == 0 and result["next_dealer"] == 3
    assert check((11, 11), {"winner": 0, "ended_by": "tricks", "value": 3})["game_winner"] == 0


def test_art_11_4_all_tied_nobody_or_the_variant():
    with pytest.raises(ReportError, match="art. 11.4"):
        check((2, 2), {"winner": 0, "ended_by": "all_tied", "value": 1})
    rules = rule_set_from({"options": {"all_tied": "dealer_team"}})
    assert check((2, 2), {"winner": 1, "ended_by": "all_tied", "value": 1}, dealer=3, rules=rules)["points"] == 1


def test_the_game_ends_at_twelve():
    with pytest.raises(ReportError, match="já terminou"):
        check((12, 3), {"winner": 0, "ended_by": "tricks", "value": 1})
    raw = rule_set_from({"options": {"score_cap": False}})
    assert check((10, 3), {"winner": 0, "ended_by": "tricks", "value": 3}, rules=raw)["score_after"] == [13, 3]


def test_deal_lost_scores_nothing_and_the_deal_passes_on():
    assert check((1, 1), {"winner": None, "ended_by": "deal_lost", "value": 0}, dealer=3)["next_dealer"] == 0
