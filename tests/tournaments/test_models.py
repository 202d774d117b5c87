"""The database itself rejects bad tournaments and pairs."""
import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from tournaments.models import Pair, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    return get_user_model().objects.create_user("org", password="x")


@pytest.fixture
def tournament(organizer):
    return Tournament.objects.create(name="Copa", slug="copa", date=datetime.date(2026, 5, 1), organizer=organizer)


@pytest.fixture
def players():
    return [Player.objects.create(name=name) for name in ("Ana", "Bia", "Caio", "Davi")]


def test_defaults(tournament):
    assert tournament.best_of == 1
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.rule_set == {"preset": "regulamento-tecnico", "options": {}}


def test_rule_set_default_is_not_shared(tournament, organizer):
    tournament.rule_set["options"]["dealer_wins_all_tied"] = True
    other = Tournament(name="Outra", slug="outra", date=datetime.date(2026, 5, 2), organizer=organizer)
    assert other.rule_set == {"preset": "regulamento-tecnico", "options": {}}


@pytest.mark.parametrize("best_of", [3, 5])
def test_best_of_three_and_five_are_accepted(organizer, best_of):
    Tournament.objects.create(name="T", slug=f"t{best_of}", date=datetime.date(2026, 5, 1),
                              organizer=organizer, best_of=best_of)


@pytest.mark.parametrize("best_of", [0, 2, 4, 7])
def test_best_of_other_than_1_3_5_is_rejected_by_the_database(organizer, best_of):
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1),
                                  organizer=organizer, best_of=best_of)


def test_duplicate_slug_is_rejected(tournament, organizer):
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="Copa 2", slug="copa", date=datetime.date(2026, 6, 1), organizer=organizer)


def test_pair_name_is_unique_within_a_tournament(tournament, organizer, players):
    a, b, c, d = players
    Pair.objects.create(tournament=tournament, name="Zap", first_player=a, second_player=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(tournament=tournament, name="Zap", first_player=c, second_player=d)

    other = Tournament.objects.create(name="Outra", slug="outra", date=datetime.date(2026, 6, 1), organizer=organizer)
    Pair.objects.create(tournament=other, name="Zap", first_player=c, second_player=d)


def test_pair_needs_two_different_players(tournament, players):
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(tournament=tournament, name="Solo", first_player=players[0], second_player=players[0])


@pytest.mark.parametrize("partner", [0, 1])
def test_substitute_cannot_be_a_partner(tournament, players, partner):
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(tournament=tournament, name="Dupla", first_player=players[0],
                            second_player=players[1], substitute=players[partner])


def test_model_validation_reports_the_constraints(tournament, players):
    pair = Pair(tournament=tournament, name="Solo", first_player=players[0], second_player=players[0])
    with pytest.raises(ValidationError) as excinfo, translation.override("pt-br"):
        pair.full_clean()
    assert "Uma dupla precisa de dois jogadores diferentes." in str(excinfo.value)

    tournament.best_of = 2
    with pytest.raises(ValidationError):
        tournament.full_clean()
