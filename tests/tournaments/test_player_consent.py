"""An organizer cannot bring another organizer's player into their tournament by id without the
player's consent (their PIN), and never reads a contact they did not enter (tournaments/players.py)."""
import pytest

from scoring.models import CredentialAttempts
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db
API = "/api/tournaments/"


@pytest.fixture
def victim(org):
    services.register_pair(f.tournament(org, slug="da-olga"), org, name="Zap",
                           first_player={"name": "Ana", "contact": "ana@example.org"}, second_player={"name": "Bia"})
    ana = Player.objects.get(name="Ana")
    ana.set_pin("4321")
    ana.save()
    return ana


def test_another_organizer_cannot_register_a_player_by_id(victim):
    rival = f.user("rival")
    f.tournament(rival, slug="do-rival")
    c = client(rival)
    response = c.post(f"{API}do-rival/pairs/", {"name": "Z", "first_player": victim.pk,
                                                "second_player": {"name": "X"}}, format="json")
    assert response.status_code == 403 and response.json()["field"] == "first_player"
    for pin in ("0000", "1111"):  # guessing the PIN: refused and counted like any PIN
        response = c.post(f"{API}do-rival/pairs/", {"name": "Z", "first_player": {"id": victim.pk, "pin": pin},
                                                    "second_player": {"name": "X"}}, format="json")
        assert response.status_code == 403 and response.json()["field"] == "first_player.pin"
    assert CredentialAttempts.objects.get(subject=f"player:{victim.pk}", client__startswith="organizer:").failures == 2
    assert not Pair.objects.filter(tournament__slug="do-rival").exists()
    assert Player.objects.count() == 2  # nothing written


def test_the_player_consents_with_their_pin_and_the_contact_stays_hidden(victim):
    rival = f.user("rival")
    f.tournament(rival, slug="do-rival")
    c = client(rival)
    response = c.post(f"{API}do-rival/pairs/", {"name": "Z", "first_player": {"id": victim.pk, "pin": "4321"},
                                                "second_player": {"name": "X", "contact": "x@example.org"}},
                      format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["first_player"]["id"] == victim.pk and body["first_player"]["contact"] is None
    assert c.get(f"{API}do-rival/pairs/").json()[0]["second_player"]["contact"] == "x@example.org"


def test_name_and_contact_match_only_the_organizers_own_players(victim, org):
    rival = f.user("rival")
    t = f.tournament(rival, slug="do-rival")
    pair = services.register_pair(t, rival, name="Z", first_player={"name": "Ana", "contact": "ana@example.org"},
                                  second_player={"name": "X"})
    assert pair.first_player_id != victim.pk and not pair.first_player.has_pin  # a new player
    again = services.register_pair(f.tournament(org, slug="outra"), org, name="Z",
                                   first_player={"name": "Ana", "contact": "ana@example.org"},
                                   second_player={"name": "Y"})
    assert again.first_player_id == victim.pk  # the organizer's own player: reused
