"""The hot path (scoring/hot_entry.py, issue 10 §4): the plain next hand, by a table or by the súmula
page of the referee, on PostgreSQL in three statements, and every other request left to the API view,
so that the answers and the rows are the same either way (the same checks: art. 11, 13, 18-20 by the
engine, art. 25 for a locked súmula, the expected position)."""
from __future__ import annotations

import os
import threading
import uuid
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st
from rest_framework.test import APIClient

from scoring import hot_entry, services, table_links
from scoring.models import Game, HandEntry, IdempotencyRecord, Match, MatchEvent

from .sumula_setup import *  # noqa: F401,F403

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
postgres_only = pytest.mark.skipif(not ON_POSTGRES, reason="the hot path is PostgreSQL's (DATABASE_URL)")
HOT = "WITH claim AS"


CSRF = "k" * 32  # a CSRF secret: the cookie and the header the súmula page sends


def new_match(pairs, organizer, tournament, table=1, best_of=1, referee=None):
    match = services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, table=table,
                                  best_of=best_of, referee=referee, by=organizer)
    return match, table_links.ensure_links([match])[match.pk]


def client(link, user=None) -> APIClient:
    """The table (its link) or, with ``user``, the súmula page (a session, CSRF checked)."""
    api = APIClient(enforce_csrf_checks=True)
    if user is None:
        api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
    else:
        api.force_login(user)
        api.cookies["csrftoken"] = CSRF
    return api


def post(link, body, key=None, user=None, csrf=CSRF, api=None, **headers):
    api = api or client(link, user)
    if user is not None:
        headers["HTTP_X_CSRFTOKEN"] = csrf
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return api.post(f"/api/scoring/matches/{link.match_id}/hands/", body, format="json", **headers)


@contextmanager
def api_view_only():
    """Every request answered by the API view (the hot path declines)."""
    with mock.patch.object(hot_entry, "_plain_entry", return_value=None):
        yield


def answer(response) -> tuple[int, dict]:
    body = response.json()  # cached by the test client: not changed here
    if isinstance(body, dict):
        body = {name: value for name, value in body.items() if name != "match"}  # its own match's ids, addresses
    return response.status_code, body


def rows(match: Match) -> dict:
    match.refresh_from_db()
    return {
        "match": (match.status, match.games_a, match.games_b, match.winner),
        "games": list(Game.objects.filter(match=match).order_by("number").values_list(
            "number", "first_dealer", "score_a", "score_b", "winner")),
        "hands": [(h.game.number, h.position, h.number, h.dealer, h.ended_by, h.value, h.winner, h.points,
                   h.score_a, h.score_b, h.report, h.verdict, h.created_by_id, h.table_link_id is not None)
                  for h in HandEntry.objects.filter(game__match=match).select_related("game").order_by("id")],
        # a version's digest seals its own match's document (its id, its times): it differs by construction
        "events": [(e.kind, {k: v for k, v in e.data.items() if k not in ("via", "digest")}, "via" in e.data, e.by_id)
                   for e in MatchEvent.objects.filter(match=match).order_by("id")],
    }


@postgres_only
def test_a_plain_entry_is_three_statements_with_the_api_views_answer_and_rows(pairs, organizer, tournament):
    fast, fast_link = new_match(pairs, organizer, tournament, table=1)
    slow, slow_link = new_match(pairs, organizer, tournament, table=2)
    body = {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 1}
    with CaptureQueriesContext(connection) as queries:
        first = post(fast_link, body, "k1")
    assert first.status_code == 201, first.json()
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]  # the test's transaction
    assert len(statements) == 3 and HOT in statements[-1]
    with api_view_only(), CaptureQueriesContext(connection) as queries:
        second = post(slow_link, body, "k1")
    assert not any(HOT in q["sql"] for q in queries.captured_queries)
    assert answer(first) == answer(second)
    assert first["Content-Type"] == second["Content-Type"] == "application/json"
    assert sorted(first.headers) == sorted(second.headers)
    assert [first[name] for name in ("Allow", "Vary") if name in first] == [
        second[name] for name in ("Allow", "Vary") if name in second]
    assert rows(fast) == rows(slow)
    record = IdempotencyRecord.objects.get(credential=f"table:{fast_link.pk}", key="k1")
    assert record.status == 201 and record.body.encode() == first.content


@postgres_only
def test_the_referees_page_too_with_its_session(pairs, organizer, referee, outsider, tournament):
    fast, fast_link = new_match(pairs, organizer, tournament, table=1, referee=referee)
    slow, slow_link = new_match(pairs, organizer, tournament, table=2, referee=referee)
    body = {"winner": 0, "ended_by": "tricks", "value": 1, "game": 1, "hand": 1}
    page = client(fast_link, referee)
    with CaptureQueriesContext(connection) as queries:
        first = post(fast_link, body, "r1", user=referee, api=page)
    assert first.status_code == 201, first.json()
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 5 and HOT in statements[-1]  # the session and its user, then the three
    with api_view_only():
        second = post(slow_link, body, "s-r1", user=referee)  # one user: a key per match
    assert answer(first) == answer(second) and first.json()["created"]["entered_by"] == "user"
    assert rows(fast) == rows(slow)
    for kwargs in ({"user": referee, "csrf": "x" * 32}, {"user": outsider}):  # a failed CSRF check; not his match
        refused = post(fast_link, {**body, "hand": 2}, "r2", **kwargs)
        with api_view_only():
            also = post(slow_link, {**body, "hand": 2}, "s-r2", **kwargs)
        assert refused.status_code == 403 and answer(refused) == answer(also)
    assert HandEntry.objects.filter(game__match=fast).count() == 1


