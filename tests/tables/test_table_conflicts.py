"""Conflicts between the phones of one table: an entry or undo of the table refused as stale
(409) is recorded as pending (``scoring.conflicts``), named in the 409, shown in the table page's state
(the other phone sees it) and in the referees' list of tables, until the phone that sent it tells its
choice or a referee settles it; both are in the audit trail. A refused hand equal to the recorded one is
no conflict, and an accepted hand writes nothing more."""
from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tables import links as table_links
from scoring.models import HandEntry, MatchEvent
from tables.models import EntryConflict
from tests.scoring.sumula_setup import *  # noqa: F401,F403


def table_api(match) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_links.ensure_links([match])[match.pk].token}")
    return api


def hand(api, match, game, number, winner=0, value=3, **headers):
    return api.post(f"/api/scoring/matches/{match.pk}/hands/",
                    {"winner": winner, "ended_by": "tricks", "value": value, "game": game, "hand": number},
                    format="json", **headers)


def state(match) -> dict:
    return APIClient().get(f"/mesa/{table_links.ensure_links([match])[match.pk].token}/estado/").json()


def settle(api, match, conflict_id, how):
    return api.post(f"/api/scoring/matches/{match.pk}/conflicts/{conflict_id}/", {"how": how}, format="json")


def test_a_stale_hand_is_a_pending_conflict_both_phones_and_the_referee_see(match, referee, client):
    phone_a, phone_b = table_api(match), table_api(match)
    assert hand(phone_a, match, 1, 1, winner=0).status_code == 201
    refused = hand(phone_b, match, 1, 1, winner=1, HTTP_IDEMPOTENCY_KEY="b-1")   # B was offline: another hand 1
    assert refused.status_code == 409
    conflict = refused.json()["conflict"]
    assert (conflict["kind"], conflict["game"], conflict["position"]) == ("hand", 1, 1)
    assert conflict["sent"] == {"winner": 1, "ended_by": "tricks", "value": 3}
    # the repeat of the refused request (its key) replays the answer: one conflict
    again = hand(phone_b, match, 1, 1, winner=1, HTTP_IDEMPOTENCY_KEY="b-1")
    assert again.status_code == 409 and again.json()["conflict"]["id"] == conflict["id"]
    assert EntryConflict.objects.count() == 1
    # the table page's state (what phone A polls) shows it pending
    assert [c["id"] for c in state(match)["conflicts"]] == [conflict["id"]]
    event = MatchEvent.objects.get(kind="entry_conflict")
    assert event.by is None and event.data["via"].startswith("table:") and event.data["conflict"] == conflict["id"]
    # the referee's list of tables that need them
    client.force_login(referee)
    page = client.get(reverse("referee:tables")).content.decode()
    assert f'data-conflict="{conflict["id"]}"' in page
    from referee import roles

    assert roles._summary(referee).calling == 1          # the header's "Minhas mesas" count includes it
    # B chooses "send mine after it": the server is told; nobody sees it any more
    assert settle(phone_b, match, conflict["id"], "after").status_code == 201
    assert state(match)["conflicts"] == []
    assert roles._summary(referee).calling == 0
    assert f'data-conflict="{conflict["id"]}"' not in client.get(reverse("referee:tables")).content.decode()
    settled = MatchEvent.objects.get(kind="conflict_settled")
    assert settled.data["how"] == "after" and settled.data["conflict"] == conflict["id"]
    assert hand(phone_b, match, 1, 2, winner=1).status_code == 201   # and B's hand goes after A's
    # told twice (a retry): nothing changes
    assert settle(phone_b, match, conflict["id"], "keep").status_code == 201
    assert EntryConflict.objects.get().settled_how == "after"
    assert MatchEvent.objects.filter(kind="conflict_settled").count() == 1


def test_the_same_hand_from_both_phones_is_no_conflict(match):
    phone_a, phone_b = table_api(match), table_api(match)
    assert hand(phone_a, match, 1, 1, winner=0).status_code == 201
    refused = hand(phone_b, match, 1, 1, winner=0)   # the same hand, queued on B: counted as recorded
    assert refused.status_code == 409 and "conflict" not in refused.json()
    assert not EntryConflict.objects.exists() and state(match)["conflicts"] == []


def test_a_referee_settles_a_conflict_from_the_list(match, referee, outsider, client):
    phone_a, phone_b = table_api(match), table_api(match)
    hand(phone_a, match, 1, 1, winner=0)
    conflict_id = hand(phone_b, match, 1, 1, winner=1).json()["conflict"]["id"]
    url = reverse("referee:settle-conflict", kwargs={"pk": conflict_id})
    client.force_login(outsider)
    client.post(url)
    assert EntryConflict.objects.get().settled_at is None    # not a referee of this tournament
    assert settle(phone_b, match, conflict_id, "referee").status_code == 403   # the table cannot say "referee"
    client.force_login(referee)
    assert client.post(url).status_code == 302
    conflict = EntryConflict.objects.get()
    assert conflict.settled_how == "referee" and conflict.settled_by == referee
    assert state(match)["conflicts"] == []
    assert MatchEvent.objects.get(kind="conflict_settled").by == referee
    # B's later choice changes nothing on the server
    assert settle(phone_b, match, conflict_id, "discard").status_code == 201
    assert EntryConflict.objects.get().settled_how == "referee"


def test_a_stale_undo_is_a_pending_conflict(match):
    phone_a, phone_b = table_api(match), table_api(match)
    hand(phone_b, match, 1, 1, winner=0)
    hand(phone_a, match, 1, 2, winner=1)
    refused = phone_b.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 1}, format="json")
    assert refused.status_code == 409
    conflict = refused.json()["conflict"]
    assert (conflict["kind"], conflict["game"], conflict["position"]) == ("undo", 1, 1)
    assert [c["kind"] for c in state(match)["conflicts"]] == ["undo"]
    assert HandEntry.objects.count() == 2
    assert settle(phone_b, match, conflict["id"], "keep").status_code == 201
    assert state(match)["conflicts"] == []


def test_another_tables_link_cannot_settle(match, match3):
    phone_a, phone_b = table_api(match), table_api(match)
    hand(phone_a, match, 1, 1, winner=0)
    conflict_id = hand(phone_b, match, 1, 1, winner=1).json()["conflict"]["id"]
    other = table_api(match3)
    assert settle(other, match, conflict_id, "keep").status_code == 403
    assert settle(other, match3, conflict_id, "keep").status_code in (400, 403)
    assert EntryConflict.objects.get().settled_at is None


def test_a_referees_stale_entry_and_an_accepted_hand_record_nothing(match, referee):
    api = APIClient()
    api.force_authenticate(referee)
    hand(table_api(match), match, 1, 1, winner=0)
    assert hand(api, match, 1, 1, winner=1).status_code == 409   # a session, not the table's phones
    assert not EntryConflict.objects.exists()
    with CaptureQueriesContext(connection) as queries:
        assert hand(table_api(match), match, 1, 2, winner=1, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    assert not any("entry_conflict" in q["sql"].lower() or "entryconflict" in q["sql"].lower()
                   for q in queries.captured_queries)
