"""The organizer sets a player's signing PIN in the admin; only its hash is stored (art. 25)."""
from tournaments.models import Player

from .sumula_setup import *  # noqa: F401,F403


def test_admin_sets_and_removes_a_pin(admin_client, db):
    player = Player.objects.create(name="Edu")
    url = f"/admin/tournaments/player/{player.pk}/change/"
    data = {"name": "Edu", "nickname": "", "club": "", "contact": "", "new_pin": "2468"}
    assert admin_client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert player.check_pin("2468") and "2468" not in player.pin_hash
    response = admin_client.post(url, {**data, "new_pin": "12ab"})
    assert response.status_code == 200 and Player.objects.get(pk=player.pk).check_pin("2468")
    admin_client.post(url, {**data, "new_pin": "", "remove_pin": "on"})
    assert not Player.objects.get(pk=player.pk).has_pin


def test_admin_lists_matches_read_only(admin_client, match):
    response = admin_client.get("/admin/scoring/match/")
    assert response.status_code == 200 and f"/sumulas/partida/{match.pk}/" in response.content.decode()
