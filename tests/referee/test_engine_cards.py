"""Cards, decks, vira and manilhas (README rule table: deck, card order, manilha, manilha suits)."""
import pytest

from referee.engine.cards import DECK_CARDS, card_name, parse_card
from referee.engine.errors import ReportError
from referee.engine.tricks import manilha_rank, strengths, trick_result


@pytest.mark.parametrize("text", ["7-paus", "7P", "7♣", "7 de paus", "7 DE PAUS", "7p", "7-P", "7 pau", "7♣️"])
def test_every_documented_spelling_reads_the_same_card(text):
    assert card_name(parse_card(text, "x")) == "7-paus"


@pytest.mark.parametrize("text", ["8-paus", "10-copas", "7X", "", "paus", "7 de bastos", None, 7, ["7P"]])
def test_anything_else_is_a_clear_error_naming_the_field(text):
    with pytest.raises(ReportError) as error:
        parse_card(text, "events[2].play")
    assert error.value.field == "events[2].play"
    assert "7-paus" in error.value.message


def test_decks_sujo_limpo_and_limpo_with_sevens():
    assert len(DECK_CARDS["sujo"]) == 40
    assert len(DECK_CARDS["limpo"]) == 24
    assert len(DECK_CARDS["limpo+7"]) == 28
    assert parse_card("4-paus", "x") not in DECK_CARDS["limpo"]
    assert parse_card("7-paus", "x") in DECK_CARDS["limpo+7"]


@pytest.mark.parametrize("deck,vira,manilha", [
    ("sujo", "6-ouros", "7"), ("sujo", "7-ouros", "Q"), ("sujo", "3-ouros", "4"), ("sujo", "A-copas", "2"),
    ("limpo", "3-ouros", "Q"), ("limpo", "Q-ouros", "J"), ("limpo+7", "3-ouros", "7"), ("limpo+7", "7-ouros", "Q"),
])
def test_manilha_is_the_next_rank_of_the_deck_in_use_wrapping_around(deck, vira, manilha):
    rank = manilha_rank(deck, parse_card(vira, "vira"))
    assert card_name(rank * 4).split("-")[0] == manilha


def test_manilha_suits_order_ouros_espadas_copas_paus_above_every_common_card():
    power = strengths("sujo", parse_card("4-ouros", "vira"))  # manilhas are the 5s
    order = [power[parse_card(c, "x")] for c in ("3-paus", "5-ouros", "5-espadas", "5-copas", "5-paus")]
    assert order == sorted(order) and len(set(order)) == 5


def test_common_cards_follow_truco_order_and_suits_never_break_a_tie():
    power = strengths("sujo", parse_card("A-ouros", "vira"))  # manilhas are the 2s
    ranks = ["4", "5", "6", "7", "Q", "J", "K", "A", "3"]
    values = [power[parse_card(f"{r}-copas", "x")] for r in ranks]
    assert values == sorted(values)
    assert power[parse_card("3-paus", "x")] == power[parse_card("3-ouros", "x")]


def test_trick_partners_tie_goes_to_their_team_and_a_cross_team_tie_is_a_tie():
    # (seat, strength) in play order
    assert trick_result([(0, 10), (1, 8), (2, 10), (3, 1)]) == (0, 0, 2)
    team, _, tying = trick_result([(0, 10), (1, 10), (2, 3), (3, 1)])
    assert team is None and tying == 1
