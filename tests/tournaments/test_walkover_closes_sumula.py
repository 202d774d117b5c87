"""A W.O., a disqualification or a withdrawal closes the match's súmula with its reason (art. 26): nothing
enters it afterwards — no hand, tento, undo, correction, claim nor ruling — each refused naming the rule."""
from __future__ import annotations

import pytest
from django.utils import timezone

from config.errors import Conflict
from referee import services as referee_services
from scoring import services as scoring
from scoring.models import Game, MatchEvent
from tournaments import services
from tournaments.models import Result, Round

from tests.scoring.sumula_setup import *  # noqa: F401,F403
from tests.scoring.sumula_setup import play


def _five_three(match, referee) -> None:
    play(match, referee, 0, 1, {"winner": 0, "ended_by": "tricks", "value": 1},
         {"winner": 0, "ended_by": "tricks", "value": 1})  # 5-3


def _every_entry_refused(match, referee, organizer) -> list[str]:
    refusals = []
    for attempt in (
        lambda: scoring.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee),
        lambda: scoring.record_penalty(match, 0, 3, "art. 24", "orientação", organizer),
        lambda: scoring.undo_last(match, referee),
        lambda: scoring.correct(match, [{"op": "remove_entry", "game": 1, "position": 1}], "engano", organizer),
        lambda: referee_services.propose(match, 1, 0, "guidance_word", {}, referee),
    ):
        with pytest.raises(Conflict) as refused:
            attempt()
        refusals.append(str(refused.value))
    return refusals


def test_a_walkover_closes_the_sumula(match, referee, organizer, pairs):
    """art. 26: a W.O. against pair B at 5-3; hands and rulings are refused afterwards, naming the W.O., the
    pair and the reason; the súmula stays 5-3 and the official result the W.O."""
    _five_three(match, referee)
    ruling = referee_services.propose(match, 0, 1, "guidance_word", {}, referee)  # pending when the W.O. comes
    services.record_walkover(match, pairs[1], organizer, reason="Não compareceu à segunda rodada")
    for message in _every_entry_refused(match, referee, organizer):
        assert "W.O." in message and "Copas" in message and "art. 26" in message
        assert "Não compareceu à segunda rodada" in message
    with pytest.raises(Conflict):
        referee_services.confirm(ruling, referee)
    game = Game.objects.get(match=match, number=1)
    assert (game.score_a, game.score_b, game.winner) == (5, 3, None)
    assert Result.objects.get(match=match).kind == Result.Kind.WALKOVER
    closed = MatchEvent.objects.get(match=match, kind=MatchEvent.Kind.CLOSED)
    assert closed.data == {"cause": "walkover", "absent": 1, "reason": "Não compareceu à segunda rodada"}


def test_a_disqualification_closes_the_sumula_and_reinstating_reopens_it(match, referee, organizer, pairs):
    """art. 26: the pair disqualified loses its open matches by W.O.; its súmula takes nothing more; the pair
    reinstated, the match is to be played again and the súmula takes entries."""
    Round.objects.filter(pk=match.round_id).update(generated_at=timezone.now())  # the current round
    _five_three(match, referee)
    services.disqualify_pair(pairs[1], organizer, "Conduta antidesportiva")
    for message in _every_entry_refused(match, referee, organizer):
        assert "desclassificação de Copas" in message
        assert "Copas" in message and "art. 26" in message
    services.reinstate_pair(pairs[1], organizer, "Recurso aceito")
    scoring.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    assert Game.objects.get(match=match, number=1).score_b == 6


def test_a_withdrawal_closes_the_sumula(match, referee, organizer, pairs):
    _five_three(match, referee)
    services.withdraw_pair(pairs[0], organizer, "Viajou")
    messages = _every_entry_refused(match, referee, organizer)
    assert all("desistência de Os Zaps" in m and "art. 26" in m and "Viajou" in m for m in messages)
