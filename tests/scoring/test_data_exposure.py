"""Data that is not everyone's: while a match is played the public reads only what was shown at the
table (no deal); the tables and matches APIs show names, never logins."""
from __future__ import annotations

import json
from pathlib import Path

from rest_framework.test import APIClient

from scoring import services
from tests.tournaments import factories as f
from tournaments import services as tournaments

from .sumula_setup import *  # noqa: F401,F403

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_the_public_never_sees_the_deal_of_a_match_in_progress(match, referee, organizer):
    report = json.loads((EXAMPLES / "01-plain-hand.json").read_text())
    report["score"] = [0, 0]
    services.record_hand(match, {"report": report}, referee)
    public = APIClient().get(f"/api/scoring/matches/{match.pk}/").json()
    hand = public["document"]["games"][0]["entries"][0]
    assert "deal" not in hand["report"] and hand["report"]["deal_hidden"] and hand["report"]["events"]
    assert "deal" not in json.dumps(public["document"]).replace("deal_hidden", "").replace('"dealer"', "")
    for user in (referee, organizer):
        client = APIClient()
        client.force_authenticate(user)
        whole = client.get(f"/api/scoring/matches/{match.pk}/").json()["document"]
        assert whole["games"][0]["entries"][0]["report"]["deal"] == report["deal"]


def test_tables_and_matches_show_names_not_logins(match, organizer, referee, tournament):
    f.referee_of(tournament, referee)
    tournaments.assign_referee(tournament, organizer, table=7, referee=referee)
    for body in (APIClient().get(f"/api/tournaments/{tournament.slug}/tables/").json(),
                 APIClient().get(f"/api/tournaments/{tournament.slug}/matches/").json()):
        text = json.dumps(body)
        assert "arbitra" not in text and "organizador" not in text and "Carla" in text
    client = APIClient()
    client.force_authenticate(organizer)
    assert client.get(f"/api/tournaments/{tournament.slug}/tables/").json()[0]["referee_username"] == "arbitra"
