"""The OpenAPI schema and the answers agree, checked fast on SQLite: the schema is a
valid OpenAPI 3 document; representative refusals (a serializer's 400, 403, 404 — also for a
non-numeric id and a write to no endpoint —, 409, and the 422 of a reused ``Idempotency-Key``) are
documented for their operation and match the ``Error`` component; the paginated lists document
``limit``/``offset`` and answer what the schema says with and without them. The whole API is checked
the same way by schemathesis in CI's services pass (tests/test_api_fuzz.py)."""
from __future__ import annotations

import re

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema

from tests.tournaments import factories as f
from tests.tournaments.factories import api_client
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


@pytest.fixture
def org(db):
    return f.user("olga")


@pytest.fixture
def copa(org):
    t = f.tournament(org)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", swiss_rounds=2)
    return t


def _operation(schema, method: str, path: str) -> dict:
    """The schema's operation for a concrete path (``/api/tournaments/copa/`` → ``/api/tournaments/{slug}/``)."""
    for route, operations in schema["paths"].items():
        if re.fullmatch(re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(route)), path) and method in operations:
            return operations[method]
    raise AssertionError(f"{method.upper()} {path} is not in the schema")


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema (``null`` allowed)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _conforms(schema, response, method: str, path: str) -> dict:
    """The answer's status is documented for the operation and its JSON body validates against it."""
    documented = _operation(schema, method, path)["responses"]
    code = str(response.status_code)
    assert code in documented, f"{method.upper()} {path}: {code} not documented ({sorted(documented)})"
    assert response["Content-Type"].startswith("application/json")
    body_schema = documented[code]["content"]["application/json"]["schema"]
    jsonschema.validate(response.json(), _json_schema({**body_schema, "components": schema["components"]}))
    return response.json()


def test_the_schema_is_valid_openapi(schema):
    validate_schema(schema)  # drf-spectacular's own validation against the OpenAPI 3.0 meta-schema


def test_a_serializers_400_is_in_the_error_shape(schema, org, copa):
    path = f"/api/tournaments/{copa.slug}/pairs/"
    body = _conforms(schema, api_client(org).post(path, {"name": ""}, format="json"), "post", path)
    assert body["field"] and body["message"] == body["detail"] == body["error"]["message"]
    assert set(body["errors"]) >= {body["field"]}


def test_a_403_and_a_404_are_in_the_error_shape(schema, copa):
    path = f"/api/tournaments/{copa.slug}/rounds/generate/"
    body = _conforms(schema, api_client(f.user("mallory")).post(path, {}, format="json"), "post", path)
    assert body["message"]
    _conforms(schema, api_client().get("/api/tournaments/nowhere/"), "get", "/api/tournaments/nowhere/")
    _conforms(schema, api_client().get("/api/scoring/matches/999999/"), "get", "/api/scoring/matches/999999/")


