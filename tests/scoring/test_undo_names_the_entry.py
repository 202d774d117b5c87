"""An undo names the entry it removes: ``{"game", "position"}`` as the table page's
``entries[]`` give them; anything but the súmula's last entry is refused with 409 and the current
``state``, so a phone that has not seen the other phone's hand cannot remove it. The plain form of
the súmula page sends the same, and so does every undo through ``scoring.services.undo_last``."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import services
from tables import links as table_links
from scoring.models import Game, HandEntry, MatchEvent

from .sumula_setup import *  # noqa: F401,F403


def table_api(match) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_links.ensure_links([match])[match.pk].token}")
    return api


def hand(api, match, game, number, winner=0, value=3):
    response = api.post(f"/api/scoring/matches/{match.pk}/hands/",
                        {"winner": winner, "ended_by": "tricks", "value": value, "game": game, "hand": number},
                        format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def undo(api, match, body, **headers):
    return api.post(f"/api/scoring/matches/{match.pk}/undo/", body, format="json", **headers)


def test_a_stale_phone_cannot_undo_the_other_phones_hand(match):
    phone_a, phone_b = table_api(match), table_api(match)
    hand(phone_b, match, 1, 1)                     # B enters hand 1: B's last entry is position 1
    hand(phone_a, match, 1, 2, winner=1)           # A enters hand 2; B has not refreshed
    response = undo(phone_b, match, {"game": 1, "position": 1})  # B means to undo its own hand 1
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["field"] == "position"
    assert body["state"]["game"] == 1 and body["state"]["entries"] == 2 and body["state"]["score"] == [3, 3]
    assert list(HandEntry.objects.order_by("position").values_list("winner", flat=True)) == [0, 1]  # A's hand kept
    assert not MatchEvent.objects.filter(kind="undo").exists()
    state = APIClient().get(f"/mesa/{table_links.ensure_links([match])[match.pk].token}/estado/").json()
    last = state["entries"][-1]
    assert (last["game"], last["position"]) == (1, 2)
    response = undo(phone_b, match, {"game": last["game"], "position": last["position"]})
    assert response.status_code == 201
    created = response.json()["created"]
    assert created["removed"]["game"] == 1 and created["removed"]["position"] == 2 and created["removed"]["winner"] == 1
    assert created["state"]["entries"] == 1 and created["state"]["score"] == [3, 0]
    assert list(HandEntry.objects.values_list("winner", flat=True)) == [0]


def test_an_undo_without_the_entry_is_refused_naming_the_field(match):
    api = table_api(match)
    hand(api, match, 1, 1)
    response = undo(api, match, {})
    assert response.status_code == 400
    assert response.json()["error"]["field"] in ("game", "position")
    assert undo(api, match, {"game": 1}).json()["error"]["field"] == "position"
    assert HandEntry.objects.count() == 1


def test_an_undo_sent_twice_removes_one_entry(match):
    api = table_api(match)
    hand(api, match, 1, 1)
    hand(api, match, 1, 2)
    first = undo(api, match, {"game": 1, "position": 2}, HTTP_IDEMPOTENCY_KEY="undo-1")
    again = undo(api, match, {"game": 1, "position": 2}, HTTP_IDEMPOTENCY_KEY="undo-1")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert HandEntry.objects.count() == 1
    # without the key, the repeat names an entry that is no longer the last: refused, nothing removed
    assert undo(api, match, {"game": 1, "position": 2}).status_code == 409
    assert HandEntry.objects.count() == 1


def test_the_entry_that_ended_a_game_is_named_in_that_game(match3):
    api = table_api(match3)
    for number in range(1, 5):
        answer = hand(api, match3, 1, number)
    assert answer["game_over"]["number"] == 1 and answer["game_over"]["entries"] == 4
    assert answer["state"]["game"] == 2 and answer["state"]["entries"] == 0
    assert undo(api, match3, {"game": 2, "position": 1}).status_code == 409  # game 2 has no entry yet
    response = undo(api, match3, {"game": 1, "position": answer["game_over"]["entries"]})
    assert response.status_code == 201
    assert Game.objects.filter(match=match3).count() == 1 and HandEntry.objects.count() == 3


def test_the_service_refuses_any_entry_but_the_last(match, referee):
    play(match, referee, 0, 1)
    with pytest.raises(services.ScoringError) as refused:
        services.undo_last(match, referee, last=(1, 1))
    assert refused.value.status == 409 and refused.value.field == "position" and refused.value.state["entries"] == 2
    assert services.undo_last(match, referee, last=(1, 2))["position"] == 2


def test_the_plain_form_names_the_last_entry_and_a_stale_form_removes_nothing(client, match, referee):
    client.force_login(referee)
    play(match, referee, 0)
    html = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    form = re.search(r'action="%s".*?</form>' % re.escape(reverse("scoring:undo", kwargs={"pk": match.pk})), html,
                     re.S).group(0)
    fields = dict(re.findall(r'name="(expect|game|position)" value="([^"]+)"', form))
    assert fields == {"expect": "1:1", "game": "1", "position": "1"}
    play(match, referee, 1)  # another device enters hand 2 meanwhile
    stale = {"game": "1", "position": "1"}  # the old page's entry, without its token
    response = client.post(reverse("scoring:undo", kwargs={"pk": match.pk}), stale, follow=True)
    assert HandEntry.objects.count() == 2
    assert "not the last entry" in response.content.decode() or "não é o último" in response.content.decode()
    client.post(reverse("scoring:undo", kwargs={"pk": match.pk}), {"game": "1", "position": "2"})
    assert HandEntry.objects.count() == 1