@postgres_only
def test_what_is_not_the_plain_case_is_the_api_views(pairs, organizer, tournament, match):
    fast, link = new_match(pairs, organizer, tournament)
    body = {"winner": 0, "ended_by": "tricks", "value": 1, "game": 1, "hand": 1}
    assert post(link, body, "a").status_code == 201
    replay = post(link, body, "a")  # the reply was lost: the same key again
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert post(link, {**body, "hand": 2}, "a").status_code == 422  # the key of another entry
    behind = post(link, body, "b")  # hand 1 again with a new key: a phone that is behind
    assert behind.status_code == 409 and behind.json()["state"]["hand"] == 2
    assert post(link, {**body, "hand": 2, "value": "1"}, "c").status_code == 201  # coerced by the serializer
    assert post(link, {**body, "hand": 3, "value": 2}, "d").status_code == 400  # art. 11: no hand is worth 2
    assert post(link, {**body, "hand": 3}, None).status_code == 201  # no key
    other = table_links.ensure_links([match])[match.pk]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {other.token}")
    wrong = api.post(f"/api/scoring/matches/{fast.pk}/hands/", {**body, "hand": 4}, format="json",
                     HTTP_IDEMPOTENCY_KEY="f")
    assert wrong.status_code == 403  # another match's link
    table_links.revoke(fast, organizer)
    assert post(link, {**body, "hand": 4}, "g").status_code in (401, 403)  # a revoked link: the API view refuses
    assert HandEntry.objects.filter(game__match=fast).count() == 3


@postgres_only
def test_the_hand_that_ends_a_game_and_the_match(pairs, organizer, tournament):
    match, link = new_match(pairs, organizer, tournament, table=1, best_of=3)
    slow, slow_link = new_match(pairs, organizer, tournament, table=2, best_of=3)
    state = {"game": 1, "hand": 1, "allowed": {"tricks": [1]}}
    while True:
        body = {"winner": 0, "value": state["allowed"]["tricks"][-1], "game": state["game"], "hand": state["hand"]}
        key = str(uuid.uuid4())
        response = post(link, body, key)
        with api_view_only():
            assert answer(post(slow_link, body, key)) == answer(response)
        assert response.status_code == 201, response.json()
        state = response.json()["state"]
        if state["over"]:
            break
    body = response.json()
    assert body["game_over"]["winner"] == 0 and body["match"]["winner"] == 0
    match.refresh_from_db()
    assert match.winner == 0 and match.versions.count() == 1
    assert rows(match) == rows(slow)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_phones_at_one_position_write_one_hand(pairs, organizer, tournament):
    match, link = new_match(pairs, organizer, tournament)
    barrier = threading.Barrier(2)
    statuses = []

    def send(key):
        try:
            barrier.wait()
            statuses.append(post(link, {"winner": 0, "value": 1, "game": 1, "hand": 1}, key).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(key,)) for key in ("phone-1", "phone-2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]  # the second waited on the match's lock, then was behind
    assert HandEntry.objects.filter(game__match=match).count() == 1


def test_elsewhere_than_postgresql_the_api_view_answers(pairs, organizer, tournament, rf):
    if ON_POSTGRES:
        pytest.skip("SQLite's case")
    match, link = new_match(pairs, organizer, tournament)
    request = rf.post("/", {"winner": 0, "value": 1, "game": 1, "hand": 1}, content_type="application/json",
                      HTTP_AUTHORIZATION=f"Table {link.token}", HTTP_IDEMPOTENCY_KEY="k")
    assert hot_entry.enter(request, match.pk) is None


# A random evening at a table: summaries, some refused by the engine, some sent by a phone that is
# behind, some repeated with their key, some with a used key; both paths answer and write alike.
step = st.tuples(
    st.sampled_from(["next", "next", "next", "next", "behind", "replay", "reuse"]),
    st.sampled_from([0, 1, 1, None]),
    st.sampled_from(["tricks", "tricks", "tricks", "run", "fold", "all_tied", "eleven_refused"]),
    st.sampled_from(["min", "min", "max", 2, 0]),
)


@postgres_only
@pytest.mark.parametrize("by", ["table", "referee"])
@hypothesis_settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=30))
def test_both_paths_answer_and_write_alike(pairs, organizer, referee, tournament, by, steps):
    user = referee if by == "referee" else None
    fast, fast_link = new_match(pairs, organizer, tournament, table=1, best_of=3, referee=referee)
    slow, slow_link = new_match(pairs, organizer, tournament, table=2, best_of=3, referee=referee)
    state, sent = {"game": 1, "hand": 1, "allowed": {"tricks": [1]}, "over": False}, []
    run = uuid.uuid4().hex[:8]  # a user's keys outlive an example: each example its own
    for number, (kind, winner, ended_by, value) in enumerate(steps):
        if state["over"]:
            break
        allowed = state["allowed"].get(ended_by) or [0]
        value = allowed[0] if value == "min" else allowed[-1] if value == "max" else value
        body = {"winner": winner, "ended_by": ended_by, "value": value, "game": state["game"], "hand": state["hand"]}
        key = f"{run}-k{number}"
        if kind == "behind":
            body["hand"] = max(1, state["hand"] - 1)
        elif kind == "replay" and sent:
            key, body = sent[-1]
        elif kind == "reuse" and sent:
            key = sent[-1][0]
        first = post(fast_link, body, key, user=user)
        with api_view_only():
            second = post(slow_link, body, f"s-{key}", user=user)  # a user's keys: one per match
        assert answer(first) == answer(second), (body, key)
        sent.append((key, body))
        if first.status_code == 201:
            state = first.json()["state"]
    assert rows(fast) == rows(slow)
