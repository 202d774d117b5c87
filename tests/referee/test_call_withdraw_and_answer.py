"""The table withdraws its call or dispute before a referee answers (only the link that made it, idempotent), and
the table page's state shows each call's answer: waiting, or "on the way: Carla, 14:35" until it is closed."""
from __future__ import annotations

from rest_framework.test import APIClient

from referee import calls
from referee.models import RefereeCall
from scoring import services as scoring
from tables import links as table_links
from scoring.models import MatchEvent
from tests.scoring.sumula_setup import *  # noqa: F401,F403


def table_api(match) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_links.ensure_links([match])[match.pk].token}")
    return api


def _dispute(match, referee) -> int:
    scoring.record_hand(match, three(0), referee)
    response = table_api(match).post(f"/api/referee/matches/{match.pk}/calls/",
                                     {"kind": "dispute", "game": 1, "hand": 1}, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def _state(match) -> dict:
    return APIClient().get(f"/mesa/{table_links.ensure_links([match])[match.pk].token}/estado/").json()


def test_the_table_withdraws_its_dispute_before_an_answer_once_and_the_hold_goes(match, referee):
    pk = _dispute(match, referee)
    assert calls.holds_of(match) != []
    api = table_api(match)
    first = api.post(f"/api/referee/calls/{pk}/withdraw/", format="json", HTTP_IDEMPOTENCY_KEY="w1")
    assert first.status_code == 200 and first.json()["resolution"] == "withdrawn"
    again = api.post(f"/api/referee/calls/{pk}/withdraw/", format="json")      # sent twice: the same answer
    assert again.status_code == 200 and again.json()["resolution"] == "withdrawn"
    assert calls.holds_of(match) == []                                           # the súmula may be signed
    assert _state(match)["entries"][0]["disputed"] is False
    assert [d["resolution"] for d in _state(match)["disputes"]] == ["withdrawn"]
    assert MatchEvent.objects.filter(match=match, kind="dispute_resolved").count() == 1
    assert list(calls.open_calls_for(referee)) == []


def test_no_withdrawal_after_the_referee_answered(match, referee):
    pk = _dispute(match, referee)
    calls.take(RefereeCall.objects.get(pk=pk), referee)
    refused = table_api(match).post(f"/api/referee/calls/{pk}/withdraw/", format="json")
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "call"
    assert RefereeCall.objects.get(pk=pk).resolved_at is None                    # still the referee's to settle


def test_only_the_table_link_that_called_withdraws(match, other, referee, organizer):
    pk = _dispute(match, referee)
    assert table_api(other).post(f"/api/referee/calls/{pk}/withdraw/", format="json").status_code == 403
    staff = APIClient()
    staff.force_authenticate(organizer)                # a user is not the table: the referee answers instead
    assert staff.post(f"/api/referee/calls/{pk}/withdraw/", format="json").status_code == 403
    assert APIClient().post(f"/api/referee/calls/{pk}/withdraw/", format="json").status_code in (401, 403)
    assert RefereeCall.objects.get(pk=pk).resolution == ""


def test_the_table_state_shows_who_is_coming_until_the_call_is_closed(match, referee):
    api = table_api(match)
    made = api.post(f"/api/referee/matches/{match.pk}/calls/", {}, format="json").json()
    waiting = _state(match)["calls"]
    assert [(c["id"], c["referee"], c["withdrawable"]) for c in waiting] == [(made["id"], "", True)]
    calls.take(RefereeCall.objects.get(pk=made["id"]), referee)                 # "Estou indo"
    answered = _state(match)["calls"]
    assert [(c["id"], c["referee"], c["withdrawable"]) for c in answered] == [(made["id"], "Carla", False)]
    assert answered[0]["taken_at"]
    assert [c["id"] for c in _state(match)["calls"]] == [made["id"]]              # still on the way: shown
    calls.resolve(RefereeCall.objects.get(pk=made["id"]), referee, "done")      # "Atendido": closed
    assert calls.table_calls(match) == [] and _state(match)["calls"] == []


def test_a_taken_dispute_shows_until_the_referee_rules(match, referee):
    pk = _dispute(match, referee)
    calls.take(RefereeCall.objects.get(pk=pk), referee)
    assert [c["referee"] for c in calls.table_calls(match)] == ["Carla"]
    calls.resolve(RefereeCall.objects.get(pk=pk), referee, "confirmed")
    assert calls.table_calls(match) == []


def test_a_call_the_referee_made_is_not_the_tables_to_withdraw(match, referee):
    made = calls.call(match, referee)
    assert [c["withdrawable"] for c in calls.table_calls(match)] == [False]
    refused = table_api(match).post(f"/api/referee/calls/{made.pk}/withdraw/", format="json")
    assert refused.status_code == 403 and refused.json()["error"]["field"] == ""
