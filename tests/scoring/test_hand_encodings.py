"""A hand's body is refused in UTF-16 or with a byte order mark exactly as every other API write refuses
it (the table's hand path once accepted them): 400, naming JSON, nothing recorded."""
from __future__ import annotations

import json

import pytest

from scoring.models import HandEntry

from .sumula_setup import *  # noqa: F401,F403
from tests.tables.test_table_links import table_client

BODY = {"winner": 0, "ended_by": "tricks", "value": 3, "game": 1, "hand": 1}
ENCODINGS = {"utf-16": json.dumps(BODY).encode("utf-16"), "utf-16-le": json.dumps(BODY).encode("utf-16-le"),
             "utf-8 with BOM": b"\xef\xbb\xbf" + json.dumps(BODY).encode()}


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_a_hand_in_another_encoding_is_refused_like_the_api_refuses_it(match, link, name):
    api = table_client(link)
    body = ENCODINGS[name]
    hand = api.post(f"/api/scoring/matches/{match.pk}/hands/", body, content_type="application/json")
    other = api.post(f"/api/referee/matches/{match.pk}/calls/", body, content_type="application/json")
    assert hand.status_code == 400, (name, hand.content)
    assert other.status_code == 400, (name, other.content)
    assert "JSON" in hand.json()["error"]["message"] and "JSON" in other.json()["error"]["message"]
    assert not HandEntry.objects.exists()
    plain = api.post(f"/api/scoring/matches/{match.pk}/hands/", json.dumps(BODY).encode(),
                     content_type="application/json")
    assert plain.status_code == 201, plain.content


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_the_table_pages_pin_change_refuses_them_too(match, link, client, name):
    player = match.pair_a.first_player
    text = json.dumps({"player": player.pk, "current": PINS[player.name], "new": "975310"})
    body = {"utf-16": text.encode("utf-16"), "utf-16-le": text.encode("utf-16-le"),
            "utf-8 with BOM": b"\xef\xbb\xbf" + text.encode()}[name]
    response = client.post(f"/mesa/{link.token}/pin/", body, content_type="application/json")
    assert response.status_code == 400, (name, response.content)
    player.refresh_from_db()
    assert player.check_pin(PINS[player.name])
