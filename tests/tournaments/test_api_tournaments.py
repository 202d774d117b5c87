"""REST API at /api/tournaments/: tournaments, pairs (with CSV import), format, check-in and
tables; public reads, organizer writes (checked server-side)."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments.models import CheckIn, Pair, Stage, TableAssignment, Tournament

pytestmark = pytest.mark.django_db
API = "/api/tournaments/"


def test_public_reads_and_contacts_only_for_the_organizer(t, org):
    from tournaments import services

    services.register_pair(t, org, name="Zap", first_player={"name": "Ana", "contact": "11 9999"},
                           second_player={"name": "Bia"})
    anonymous = client()
    assert anonymous.get(API).status_code == 200
    assert anonymous.get(API).json()[0]["slug"] == "copa"
    detail = anonymous.get(f"{API}copa/").json()
    assert detail["organizer"] == "org" and detail["format"] is None
    pairs = anonymous.get(f"{API}copa/pairs/").json()
    assert pairs[0]["first_player"]["name"] == "Ana" and pairs[0]["first_player"]["contact"] is None
    assert client(org).get(f"{API}copa/pairs/").json()[0]["first_player"]["contact"] == "11 9999"
    assert anonymous.get(f"{API}nope/").status_code == 404


def test_creating_a_tournament(org):
    assert client().post(API, {"name": "Copa"}, format="json").status_code in (401, 403)
    assert client(f.user("nobody")).post(API, {"name": "Copa", "date": "2026-06-01"},
                                         format="json").status_code == 403
    staff = f.operator("staff")
    response = client(staff).post(API, {"name": "Copa da Vila", "date": "2026-06-01", "best_of": 3,
                                        "check_in_required": True}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["slug"], body["organizer"], body["best_of"], body["check_in_required"]) == (
        "copa-da-vila", "staff", 3, True)
    response = client(staff).post(API, {"name": "Copa da Vila", "date": "2026-06-01"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "slug"
    response = client(staff).post(API, {"name": "X", "date": "2026-06-01", "best_of": 2}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "best_of"


def test_updating_a_tournament_is_for_its_organizer(t, org):
    assert client(f.user("x")).patch(f"{API}copa/", {"venue": "Clube"}, format="json").status_code == 403
    assert client().patch(f"{API}copa/", {"venue": "Clube"}, format="json").status_code in (401, 403)
    response = client(org).patch(f"{API}copa/", {"venue": "Clube", "best_of": 5}, format="json")
    assert response.status_code == 200 and response.json()["venue"] == "Clube"
    response = client(org).patch(f"{API}copa/", {"status": "finished"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "status"
    staff = f.operator("staff")
    assert client(staff).patch(f"{API}copa/", {"venue": "Outro"}, format="json").status_code == 200


def test_registering_updating_and_withdrawing_pairs(t, org):
    c = client(org)
    ana = f.pairs(f.tournament(org, slug="old"), 1)[0].first_player
    response = c.post(f"{API}copa/pairs/", {"name": "Zap", "first_player": ana.pk,
                                            "second_player": {"name": "Bia", "club": "AABB"},
                                            "substitute": None, "rating": 1400}, format="json")
    assert response.status_code == 201, response.json()
    pair = response.json()
    assert pair["first_player"]["id"] == ana.pk and pair["second_player"]["club"] == "AABB"
    response = c.post(f"{API}copa/pairs/", {"name": "zap", "first_player": {"name": "C"},
                                            "second_player": {"name": "D"}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"
    response = c.post(f"{API}copa/pairs/", {"name": "E", "first_player": {"nickname": "C"},
                                            "second_player": {"name": "D"}}, format="json")
    assert response.status_code == 400 and "first_player" in response.json()
    response = client(f.user("x")).post(f"{API}copa/pairs/", {"name": "F", "first_player": {"name": "C"},
                                                               "second_player": {"name": "D"}}, format="json")
    assert response.status_code == 403
    response = c.patch(f"{API}copa/pairs/{pair['id']}/", {"seed": 1, "status": "pending"}, format="json")
    assert response.status_code == 200 and (response.json()["seed"], response.json()["status"]) == (1, "pending")
    assert c.post(f"{API}copa/pairs/{pair['id']}/withdraw/", {}, format="json").status_code == 400
    response = c.post(f"{API}copa/pairs/{pair['id']}/withdraw/", {"reason": "Viajou"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    assert response.json()["withdrawal_reason"] == "Viajou"
    response = c.post(f"{API}copa/pairs/{pair['id']}/withdraw/", {"reason": "again"}, format="json")
    assert response.status_code == 409
    assert client().get(f"{API}copa/pairs/{pair['id']}/").status_code == 200
    assert client().get(f"{API}copa/pairs/999/").status_code == 404


def test_csv_import_over_the_api(t, org):
    good = SimpleUploadedFile("duplas.csv", "\ufeffdupla;jogador 1;jogador 2\nZap;Ana;Bia\nCopas;Caio;Duda\n"
                              .encode(), content_type="text/csv")
    response = client(org).post(f"{API}copa/pairs/import/", {"file": good}, format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["created_count"] == 2 and response.json()["errors"] == []
    bad = SimpleUploadedFile("duplas.csv", b"pair,player 1,player 2\nNew,Eva,Flor\nZap,Gil,Hugo\n")
    response = client(org).post(f"{API}copa/pairs/import/", {"file": bad}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"row": 3, "column": "pair",
                                          "message": "This tournament already has a pair named Zap."}]
    bad.seek(0)
    response = client(org).post(f"{API}copa/pairs/import/", {"file": bad, "mode": "valid_rows"},
                                format="multipart")
    assert response.status_code == 201 and response.json()["created_count"] == 1
    assert Pair.objects.filter(tournament=t).count() == 3
    bad.seek(0)
    response = client(f.user("x")).post(f"{API}copa/pairs/import/", {"file": bad}, format="multipart")
    assert response.status_code == 403
    assert client(org).post(f"{API}copa/pairs/import/", {}, format="multipart").status_code == 400


def test_stage_configuration(t, org):
    assert client().get(f"{API}copa/stage/").status_code == 404
    response = client(org).put(f"{API}copa/stage/", {"format": "swiss", "swiss_rounds": 4,
                                                     "tiebreaks": ["matches_won", "buchholz"]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["tiebreaks"] == ["matches_won", "buchholz"]
    response = client(org).patch(f"{API}copa/stage/", {"format": "round_robin"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "tiebreaks"
    response = client(org).patch(f"{API}copa/stage/", {"tiebreaks": ["elo"]}, format="json")
    assert response.status_code == 400
    assert client(f.user("x")).patch(f"{API}copa/stage/", {"third_place": True}, format="json").status_code == 403
    assert client().get(f"{API}copa/stage/").json()["format"] == "swiss"
    assert client().get(f"{API}copa/").json()["format"] == "swiss"
    assert Stage.objects.get(tournament=t).swiss_rounds == 4


def test_check_in_endpoints(t, org):
    Tournament.objects.filter(pk=t.pk).update(check_in_required=True)
    pairs = f.pairs(t, 3)
    c = client(org)
    response = c.post(f"{API}copa/check-ins/", {"pair": pairs[0].pk}, format="json")
    assert response.status_code == 201 and response.json()["round"] == 1
    assert c.post(f"{API}copa/check-ins/", {"pair": pairs[0].pk}, format="json").status_code == 409
    assert c.post(f"{API}copa/check-ins/", {"pair": 9999}, format="json").status_code == 400
    assert c.post(f"{API}copa/check-ins/", {"pair": pairs[1].pk, "round": 7}, format="json").status_code == 400
    c.post(f"{API}copa/check-ins/", {"pair": pairs[1].pk, "round": 1}, format="json")
    assert client(f.user("x")).post(f"{API}copa/check-ins/", {"pair": pairs[2].pk},
                                    format="json").status_code == 403
    listed = client().get(f"{API}copa/check-ins/?round=1").json()
    assert [row["pair"] for row in listed] == [pairs[0].pk, pairs[1].pk]
    check = CheckIn.objects.get(pair=pairs[1])
    assert client(f.user("y")).delete(f"{API}copa/check-ins/{check.pk}/").status_code == 403
    assert c.delete(f"{API}copa/check-ins/{check.pk}/").status_code == 204
    assert CheckIn.objects.count() == 1


def test_table_assignment_endpoints(t, org):
    ref = f.referee_of(t, f.user("ref"))
    c = client(org)
    response = c.post(f"{API}copa/tables/", {"table": 1, "referee": ref.pk}, format="json")
    assert response.status_code == 200 and response.json()["referee_username"] == "ref"
    assert c.post(f"{API}copa/tables/", {"table": 0, "referee": ref.pk}, format="json").status_code == 400
    assert c.post(f"{API}copa/tables/", {"table": 2, "referee": 9999}, format="json").status_code == 400
    assert client(ref).post(f"{API}copa/tables/", {"table": 2, "referee": ref.pk},
                            format="json").status_code == 403
    assert client().get(f"{API}copa/tables/").json()[0]["table"] == 1
    row = TableAssignment.objects.get()
    assert c.delete(f"{API}copa/tables/{row.pk}/").status_code == 204
    assert not TableAssignment.objects.exists()
    assert c.post(f"{API}copa/tables/", {"table": 3, "referee": None}, format="json").status_code == 204


def test_schema_lists_the_endpoints():
    response = client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/tournaments/", "/api/tournaments/{slug}/pairs/import/", "/api/tournaments/{slug}/stage/",
                 "/api/tournaments/{slug}/rounds/generate/", "/api/tournaments/{slug}/rounds/next/",
                 "/api/tournaments/{slug}/rounds/{number}/regenerate/", "/api/tournaments/{slug}/check-ins/",
                 "/api/tournaments/{slug}/tables/", "/api/tournaments/{slug}/matches/{match_id}/walkover/",
                 "/api/tournaments/{slug}/matches/{match_id}/result/",
                 "/api/tournaments/{slug}/matches/{match_id}/pairing/",
                 "/api/tournaments/{slug}/matches/{match_id}/swap-tables/",
                 "/api/tournaments/{slug}/standings/", "/api/tournaments/{slug}/bracket/",
                 "/api/tournaments/{slug}/audit/"):
        assert path in paths, path


def test_errors_are_in_portuguese_by_default(t, org):
    c = APIClient()
    c.force_authenticate(org)
    response = c.post(f"{API}copa/pairs/", {"name": "Zap", "first_player": {"name": "A"},
                                            "second_player": 99999}, format="json")
    assert response.status_code == 400
    body = response.json()  # the API's one error shape (config/api.py): field and message, repeated in "error"
    expected = {"field": "second_player", "message": "Nenhum jogador com id 99999."}
    assert {key: body[key] for key in expected} == expected == body["error"]


def test_lists_answer_whole_or_by_page(t, org):
    f.pairs(t, 5)
    assert len(client().get(f"{API}copa/pairs/").json()) == 5
    page = client().get(f"{API}copa/pairs/?limit=2&offset=2").json()
    assert page["count"] == 5 and len(page["results"]) == 2 and page["next"] and page["previous"]
    assert client().get(f"{API}?limit=1").json()["count"] == 1
