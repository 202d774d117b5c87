"""Rulings on tentos claimed at the table, from the state of the game (the engine's side)."""
import pytest

from referee.engine.errors import ReportError
from referee.engine.infractions import CATALOG
from referee.engine.rules import DEFAULT, rule_set_from
from referee.engine.rulings import TableState, propose_ruling


def rule(code, seat, facts=None, rules=DEFAULT, **state):
    state.setdefault("score", (4, 6))
    state.setdefault("dealer", 3)
    return propose_ruling(rules, code, seat, TableState(**state), facts)


def test_art_24_guidance_word_costs_the_tento_in_play():
    ruling = rule("guidance_word", 1, value=6)
    assert (ruling.beneficiary, ruling.points, ruling.score_after, ruling.article) == (0, 6, (10, 6), "art. 24")
    assert ruling.ends_hand and "perde o tento em jogo (6)" in ruling.message(1)


def test_art_5_bottom_of_the_deck_loses_the_deal_only_for_the_dealer_before_the_first_card():
    ruling = rule("bottom_of_deck", 3)
    assert ruling.deal_lost and ruling.beneficiary is None and ruling.score_after == (4, 6)
    with pytest.raises(ReportError, match="pé"):
        rule("bottom_of_deck", 1)
    with pytest.raises(ReportError, match="início"):
        rule("bottom_of_deck", 3, any_card=True)


@pytest.mark.parametrize("outcome,points", [("accepted", 3), ("run", 1), ("asked", 0)])
def test_art_6_wrong_deal_what_the_trucado_dealer_did(outcome, points):
    ruling = rule("wrong_card_count", 0, {"outcome": outcome})
    assert (ruling.offender, ruling.points) == (1, points)  # the dealer (seat 3) is team 1
    assert ruling.deal_lost == (outcome == "asked")
    with pytest.raises(ReportError) as error:
        rule("wrong_card_count", 0)
    assert error.value.field == "facts.outcome"


def test_art_14_only_when_the_offenders_face_a_raise():
    assert rule("saw_partner_cards", 1, raised_team=1).points == 1
    with pytest.raises(ReportError, match="art. 14"):
        rule("saw_partner_cards", 1, raised_team=0)


def test_art_19_raise_in_mao_de_onze():
    assert rule("raise_in_eleven", 0, score=(11, 5)).score_after == (11, 8)
    lost = rule("raise_in_eleven", 0, score=(11, 10))
    assert lost.score_after == (11, 12) and lost.game_winner == 1
    variant = rule("raise_in_eleven", 0, score=(11, 5), rules=rule_set_from({"options": {"raise_in_eleven": "game"}}))
    assert variant.game_winner == 1 and variant.article.startswith("regras 4 jogadores")
    with pytest.raises(ReportError, match="art. 19"):
        rule("raise_in_eleven", 0, score=(3, 5))


def test_art_22_and_23_are_recorded_without_points():
    for code in ("two_cards_at_once", "card_out_of_turn"):
        ruling = rule(code, 2)
        assert ruling.points == 0 and not ruling.ends_hand and ruling.beneficiary is None


def test_every_catalog_entry_can_be_ruled_on_in_some_state():
    states = [dict(), dict(raised_team=0), dict(raised_team=1), dict(score=(11, 11)), dict(score=(11, 4)),
              dict(wrong_deal=True)]
    blind = rule_set_from({"options": {"blind_iron_hand": True}})
    for code in CATALOG:
        ruled = False
        for state in states:
            for seat in range(4):
                try:
                    rule(code, seat, {"outcome": "run"}, rules=blind, **state)
                    ruled = True
                except ReportError:
                    pass
        assert ruled, code


def test_unknown_code_and_bad_seat_are_clear_errors():
    with pytest.raises(ReportError, match="guidance_word"):
        rule("cheating", 0)
    with pytest.raises(ReportError) as error:
        rule("guidance_word", 7)
    assert error.value.field == "seat"
