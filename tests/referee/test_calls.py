"""Calls to the referee from a table: a call shows on the referees' page until taken; a
dispute marks its entry until the referee confirms it or corrects the súmula."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from referee import calls
from referee.models import RefereeCall
from scoring import services as scoring
from tables import links as table_links
from tests.scoring.sumula_setup import *  # noqa: F401,F403


def table_api(match) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_links.ensure_links([match])[match.pk].token}")
    return api


def test_a_call_shows_on_the_referees_page_until_the_referee_closes_it(client, match, referee):
    api = table_api(match)
    response = api.post(f"/api/referee/matches/{match.pk}/calls/", {}, format="json", HTTP_IDEMPOTENCY_KEY="c1")
    assert response.status_code == 201 and response.json()["table"] == 7
    again = api.post(f"/api/referee/matches/{match.pk}/calls/", {}, format="json")  # pressed twice: one call
    assert again.json()["id"] == response.json()["id"] and RefereeCall.objects.count() == 1
    client.force_login(referee)
    page = client.get(reverse("referee:tables")).content.decode()
    assert 'data-call="%d"' % response.json()["id"] in page
    client.post(reverse("referee:answer-call", kwargs={"pk": response.json()["id"]}), {"action": "take"})
    taken = client.get(reverse("referee:tables")).content.decode()  # taken ("Estou indo"): closed with "Atendido"
    assert 'data-call="%d"' % response.json()["id"] in taken and 'name="action" value="done"' in taken
    assert 'name="action" value="take"' not in taken
    client.post(reverse("referee:answer-call", kwargs={"pk": response.json()["id"]}), {"action": "done"})
    assert 'data-call="' not in client.get(reverse("referee:tables")).content.decode()
    assert list(calls.open_calls_for(referee)) == []


def test_a_dispute_stays_until_the_referee_confirms_or_corrects(match, referee, outsider):
    scoring.record_hand(match, three(0), referee)
    api = table_api(match)
    response = api.post(f"/api/referee/matches/{match.pk}/calls/", {"kind": "dispute", "game": 1, "hand": 1},
                        format="json")
    assert response.status_code == 201
    assert api.post(f"/api/referee/matches/{match.pk}/calls/", {"kind": "dispute", "game": 1, "hand": 9},
                    format="json").status_code == 400
    state = APIClient().get(f"/mesa/{table_links.ensure_links([match])[match.pk].token}/estado/").json()
    assert state["entries"][0]["disputed"] is True
    pk = response.json()["id"]
    staff = APIClient()
    staff.force_authenticate(outsider)
    assert staff.post(f"/api/referee/calls/{pk}/take/").status_code == 403
    staff.force_authenticate(referee)
    assert staff.post(f"/api/referee/calls/{pk}/take/").status_code == 200
    assert [c.pk for c in calls.open_calls_for(referee)] == [pk]  # taken, not yet ruled
    assert table_api(match).post(f"/api/referee/calls/{pk}/resolve/", {"resolution": "confirmed"},
                                 format="json").status_code in (401, 403)
    response = staff.post(f"/api/referee/calls/{pk}/resolve/", {"resolution": "confirmed"}, format="json")
    assert response.status_code == 200 and response.json()["resolution"] == "confirmed"
    assert list(calls.open_calls_for(referee)) == []
    assert calls.holds_of(match) == []


def test_a_referee_of_another_tournament_does_not_see_the_call(match, referee, organizer, pairs, tournament):
    table_api(match).post(f"/api/referee/matches/{match.pk}/calls/", {}, format="json")
    stranger = get_user_model().objects.create_user("outro-arbitro")
    assert list(calls.open_calls_for(stranger)) == []
    assert len(calls.open_calls_for(organizer)) == 1
