"""The organizer's controls through the API, as the pages allow them (events.access.manages): the public
sign-up's options, the sign-ups and their approval or refusal, the co-organizers and their invitation
links (tournaments/organizer_api.py), the room's options (room/options_api.py) and the categories
(seasons/flight_api.py); each answer as the OpenAPI schema documents it."""
from __future__ import annotations

import secrets

import pytest
from django.test import Client

from tests.test_api_schema_conformance import _conforms
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client, english  # noqa: F401 (autouse: messages in English)
from tournaments import services
from tournaments.models import AuditEntry, CoOrganizer, Pair
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


@pytest.fixture
def world():
    org, co, stranger = f.user("olga"), f.user("caio"), f.user("estranho")
    t = f.tournament(org)
    return t, org, co, stranger


def send(t, name):
    return signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name=name,
                          players=[{"name": f"Ana {name}", "contact": "+55 41 99999-0000"},
                                   {"name": f"Bia {name}", "contact": "+55 41 98888-0000"}])


def call(schema, client, method, path, data=None, expect=200):
    response = getattr(client, method)(path, data, format="json")
    assert response.status_code == expect, response.content
    if response.status_code != 204:
        _conforms(schema, response, method, path)
    return response.json() if response.status_code != 204 else None


def test_signups_options_approval_and_refusal(schema, world):
    t, org, _co, stranger = world
    owner = api_client(org)
    options = {"open": True, "pair_limit": 8, "waiting_list": True, "deadline": None, "approval_required": True}
    assert call(schema, owner, "put", API + "signups/options/", options) == options
    assert call(schema, owner, "get", API + "signups/options/") == options
    first, second = send(t, "Zap"), send(t, "Copas")  # phones only: the organizer confirms by approving
    listed = call(schema, owner, "get", API + "signups/")
    assert [s["pair_name"] for s in listed["signups"]] == ["Zap", "Copas"]
    assert {s["state"] for s in listed["signups"]} == {"confirmation"}
    assert listed["signups"][0]["players"][0]["contact"] == "+55 41 99999-0000"
    approved = call(schema, owner, "post", API + f"signups/{first.pk}/approve/")
    assert approved["state"] == "registered" and Pair.objects.filter(tournament=t, name="Zap").exists()
    call(schema, owner, "post", API + f"signups/{second.pk}/refuse/", {}, expect=400)  # a reason is required
    refused = call(schema, owner, "post", API + f"signups/{second.pk}/refuse/", {"reason": "Dupla repetida"})
    assert refused["state"] == "refused" and refused["refusal_reason"] == "Dupla repetida"
    call(schema, owner, "post", API + f"signups/{second.pk}/approve/", expect=409)
    call(schema, owner, "post", API + f"signups/{2**63}/approve/", expect=404)
    other = f.tournament(org, slug="outra")
    elsewhere = send(other, "Fora") if signup_review.configure_signup(
        other, org, open=True, pair_limit=None, waiting_list=False, deadline=None, approval_required=True) else None
    call(schema, owner, "post", API + f"signups/{elsewhere.pk}/approve/", expect=404)  # not this tournament's
    for client in (api_client(stranger), api_client()):
        call(schema, client, "get", API + "signups/", expect=403)
        call(schema, client, "get", API + "signups/options/", expect=403)
        call(schema, client, "put", API + "signups/options/", options, expect=403)
        call(schema, client, "post", API + f"signups/{second.pk}/approve/", expect=403)
    actions = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert {AuditEntry.Action.SIGNUP_CONFIGURED, AuditEntry.Action.SIGNUP_APPROVED} <= actions


