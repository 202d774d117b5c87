"""One person per federation number: the organizer who knows the player gets the same player
again; another organizer is refused, naming the field, and gives the player by id with their PIN."""
import pytest
from django.utils import timezone

from config.errors import ServiceError
from people.models import Player
from people.services import clubs
from tests.tournaments import factories as f
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_federation_number_is_one_person():
    north, south = f.user("north"), f.user("south")
    t1, t2, t3 = f.tournament(north, "a"), f.tournament(north, "b"), f.tournament(south, "c")
    first = services.register_pair(t1, north, name="P", first_player={"name": "Ana", "federation_number": "FPT 123"},
                                   second_player={"name": "Bia"})
    again = services.register_pair(t2, north, name="P", first_player={"name": "Ana S.", "federation_number": "FPT 123"},
                                   second_player={"name": "Bia", "contact": ""}, different_people=True)
    assert again.first_player_id == first.first_player_id
    with pytest.raises(ServiceError) as refused:
        services.register_pair(t3, south, name="P", first_player={"name": "Ana", "federation_number": "FPT 123"},
                               second_player={"name": "Caio"})
    assert refused.value.field == "first_player.federation_number" and "FPT 123" in refused.value.message
    assert Player.objects.filter(federation_number="FPT 123").count() == 1


def test_a_club_history_keeps_every_membership():
    ana = Player.objects.create(name="Ana")
    import datetime

    old, new = clubs.club_named("Clube do Truco"), clubs.club_named("Outro Clube", "Curitiba")
    clubs.join_club(ana, old, on=datetime.date(2025, 3, 1))
    clubs.join_club(ana, new, on=datetime.date(2026, 2, 1))
    assert [(m.club.name, m.since, m.until) for m in clubs.history(ana)] == [
        ("Clube do Truco", datetime.date(2025, 3, 1), datetime.date(2026, 1, 31)),
        ("Outro Clube", datetime.date(2026, 2, 1), None)]
    assert Player.objects.get(pk=ana.pk).club == new
    with pytest.raises(ServiceError):  # a new club starts after the current one did
        clubs.join_club(ana, old, on=datetime.date(2026, 1, 1))


def test_a_club_manager_moves_a_player_they_know_to_their_club():
    from tests.people.helpers import event

    org, stranger = f.user("org"), f.user("stranger")
    _, pair, _, _ = event(org, "copa", {"name": "Ana", "club": "Velho Clube"})
    ana = pair.first_player
    api = f.api_client(org)
    club = api.post("/api/people/clubs/", {"name": "Clube Novo", "city": "Curitiba"}, format="json")
    assert club.status_code == 201
    assert api.post("/api/people/clubs/", {"name": "clube novo", "city": "curitiba"}, format="json").status_code == 409
    body = {"club": club.json()["id"]}  # from today
    assert f.api_client(stranger).post(f"/api/people/players/{ana.pk}/club/", body, format="json").status_code == 403
    moved = api.post(f"/api/people/players/{ana.pk}/club/", body, format="json")
    assert moved.status_code == 200, moved.json()
    today = timezone.localdate().isoformat()  # registered today, moved today: the old membership ends today
    assert [(m["club"], m["since"], m["until"]) for m in moved.json()] == [
        ("Velho Clube", today, today), ("Clube Novo", today, None)]
