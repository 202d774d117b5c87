"""Tests of ``POST /api/referee/hands/validate/`` and its OpenAPI description.

They check the plumbing (status codes, one verdict per report in order, the refusals,
no session or CSRF token needed with basic auth, referees and organizers only) and the
schema, not the rules' outcomes.
"""
from __future__ import annotations

import base64
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from referee import api as api_module

URL = "/api/referee/hands/validate/"

REPORT = {
    "dealer": 3,
    "vira": "4-ouros",
    "score": [10, 7],
    "events": [{"seat": 0, "play": "3-espadas"}, {"seat": 1, "play": "K-ouros"}],
}


def basic_auth(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.fixture
def staff(db, settings):
    """A site operator: validation messages are for referees and organizers only."""
    from tests.tournaments.factories import operator

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return operator("org-validador", password="pw")


@pytest.fixture
def client(settings, staff):
    """A client that enforces CSRF (it sends no token and has no session), authenticates a staff
    user with HTTP basic auth and reads English.

    The site speaks Portuguese unless the visitor chose a language (the language
    cookie), so the assertions can use the messages' English source strings.
    """
    client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=basic_auth("org-validador", "pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def echo_engine(monkeypatch):
    monkeypatch.setattr(api_module, "check_report", lambda report: {"valid": True, "report": report})


def post(client, body, content_type="application/json"):
    """POST ``body`` as JSON; a ``bytes`` body is sent as it is."""
    data = body if isinstance(body, bytes) else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type, HTTP_ACCEPT="application/json")


def test_one_report_gets_one_verdict(client):
    response = post(client, REPORT)
    assert response.status_code == 200
    verdict = response.json()
    assert isinstance(verdict, dict)
    assert isinstance(verdict["valid"], bool)


def test_malformed_report_is_still_200(client):
    response = post(client, {"dealer": 9, "events": "nope"})
    assert response.status_code == 200
    verdict = response.json()
    assert verdict["valid"] is False
    assert set(verdict["error"]) >= {"field", "message"}


def test_list_gets_a_list_of_verdicts_in_order(client):
    response = post(client, [REPORT, 42, "x", REPORT])
    assert response.status_code == 200
    verdicts = response.json()
    assert isinstance(verdicts, list) and len(verdicts) == 4
    for bad in (verdicts[1], verdicts[2]):
        assert bad["valid"] is False and "error" in bad


def test_list_order_is_kept(client, echo_engine):
    reports = [{"n": n} for n in range(50)]
    response = post(client, reports)
    assert [v["report"] for v in response.json()] == reports


def test_body_goes_to_the_engine_untouched(client, echo_engine):
    report = {"dealer": "three", "extra": [1, {"a": None}], "vira": "mão"}
    assert post(client, report).json() == {"valid": True, "report": report}


def test_utf8_in_the_response(client, monkeypatch):
    monkeypatch.setattr(api_module, "check_report", lambda report: {"valid": False, "note": "mão de onze"})
    response = post(client, REPORT)
    assert "mão de onze".encode("utf-8") in response.content


@pytest.mark.parametrize("body", [b"not json", b"{\"dealer\": 3,", b"{\"a\": NaN}", b"[" * 100_000])
def test_body_that_is_not_json(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["detail"]


def test_body_not_sent_as_json(client):
    response = post(client, b"dealer=3", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "application/json" in response.json()["detail"]


def test_empty_body(client):
    response = post(client, b"")
    assert response.status_code == 400
    assert "empty" in response.json()["detail"]


@pytest.mark.parametrize("body", [42, "x", None, True])
def test_body_that_is_neither_object_nor_list(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert "list" in response.json()["detail"]


def test_empty_list(client):
    response = post(client, [])
    assert response.status_code == 400
    assert "empty" in response.json()["detail"]


def test_list_at_the_cap_is_accepted(client, echo_engine):
    response = post(client, [{}] * api_module.MAX_REPORTS)
    assert response.status_code == 200
    assert len(response.json()) == api_module.MAX_REPORTS


def test_list_over_the_cap(client):
    response = post(client, [REPORT] * (api_module.MAX_REPORTS + 1))
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert str(api_module.MAX_REPORTS) in detail and str(api_module.MAX_REPORTS + 1) in detail


def test_get_is_not_allowed(client):
    assert client.get(URL, HTTP_ACCEPT="application/json").status_code == 405


def test_anonymous_users_are_refused(settings):
    """Validation messages are shown to the referee only: they can reveal hidden cards."""
    anonymous = Client(enforce_csrf_checks=True)
    anonymous.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = post(anonymous, REPORT)
    assert response.status_code == 401
    assert "valid" not in response.json()


def test_a_user_who_is_no_referee_is_refused(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("jogador", password="pw")
    response = post(Client(HTTP_AUTHORIZATION=basic_auth("jogador", "pw")), REPORT)
    assert response.status_code == 403


def test_a_referee_of_a_table_and_an_organizer_may_validate_with_a_session(db):
    import datetime

    from tournaments.models import TableAssignment, Tournament

    users = get_user_model().objects
    organizer, referee_user = users.create_user("o"), users.create_user("r")
    tournament = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 11, 21), organizer=organizer)
    TableAssignment.objects.create(tournament=tournament, table=1, referee=referee_user)
    client = Client()
    client.force_login(referee_user)
    assert post(client, REPORT).status_code == 200
    client.force_login(organizer)
    assert post(client, REPORT).status_code == 200


def test_messages_are_in_portuguese_by_default(staff):
    response = post(Client(HTTP_AUTHORIZATION=basic_auth("org-validador", "pw")), b"not json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("O corpo da requisição não é JSON válido: ")


# -- OpenAPI ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schema():
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_schema_has_the_operation_with_request_and_responses(schema):
    operation = schema["paths"]["/api/referee/hands/validate/"]["post"]
    assert operation["description"]
    body = operation["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/HandReportOrListRequest")  # a request body: its own component
    assert body["examples"]
    ok = operation["responses"]["200"]["content"]["application/json"]
    assert ok["schema"]["$ref"].endswith("/VerdictOrList")
    assert ok["examples"]
    assert "400" in operation["responses"]


def test_schema_describes_the_report_and_the_verdict(schema):
    components = schema["components"]["schemas"]
    report = components["HandReportRequest"]["properties"]
    for name in ("dealer", "vira", "score", "deal", "events", "claimed"):
        assert report[name].get("description"), name
    verdict = components["Verdict"]
    assert verdict["required"] == ["valid"]
    for name in ("valid", "error", "winner", "points", "tricks", "violations", "claim_matches"):
        assert verdict["properties"][name].get("description"), name
    assert set(components["Violation"]["properties"]) >= {"code", "article", "message"}
    assert "Trick" in components
