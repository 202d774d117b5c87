"""The table link: what ``Authorization: Table <token>`` may do, action by action, and what
it may not (countersign, correct, receive, issue codes, another match, anything once received)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring import services
from tables import links as table_links
from scoring.models import HandEntry, Match, MatchEvent

from tests.scoring.sumula_setup import *  # noqa: F401,F403


def table_client(link) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
    return api


def hand(api, pk, winner=0, value=3, **extra):
    return api.post(f"/api/scoring/matches/{pk}/hands/", {"winner": winner, "ended_by": "tricks", "value": value,
                                                          **extra}, format="json")


def test_the_link_is_unguessable_unique_and_one_per_match(match, other, link):
    links = table_links.ensure_links([match, other])
    assert links[match.pk] == link  # ensure_links keeps the active one
    assert len(link.token) >= 32 and links[other.pk].token != link.token
    assert table_links.resolve(link.token) == link
    assert table_links.resolve("x" * 32) is None


def test_the_table_enters_and_undoes_hands_recording_its_credential(match, link):
    api = table_client(link)
    response = hand(api, match.pk)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["created"]["entered_by"] == "table" and body["state"]["score"] == [3, 0]
    assert "match" not in body  # only what the page needs while the match goes on
    entry = HandEntry.objects.get()
    assert entry.table_link == link and entry.created_by is None
    assert MatchEvent.objects.filter(kind="hand", data__via=f"table:{link.pk}").exists()
    response = api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 1}, format="json")
    assert response.status_code == 201 and HandEntry.objects.count() == 0


def test_the_table_reads_its_match_only_and_never_another(match, other, link):
    api = table_client(link)
    assert api.get(f"/api/scoring/matches/{match.pk}/").status_code == 200
    assert "table_url" not in api.get(f"/api/scoring/matches/{match.pk}/").json()
    assert api.get(f"/api/scoring/matches/{other.pk}/").status_code == 403
    assert hand(api, other.pk).status_code == 403
    assert api.post(f"/api/scoring/matches/{other.pk}/undo/", {"game": 1, "position": 1},
                    format="json").status_code == 403
    assert api.get(f"/api/scoring/matches/{other.pk}/versions/").status_code == 403
    assert api.post(f"/api/referee/matches/{other.pk}/calls/", {}, format="json").status_code == 403
    assert HandEntry.objects.count() == 0


def play_to_end(api, pk):
    for _ in range(4):
        response = hand(api, pk)
        assert response.status_code == 201, response.json()
    return response.json()


def test_the_table_signs_with_the_pairs_pins_but_never_countersigns_corrects_receives_or_issues_codes(
        match, link, referee, organizer):
    api = table_client(link)
    body = play_to_end(api, match.pk)
    assert body["state"]["over"] and body["game_over"]["score"] == [12, 0]
    digest = body["match"]["current_version"]["digest"]
    assert api.post(f"/api/scoring/matches/{match.pk}/codes/", {"team": 0}, format="json").status_code == 403
    for role, player, pin in (("team0", match.pair_a.first_player_id, "1111"),
                              ("team1", match.pair_b.second_player_id, "4444")):
        response = api.post(f"/api/scoring/matches/{match.pk}/signatures/",
                            {"role": role, "player": player, "pin": pin, "digest": digest}, format="json")
        assert response.status_code == 201, response.json()
    assert api.post(f"/api/scoring/matches/{match.pk}/countersign/", {"digest": digest}, format="json").status_code == 403
    assert api.post(f"/api/scoring/matches/{match.pk}/corrections/",
                    {"reason": "x", "changes": [{"op": "remove_entry", "game": 1, "position": 1}]},
                    format="json").status_code == 403
    assert api.post(f"/api/scoring/matches/{match.pk}/received/").status_code == 403
    assert api.post(f"/api/scoring/matches/{match.pk}/penalties/", {"offender": 1, "points": 3, "article": "art. 24"},
                    format="json").status_code == 403  # never the table's
    staff = APIClient()
    staff.force_authenticate(referee)
    assert staff.post(f"/api/scoring/matches/{match.pk}/countersign/", {"digest": digest},
                      format="json").status_code == 201
    staff.force_authenticate(organizer)
    assert staff.post(f"/api/scoring/matches/{match.pk}/received/").status_code == 200
    # received: the link stops working (its authentication fails: 403)
    assert api.get(f"/api/scoring/matches/{match.pk}/").status_code == 403
    assert hand(api, match.pk).status_code == 403


def test_revoked_and_reissued_links(match, link, organizer, referee):
    with pytest.raises(services.Forbidden):
        table_links.reissue(match, referee)
    new = table_links.reissue(match, organizer)
    assert new.token != link.token
    assert hand(table_client(link), match.pk).status_code == 403
    assert hand(table_client(new), match.pk).status_code == 201
    assert table_links.revoke(match, organizer) == 1
    assert hand(table_client(new), match.pk).status_code == 403


def test_match_detail_gives_the_table_url_to_its_organizer_and_referee_only(match, link, organizer, referee, outsider):
    api = APIClient()
    for user, sees in ((organizer, True), (referee, True), (outsider, False), (None, False)):
        api.force_authenticate(user)
        body = api.get(f"/api/scoring/matches/{match.pk}/").json()
        assert ("table_url" in body) is sees
        if sees:
            assert body["table_url"].endswith(f"/mesa/{link.token}/")


def test_position_behind_gets_409_with_the_current_state(match, link):
    phone_a, phone_b = table_client(link), table_client(link)
    assert hand(phone_a, match.pk, game=1, hand=1).status_code == 201
    response = hand(phone_b, match.pk, game=1, hand=1)  # the second phone did not see hand 1
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["field"] == "position" and body["state"]["hand"] == 2 and body["state"]["score"] == [3, 0]
    assert HandEntry.objects.count() == 1
    assert hand(phone_b, match.pk, game=1, hand=2).status_code == 201


def statements(queries) -> list[str]:
    """The queries that read or write data: SQLite logs BEGIN/COMMIT of the transaction as queries,
    PostgreSQL does not."""
    return [q["sql"] for q in queries if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]


@pytest.mark.django_db(transaction=True)  # as served: no test transaction around it (no savepoints)
def test_a_hand_entry_costs_at_most_8_queries(match, link, django_assert_max_num_queries):
    api = table_client(link)
    hand(api, match.pk)
    with django_assert_max_num_queries(10) as queries:  # 8 + BEGIN and COMMIT on SQLite
        response = hand(api, match.pk, game=1, hand=2, value=1)
    assert response.status_code == 201 and len(statements(queries.captured_queries)) <= 6
    with django_assert_max_num_queries(10) as queries:
        response = api.post(f"/api/scoring/matches/{match.pk}/hands/",
                            {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 3}, format="json",
                            HTTP_IDEMPOTENCY_KEY="k-queries")
    assert response.status_code == 201 and response.json()["state"]["score"] == [4, 1]
    assert len(statements(queries.captured_queries)) <= 8  # with the Idempotency-Key: claim and answer stored


def test_the_table_page_opens_without_login(client, match, link):
    response = client.get(f"/mesa/{link.token}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Os Zaps" in page and "Copas" in page and "Ana Souza" in page
    state = client.get(f"/mesa/{link.token}/estado/").json()
    assert state["state"]["game"] == 1 and state["state"]["hand"] == 1
    assert client.get("/mesa/" + "y" * 32 + "/").status_code == 404
    assert client.get("/mesa/sw.js")["Service-Worker-Allowed"] == "/mesa/"
    Match.objects.filter(pk=match.pk).update(status="received", winner=0, received_at=match.created_at)
    assert client.get(f"/mesa/{link.token}/").status_code == 404


def test_the_table_claims_and_appeals_with_a_players_pin_on_its_match_only(match, other, link, referee, pairs):
    from referee import services as referee_services
    from referee.models import Appeal, Ruling

    api = table_client(link)
    claim = {"claimant_team": 1, "offender_seat": 0, "code": "guidance_word", "facts": {"value": 1},
             "player": pairs[1].first_player_id, "pin": PINS["Caio Reis"]}
    assert api.post(f"/api/referee/matches/{match.pk}/rulings/", {**claim, "pin": "0000"},
                    format="json").status_code == 403  # the link alone is no pair's credential
    response = api.post(f"/api/referee/matches/{match.pk}/rulings/", claim, format="json")
    assert response.status_code == 201, response.json()
    assert api.post(f"/api/referee/matches/{other.pk}/rulings/", claim, format="json").status_code == 403
    ruling = referee_services.confirm(Ruling.objects.get(pk=response.json()["id"]), referee)
    assert api.post(f"/api/referee/rulings/{ruling.pk}/confirm/").status_code == 403  # only the referee confirms
    appeal = {"team": 0, "player": pairs[0].first_player_id, "pin": PINS["Ana Souza"], "reason": "Não houve"}
    response = api.post(f"/api/referee/rulings/{ruling.pk}/appeals/", appeal, format="json")
    assert response.status_code == 201, response.json()
    assert Appeal.objects.count() == 1
