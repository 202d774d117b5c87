"""Idempotent writes: the same Idempotency-Key by the same credential does the work once."""
from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from django.urls import get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from tables import idempotency, links as table_links
from scoring.models import HandEntry
from tables.models import IdempotencyRecord

from tests.scoring.sumula_setup import *  # noqa: F401,F403

BODY = {"winner": 0, "ended_by": "tricks", "value": 3}


def test_same_key_twice_one_hand_and_the_same_response(match, referee):
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/scoring/matches/{match.pk}/hands/"
    first = api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    again = api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and again["Idempotent-Replayed"] == "true"
    assert HandEntry.objects.count() == 1
    assert api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-2").status_code == 201
    assert HandEntry.objects.count() == 2  # a new key is a new entry


def test_same_key_other_body_is_422_and_writes_nothing(match, referee):
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/scoring/matches/{match.pk}/hands/"
    assert api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    response = api.post(url, {**BODY, "value": 6}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 422 and response.json()["error"]["field"] == "Idempotency-Key"
    assert api.post(f"/api/scoring/matches/{match.pk}/undo/", HTTP_IDEMPOTENCY_KEY="k").status_code == 422
    assert HandEntry.objects.count() == 1


def test_keys_belong_to_one_credential(match, referee, organizer):
    url = f"/api/scoring/matches/{match.pk}/hands/"
    a, b = APIClient(), APIClient()
    a.force_authenticate(referee)
    b.force_authenticate(organizer)
    assert a.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="shared").status_code == 201
    assert b.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="shared").status_code == 201
    assert HandEntry.objects.count() == 2


