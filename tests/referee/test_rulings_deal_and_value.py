"""A ruling's tento at the edges of the rules, through the services: it ends the hand and the deal passes
(art. 4), the hand is not entered again (no tento counted twice), and the tento in play of a mão de onze
or de ferro is the hand's value (art. 24 "perda do tento em jogo"; art. 18, 19)."""
from __future__ import annotations

import pytest

from config.errors import ServiceError
from referee import services
from scoring import services as scoring
from scoring.content import load_games
from scoring.models import Game, PenaltyEntry
from scoring.services.game_state import current_game, current_state

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import three


def _one(winner: int) -> dict:
    return {"winner": winner, "ended_by": "tricks", "value": 1}


def _state(match) -> dict:
    return scoring.entry_state(match, load_games(match))


def test_a_tento_that_ends_the_hand_passes_the_deal(match, referee):
    """art. 24: guidance to the partner loses the tento in play and ends the hand; art. 4: the deal passes."""
    scoring.record_hand(match, three(0), referee)  # dealer 0: 3-0, the next hand dealt by seat 1
    assert _state(match)["dealer"] == 1
    services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 3}, referee), referee)
    penalty = PenaltyEntry.objects.get(game__match=match)
    assert (penalty.score_a, penalty.score_b, penalty.dealer) == (6, 0, 1)
    # every layer reads the same dealer in turn: the page, the table's state, the entry's
    assert _state(match)["dealer"] == current_game(match).dealer == current_state(match)["dealer"] == 2
    hand = scoring.record_hand(match, _one(1), referee)
    assert hand.dealer == 2 and hand.state["dealer"] == 3


def test_a_warning_leaves_the_deal_where_it_is(match, referee):
    """art. 23: a card out of turn is recorded with no points; the hand goes on, the deal does not pass."""
    scoring.record_hand(match, three(0), referee)
    services.confirm(services.propose(match, 0, 1, "card_out_of_turn", {}, referee), referee)
    assert PenaltyEntry.objects.get(game__match=match).dealer is None
    assert _state(match)["dealer"] == current_game(match).dealer == 1


def test_the_hand_ended_by_the_tento_is_not_entered_again(match, referee):
    """art. 24, art. 4: 1-0, the referee rules the tento in play (3) against seat 1: 4-0 and the hand is over.
    The table's report of that hand, carrying the same infraction, is refused: 4-0 stays 4-0, not 7-0."""
    scoring.record_hand(match, _one(0), referee)
    services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 3}, referee), referee)
    report = {"dealer": 1, "vira": "7-ouros", "score": [4, 0], "events": [
        {"seat": 2, "call": "truco"}, {"seat": 3, "answer": "accept"}, {"seat": 1, "infraction": "guidance_word"}]}
    with pytest.raises(ServiceError) as refused:
        scoring.record_hand(match, {"report": report}, referee)
    assert refused.value.field == "report.dealer"
    assert "art. 24" in str(refused.value) and "art. 4" in str(refused.value)
    game = Game.objects.get(match=match, number=1)
    assert (game.score_a, game.score_b) == (4, 0)


def _to(match, by, hands) -> None:
    for hand in hands:
        scoring.record_hand(match, hand, by)


@pytest.mark.parametrize("hands, score", [
    ([three(0), three(1), three(0), _one(1), three(0), _one(1), _one(0), _one(0)], (11, 5)),
    ([three(0), three(1)] * 2 + [_one(0), _one(0), three(1), _one(1), _one(1), three(0)], (11, 11)),
])
def test_the_tento_in_a_mao_de_onze_or_de_ferro_is_the_hand_value(match, referee, hands, score):
    """art. 24 "perda do tento em jogo": in a mão de onze (art. 18: worth 3) and a mão de ferro (3, art. 18
    calls it a mão de onze) nobody raises (art. 19): a claim with no value costs 3, not 1; the page offers 3."""
    _to(match, referee, hands)
    assert tuple(_state(match)["score"]) == score
    assert _state(match)["value"] == current_state(match)["value"] == 3
    assert services.table_state(match).value == 3
    ruling = services.propose(match, 1, 0, "guidance_word", {}, referee)
    assert (ruling.points, ruling.beneficiary) == (3, 1)
    with pytest.raises(ServiceError) as refused:
        services.propose(match, 1, 0, "guidance_word", {"value": 1}, referee)
    assert refused.value.field == "facts.value" and "3" in str(refused.value)


def test_a_correction_keeps_the_deal_passed_by_a_tento(match, referee):
    """art. 4 through a correction: the súmula replayed keeps the hand the ruling ended, so the hand after it
    stays dealt by the next seat (a report of it is still the right dealer's) and the dealer in turn is the same."""
    scoring.record_hand(match, three(0), referee)  # dealer 0
    services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 3}, referee), referee)  # ends 1's hand
    report = {"dealer": 2, "vira": "7-ouros", "score": [6, 0], "events": [{"seat": 3, "fold": True}]}
    scoring.record_hand(match, {"report": report}, referee)  # dealt by seat 2
    scoring.correct(match, [{"op": "replace_hand", "game": 1, "hand": 1, "winner": 0, "ended_by": "run",
                             "value": 3}], "the first hand was won by a run, not by tricks", referee)
    penalty = PenaltyEntry.objects.get(game__match=match)
    assert (penalty.score_a, penalty.dealer) == (6, 1)
    assert _state(match)["dealer"] == current_game(match).dealer == 3


def test_the_claim_page_offers_the_hand_value_in_a_mao_de_ferro(client, match, referee):
    """art. 24, art. 18: at 11-11 the claim page offers the tento in play, 3 (nobody raises, art. 19), checked;
    posting without a value costs 3."""
    from django.urls import reverse

    _to(match, referee, [three(0), three(1)] * 2 + [_one(0), _one(0), three(1), _one(1), _one(1), three(0)])
    client.force_login(referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.get(url, {"claimant": "1", "code": "guidance_word"}).content.decode()
    assert 'name="value" value="3" checked' in page
    assert 'name="value" value="1"' not in page
    assert client.post(url, {"claimant": "1", "code": "guidance_word", "seat": "0"}).status_code == 302
    assert services.Ruling.objects.get().points == 3


def test_the_table_screen_shows_the_deal_passed_by_a_tento(match, referee):
    """art. 4: the table page's state (the screen's JSON) names the same dealer in turn as the entry."""
    from scoring.entry_screen import screen_state

    scoring.record_hand(match, three(0), referee)
    services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 3}, referee), referee)
    assert screen_state(match)["state"]["dealer"] == 2
    assert screen_state(match)["state"]["value"] == 1
