"""The súmula at the edges of the rules: a game ends at 12 and never 12-12 (digest's score limit; art. 25),
the deal passes after a hand ended by a tento (art. 4), and a hand so ended is not counted twice."""
from __future__ import annotations

from scoring import services
from scoring.models import Game, Match

from .sumula_setup import *  # noqa: F401,F403


def _one(winner: int) -> dict:
    return {"winner": winner, "ended_by": "tricks", "value": 1}


def _to_ten_all(match, by) -> None:
    play(match, by, 0, 0, 0, _one(0), 1, 1, 1, _one(1))  # 8 hands: 10-10, the deal back at seat 0 (art. 4)


def test_a_tento_after_the_game_winning_hand_does_not_record_twelve_all(match, referee):
    """Digest's score limit, regras 4 jogadores tento ex. 3: team 1's truco at 10-10 wins the game; the
    stolen points claimed after it change nothing: the súmula stores 10-12, the game and match to pair B."""
    _to_ten_all(match, referee)
    report = {"dealer": 0, "vira": "7-ouros", "score": [10, 10], "events": [
        {"seat": 1, "call": "truco"}, {"seat": 2, "answer": "accept"},
        {"seat": 1, "play": "3-copas"}, {"seat": 2, "play": "4-paus"}, {"seat": 3, "play": "5-paus"},
        {"seat": 0, "play": "6-paus"},
        {"seat": 1, "play": "3-espadas"}, {"seat": 2, "play": "4-copas"}, {"seat": 3, "play": "5-copas"},
        {"seat": 0, "play": "6-copas"}, {"seat": 1, "infraction": "stolen_points"}]}
    hand = services.record_hand(match, {"report": report}, referee)
    assert (hand.score_a, hand.score_b) == (10, 12)
    game = Game.objects.get(match=match, number=1)
    assert (game.score_a, game.score_b, game.winner) == (10, 12, 1)
    assert Match.objects.get(pk=match.pk).winner == 1
    assert hand.game_over["winner"] == 1
