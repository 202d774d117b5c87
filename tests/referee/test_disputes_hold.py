"""A dispute holds the súmula: while a pair disputes an entry, no pair signs, the referee
does not countersign and the organizer does not receive it (409, field ``dispute``, art. 25); the
referee's súmula page shows it first; the referee settles it (entry confirmed, or corrected after a
correction or an undo), both recorded in the audit trail and shown at the table."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from referee import calls
from referee.models import RefereeCall
from scoring import holds, services as scoring
from tables import links as table_links
from scoring.models import Match, MatchEvent
from tests.scoring.sumula_setup import *  # noqa: F401,F403


def table_api(match) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_links.ensure_links([match])[match.pk].token}")
    return api


def table_state(match) -> dict:
    return APIClient().get(f"/mesa/{table_links.ensure_links([match])[match.pk].token}/estado/").json()


def sign_team0(api, match):
    return api.post(f"/api/scoring/matches/{match.pk}/signatures/",
                    {"role": "team0", "player": match.pair_a.first_player_id, "pin": PINS["Ana Souza"]}, format="json")


@pytest.fixture
def decided(match, referee):
    play(match, referee, 0, 1, 0, 0, 0)  # 12-3: the match is over, version 1 to sign
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def disputed(decided):
    response = table_api(decided).post(f"/api/referee/matches/{decided.pk}/calls/",
                                       {"kind": "dispute", "game": 1, "hand": 2, "team": 1,
                                        "reason": "Foi truco, não seis"}, format="json")
    assert response.status_code == 201
    return RefereeCall.objects.get(pk=response.json()["id"])


def test_an_open_dispute_refuses_the_signatures_naming_it(decided, disputed):
    event = MatchEvent.objects.get(match=decided, kind="dispute")
    assert event.data["game"] == 1 and event.data["hand"] == 2 and event.data["via"].startswith("table:")
    response = sign_team0(table_api(decided), decided)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["field"] == "dispute" and "art. 25" in error["message"] and "2" in error["message"]
    assert not MatchEvent.objects.filter(match=decided, kind="signature").exists()
    state = table_state(decided)
    assert state["signing"]["signable"] is False
    assert [(h["game"], h["hand"]) for h in state["signing"]["held"]] == [(1, 2)]
    assert "art. 25" in state["signing"]["held"][0]["message"]
    assert state["disputes"] == [{**state["disputes"][0], "game": 1, "hand": 2, "team": 1, "open": True,
                                  "resolution": None, "reason": "Foi truco, não seis"}]
    assert [e["disputed"] for e in state["entries"] if e["kind"] == "hand"] == [False, True, False, False, False]


def test_the_referees_sumula_page_shows_the_dispute_first_and_settles_it(client, decided, disputed, referee):
    client.force_login(referee)
    page_url = reverse("scoring:match", kwargs={"pk": decided.pk})
    html = client.get(page_url).content.decode()
    assert 'id="holds"' in html and html.index('id="holds"') < html.index('id="signing"')
    assert f'data-dispute="{disputed.pk}"' in html
    answer = reverse("referee:answer-call", kwargs={"pk": disputed.pk})
    assert f'action="{answer}"' in html
    # "corrected" without a correction nor an undo since the dispute: refused, still open
    client.post(answer, {"action": "corrected", "next": page_url})
    assert holds.open_holds(decided)
    response = client.post(answer, {"action": "confirmed", "next": page_url})
    assert response.status_code == 302 and response["Location"] == page_url
    assert holds.open_holds(decided) == []
    resolved = MatchEvent.objects.get(match=decided, kind="dispute_resolved")
    assert resolved.by == referee and resolved.data["resolution"] == "confirmed" and resolved.data["hand"] == 2
    assert 'id="holds"' not in client.get(page_url).content.decode()
    state = table_state(decided)
    assert state["disputes"][0]["open"] is False and state["disputes"][0]["resolution"] == "confirmed"
    assert state["signing"]["signable"] is True and state["signing"]["held"] == []
    assert sign_team0(table_api(decided), decided).status_code == 201


def test_corrected_is_accepted_after_the_entry_was_undone(match, referee):
    play(match, referee, 0, 1)
    made = calls.call(match, referee, kind="dispute", game=1, hand=2)
    with pytest.raises(scoring.ScoringError) as refused:
        calls.resolve(made, referee, "corrected")
    assert refused.value.field == "resolution"
    scoring.undo_last(match, referee, last=(1, 2))
    calls.resolve(made, referee, "corrected")
    assert MatchEvent.objects.get(kind="dispute_resolved").data["resolution"] == "corrected"


def test_countersign_and_receipt_wait_for_the_dispute(decided, disputed, referee, organizer):
    # a dispute left open from before the hold existed: both pairs signed, then the súmula waits
    RefereeCall.objects.filter(pk=disputed.pk).update(resolved_at=disputed.created_at, resolution="confirmed")
    scoring.sign(decided, "team0", decided.pair_a.first_player, pin=PINS["Ana Souza"])
    scoring.sign(decided, "team1", decided.pair_b.first_player, pin=PINS["Caio Reis"])
    RefereeCall.objects.filter(pk=disputed.pk).update(resolved_at=None, resolution="")
    with pytest.raises(scoring.ScoringError) as refused:
        scoring.countersign(decided, referee)
    assert refused.value.status == 409 and refused.value.field == "dispute"
    with pytest.raises(scoring.ScoringError) as refused:
        scoring.mark_received(decided, organizer)
    assert refused.value.status == 409 and refused.value.field == "dispute"
    calls.resolve(disputed, referee, "confirmed")
    scoring.countersign(decided, referee)
    assert scoring.mark_received(decided, organizer).status == Match.Status.RECEIVED


def test_the_organizer_page_offers_no_receipt_while_held(client, decided, disputed, referee, organizer):
    RefereeCall.objects.filter(pk=disputed.pk).update(resolved_at=disputed.created_at, resolution="confirmed")
    scoring.sign(decided, "team0", decided.pair_a.first_player, pin=PINS["Ana Souza"])
    scoring.sign(decided, "team1", decided.pair_b.first_player, pin=PINS["Caio Reis"])
    scoring.countersign(decided, referee)
    RefereeCall.objects.filter(pk=disputed.pk).update(resolved_at=None, resolution="")
    client.force_login(organizer)
    html = client.get(reverse("scoring:match", kwargs={"pk": decided.pk})).content.decode()
    assert 'id="holds"' in html and reverse("scoring:receive", kwargs={"pk": decided.pk}) not in html
    client.post(reverse("scoring:receive", kwargs={"pk": decided.pk}))
    assert Match.objects.get(pk=decided.pk).status == Match.Status.SIGNED
