"""The súmula entry page's in-place screen: its state endpoint, the data the page carries for
its script, the script itself, and the hands API as the page uses it (the session with its CSRF token, an
Idempotency-Key, the expected position), at the table link's cost."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import HandEntry

from .sumula_setup import *  # noqa: F401,F403
from tests.tables.test_table_links import statements


def state_url(pk: int) -> str:
    return reverse("scoring:state", kwargs={"pk": pk})


def boot_of(html: str) -> dict:
    found = re.search(r'<script id="entry-boot" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no entry screen data"
    return json.loads(found.group(1))


@pytest.fixture
def ref_client(client, referee):
    client.force_login(referee)
    return client


def test_the_state_is_for_the_referee_and_the_organizer_only(client, match, referee, organizer, outsider):
    response = client.get(state_url(match.pk))
    assert response.status_code == 401  # an expired session: the page keeps its hands and offers the login
    body = response.json()
    assert body["error"]["message"] and body["login"] == f"/entrar/?next=%2Fsumulas%2Fpartida%2F{match.pk}%2F"
    client.force_login(outsider)
    assert client.get(state_url(match.pk)).status_code == 403
    assert client.get(state_url(99999)).status_code == 404
    for user in (referee, organizer):
        client.force_login(user)
        response = client.get(state_url(match.pk))
        assert response.status_code == 200 and "no-cache" in response["Cache-Control"]


def test_the_state_says_the_hand_to_enter_and_the_last_entries_by_name(ref_client, match, referee):
    play(match, referee, 0, 1, {"winner": 0, "ended_by": "tricks", "value": 1})
    data = ref_client.get(state_url(match.pk)).json()
    state = data["state"]
    assert (state["game"], state["hand"], state["score"], state["entries"]) == (1, 4, [4, 3], 3)
    assert state["over"] is False and state["allowed"]["tricks"] == [1, 3, 6, 9, 12]
    assert [e["number"] for e in data["entries"]] == [1, 2, 3]
    assert data["entries"][-1] == {"kind": "hand", "game": 1, "position": 3, "number": 3, "winner": 0, "value": 1, "points": 1,
                                   "ended_by": "tricks", "score": [4, 3], "by": "Carla Árbitra", "by_table": False,
                                   "disputed": False}
    assert data["games_won"] == [0, 0] and data["status"] == "open"


def test_the_page_carries_the_screen_and_its_data_and_keeps_the_plain_form(ref_client, match, referee):
    play(match, referee, 0)
    html = ref_client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    boot = boot_of(html)
    assert boot["urls"]["hands"] == f"/api/scoring/matches/{match.pk}/hands/"
    assert boot["urls"]["state"] == state_url(match.pk)
    assert boot["urls"]["login"].startswith("/entrar/?next=")
    assert boot["store"] == f"sumula-{match.pk}-{referee.pk}" and boot["csrf"] and boot["csrf_cookie"]
    assert [s["name"] for s in boot["seats"]] == ["Ana Souza", "Caio Reis", "Beto Lima", "Duda Melo"]
    assert boot["initial"]["state"]["hand"] == 2 and boot["pairs"] == ["Os Zaps", "Copas"]
    assert boot["t"]["game_over"] == "Partida %(game)s: %(pair)s %(a)s × %(b)s"
    assert "sessão" in boot["t"]["expired"] and "assento" not in boot["t"]["where"]
    assert 'id="live"' in html and 'id="pts0"' in html and 'id="values"' in html  # the table page's partial
    assert 'id="hand-form"' in html and 'class="panel fallback"' in html         # and the plain form
    assert reverse("scoring:entry-script") in html
    # the hand report's reminder names who deals, as the PDF does
    assert "Caio Reis dá as cartas, placar 3–0" in html and "assento" not in html


def test_no_screen_once_the_match_is_over(ref_client, match, referee):
    play(match, referee, 0, 0, 0, 0)
    html = ref_client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert 'id="entry-boot"' not in html and 'id="live-slot"' in html and 'id="signing"' in html


def test_the_script_holds_the_shared_entry_screen(client):
    response = client.get(reverse("scoring:entry-script"))
    assert response.status_code == 200 and response["Content-Type"] == "application/javascript"
    script = response.content.decode()
    assert "function trucoEntry(B, opts)" in script and "X-CSRFToken" in script
    table = client.get(reverse("table:script")).content.decode()
    assert "function trucoEntry(B, opts)" in table  # one implementation, in both pages' scripts
    assert "{%" not in script and "{%" not in table


def _session_client(user, match) -> Client:
    """A browser as the page's script is: CSRF checked, the token from the cookie in a header."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get(reverse("scoring:match", kwargs={"pk": match.pk}))  # sets the CSRF cookie
    return browser


