"""Rulings under the room's end-of-time procedure and the escalation's tento step, through the services:
an appeal's outcome (art. 26: upheld, overturned or changed) applies under every procedure; a tento that
ends the hand in play finishes that hand for ``higher_score`` (art. 24, art. 4); a ``tento`` step costs the
tento in play, never 0 points ("O Valor do Tento", regras 4 jogadores)."""
from __future__ import annotations

import pytest
from django.utils import timezone

from referee import appeals, services
from scoring import services as scoring
from scoring.models import Game, Match

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import PINS, penalties, three

pytestmark = pytest.mark.django_db


def _one(winner: int) -> dict:
    return {"winner": winner, "ended_by": "tricks", "value": 1}


def _time_up(match, procedure: str) -> None:
    """The room's time limit runs out now under ``procedure`` (what the tournament writes): every entry so far
    was made before it."""
    Match.objects.filter(pk=match.pk).update(end_of_time=procedure, time_up_at=timezone.now())
    match.refresh_from_db()


def _appeal(ruling, players, decision: str, organizer, **kw):
    appeal = appeals.appeal(ruling, ruling.offender_team, players["a"] if ruling.offender_team == 0 else players["b"],
                            pin=PINS["Ana Souza"] if ruling.offender_team == 0 else PINS["Caio Reis"], reason="x")
    return appeals.decide_appeal(appeal, organizer, decision, "Decisão do recurso (art. 26)", **kw)


def _game(match, number: int) -> Game:
    return Game.objects.get(match=match, number=number)


def _eleven_all_ruling(match3, referee):
    """eleven_all: game 1 ends after the limit (12-0), game 2 starts at 11×11 (a mão de ferro, art. 18); the
    referee rules art. 24 against seat 0 there: the tento in play (3) takes team 1 to 12, game 2 is 1-1's."""
    _time_up(match3, "eleven_all")
    for _ in range(4):
        scoring.record_hand(match3, three(0), referee)
    assert _game(match3, 2).score == (11, 11) and _game(match3, 2).eleven_all
    ruling = services.confirm(services.propose(match3, 1, 0, "guidance_word", {}, referee), referee)
    assert (ruling.points, _game(match3, 2).winner, _game(match3, 3).score) == (3, 1, (11, 11))
    return ruling


@pytest.mark.parametrize("decision, points, game2", [
    ("overturned", None, ((11, 11), None)),
    ("changed", 0, ((11, 11), None)),
    ("changed", 1, ((11, 12), 1)),
    ("upheld", None, ((11, 12), 1)),
])
def test_an_appeal_is_applied_under_eleven_all(match3, referee, organizer, players, decision, points, game2):
    """art. 26: the organizer's decision applies whatever the end-of-time procedure: the correction replays
    game 2 from the 11×11 it started at (not from 0×0) and keeps it an 11×11 game."""
    ruling = _eleven_all_ruling(match3, referee)
    _appeal(ruling, players, decision, organizer, **({"new_points": points} if points is not None else {}))
    ruling.refresh_from_db()
    assert ruling.status == {"upheld": "confirmed"}.get(decision, decision)
    game = _game(match3, 2)
    assert ((game.score_a, game.score_b), game.winner) == game2 and game.eleven_all
    match3.refresh_from_db()
    assert (match3.games_a, match3.games_b) == (1, 0 if game2[1] is None else 1)
    assert match3.winner is None
    if game2[1] is not None:  # the next game still starts at 11×11
        assert _game(match3, 3).score == (11, 11) and _game(match3, 3).eleven_all


def _five_three(match, referee) -> None:
    for hand in (three(0), _one(0), _one(0), three(1)):
        scoring.record_hand(match, hand, referee)
    assert _game(match, 1).score == (5, 3)


def test_higher_score_ends_the_match_after_a_tento_that_ends_the_hand_in_play(match, referee):
    """higher_score: after the limit the hand in play is finished, then the higher score wins. 5-3, the
    referee rules art. 24 against seat 1: the tento in play (1) ends that hand (art. 4: the deal passes),
    6-3, and the match ends, won by team 0."""
    _five_three(match, referee)
    _time_up(match, "higher_score")
    services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 1}, referee), referee)
    match.refresh_from_db()
    assert _game(match, 1).score == (6, 3)
    assert match.winner == 0 and _game(match, 1).winner == 0


def test_a_warning_after_the_limit_does_not_finish_the_hand_in_play(match, referee):
    """art. 23: a card out of turn costs nothing and the hand goes on: the match does not end on it."""
    _five_three(match, referee)
    _time_up(match, "higher_score")
    services.confirm(services.propose(match, 0, 1, "card_out_of_turn", {}, referee), referee)
    match.refresh_from_db()
    assert match.winner is None


@pytest.mark.parametrize("decision, winner, score", [
    ("upheld", 0, (6, 3)),
    ("overturned", None, (5, 3)),   # no hand ended after the limit: play goes on
    ("changed", 0, (8, 3)),
])
def test_an_appeal_is_applied_under_higher_score(match, referee, organizer, players, decision, winner, score):
    """art. 26 under higher_score: the correction replays the súmula and the procedure decides again."""
    _five_three(match, referee)
    _time_up(match, "higher_score")
    ruling = services.confirm(services.propose(match, 0, 1, "guidance_word", {"value": 1}, referee), referee)
    _appeal(ruling, players, decision, organizer, **({"new_points": 3} if decision == "changed" else {}))
    match.refresh_from_db()
    assert _game(match, 1).score == score and match.winner == winner


def test_a_tento_step_never_costs_nothing(match, referee, organizer, tournament):
    """A policy's "tento" step on an infraction whose own consequence is a warning (art. 23, card out of
    turn) costs the tento in play (the hand's value at that moment, "O Valor do Tento"): 3 after a truco,
    to the offender's opponents; the súmula's line that says "tento" and the points agree."""
    appeals.set_policy(tournament, organizer, "card_out_of_turn", ["warning", "tento"])
    first = services.confirm(services.propose(match, 0, 1, "card_out_of_turn", {}, referee), referee)
    assert (first.step, first.points) == ("warning", 0)
    second = services.confirm(services.propose(match, 0, 1, "card_out_of_turn", {"value": 3}, referee), referee)
    assert (second.step, second.points, second.beneficiary) == ("tento", 3, 0)
    entry = penalties(match)[-1]
    assert entry["points"] == 3 and "tento" in entry["reason"] and entry["score"] == [3, 0]
