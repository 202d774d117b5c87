"""No stranger can stop a player from signing (scoring/pins.py): PIN failures are counted
per (player, device) — the table page's device cookie with the client's address behind the trusted
proxies — and the PIN is only slowed, never blocked, for the phone the player is using at the table;
the referee's one-time code is never blocked by failures of the PIN; the organizer sees who guesses."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import pins, services
from tables import links as table_links
from scoring.models import CredentialAttempts, Match, Signature

from .sumula_setup import *  # noqa: F401,F403
from .sumula_setup import play


@pytest.fixture
def over(match, referee):
    play(match, referee, 0, 1, 0, 0, 0)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def token(over):
    return table_links.ensure_links([over])[over.pk].token


def phone(token: str, address: str) -> Client:
    """A phone that opened the table page (it holds its device cookie)."""
    device = Client(REMOTE_ADDR=address)
    assert device.get(f"/mesa/{token}/").status_code == 200
    assert pins.DEVICE_COOKIE in device.cookies
    return device


def sign(device: Client, match, pin: str, token: str | None = None, player=None, address: str | None = None,
         **extra):
    player = player or match.pair_a.first_player
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Table {token}"
    if address:
        extra["REMOTE_ADDR"] = address
    return device.post(f"/api/scoring/matches/{match.pk}/signatures/",
                       {"role": "team0", "player": player.pk, "pin": pin}, content_type="application/json", **extra)


def attack(match, times: int = 20, addresses: int = 4):
    """Wrong PINs for Ana from strangers without the table's link or a device cookie, spread over addresses."""
    for n in range(times):
        assert sign(Client(), match, f"{900000 + n}", address=f"198.51.100.{n % addresses}").status_code == 403


