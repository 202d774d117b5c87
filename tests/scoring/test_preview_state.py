"""The engine's preview in the entry screen's state (scoring.entry_screen, referee.engine.preview): sent with its key,
not sent again to a page that holds it (a poll of a table is ~24 kB lighter), and carrying what the room's
end-of-time procedure decides past the limit (``higher_score``, ``one_more_hand``; art. 26 leaves the time to the
organizer: docs/room.md), so that a hand queued offline shows the match over where the server ends it."""
from __future__ import annotations

import gzip
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Match

from .sumula_setup import *  # noqa: F401,F403


def _sizes(response) -> tuple[int, int]:
    """(bytes of JSON, bytes gzipped as the site sends them)."""
    return len(response.content), len(gzip.compress(response.content))


def test_a_table_poll_sends_the_preview_only_when_the_page_lacks_it(match, link):
    table = Client()
    url = f"/mesa/{link.token}/estado/"
    first = table.get(url)
    data = first.json()
    key = data["preview_key"]
    assert data["preview"]["key"] == key and data["preview"]["hands"]
    again = table.get(url, {"preview": key})
    assert "preview" not in again.json() and again.json()["preview_key"] == key
    assert table.get(url, {"preview": "old"}).json()["preview"]["key"] == key   # another key: sent whole
    full, light = _sizes(first), _sizes(again)
    assert light[0] < full[0] - 20_000 and light[1] < full[1] - 2_000, (full, light)


def test_the_sumula_state_sends_the_preview_only_when_the_page_lacks_it(client, match, referee):
    client.force_login(referee)
    url = reverse("scoring:state", kwargs={"pk": match.pk})
    key = client.get(url).json()["preview_key"]
    assert "preview" not in client.get(url, {"preview": key}).json()


@pytest.mark.parametrize("procedure, needed", [("higher_score", 1), ("one_more_hand", 2)])
def test_past_the_limit_the_preview_carries_the_procedure_and_the_hands_left(match, link, referee, procedure, needed):
    from scoring import services

    table, url = Client(), f"/mesa/{link.token}/estado/"
    assert "time_up" not in table.get(url).json()["preview"]   # no procedure on the match
    limit = timezone.now() + timedelta(minutes=30)
    Match.objects.filter(pk=match.pk).update(end_of_time=procedure, time_up_at=limit)
    before = table.get(url).json()["preview"]
    assert before["time_up"]["hands"] == needed and before["time_up"]["at"] == int(limit.timestamp() * 1000)
    Match.objects.filter(pk=match.pk).update(time_up_at=timezone.now() - timedelta(minutes=1))
    up = table.get(url).json()["preview"]
    assert up["time_up"]["hands"] == needed and up["key"] != before["key"]
    assert up["time_up"]["games"] == {"0-0": "score"} and up["time_up"]["score"][3][1] == [0, 0]
    match.refresh_from_db()
    # a hand that scores nothing keeps the games and the game level: the tie rule, play goes on
    services.record_hand(match, {"winner": None, "ended_by": "all_tied", "value": 0}, referee)  # art. 11.4
    after = table.get(url).json()
    assert after["state"]["over"] is False
    assert after["preview"]["time_up"]["hands"] == needed - 1 and after["preview_key"] != up["key"]
