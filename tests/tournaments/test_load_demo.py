"""``manage.py load_demo``: what it creates, and that a second run changes nothing."""
import pytest
from django.contrib.auth import get_user_model
from django.core import serializers

from tournaments.models import Pair, Player, Tournament

pytestmark = pytest.mark.django_db


def snapshot() -> str:
    User = get_user_model()
    objects = [*User.objects.order_by("pk"), *Tournament.objects.order_by("pk"),
               *Player.objects.order_by("pk"), *Pair.objects.order_by("pk")]
    return serializers.serialize("json", objects)


def test_creates_organizer_and_tournament_with_eight_pairs(load_demo):
    output = load_demo()

    organizer = get_user_model().objects.get(username="organizador")
    assert organizer.check_password("truco-demo")
    assert organizer.is_staff
    assert organizer.has_perm("tournaments.change_tournament")
    assert organizer.has_perm("tournaments.add_pair")

    tournament = Tournament.objects.get(slug="torneio-de-demonstracao")
    assert tournament.name == "Torneio de Demonstração"
    assert tournament.organizer == organizer
    assert tournament.rule_set == {"preset": "regulamento-tecnico", "options": {}}
    assert tournament.pairs.count() == 8
    players = {p for pair in tournament.pairs.all() for p in pair.players}
    assert len(players) == 16
    assert tournament.pairs.exclude(substitute=None).count() == 3

    assert "organizador / truco-demo" in output


def test_second_run_changes_nothing(load_demo):
    load_demo()
    before = snapshot()

    output = load_demo()

    assert snapshot() == before
    assert "nothing changed" in output
    assert "organizador / truco-demo" in output


def test_fills_in_what_is_missing(load_demo):
    load_demo()
    Pair.objects.filter(name="Seis Pau").delete()

    output = load_demo()

    assert "created 1 object(s): pair 'Seis Pau'" in output
    assert Pair.objects.count() == 8
    assert Player.objects.count() == 19  # the players were kept and reused


def test_organizer_can_manage_the_demo_in_the_admin(client, load_demo):
    load_demo()
    assert client.login(username="organizador", password="truco-demo")

    response = client.get("/admin/tournaments/tournament/")

    assert response.status_code == 200
    assert "Torneio de Demonstração" in response.content.decode()
    assert client.get("/admin/tournaments/pair/add/").status_code == 200
