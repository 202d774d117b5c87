"""The escalation policy may count across a circuit (art. 26): with the circuit's option
``escalation_across_stages`` the same two players' confirmed rulings in its other stages count for
the nth step; without it, or for a new partnership, each tournament counts alone."""
from __future__ import annotations

import datetime

import pytest

from referee import appeals
from referee import services
from scoring import services as scoring
from tournaments.models import Pair, Tournament
from seasons.models import Circuit, CircuitStage

from .rulings_setup import *  # noqa: F401,F403

pytestmark = pytest.mark.django_db


def guidance(match, by):
    """art. 24: seat 0 (team 0) spoke to the partner; team 1 claims."""
    return services.propose(match, 1, 0, "guidance_word", {"value": 3}, by)


@pytest.fixture
def second_stage(organizer, referee, tournament, pairs):
    """A second tournament of the organizer: Beto and Ana again (names swapped, another pair name),
    Ana with a new partner, and an opponent; the policy warning → tento → match loss."""
    a, b, c = pairs
    t2 = Tournament.objects.create(name="Etapa 2", slug="etapa-2", date=datetime.date(2026, 12, 5),
                                   organizer=organizer, venue="Clube")
    same = Pair.objects.create(tournament=t2, name="Zap de Novo", first_player=a.second_player,
                               second_player=a.first_player)
    mixed = Pair.objects.create(tournament=t2, name="Nova Dupla", first_player=a.first_player,
                                second_player=b.first_player)
    opponent = Pair.objects.create(tournament=t2, name="Rivais", first_player=c.first_player,
                                   second_player=c.second_player)
    appeals.set_policy(t2, organizer, "guidance_word", ["warning", "tento", "match_loss"])
    make = lambda p: scoring.create_match(pair_a=p, pair_b=opponent, tournament=t2, referee=referee,  # noqa: E731
                                          by=organizer)
    return t2, make(same), make(mixed)


def circuit_of(organizer, *tournaments, across: bool) -> Circuit:
    circuit = Circuit.objects.create(name="Circuito", slug="circuito", organizer=organizer,
                                     escalation_across_stages=across)
    for n, t in enumerate(tournaments, 1):
        CircuitStage.objects.create(circuit=circuit, tournament=t, number=n)
    return circuit


def test_across_the_circuit_the_same_two_players_earlier_ruling_counts(match, referee, organizer, tournament,
                                                                         second_stage):
    t2, same, mixed = second_stage
    services.confirm(guidance(match, referee), referee)  # stage 1: Ana and Beto's first guidance word
    circuit_of(organizer, tournament, t2, across=True)
    ruling = services.confirm(guidance(same, referee), referee)
    assert (ruling.step, ruling.step_number, ruling.points) == ("tento", 2, 3)  # art. 26 policy, 2nd step
    assert guidance(mixed, referee).step == "warning"  # Ana with another partner is another pair
    assert services.propose(same, 1, 0, "stolen_card", {}, referee).step == ""  # another code, no policy


def test_without_the_option_each_stage_counts_alone(match, referee, organizer, tournament, second_stage):
    t2, same, _mixed = second_stage
    services.confirm(guidance(match, referee), referee)
    circuit_of(organizer, tournament, t2, across=False)
    assert guidance(same, referee).step == "warning"


def test_a_proposed_or_rejected_ruling_elsewhere_does_not_count(match, referee, organizer, tournament,
                                                                 second_stage):
    t2, same, _mixed = second_stage
    guidance(match, referee)  # proposed only: not standing
    circuit_of(organizer, tournament, t2, across=True)
    assert guidance(same, referee).step == "warning"


def test_the_circuits_organizer_turns_the_option_on_from_its_stages_page(organizer, tournament):
    from django.test import Client

    from tests.tournaments import factories as f

    circuit = circuit_of(organizer, tournament, across=False)
    stranger = Client()
    stranger.force_login(f.user("estranho"))
    assert stranger.post("/circuitos/circuito/disciplina/", {"across": "on"}).status_code == 403
    client = Client()
    client.force_login(organizer)
    assert 'data-testid="circuit-discipline"' in client.get("/circuitos/circuito/etapas/").content.decode()
    assert client.post("/circuitos/circuito/disciplina/", {"across": "on"}).status_code == 302
    circuit.refresh_from_db()
    assert circuit.escalation_across_stages
    client.post("/circuitos/circuito/disciplina/", {})
    circuit.refresh_from_db()
    assert not circuit.escalation_across_stages