def test_a_refusal_is_not_kept_and_answers_are_kept_24_hours(match, referee):
    """A refused request wrote nothing: the same key sent again once the cause is gone is heard (the
    right value after a wrong one), and that answer is kept a day."""
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/scoring/matches/{match.pk}/hands/"
    bad = {"winner": 0, "ended_by": "tricks", "value": 2, "game": 1, "hand": 1}
    assert api.post(url, bad, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 400
    assert not IdempotencyRecord.objects.exists()
    good = {**bad, "value": 1}
    first = api.post(url, good, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 201
    again = api.post(url, good, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=23))
    assert idempotency.purge() == 0
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert idempotency.purge() == 1


def test_a_key_sent_to_a_match_that_does_not_exist_is_a_404_not_a_500(referee):
    api = APIClient()
    api.force_authenticate(referee)
    response = api.post("/api/scoring/matches/999999/hands/", {"winner": 0, "ended_by": "tricks", "value": 1,
                        "game": 1, "hand": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 404 and not IdempotencyRecord.objects.exists()


def test_every_write_endpoint_of_scoring_and_referee_is_idempotent():
    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern), p.callback

    checked = 0
    for route, callback in walk(get_resolver().url_patterns):
        if not route.startswith(("api/scoring/", "api/referee/")):
            continue
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if view and any(hasattr(view, m) for m in ("post", "put", "patch", "delete")):
            assert issubclass(view, idempotency.IdempotentAPIView), route
            checked += 1
    assert checked >= 15


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="concurrent repeats need PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_repeats_on_postgresql_write_once(pairs, organizer, referee, tournament):
    from django.db import connection

    from scoring import services

    match = services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, table=1,
                                  referee=referee, by=organizer)
    link = table_links.ensure_links([match])[match.pk]
    barrier = threading.Barrier(2)
    statuses = []

    def send():
        try:
            api = APIClient()
            api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
            barrier.wait()
            response = api.post(f"/api/scoring/matches/{match.pk}/hands/", {**BODY, "game": 1, "hand": 1},
                                format="json", HTTP_IDEMPOTENCY_KEY="same-key")
            statuses.append(response.status_code)
        finally:
            connection.close()

    for _ in range(5):
        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert HandEntry.objects.filter(game__match=match).count() == 1
    assert statuses == [201] * 10  # the repeat waited for the first and got its answer


# ---- no secret derivable from stored rows ------------------------------------------------------


def _signature_with_key(match, link, pin: str, key: str):
    from tests.tables.test_table_links import play_to_end, table_client

    api = table_client(link)
    digest = play_to_end(api, match.pk)["match"]["current_version"]["digest"]
    body = {"role": "team0", "player": match.pair_a.first_player_id, "pin": pin, "digest": digest}
    response = api.post(f"/api/scoring/matches/{match.pk}/signatures/", body, format="json",
                        HTTP_IDEMPOTENCY_KEY=key)
    return api, body, response


def test_a_backup_of_the_records_does_not_give_the_pin_back(match, settings):
    import hashlib
    import json

    link = table_links.ensure_links([match])[match.pk]
    api, body, response = _signature_with_key(match, link, "1111", "sig-1")
    assert response.status_code == 201, response.json()
    record = IdempotencyRecord.objects.get(key="sig-1")
    assert "1111" not in record.body
    path = f"/api/scoring/matches/{match.pk}/signatures/"
    # what the backup holds cannot be matched against guesses of the PIN: neither the old plain SHA-256 of
    # method, path and body, nor any digest that does not need SECRET_KEY
    candidates = {json.dumps(body).encode(), json.dumps(body, separators=(",", ":")).encode()}
    for raw in candidates:
        plain = hashlib.sha256(b"POST\0" + path.encode() + b"\0" + raw).hexdigest()
        assert record.request_hash != plain and record.request_hash != hashlib.sha256(raw).hexdigest()
    # the digest leaves the PIN out: every PIN gives the same one, so brute force learns nothing
    factory = __import__("rest_framework.test", fromlist=["APIRequestFactory"]).APIRequestFactory()
    digests = {idempotency.request_hash(factory.post(path, {**body, "pin": pin}, format="json"))
               for pin in ("0000", "1111", "246810", "999999")}
    assert digests == {record.request_hash}
    # and it is keyed: another SECRET_KEY, another digest
    original = settings.SECRET_KEY
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    assert idempotency.request_hash(factory.post(path, body, format="json")) != record.request_hash
    settings.SECRET_KEY = original
    # the replay still works with the key (same body), another body under the key is still 422
    replay = api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="sig-1")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert api.post(path, {**body, "digest": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="sig-1").status_code == 422


def test_secret_fields_are_left_out_but_an_infractions_code_stays():
    body = b'{"claimant_team": 1, "code": "guidance_word", "pin": "123456", "code_once": "654321"}'
    stripped = idempotency.without_secrets(body, "application/json")
    assert b"guidance_word" in stripped and b"123456" not in stripped and b"654321" not in stripped
    appeal = b'{"team": 0, "player": 3, "code": "482913", "reason": "x"}'
    assert b"482913" not in idempotency.without_secrets(appeal, "application/json")
    form = b"role=team0&pin=2468&player=3"
    assert b"2468" not in idempotency.without_secrets(form, "application/x-www-form-urlencoded")
    hand = b'{"winner": 0, "ended_by": "tricks", "value": 3}'
    assert idempotency.without_secrets(hand, "application/json") is hand  # the hot path: not parsed


def test_a_one_time_code_is_never_stored_and_its_repeat_asks_for_a_new_one(match, referee):
    from tests.tables.test_table_links import play_to_end, table_client

    play_to_end(table_client(table_links.ensure_links([match])[match.pk]), match.pk)  # codes are for signing
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/scoring/matches/{match.pk}/codes/"
    first = api.post(url, {"team": 0}, format="json", HTTP_IDEMPOTENCY_KEY="code-1")
    assert first.status_code == 201, first.json()
    code = first.json()["code"]
    assert not any(code in r.body for r in IdempotencyRecord.objects.all())
    again = api.post(url, {"team": 0}, format="json", HTTP_IDEMPOTENCY_KEY="code-1")
    assert again.status_code == 410 and again["Idempotent-Replayed"] == "true"
    assert "código" in again.json()["error"]["message"] or "code" in again.json()["error"]["message"]
    assert code not in again.content.decode()


def test_a_replay_across_the_digest_change_still_replays(match, referee):
    """A record stored by the previous release (24 hours of them) and a phone that sends
    its request again after the deploy: the same request, so the stored answer, not 422."""
    import hashlib
    import json

    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/scoring/matches/{match.pk}/hands/"
    body = json.dumps(BODY).encode()
    first = api.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="old-1")
    assert first.status_code == 201
    old = hashlib.sha256(b"POST" + b"\0" + url.encode() + b"\0" + body).hexdigest()
    IdempotencyRecord.objects.filter(key="old-1").update(request_hash=old)
    again = api.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="old-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true", again.content
    assert HandEntry.objects.count() == 1
    other = api.post(url, {**BODY, "value": 6}, format="json", HTTP_IDEMPOTENCY_KEY="old-1")
    assert other.status_code == 422  # another request under the old record's key is still refused
    # a claim-first endpoint (the undo), with a record in the old format
    undo = f"/api/scoring/matches/{match.pk}/undo/"
    undone = {"game": 1, "position": 1}
    raw = json.dumps(undone).encode()
    assert api.post(undo, raw, content_type="application/json", HTTP_IDEMPOTENCY_KEY="old-2").status_code == 201
    IdempotencyRecord.objects.filter(key="old-2").update(
        request_hash=hashlib.sha256(b"POST\0" + undo.encode() + b"\0" + raw).hexdigest())
    again = api.post(undo, raw, content_type="application/json", HTTP_IDEMPOTENCY_KEY="old-2")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true", again.content
