"""The stage pages: the public list of stages (/torneios/<slug>/fases/) and the organizer's stage
panel (add a stage, start the next one with the rule's qualifiers or his own, with a reason)."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import services
from tournaments.models import AuditEntry, Pair, Stage

pytestmark = pytest.mark.django_db


def groups_then_knockout(org, slug="copa", pairs=8):
    t = pf.tournament(org, slug, pairs=pairs, format="groups_knockout", group_count=2, qualifiers_per_group=2)
    while True:
        matches = pf.open_matches(t)
        if not matches:
            break
        for m in matches:
            pf.decide(m, org)
        if Stage.objects.get(tournament=t, position=1).started_at and services.stage_state(
                Stage.objects.get(tournament=t, position=1)) == "complete":
            break
        services.generate_next_round(t, org)
    return t


def test_public_stages_page_lists_each_stage_with_its_state_and_standings(client):
    org = pf.organizer()
    t = groups_then_knockout(org)
    html = client.get(url("stages", t)).content.decode()
    assert 'data-testid="stage-1"' in html and 'data-testid="stage-2"' in html
    assert 'data-testid="stage-standings-1"' in html and 'data-testid="stage-standings-2"' not in html
    assert "Fases" in html  # the site speaks Portuguese
    services.generate_next_round(t, org)  # the knockout starts
    html = client.get(url("stages", t)).content.decode()
    assert 'data-testid="stage-standings-2"' in html
    assert url("stages", t) in client.get(url("standings", t)).content.decode()  # in the navigation


def test_stages_page_queries_do_not_grow_with_pairs(client):
    counts = {}
    for pairs in (8, 24):
        org = pf.organizer(f"org{pairs}")
        t = groups_then_knockout(org, f"copa-{pairs}", pairs)
        services.generate_next_round(t, org)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("stages", t)).status_code == 200
        counts[pairs] = len(queries)
    assert counts[8] == counts[24], counts


def test_organizer_adds_a_stage_and_starts_it_with_his_own_qualifiers(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=6, format="swiss", swiss_rounds=1)
    response = client.post(url("stage-add", t), {"name": "Final four", "format": "single_elimination",
                                                 "qualification": "overall", "qualifiers": 4,
                                                 "qualifiers_per_group": 2, "qualify_from": 1, "group_count": 1,
                                                 "final_best_of": 3})
    assert response.status_code == 302 and response["Location"].endswith("#stages")
    stage = Stage.objects.get(tournament=t, position=2)
    assert (stage.name, stage.qualifiers, stage.round_best_of) == ("Final four", 4, {"-1": 3})
    for m in pf.open_matches(t):
        pf.decide(m, org)
    html = client.get(url("dashboard", t)).content.decode()
    assert 'data-testid="start-stage"' in html and 'data-testid="stage-row-2"' in html
    ids = list(Pair.objects.filter(tournament=t).order_by("name").values_list("pk", flat=True))
    proposal = services.stage_qualifiers(stage).order
    # no reason: refused, nothing started
    response = client.post(url("stage-start", t), {"qualifiers": [str(p) for p in ids[:4]]}, follow=True)
    assert Stage.objects.get(pk=stage.pk).started_at is None
    response = client.post(url("stage-start", t), {"qualifiers": [str(p) for p in ids[:4]], "reason": "Conferido"})
    assert response.status_code == 302
    stage.refresh_from_db()
    assert stage.entrants == ids[:4] and stage.entrants_adjusted == (ids[:4] != proposal)
    assert AuditEntry.objects.filter(action="qualifiers_adjusted", reason="Conferido").exists()


def test_only_the_organizer_posts_to_the_stage_panel(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss", swiss_rounds=1)
    client.force_login(f.user("someone"))
    assert client.post(url("stage-add", t), {"format": "single_elimination"}).status_code == 403
    assert client.post(url("stage-start", t), {}).status_code == 403


def test_stages_page_answers_conditional_requests(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss", swiss_rounds=1)
    first = client.get(url("stages", t))
    assert first.status_code == 200 and first.has_header("ETag")
    assert client.get(url("stages", t), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    services.add_stage(t, org, format="single_elimination", qualifiers=2)
    again = client.get(url("stages", t), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and 'data-testid="stage-2"' in again.content.decode()
