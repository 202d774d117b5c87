"""The súmula REST API (/api/scoring/): the same rules and permissions as the pages."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Signature

from .sumula_setup import *  # noqa: F401,F403


@pytest.fixture
def api():
    return APIClient()


def hands(api, pk, *winners):
    for winner in winners:
        response = api.post(f"/api/scoring/matches/{pk}/hands/", {"winner": winner, "ended_by": "tricks", "value": 3},
                            format="json")
        assert response.status_code == 201, response.json()
    return response


def test_create_enter_sign_countersign_receive(api, pairs, tournament, organizer, referee):
    api.force_authenticate(referee)
    response = api.post("/api/scoring/matches/", {"tournament": tournament.slug, "pair_a": pairs[0].pk,
                                                   "pair_b": pairs[1].pk}, format="json")
    assert response.status_code == 403  # only the organizer creates
    api.force_authenticate(organizer)
    response = api.post("/api/scoring/matches/", {"tournament": tournament.slug, "pair_a": pairs[0].pk,
                                                   "pair_b": pairs[1].pk, "referee": referee.pk, "table": 3},
                        format="json")
    assert response.status_code == 201, response.json()
    pk = response.json()["id"]
    assert response.json()["state"]["allowed"]["tricks"] == [1, 3, 6, 9, 12]
    api.force_authenticate(referee)
    response = hands(api, pk, 0, 0, 1)
    assert response.json()["created"]["score"] == [6, 3]
    response = api.post(f"/api/scoring/matches/{pk}/penalties/", {"offender": 1, "points": 3, "article": "art. 24",
                                                                  "reason": "Palavra"}, format="json")
    assert response.status_code == 201 and response.json()["created"]["score"] == [9, 3]
    response = hands(api, pk, 0)
    body = response.json()["match"]
    assert body["winner"] == 0 and body["current_version"]["number"] == 1
    digest = body["current_version"]["digest"]
    assert body["document"]["digest"] == digest

    api.force_authenticate(None)  # players sign without an account: the PIN is the credential
    pair_a, pair_b = pairs[0], pairs[1]
    response = api.post(f"/api/scoring/matches/{pk}/signatures/",
                        {"role": "team1", "player": pair_a.first_player_id, "pin": "1111"}, format="json")
    assert response.status_code == 403 and response.json()["error"]["field"] == "player"
    response = api.post(f"/api/scoring/matches/{pk}/signatures/",
                        {"role": "team0", "player": pair_a.first_player_id, "pin": "1111", "digest": digest},
                        format="json")
    assert response.status_code == 201 and response.json()["created"]["digest"] == digest
    response = api.post(f"/api/scoring/matches/{pk}/signatures/",
                        {"role": "team1", "player": pair_b.second_player_id, "pin": "4444"}, format="json")
    assert response.status_code == 201 and response.json()["match"]["status"] == "signed"
    response = api.post(f"/api/scoring/matches/{pk}/hands/", {"winner": 0, "value": 1}, format="json")
    assert response.status_code == 403  # anonymous
    api.force_authenticate(referee)
    response = api.post(f"/api/scoring/matches/{pk}/hands/", {"winner": 0, "value": 1}, format="json")
    assert response.status_code == 409 and "art. 25" in response.json()["error"]["message"]
    assert api.post(f"/api/scoring/matches/{pk}/undo/", {"game": 1, "position": 4}, format="json").status_code == 409
    assert api.post(f"/api/scoring/matches/{pk}/countersign/", {"digest": digest}, format="json").status_code == 201
    assert api.post(f"/api/scoring/matches/{pk}/received/").status_code == 403
    api.force_authenticate(organizer)
    response = api.post(f"/api/scoring/matches/{pk}/received/")
    assert response.status_code == 200 and response.json()["match"]["is_official"]

    response = APIClient().get(f"/api/scoring/verify/{digest}/")
    body = response.json()
    assert response.status_code == 200 and body["is_current"] and body["intact"] and body["is_official"]
    assert {s["role"] for s in body["signatures"]} == {"team0", "team1", "referee"}
    assert all(s["valid"] for s in body["signatures"])


def test_engine_refusals_come_back_with_field_and_article(api, match, referee):
    api.force_authenticate(referee)
    response = api.post(f"/api/scoring/matches/{match.pk}/hands/", {"winner": 0, "value": 2}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "value" and "art. 11, 13" in error["message"]
    response = api.post(f"/api/scoring/matches/{match.pk}/hands/", {"report": {"dealer": 3}}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "report.vira"  # dealer 3 drew
    hands(api, match.pk, 1)
    response = api.post(f"/api/scoring/matches/{match.pk}/hands/", {"report": {"dealer": 3, "score": [0, 3]}},
                        format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "report.dealer"
    assert "art. 4" in response.json()["error"]["message"]
    response = api.post(f"/api/scoring/matches/{match.pk}/penalties/", {"offender": 0, "points": 1, "article": "x"},
                        format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "article"


def test_corrections_versions_and_undo(api, match, referee, outsider):
    api.force_authenticate(referee)
    hands(api, match.pk, 0, 0)
    response = api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 2}, format="json")
    assert response.status_code == 201 and response.json()["created"]["removed"]["score"] == [6, 0]
    hands(api, match.pk, 0, 0, 0)
    services.sign(match, "team0", match.pair_a.first_player, pin="1111")
    response = api.post(f"/api/scoring/matches/{match.pk}/corrections/",
                        {"reason": "", "changes": [{"op": "remove_entry", "game": 1, "position": 1}]}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "reason"
    response = api.post(f"/api/scoring/matches/{match.pk}/corrections/",
                        {"reason": "Mão 1 não valeu", "changes": [{"op": "remove_entry", "game": 1, "position": 1}]},
                        format="json")
    assert response.status_code == 201 and response.json()["created"]["version"] == 2
    versions = APIClient().get(f"/api/scoring/matches/{match.pk}/versions/").json()
    assert [v["number"] for v in versions] == [1, 2]
    assert versions[0]["signatures"][0]["valid"] is False and not versions[0]["is_current"]
    assert versions[1]["reason"] == "Mão 1 não valeu" and versions[1]["is_current"]
    api.force_authenticate(outsider)
    assert api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 3},
                    format="json").status_code == 403


def test_one_time_code_through_the_api(api, match, referee):
    api.force_authenticate(referee)
    hands(api, match.pk, 1, 1, 1, 1)
    response = api.post(f"/api/scoring/matches/{match.pk}/codes/", {"team": 1}, format="json")
    assert response.status_code == 201
    code = response.json()["code"]
    anonymous = APIClient()
    signed = anonymous.post(f"/api/scoring/matches/{match.pk}/signatures/",
                            {"role": "team1", "player": match.pair_b.first_player_id, "code": code}, format="json")
    assert signed.status_code == 201
    again = anonymous.post(f"/api/scoring/matches/{match.pk}/signatures/",
                           {"role": "team1", "player": match.pair_b.second_player_id, "code": code}, format="json")
    assert again.status_code == 409  # pair B already signed this version
    assert Signature.objects.count() == 1


def test_reading_documents(api, match, pairs, referee):
    response = api.get(f"/api/scoring/matches/{match.pk}/")
    assert response.status_code == 200 and response.json()["document"]["teams"][0]["name"] == "Os Zaps"

    from tests.tournaments.factories import operator

    staff = operator("staff")  # a friendly's organizers are the site's operators
    friendly = services.create_match(pair_a=pairs[0], pair_b=pairs[2], by=staff)
    assert api.get(f"/api/scoring/matches/{friendly.pk}/").status_code == 403
    api.force_authenticate(staff)
    assert api.get(f"/api/scoring/matches/{friendly.pk}/").status_code == 200
    assert APIClient().get(f"/api/scoring/verify/{'f' * 64}/").status_code == 404
    assert APIClient().get("/api/scoring/matches/999/").status_code == 404


def test_the_api_is_in_the_openapi_schema(client, db):
    schema = client.get("/api/schema/").content.decode()
    for path in ("/api/scoring/matches/", "/api/scoring/matches/{id}/hands/", "/api/scoring/matches/{id}/penalties/",
                 "/api/scoring/matches/{id}/undo/", "/api/scoring/matches/{id}/corrections/",
                 "/api/scoring/matches/{id}/signatures/", "/api/scoring/matches/{id}/countersign/",
                 "/api/scoring/matches/{id}/received/", "/api/scoring/matches/{id}/versions/",
                 "/api/scoring/matches/{id}/codes/", "/api/scoring/verify/{digest}/"):
        assert path in schema, path
