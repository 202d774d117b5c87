"""The organizer sets a player's signing PIN in the admin; only its hash is stored (art. 25)."""
from tournaments.models import Player

from .sumula_setup import *  # noqa: F401,F403


def test_admin_sets_and_removes_a_pin(admin_client, db):
    player = Player.objects.create(name="Edu")
    url = f"/admin/people/player/{player.pk}/change/"  # the player is people's
    data = {"name": "Edu", "nickname": "", "club": "", "federation_number": "", "contact": "", "new_pin": "2468"}
    assert admin_client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert player.check_pin("2468") and player.pin_hash != "2468" and "$" in player.pin_hash
    response = admin_client.post(url, {**data, "new_pin": "12ab"})
    assert response.status_code == 200 and Player.objects.get(pk=player.pk).check_pin("2468")
    admin_client.post(url, {**data, "new_pin": "", "remove_pin": "on"})
    assert not Player.objects.get(pk=player.pk).has_pin


def test_admin_changes_a_club_through_the_membership_history(admin_client, db):
    from people.models import Club

    player = Player.objects.create(name="Edu")
    club = Club.objects.create(name="Clube X")
    url = f"/admin/people/player/{player.pk}/change/"
    data = {"name": "Edu", "nickname": "", "club": club.pk, "federation_number": "", "contact": ""}
    assert admin_client.post(url, data).status_code == 302
    assert Player.objects.get(pk=player.pk).club == club
    assert [(m.club_id, m.until) for m in player.memberships.all()] == [(club.pk, None)]


def test_admin_lists_matches_read_only(admin_client, match):
    response = admin_client.get("/admin/draw/match/")
    assert response.status_code == 200 and f"/sumulas/partida/{match.pk}/" in response.content.decode()


def test_organizer_creates_a_match_in_the_admin(client, organizer, pairs, tournament, referee):
    from scoring.models import Match

    organizer.is_staff = True
    organizer.save()
    client.force_login(organizer)
    url = "/admin/draw/match/add/"
    assert client.get(url).status_code == 200
    data = {"tournament": tournament.pk, "pair_a": pairs[0].pk, "pair_b": pairs[0].pk, "referee": referee.pk,
            "table": "2", "best_of": ""}
    response = client.post(url, data)
    assert response.status_code == 200 and not Match.objects.exists()  # same pair twice: refused
    response = client.post(url, {**data, "pair_b": pairs[1].pk})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert client.get(response["Location"]).status_code == 200
    match = Match.objects.get()
    assert match.referee == referee and match.table == 2 and match.games.count() == 1
    assert match.rule_set["preset"] == "regulamento-tecnico" and match.events.filter(kind="created").exists()