def test_the_table_page_sets_a_signed_httponly_lax_device_cookie(token):
    device = Client(REMOTE_ADDR="10.0.0.5")
    device.get(f"/mesa/{token}/")
    cookie = device.cookies[pins.DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    value = cookie.value
    device.get(f"/mesa/{token}/")  # a valid cookie is kept (its date: since when the phone is at the table)
    assert device.cookies[pins.DEVICE_COOKIE].value == value
    forged = Client(REMOTE_ADDR="10.0.0.6")
    forged.cookies[pins.DEVICE_COOKIE] = "mine.123:forged"
    request = type("R", (), {"COOKIES": {pins.DEVICE_COOKIE: "mine.123:forged"}, "META": {"REMOTE_ADDR": "10.0.0.6"}})
    assert pins.device_of(request) is None and pins.client_of(request) == "ip:10.0.0.6"


def test_twenty_wrong_pins_from_four_addresses_do_not_stop_the_players_phone_beyond_a_minute(over, token):
    own = phone(token, "10.0.0.21")
    attack(over)  # the PIN is slowed for every client: not blocked
    every = CredentialAttempts.objects.get(subject=f"player:{over.pair_a.first_player.pk}", client=pins.EVERY_CLIENT)
    assert every.locked_until > timezone.now()
    late = sign(Client(), over, "1111", address="198.51.100.9")  # a new address, even with the right PIN
    assert late.status_code == 403 and late.json()["field"] == "pin"
    fresh = Client(REMOTE_ADDR="198.51.100.10")  # a device first seen now (a stranger with the link)
    fresh.get(f"/mesa/{token}/")
    assert sign(fresh, over, "1111", token).status_code == 403

    wrong = sign(own, over, "999999", token)  # the player mistypes once on their own phone
    assert wrong.status_code == 403
    wait = sign(own, over, "1111", token)
    assert wait.status_code == 403 and wait.json()["field"] == "pin"
    assert " 60 " in wait.json()["detail"]  # seconds: at most a minute
    mine = CredentialAttempts.objects.get(subject=f"player:{over.pair_a.first_player.pk}",
                                          client__endswith="@10.0.0.21")
    CredentialAttempts.objects.filter(pk=mine.pk).update(last_failure_at=timezone.now() - timedelta(seconds=61))
    assert sign(own, over, "1111", token).status_code == 201  # a minute later, the right PIN signs
    assert Signature.objects.filter(role="team0", player=over.pair_a.first_player).exists()


def test_the_players_phone_signs_at_once_when_it_did_not_fail(over, token):
    own = phone(token, "10.0.0.22")
    attack(over, times=40, addresses=8)
    assert sign(own, over, "1111", token).status_code == 201


def test_an_opponents_wrong_pins_on_the_tables_phone_do_not_block_the_players_phone(over, token):
    tables_phone = phone(token, "10.0.0.30")
    own = phone(token, "10.0.0.30")  # the same address (one Wi-Fi behind one NAT): another cookie
    for n in range(pins.PER_CLIENT_LIMIT):
        assert sign(tables_phone, over, f"{700000 + n}", token).status_code == 403
    locked = sign(tables_phone, over, "1111", token)
    assert locked.status_code == 403 and "10" in locked.json()["detail"]
    assert sign(own, over, "1111", token).status_code == 201


def test_the_referees_code_works_while_the_pin_is_locked(over, token, referee):
    tables_phone = phone(token, "10.0.0.31")
    for n in range(pins.PER_CLIENT_LIMIT):
        sign(tables_phone, over, f"{700000 + n}", token)
    attack(over)  # and slowed for every client
    code = services.issue_code(over, 0, referee)[1]
    response = tables_phone.post(f"/api/scoring/matches/{over.pk}/signatures/",
                                 {"role": "team0", "player": over.pair_a.first_player.pk, "code": code},
                                 content_type="application/json", HTTP_AUTHORIZATION=f"Table {token}")
    assert response.status_code == 201, response.content


def test_behind_a_proxy_the_address_is_the_clients(over, token, settings):
    settings.PROXY_COUNT = 1
    player = over.pair_a.first_player
    stranger = Client(REMOTE_ADDR="127.0.0.1")
    assert sign(stranger, over, "999999", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.7").status_code == 403
    assert CredentialAttempts.objects.filter(subject=f"player:{player.pk}", client="ip:203.0.113.7").exists()
    assert not CredentialAttempts.objects.filter(client__contains="127.0.0.1").exists()
    own = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.8")
    own.get(f"/mesa/{token}/")
    assert sign(own, over, "999999", token).status_code == 403
    assert CredentialAttempts.objects.filter(client__startswith="dev:", client__endswith="@203.0.113.8").exists()
    for n in range(pins.PER_CLIENT_LIMIT):  # the proxy's one address is not everybody's
        sign(stranger, over, f"{800000 + n}", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert sign(Client(REMOTE_ADDR="127.0.0.1"), over, "1111",
                HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 201


def test_the_organizer_sees_who_is_guessing(over, token, organizer, tournament):
    tables_phone = phone(token, "10.0.0.40")
    for n in range(pins.PER_CLIENT_LIMIT):
        sign(tables_phone, over, f"{700000 + n}", token)
    attack(over, times=3, addresses=1)
    client = Client()
    client.force_login(organizer)
    html = client.get(reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})).content.decode()
    section = html.split('data-testid="pin-clients"')[1].split("</small>")[0]
    assert "em 10.0.0.40 (5)" in section and "endereço 198.51.100.0 sem cookie de aparelho (3)" in section
    assert "8 tentativas erradas hoje" in section


def test_each_wrong_pin_says_how_many_tries_this_device_has_left(over, token):
    opponents = phone(token, "10.0.0.50")
    messages = [sign(opponents, over, f"{700000 + n}", token).json()["detail"] for n in range(pins.PER_CLIENT_LIMIT)]
    assert "4 tentativas restantes neste aparelho" in messages[0]
    assert "1 tentativa restante neste aparelho" in messages[3]
    assert "Nenhuma tentativa restante neste aparelho" in messages[4] and "10 minutos" in messages[4]


def test_the_opponents_phone_locked_out_leaves_the_players_own_phone_at_the_same_address_signing(over, token):
    own = phone(token, "10.0.0.60")  # Ana's phone, which never typed a wrong PIN
    opponents = phone(token, "10.0.0.60")  # the opponent's, on the same Wi-Fi behind one NAT
    for n in range(pins.PER_CLIENT_LIMIT + 1):
        assert sign(opponents, over, f"{700000 + n}", token).status_code == 403
    refused = sign(opponents, over, "1111", token)  # even the right PIN: that device waits
    assert refused.status_code == 403 and "neste aparelho" in refused.json()["detail"]
    signed = sign(own, over, "1111", token)
    assert signed.status_code == 201, signed.content


def test_clearing_the_cookies_each_try_meets_the_addresss_ceiling_not_the_players_phone(over, token):
    own = phone(token, "10.0.0.70")
    for n in range(pins.ADDRESS_LIMIT):  # a new cookie for every guess: each one "a device that never failed"
        assert sign(phone(token, "10.0.0.70"), over, f"{700000 + n}", token).status_code == 403
    fresh = sign(phone(token, "10.0.0.70"), over, "1111", token)  # a cookie from after the ceiling: refused
    assert fresh.status_code == 403 and "desta rede" in fresh.json()["detail"]
    assert sign(Client(REMOTE_ADDR="10.0.0.70"), over, "1111", token=token).status_code == 403  # no cookie
    assert sign(own, over, "1111", token).status_code == 201  # at the table before, never failed: signs


def test_a_device_that_failed_waits_while_its_address_is_closed(over, token):
    player = over.pair_a.first_player
    mistyped = phone(token, "10.0.0.80")
    assert sign(mistyped, over, "999999", token).status_code == 403
    for n in range(pins.ADDRESS_LIMIT - 1):
        sign(phone(token, "10.0.0.80"), over, f"{700000 + n}", token)
    address = CredentialAttempts.objects.get(subject=f"player:{player.pk}", client="addr:10.0.0.80")
    assert address.locked_until > timezone.now() + timedelta(minutes=29)
    assert sign(mistyped, over, "1111", token).status_code == 403
    assert sign(phone(token, "10.0.0.81"), over, "1111", token).status_code == 201  # another address: not closed


def test_a_logged_in_phone_sending_its_cookies_still_acts_as_the_table(over, token, referee):
    """The table page sends same-origin credentials: a phone also logged in (the referee's) is the table
    by its link's header, not a session request refused for a missing CSRF token."""
    own = phone(token, "10.0.0.90")
    own.force_login(referee)
    own.handler.enforce_csrf_checks = True
    response = sign(own, over, "1111", token)
    assert response.status_code == 201, response.content