def _post_hand(browser, pk, body, key=None):
    headers = {"HTTP_X_CSRFTOKEN": browser.cookies["csrftoken"].value}
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return browser.post(f"/api/scoring/matches/{pk}/hands/", json.dumps(body), content_type="application/json",
                        **headers)


def test_the_page_enters_hands_with_its_session_once_per_tap(match, referee):
    browser = _session_client(referee, match)
    tap = {"winner": 0, "ended_by": "tricks", "value": 3, "game": 1, "hand": 1}
    response = browser.post(f"/api/scoring/matches/{match.pk}/hands/", json.dumps(tap),
                            content_type="application/json")
    assert response.status_code == 403 and HandEntry.objects.count() == 0  # no CSRF token: refused
    first = _post_hand(browser, match.pk, tap, key="tap-1")
    assert first.status_code == 201 and first.json()["state"]["score"] == [3, 0]
    again = _post_hand(browser, match.pk, tap, key="tap-1")  # the reply was lost: sent again
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    behind = _post_hand(browser, match.pk, tap, key="tap-2")  # a second tap of the same position
    assert behind.status_code == 409 and behind.json()["state"]["hand"] == 2
    assert HandEntry.objects.count() == 1


def test_a_hand_that_ends_a_game_says_so_for_the_message(match3, referee):
    browser = _session_client(referee, match3)
    for hand in range(1, 5):
        response = _post_hand(browser, match3.pk, {"winner": 1, "ended_by": "tricks", "value": 3, "game": 1,
                                                   "hand": hand}, key=f"k{hand}")
    over = response.json()["game_over"]
    assert over["number"] == 1 and over["winner"] == 1 and over["winner_name"] == "Copas"
    assert over["score"] == [0, 12] and response.json()["state"]["game"] == 2


@pytest.mark.django_db(transaction=True)  # as served: no test transaction around it (no savepoints)
def test_a_hand_entry_from_the_page_costs_what_the_tables_does_plus_the_session(match, referee,
                                                                                django_assert_max_num_queries):
    """The table link's entry costs 8 statements (tests/tables/test_table_links.py): its credential is 1, the entry 7. The
    page's credential is a session: 2 (the session, its user); the entry's own statements stay 7."""
    browser = _session_client(referee, match)
    _post_hand(browser, match.pk, {"winner": 0, "ended_by": "tricks", "value": 3, "game": 1, "hand": 1}, key="a")
    with django_assert_max_num_queries(11) as queries:  # 9 + BEGIN and COMMIT on SQLite
        response = _post_hand(browser, match.pk, {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1,
                                                  "hand": 2}, key="b")
    assert response.status_code == 201 and response.json()["state"]["score"] == [3, 1]
    done = statements(queries.captured_queries)
    credential = [sql for sql in done if '"django_session"' in sql or '"auth_user"' in sql]
    assert len(credential) == 2 and len(done) - len(credential) <= 7, done


def test_the_state_lists_every_entry_of_the_match(ref_client, match, referee):
    """The table page lists the whole match by game: no cap on the entries."""
    from scoring import services

    for _ in range(45):
        services.record_hand(match, {"winner": None, "ended_by": "deal_lost", "value": 0}, referee)
    data = ref_client.get(state_url(match.pk)).json()
    assert [e["position"] for e in data["entries"]] == list(range(1, 46))
