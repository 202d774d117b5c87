"""Guessing PINs is useless and nobody can lock a pair out (art. 25; scoring/pins.py): failures are
counted per player across matches, per client; the state is judged before the PIN; back-off grows;
the referee unlocks; the organizer reads it in the match's audit trail."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scoring import pins, services
from scoring.models import CredentialAttempts, Match, MatchEvent, Signature

from .sumula_setup import *  # noqa: F401,F403


@pytest.fixture(autouse=True)
def english(settings):
    """These tests read the English messages (the pages and the API speak Portuguese by default)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield

STRANGER = "ip:10.0.0.66"
TABLE = "user:table-device"


def over_match(pairs, organizer, referee, tournament):
    match = services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, referee=referee,
                                  by=organizer)
    play(match, referee, 0, 1, 0, 0, 0)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def over(pairs, organizer, referee, tournament):
    return over_match(pairs, organizer, referee, tournament)


def guess(match, pin, client=STRANGER, player=None):
    player = player or match.pair_a.first_player
    with pytest.raises(services.Forbidden) as error:
        services.sign(match, "team0", player, pin=pin, client=client)
    return error.value


def test_a_stranger_cannot_lock_the_pair_out(over):
    for _ in range(12):
        guess(over, "9999")
    refusal = guess(over, "1111")  # the stranger is locked out, even with the right PIN
    assert refusal.field == "pin" and "10" in refusal.message
    signature = services.sign(over, "team0", over.pair_a.first_player, pin="1111", client=TABLE)
    assert signature.method == "pin"


def test_failures_count_per_player_across_matches(pairs, organizer, referee, tournament):
    matches = [over_match(pairs, organizer, referee, tournament) for _ in range(5)]
    for match in matches:  # one guess in each of five matches
        guess(match, "9999")
    fresh = over_match(pairs, organizer, referee, tournament)
    refusal = guess(fresh, "1111")
    assert "wait" in refusal.message and not Signature.objects.exists()


def test_a_wrong_pin_and_no_pin_get_the_same_answer(over, pairs):
    no_pin = pairs[0].substitute
    assert not no_pin.has_pin
    wrong = guess(over, "9999", client="ip:1")
    missing = guess(over, "9999", client="ip:2", player=no_pin)
    assert (wrong.message, wrong.field) == (missing.message, missing.field)


def test_the_state_is_judged_before_the_pin(over):
    services.sign(over, "team0", over.pair_a.first_player, pin="1111", client=TABLE)
    services.sign(over, "team1", over.pair_b.first_player, pin="3333", client=TABLE)
    before = MatchEvent.objects.filter(kind="signature_refused").count()
    answers = set()
    for pin in ("1111", "2222", "9999"):  # an old match answers nothing about the PIN
        with pytest.raises(services.Conflict) as error:
            services.sign(over, "team0", over.pair_a.second_player, pin=pin, client=STRANGER)
        answers.add((type(error.value), error.value.message))
    assert len(answers) == 1
    assert MatchEvent.objects.filter(kind="signature_refused").count() == before
    assert not CredentialAttempts.objects.filter(client=STRANGER).exists()


def test_back_off_grows(over):
    for _ in range(5):
        guess(over, "9999")
    row = CredentialAttempts.objects.get(client=STRANGER)
    first = row.locked_until - timezone.now()
    assert timedelta(minutes=9) < first <= timedelta(minutes=10)
    CredentialAttempts.objects.filter(pk=row.pk).update(locked_until=timezone.now() - timedelta(seconds=1))
    for _ in range(5):
        guess(over, "9999")
    row.refresh_from_db()
    assert timedelta(minutes=19) < row.locked_until - timezone.now() <= timedelta(minutes=20)
    assert "20" in guess(over, "1111").message
    assert MatchEvent.objects.filter(match=over, kind="signature_refused", data__locked=True).count() == 2