@pytest.mark.parametrize("method", ["get", "delete", "post"])
def test_a_non_numeric_id_is_a_json_404_for_any_method(method):
    """Not a page's HTML (a write to no endpoint is not a CSRF failure either)."""
    response = getattr(Client(enforce_csrf_checks=True), method)("/api/tournaments/copa/check-ins/null,null/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert {"field", "message", "detail", "error"} <= set(response.json())


def test_a_409_is_in_the_error_shape(schema, org, copa):
    path = f"/api/tournaments/{copa.slug}/rounds/next/"
    body = _conforms(schema, api_client(org).post(path), "post", path)
    assert body["message"]


def test_a_reused_idempotency_key_is_a_documented_422(schema, org, copa):
    path = "/api/scoring/matches/"
    operation = _operation(schema, "post", path)
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in operation["parameters"])
    c = api_client(org)
    refused = c.post(path, {"pair_a": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    _conforms(schema, refused, "post", path)  # a refusal is not kept: the key is free again
    a, b = copa.pairs.all()[:2]
    first = c.post(path, {"pair_a": a.pk, "pair_b": b.pk, "tournament": copa.slug}, format="json",
                   HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201, first.json()
    _conforms(schema, first, "post", path)
    again = c.post(path, {"pair_a": b.pk, "pair_b": a.pk, "tournament": copa.slug}, format="json",
                   HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 422
    assert _conforms(schema, again, "post", path)["field"] == "Idempotency-Key"


def test_the_api_s_own_refusals_are_in_the_error_shape(schema, org):
    """The hand validator's and the exports' refusals (they used to answer ``{"detail"}`` or ``{"field","message"}``)."""
    c = api_client(org)
    referee = f.operator("rita")
    path = "/api/referee/hands/validate/"
    body = _conforms(schema, api_client(referee).post(path, [], format="json"), "post", path)
    assert body["field"] == "" and body["detail"] == body["message"]
    t = f.tournament(org, "liga")
    path = f"/api/tournaments/{t.slug}/exports/rounds/9/pairings/"
    assert _conforms(schema, c.get(path), "get", path)["field"] == "round"
    csv = c.get(path + "?format=csv")
    documented = _operation(schema, "get", path)["responses"]["404"]["content"]
    assert csv.status_code == 404 and "text/csv" in documented and csv.content.decode().splitlines()[1].startswith("round,")


def test_lists_document_limit_and_answer_an_array_or_a_page(schema, org, copa):
    path = f"/api/tournaments/{copa.slug}/pairs/"
    operation = _operation(schema, "get", path)
    assert {"limit", "offset"} <= {p["name"] for p in operation["parameters"]}
    whole = _conforms(schema, api_client().get(path), "get", path)
    assert isinstance(whole, list) and len(whole) == 4
    page = _conforms(schema, api_client().get(path + "?limit=3&offset=1"), "get", path)
    assert page["count"] == 4 and len(page["results"]) == 3 and page["previous"] and page["next"] is None
    stages = f"/api/tournaments/{copa.slug}/stages/"
    assert _conforms(schema, api_client().get(stages + "?limit=1"), "get", stages)["count"] == 1


def test_writes_answering_lists_are_not_documented_as_paginated(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method != "get":
                names = {p["name"] for p in operation.get("parameters", [])}
                assert not names & {"limit", "offset"}, (method, path)


def test_a_form_body_with_an_idempotency_key_is_not_a_server_error(org, copa):
    """Found by the fuzzing once the header was documented: the CSRF check read a multipart stream that
    the key's hash then could not read (a 500)."""
    from scoring import services as scoring

    match = scoring.create_match(pair_a=copa.pairs.first(), pair_b=copa.pairs.last(), tournament=copa, by=org)
    c = Client(enforce_csrf_checks=True)
    c.force_login(org)
    c.cookies["csrftoken"] = "idemcsrftokenidemcsrftokenidemcs"
    for _ in range(2):  # a refusal is not kept: the retry is heard again, and refused again
        response = c.post(f"/api/scoring/matches/{match.pk}/pin-unlock/", {"player": "0"},
                          HTTP_IDEMPOTENCY_KEY="form-1", HTTP_X_CSRFTOKEN="idemcsrftokenidemcsrftokenidemcs")
        assert response.status_code in (400, 403) and response["Content-Type"].startswith("application/json")
    assert "Idempotent-Replayed" not in response


def test_public_reads_say_their_credential_is_optional_and_the_rest_require_one(schema):
    """A read an anonymous caller gets declares ``{}`` among its security (schemathesis's ``ignored_auth``
    found 19 public reads declaring a credential they do not ask for); an organizer's write does not."""
    assert {} in _operation(schema, "get", "/api/tournaments/copa/pairs/")["security"]
    assert {} in _operation(schema, "get", "/api/tournaments/copa/")["security"]
    assert {} not in _operation(schema, "post", "/api/tournaments/copa/pairs/")["security"]
    assert {} not in _operation(schema, "get", "/api/tournaments/copa/room/")["security"]  # the organizer's


def test_request_bodies_are_json_and_say_what_the_api_refuses(schema, org, copa):
    """Schema-valid bodies were refused: forms (which cannot carry the nested bodies) documented beside JSON,
    read-only fields and blank texts allowed in the request's schema. A request body has its own component
    (no read-only fields), a text refused blank says ``minLength: 1`` and a non-space character."""
    operation = _operation(schema, "post", "/api/tournaments/copa/pairs/")
    assert list(operation["requestBody"]["content"]) == ["application/json"]
    upload = _operation(schema, "post", "/api/tournaments/copa/pairs/import/")
    assert list(upload["requestBody"]["content"]) == ["multipart/form-data"]  # a file: the one form
    club = schema["components"]["schemas"]["ClubRequest"]
    assert "id" not in club["properties"] and club["properties"]["name"]["minLength"] == 1
    assert club["properties"]["name"]["pattern"] == r"\S"
    path = "/api/people/clubs/"
    refused = api_client(org).post(path, {"name": "   "}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "name"
    assert not re.search(club["properties"]["name"]["pattern"], "   ")  # the schema refuses it too


def test_a_method_a_path_has_not_is_a_405_even_with_an_idempotency_key(org, copa):
    """The key was claimed before the method was checked: a PUT to a POST-only path answered 422."""
    c = api_client(org)
    a, b = copa.pairs.all()[:2]
    made = c.post("/api/scoring/matches/", {"pair_a": a.pk, "pair_b": b.pk, "tournament": copa.slug}, format="json",
                  HTTP_IDEMPOTENCY_KEY="k-9")
    assert made.status_code == 201
    undo = f"/api/scoring/matches/{made.json()['id']}/undo/"
    for _ in range(2):
        assert c.put(undo, {"game": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k-9").status_code == 405


def test_request_bodies_document_the_bounds_the_services_enforce(schema, org, copa):
    """Schema-valid bodies were refused: a team any integer (the services take 0 or 1), a tento any integer (1 to
    12, art. 11, 13), a rule set or hand report documented as any JSON (null refused), tiebreaks repeatable, a
    tournament's status any text, a club's city a number. The schema now says each rule, and the API keeps it."""
    components = schema["components"]["schemas"]
    for name, field, low, high in [("PenaltyRequest", "offender", 0, 1), ("PenaltyRequest", "points", 0, 12),
                                   ("CodeRequestRequest", "team", 0, 1), ("AppealRequestRequest", "team", 0, 1),
                                   ("ProposeRequest", "claimant_team", 0, 1), ("ProposeRequest", "offender_seat", 0, 3),
                                   ("DecideRequest", "beneficiary", 0, 1)]:
        bounds = components[name]["properties"][field]
        assert (bounds["minimum"], bounds["maximum"]) == (low, high), (name, field)
    for name, field in [("HandRequest", "report"), ("MatchCreateRequest", "rule_set"),
                        ("TournamentWriteRequest", "rule_set")]:
        prop = components[name]["properties"][field]
        assert prop["type"] == "object" and not prop.get("nullable"), (name, field)
    tiebreaks = components["StageWriteRequest"]["properties"]["tiebreaks"]
    assert tiebreaks["minItems"] == 1 and tiebreaks["uniqueItems"] is True
    assert components["TournamentWriteStatusEnum"]["enum"] == ["draft", "registration"]
    c = api_client(org)
    path = f"/api/tournaments/{copa.slug}/stage/"
    refused = c.patch(path, {"tiebreaks": ["matches_won", "matches_won"]}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "tiebreaks"
    _conforms(schema, refused, "patch", path)
    path = f"/api/tournaments/{copa.slug}/"
    for body in ({"rule_set": None}, {"rule_set": []}, {"status": "running"}, {"best_of": 2}):
        refused = c.patch(path, body, format="json")
        assert refused.status_code == 400 and refused.json()["field"] == next(iter(body)), body
    refused = c.post("/api/people/clubs/", {"name": "Clube", "city": 0}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "city"
    assert c.post("/api/people/clubs/", {"name": "Clube", "city": "Lages"}, format="json").status_code == 201
    again = c.post("/api/people/clubs/", {"name": "clube", "city": "Lages"}, format="json")
    assert again.status_code == 409 and again.json()["field"] == "name"  # documented: 409, not the validator's 400
