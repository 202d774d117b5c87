"""Groups then knockout: the third-place match (art. 11.4) and the matches for places 5 to 8 are the
knockout's options. Set after the event was created (the API's ``stage/``, the Format panel), they
change the knockout stage, and the bracket drawn from the groups has them."""
from __future__ import annotations

import pytest

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.factories import api_client
from tournaments import services
from tournaments.models import BracketNode, Stage, Tournament

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def knockout(t: Tournament) -> Stage:
    return Stage.objects.get(tournament=t, position=2)


def test_the_api_sets_third_place_and_places_5_to_8_on_the_knockout():
    org = pf.organizer()
    t = f.tournament(org)
    f.pairs(t, 16)
    c = api_client(org)
    made = c.put(f"{API}stage/", {"format": "groups_knockout", "group_count": 4, "qualifiers_per_group": 2},
                 format="json")
    assert made.status_code == 200
    assert (knockout(t).third_place, knockout(t).classification) == (False, False)
    changed = c.put(f"{API}stage/", {"third_place": True, "classification": True}, format="json")
    assert changed.status_code == 200, changed.json()
    assert (knockout(t).third_place, knockout(t).classification) == (True, True)
    assert changed.json()["third_place"] is True and changed.json()["classification"] is True
    services.generate_first_round(t, org)
    pf.play_all(t, org, next_rounds=True)
    codes = set(BracketNode.objects.filter(stage=knockout(t)).values_list("code", flat=True))
    assert {"3P", "5S-1", "5S-2", "5P", "7P"} <= codes


def test_the_format_panel_sets_them_on_the_knockout(client):
    org = pf.logged_in_organizer(client)
    t = f.tournament(org)
    f.pairs(t, 8)
    services.configure_stage(t, org, format="groups_knockout", group_count=2, qualifiers_per_group=2)
    panel = {"format": "round_robin", "seeding": "order", "third_place": "on", "group_count": 2,
             "qualifiers_per_group": 2, "tiebreaks": ["matches_won", "head_to_head", "point_difference",
                                                      "points_scored"], "swiss_order": "fold", "legs": 1}
    response = client.post(f"/torneios/{t.slug}/painel/formato/", panel)
    assert response.status_code in (200, 302), response.content.decode()[:500]
    assert knockout(t).third_place is True
    assert Stage.objects.get(tournament=t, position=1).format == Stage.Format.ROUND_ROBIN
    panel.pop("third_place")
    client.post(f"/torneios/{t.slug}/painel/formato/", panel)
    assert knockout(t).third_place is False