def test_many_clients_slow_the_pin_codes_still_work_and_the_referee_unlocks(over, referee, outsider):
    """20 failures from several clients slow the PIN: an address without a device cookie is
    refused, a known client tries once a minute; the referee's codes work; the referee unlocks."""
    for n in range(pins.GLOBAL_LIMIT):
        guess(over, "9999", client=f"ip:10.0.0.{n // 4}")
    refusal = guess(over, "1111", client="ip:10.0.0.99")
    assert "slowed" in refusal.message
    assert pins.alerts([over.pair_a.first_player])[0]["suspended"]
    guess(over, "9999", client=TABLE)  # a known client: one try a minute
    assert "Wait 60 seconds" in guess(over, "1111", client=TABLE).message
    code = services.issue_code(over, 0, referee)[1]  # the referee's one-time codes are not blocked
    with pytest.raises(services.Forbidden):
        pins.unlock(over, over.pair_a.first_player, outsider)
    pins.unlock(over, over.pair_a.first_player, referee)
    assert MatchEvent.objects.filter(match=over, kind="pin_unlocked").count() == 1
    assert services.sign(over, "team0", over.pair_a.first_player, pin="1111", client="ip:10.0.0.99")
    assert code  # (the code was not needed)


def test_codes_are_counted_per_client(over, referee):
    services.issue_code(over, 0, referee)
    for _ in range(5):
        with pytest.raises(services.Forbidden):
            services.sign(over, "team0", over.pair_a.first_player, code="000000", client=STRANGER)
    code = services.issue_code(over, 0, referee)[1]
    with pytest.raises(services.Forbidden) as error:
        services.sign(over, "team0", over.pair_a.first_player, code=code, client=STRANGER)
    assert error.value.field == "code" and "wait" in error.value.message
    assert services.sign(over, "team0", over.pair_a.first_player, code=code, client=TABLE).method == "code"


def test_the_api_ties_attempts_to_the_client(over, client):
    url = f"/api/scoring/matches/{over.pk}/signatures/"
    body = {"role": "team0", "player": over.pair_a.first_player.pk, "pin": "9999"}
    for _ in range(6):
        assert client.post(url, body, content_type="application/json", REMOTE_ADDR="10.1.1.1").status_code == 403
    assert CredentialAttempts.objects.filter(client="ip:10.1.1.1").exists()
    body["pin"] = "1111"
    assert client.post(url, body, content_type="application/json", REMOTE_ADDR="10.1.1.1").status_code == 403
    assert client.post(url, body, content_type="application/json", REMOTE_ADDR="10.2.2.2").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_lose_no_update(pairs, organizer, referee, tournament):
    """24 wrong guesses at once from one client: exactly five PINs are checked and one lockout starts;
    the rest wait for the row lock and are refused unchecked (no lost update). All are wrong: a right
    PIN resets the device's count (the player proved it), which would let the guesses queued behind it
    be checked again, so it would say nothing about lost updates."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks in parallel need PostgreSQL (SQLite serialises writers)")
    match = over_match(pairs, organizer, referee, tournament)
    player = match.pair_a.first_player
    results = []

    def attempt(pin):
        from django.db import connections
        try:
            services.sign(match, "team0", player, pin=pin, client=STRANGER)
            results.append("signed")
        except services.Forbidden as error:
            results.append(error.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, args=(f"{9000 + n}",)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = MatchEvent.objects.filter(match=match, kind="signature_refused", data__why__startswith="Wrong").count()
    assert "signed" not in results and len(results) == 24
    assert checked == pins.PER_CLIENT_LIMIT, results
    assert CredentialAttempts.objects.get(subject=f"player:{player.pk}", client=STRANGER).lockouts == 1


def test_the_pair_sees_the_alert_and_the_referee_unlocks_on_the_page(over, client, referee):
    for _ in range(3):
        guess(over, "9999")
    page = client.get(f"/sumulas/partida/{over.pk}/assinar/").content.decode()
    assert "pin-alert" in page and "Ana Souza" in page and "desbloquear-pin" not in page
    assert client.post(f"/sumulas/partida/{over.pk}/desbloquear-pin/",
                       {"player": over.pair_a.first_player.pk}).status_code == 302  # to the login
    client.force_login(referee)
    assert "desbloquear-pin" in client.get(f"/sumulas/partida/{over.pk}/assinar/").content.decode()
    client.post(f"/sumulas/partida/{over.pk}/desbloquear-pin/", {"player": over.pair_a.first_player.pk})
    assert not pins.alerts([over.pair_a.first_player])
    assert client.post(f"/api/scoring/matches/{over.pk}/pin-unlock/", {"player": 999999},
                       content_type="application/json").status_code == 403
