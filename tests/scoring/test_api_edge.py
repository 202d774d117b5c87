"""No input reaches a 500 (config/api.py): each attack gets a 4xx naming what is wrong, and nothing
is written."""
from __future__ import annotations

import base64
import json

import pytest
from django.test import Client

from referee.models import Ruling
from scoring.models import HandEntry, Match
from tournaments.models import Pair, TableAssignment

from .sumula_setup import *  # noqa: F401,F403


@pytest.fixture(autouse=True)
def english(settings):
    """These tests read the English messages (the pages and the API speak Portuguese by default)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield

DEEP = "[" * 1000 + "]" * 1000


def basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def error_of(response) -> dict:
    body = response.json()
    assert {"field", "message", "error"} <= set(body), body
    return body


def test_nul_in_basic_credentials_is_a_4xx(match, organizer):
    for url in ("/api/tournaments/", f"/api/scoring/matches/{match.pk}/hands/", "/api/referee/hands/validate/"):
        response = Client(HTTP_AUTHORIZATION=basic("organiza\x00dor", "x\x00y")).post(
            url, "{}", content_type="application/json")
        assert response.status_code in (400, 401, 403), (url, response.status_code)
    assert not HandEntry.objects.exists()


def test_basic_auth_is_gone_except_for_the_hand_validator(match, organizer):
    client = Client(HTTP_AUTHORIZATION=basic("organizador", "secret-org"))
    response = client.post(f"/api/scoring/matches/{match.pk}/hands/", {"winner": 0, "value": 1},
                           content_type="application/json")
    assert response.status_code == 403 and not HandEntry.objects.exists()


def test_a_browser_reading_the_api_lists_gets_json(match, organizer, client):
    client.force_login(organizer)
    slug = match.tournament.slug
    for path in ("pairs/", "rounds/", "check-ins/", "tables/", "matches/", "audit/", "stage/", ""):
        response = client.get(f"/api/tournaments/{slug}/{path}", HTTP_ACCEPT="text/html")
        assert response.status_code in (200, 404) and response["Content-Type"].startswith("application/json")
    response = client.options(f"/api/tournaments/{slug}/stage/")
    assert response.status_code == 200 and response.json()["name"]


@pytest.mark.parametrize("path", ["hands/", "penalties/", "corrections/", "signatures/"])
def test_json_nested_a_thousand_deep_is_refused(match, referee, client, path):
    client.force_login(referee)
    response = client.post(f"/api/scoring/matches/{match.pk}/{path}", '{"report": %s}' % DEEP,
                           content_type="application/json")
    assert response.status_code == 400 and "nested" in error_of(response)["message"]
    assert not HandEntry.objects.exists()


def test_deep_json_everywhere_else_too(match, organizer, client):
    client.force_login(organizer)
    for url in ("/api/tournaments/", f"/api/tournaments/{match.tournament.slug}/pairs/",
                f"/api/referee/matches/{match.pk}/rulings/", "/api/referee/hands/validate/"):
        response = client.post(url, DEEP, content_type="application/json")
        assert response.status_code == 400, url
    assert Pair.objects.count() == 3


def test_nul_and_lone_surrogates_in_strings_are_refused_at_the_edge(match, referee, client):
    client.force_login(referee)
    claim = {"claimant_team": 1, "offender_seat": 0, "code": "not_covered",
             "facts": {"description": "caso\x00omisso"}}
    response = client.post(f"/api/referee/matches/{match.pk}/rulings/", json.dumps(claim),
                           content_type="application/json")
    assert response.status_code == 400 and error_of(response)["field"] == "facts.description"
    report = '{"report": {"id": "\\ud800", "dealer": 0}}'
    response = client.post(f"/api/scoring/matches/{match.pk}/hands/", report, content_type="application/json")
    assert response.status_code == 400 and error_of(response)["field"] == "report.id"
    response = client.post("/api/referee/hands/validate/", '[{"id": "a\\u0000b"}]', content_type="application/json")
    assert response.status_code == 400
    assert not Ruling.objects.exists() and not HandEntry.objects.exists()


def test_nul_in_forms_and_query_strings(match, referee, client):
    client.force_login(referee)
    assert client.get("/api/tournaments/?q=a%00b").status_code == 400
    response = client.post(f"/sumulas/partida/{match.pk}/penalidade/", {"offender": "0", "points": "1",
                                                                          "article": "art.\x0024", "reason": "x"})
    assert response.status_code == 400 and not HandEntry.objects.exists()


def test_numbers_are_bounded_to_the_column(match, organizer, client, pairs, tournament):
    client.force_login(organizer)
    response = client.post("/api/scoring/matches/", {"tournament": tournament.slug, "pair_a": pairs[0].pk,
                                                     "pair_b": pairs[2].pk, "table": 40000},
                           content_type="application/json")
    assert response.status_code == 400 and error_of(response)["field"] == "table"
    response = client.post(f"/api/tournaments/{tournament.slug}/tables/", {"table": 40000, "referee": None},
                           content_type="application/json")
    assert response.status_code == 400
    response = client.post(f"/api/scoring/matches/{match.pk}/hands/", '{"winner": 1e400}',
                           content_type="application/json")
    assert response.status_code == 400
    response = client.post(f"/api/scoring/matches/{match.pk}/pin-unlock/", '{"player": 99999999999999999999999}',
                           content_type="application/json")
    assert response.status_code == 400
    assert Match.objects.count() == 1 and not TableAssignment.objects.exists()


def test_the_body_is_limited_in_size(match, referee, client, settings):
    client.force_login(referee)
    body = json.dumps({"report": {"id": "x" * (5 * 1024 * 1024)}})
    response = client.post(f"/api/scoring/matches/{match.pk}/hands/", body, content_type="application/json")
    assert response.status_code == 413 and not HandEntry.objects.exists()


def test_a_csv_cell_with_nul_is_a_row_error(tournament, organizer, client):
    client.force_login(organizer)
    text = "dupla,jogador 1,jogador 2\nZap,Ana\x00,Bia\nCopas,Caio,Duda\n"
    response = client.post(f"/api/tournaments/{tournament.slug}/pairs/import/",
                           {"file": _upload(text), "mode": "valid_rows"})
    assert response.status_code in (200, 201, 400), response.content
    body = response.json()
    assert any("NUL" in e["message"] for e in body["errors"])
    assert not Pair.objects.filter(name="Zap").exists()


def test_a_csv_beyond_the_row_limit_is_refused_whole_in_either_mode(tournament, organizer):
    from tournaments import csv_import

    text = "dupla,jogador 1,jogador 2\n" + "".join(f"P{n},A{n},B{n}\n" for n in range(csv_import.MAX_ROWS + 3))
    report = csv_import.import_pairs(tournament, text, organizer, mode="valid_rows")
    assert not report.created and "5,000" in report.errors[-1].message and "not imported" in report.errors[-1].message
    assert not Pair.objects.filter(name="P1").exists()


def _upload(text: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("pairs.csv", text.encode(), content_type="text/csv")


def test_non_numeric_ids_get_a_json_404(client):
    for url in ("/api/scoring/matches/abc/", "/api/referee/rulings/x/", "/api/tournaments/t/pairs/y/", "/api/nope"):
        response = client.get(url)
        assert response.status_code == 404 and error_of(response)["message"]


def test_a_withdrawal_reason_at_the_limit_fits_the_walkover(match, organizer, client, pairs, tournament):
    """Found by schemathesis: 300 characters of reason plus the walkover's prefix overflowed its column."""
    client.force_login(organizer)
    response = client.post(f"/api/tournaments/{tournament.slug}/pairs/{pairs[0].pk}/withdraw/",
                           {"reason": "0" * 300}, content_type="application/json")
    assert response.status_code == 200, response.content
    from tournaments.models import Result

    assert len(Result.objects.get(match=match).reason) <= 300


def test_nul_in_a_header_is_refused_before_anything_is_stored(match, referee, client):
    """Found by schemathesis on PostgreSQL: an Idempotency-Key with a NUL broke the request's transaction."""
    from tables.models import IdempotencyRecord

    client.force_login(referee)
    response = client.post(f"/api/scoring/matches/{match.pk}/hands/", {"winner": 0, "value": 1},
                           content_type="application/json", HTTP_IDEMPOTENCY_KEY="a\x00b")
    assert response.status_code == 400 and error_of(response)["field"] == "Idempotency-Key"
    assert not HandEntry.objects.exists() and not IdempotencyRecord.objects.exists()
