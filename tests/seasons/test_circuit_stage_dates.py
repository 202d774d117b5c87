"""A circuit's stages are ranked in the order of their dates, not the order in which they were added:
the recency tiebreak (the better place in the latest stage) and the stages counted follow the dates."""
from __future__ import annotations

import datetime

import pytest

from scoring.models import Match

from tests.tournaments import factories as f
from tests.seasons.test_circuits import organizer
from tournaments import services
from tournaments.models import Pair, Player, Tournament
from seasons.services import circuits
from draw.pairing.circuit import CircuitRules, StageResult, circuit_ranking

pytestmark = pytest.mark.django_db


def final_of_two(org, slug: str, date: datetime.date, winner: tuple, loser: tuple) -> Tournament:
    t = f.tournament(org, slug=slug, date=date)
    pairs = [Pair.objects.create(tournament=t, name=f"{a.name}+{b.name}", first_player=a, second_player=b)
             for a, b in (winner, loser)]
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="single_elimination", seeding="order")
    services.generate_first_round(t, org)
    m = Match.objects.get(tournament=t)
    a_won = m.pair_a_id == pairs[0].pk
    services.set_result(m, org, winner=pairs[0].pk, games=[1, 0] if a_won else [0, 1],
                        points=[12, 5] if a_won else [5, 12], reason="test")
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_recency_follows_the_dates_of_the_stages():
    """Two stages, each won by one of two pairs (same points, same countback): the pair that won the
    later-dated stage is ahead, though that stage was added to the circuit first."""
    org = organizer("org")
    a, b, c, d = (Player.objects.create(name=n) for n in "ABCD")
    circuit = circuits.create_circuit(org, name="C", points=[100, 80])
    later = final_of_two(org, "marco-10", datetime.date(2026, 3, 10), (a, b), (c, d))
    earlier = final_of_two(org, "marco-1", datetime.date(2026, 3, 1), (c, d), (a, b))
    circuits.add_circuit_stage(circuit, later, org)  # stage 1 by number, but the later date
    circuits.add_circuit_stage(circuit, earlier, org)
    ranking = circuits.circuit_ranking_of(circuit)
    assert [stage.tournament.slug for stage in ranking.stages] == ["marco-1", "marco-10"]
    top = ranking.players[0]
    assert {p.name for p in ranking.players[0].players} <= {"A", "B"} and top.line.decided_by is None
    assert ranking.players[2].line.decided_by == "recency" and {p.name for p in ranking.players[2].players} <= {"C", "D"}


def test_the_pure_ranking_takes_the_order_of_play():
    rules = CircuitRules((100, 80), best_of=1)
    results = [StageResult(1, "x", 1), StageResult(2, "x", 2), StageResult(1, "y", 2), StageResult(2, "y", 1)]
    assert [line.entrant for line in circuit_ranking(rules, results)] == ["y", "x"]  # stage 2 the later
    when = {1: (datetime.date(2026, 3, 10), 1), 2: (datetime.date(2026, 3, 1), 2)}
    lines = circuit_ranking(rules, results, when)
    assert [line.entrant for line in lines] == ["x", "y"] and lines[1].decided_by == "recency"
    assert [s.stage for s in lines[0].stages] == [2, 1]  # in the order played