def test_co_organizers_added_removed_and_invited(schema, world):
    t, org, co, stranger = world
    owner = api_client(org)
    call(schema, api_client(co), "get", API + "organizers/", expect=403)
    added = call(schema, owner, "post", API + "organizers/", {"username": "caio"}, expect=201)
    assert [r["user"]["username"] for r in added["co_organizers"]] == ["caio"]
    assert added["organizer"]["username"] == "olga"
    call(schema, owner, "post", API + "organizers/", {"username": "ninguem"}, expect=400)
    call(schema, owner, "post", API + "organizers/", {"username": "olga"}, expect=409)
    helper = api_client(co)  # a co-organizer manages as the organizer does, here too
    call(schema, helper, "get", API + "signups/options/")
    link = call(schema, helper, "post", API + "organizers/invitations/", expect=201)
    assert link["pending"] and "/organizar/" in link["url"]
    listed = call(schema, owner, "get", API + "organizers/")
    assert [i["id"] for i in listed["invitations"]] == [link["id"]] and "url" not in listed["invitations"][0]
    revoked = call(schema, owner, "post", API + f"organizers/invitations/{link['id']}/revoke/")
    assert revoked["revoked_at"] and not revoked["pending"]
    call(schema, api_client(stranger), "delete", API + f"organizers/{co.pk}/", expect=403)
    call(schema, owner, "delete", API + f"organizers/{stranger.pk}/", expect=400)  # not a co-organizer
    call(schema, owner, "delete", API + f"organizers/{co.pk}/", expect=204)
    assert not CoOrganizer.objects.filter(tournament=t).exists()
    call(schema, helper, "get", API + "organizers/", expect=403)  # no longer


def test_room_options(schema, world):
    t, org, _co, stranger = world
    owner = api_client(org)
    room = call(schema, owner, "get", API + "room/options/")
    assert room == {"ready_matches": False, "auto_call": False, "tables": None, "tolerance_first": None,
                    "tolerance_later": None, "time_limit": None, "end_of_time": ""}
    room = call(schema, owner, "patch", API + "room/options/",
                {"tables": 6, "time_limit": 40, "end_of_time": "one_more_hand", "auto_call": True})
    assert (room["tables"], room["time_limit"], room["end_of_time"], room["auto_call"]) == (6, 40, "one_more_hand", True)
    assert call(schema, owner, "patch", API + "room/options/", {"tolerance_first": 10})["tables"] == 6  # kept
    call(schema, owner, "patch", API + "room/options/", {"end_of_time": "sudden_death"}, expect=400)
    call(schema, owner, "patch", API + "room/options/", {"tables": 0}, expect=400)
    call(schema, api_client(stranger), "patch", API + "room/options/", {"tables": 2}, expect=403)
    call(schema, api_client(), "get", API + "room/options/", expect=403)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    call(schema, owner, "patch", API + "room/options/", {"ready_matches": True}, expect=409)  # after the draw


def test_categories(schema, world):
    t, org, _co, stranger = world
    pairs = f.pairs(t, 3)
    owner = api_client(org)
    made = call(schema, owner, "put", API + "categories/",
                {"categories": [{"name": "A", "min_rating": 1400}, {"name": "B"}], "by_rating": True})
    assert [(c["name"], c["min_rating"]) for c in made["categories"]] == [("A", 1400), ("B", None)]
    assert sorted(made["categories"][1]["pairs"]) == sorted(p.pk for p in pairs)  # newcomers together: 1293
    moved = call(schema, owner, "put", API + f"pairs/{pairs[0].pk}/category/", {"category": "A"})
    assert moved["categories"][0]["pairs"] == [pairs[0].pk]
    call(schema, owner, "put", API + f"pairs/{pairs[0].pk}/category/", {"category": "Z"}, expect=400)
    call(schema, owner, "put", API + "categories/", {"categories": [{"name": "A"}, {"name": "A"}]}, expect=400)
    call(schema, owner, "put", API + "categories/", {"categories": []}, expect=400)
    assert call(schema, api_client(), "get", API + "categories/") == moved  # public, as the categories' page
    call(schema, api_client(stranger), "put", API + "categories/", {"categories": [{"name": "A"}]}, expect=403)
    call(schema, api_client(stranger), "put", API + f"pairs/{pairs[0].pk}/category/", {"category": None}, expect=403)
