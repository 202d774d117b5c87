"""The table's súmula on the day (issue 20), what the two-phone tests leave: a dispute holds the súmula
(signatures and receipt) until the referee settles it, with two phones at the table; the card of a table
printed from a LAN address (127.0.0.2 stands in for it) is read by a phone; one card for a table across
two rounds, the test acting only through the site as its people do.

Screenshots: /tmp/wt-tb/day-*.png.
"""
from __future__ import annotations

import socket
from pathlib import Path

import pytest

from .conftest import PINS, phone_context, sign_in

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/wt-tb")


def _page(browser, url: str, ready: str):
    page = phone_context(browser).new_page()
    page.goto(url)
    page.locator(ready).first.wait_for()
    return page


def _refresh(page):
    page.evaluate("() => window.trucoTable.refresh()")   # the page's next poll, now


def _sign(page, team: int, pin: str):
    form = page.locator(f"#signing form[data-team='{team}']")
    form.locator("input[name=pin]").fill(pin)
    form.locator("button").tap()


def test_a_dispute_holds_the_signatures_and_the_receipt_until_the_referee_settles_it(live_server, browser,
                                                                                     make_match):
    from playwright.sync_api import expect

    from scoring import services, table_links
    from scoring.models import Match, MatchEvent

    SHOTS.mkdir(exist_ok=True)
    match = make_match()
    for winner in (0, 1, 0, 0, 0):   # 12-3: the match is over, its version to sign (before any page is open)
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": 3}, match.referee)
    link = table_links.ensure_links([match])[match.pk]
    table_url = f"{live_server.url}/mesa/{link.token}/"
    a = _page(browser, table_url, "#signing form")
    b = _page(browser, table_url, "#signing form")
    b.locator("#last button.dispute").first.tap()                     # pair B disputes hand 3 on its phone
    expect(b.locator("#msg")).to_contain_text("Árbitro chamado")
    _refresh(a)
    held = a.locator("#signing p.held")
    expect(held).to_contain_text("A mão 3 da partida 1 está contestada")
    expect(a.locator("#signing form")).to_have_count(0)              # nobody signs on either phone
    expect(a.locator("#disputes p.open")).to_contain_text("a súmula espera o árbitro")
    a.screenshot(path=str(SHOTS / "day-dispute-held.png"))
    refused = a.evaluate("""([url, token, player, pin]) => fetch(url, {method: "POST", headers: {
        "Content-Type": "application/json", "Authorization": "Table " + token},
        body: JSON.stringify({role: "team0", player: player, pin: pin})}).then(r => r.json().then(d => [r.status, d]))""",
                         [f"/api/scoring/matches/{match.pk}/signatures/", link.token, match.pair_a.first_player_id,
                          PINS["Ana Souza"]])
    assert refused[0] == 409 and refused[1]["error"]["field"] == "dispute"
    assert "contestada" in refused[1]["error"]["message"]
    # the organizer's súmula page shows the dispute first and offers no receipt
    organizer = browser.new_context(locale="pt-BR").new_page()
    sign_in(organizer, live_server.url, "organizadora", "org-secret", f"/sumulas/partida/{match.pk}/")
    expect(organizer.locator("#holds")).to_contain_text("contestada")
    expect(organizer.locator("form[action$='/recebida/']")).to_have_count(0)
    # the referee confirms the entry from the tables calling
    referee = browser.new_context(locale="pt-BR").new_page()
    sign_in(referee, live_server.url, "arbitra", "ref-secret", "/arbitragem/")
    referee.locator("li.call.dispute button[value=confirmed]").click()
    expect(referee.locator("li.call.dispute")).to_have_count(0)
    assert MatchEvent.objects.filter(match=match, kind="dispute_resolved").count() == 1
    # shown at the table; both pairs sign, each on its phone
    _refresh(a)
    expect(a.locator("#disputes p.settled")).to_contain_text("O árbitro confirmou a mão 3 da partida 1")
    _sign(a, 0, PINS["Ana Souza"])
    expect(a.locator("#signing p.done")).to_have_count(1)
    _refresh(b)
    _sign(b, 1, PINS["Caio Reis"])
    expect(b.locator("#signing p.done")).to_have_count(3)            # two signatures and "take it to the table"
    b.screenshot(path=str(SHOTS / "day-dispute-signed.png"))
    referee.goto(f"{live_server.url}/sumulas/partida/{match.pk}/")
    referee.locator("form[action$='/contra-assinar/'] button").click()
    expect(referee.locator("form[action$='/contra-assinar/']")).to_have_count(0)
    organizer.reload()
    organizer.locator("form[action$='/recebida/'] button").click()
    expect(organizer.locator("form[action$='/recebida/']")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).status == "received"


def _free_port(host: str) -> int:
    """A free port of this worktree's range (8100-8199) on ``host``."""
    for port in range(8150, 8200):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8150-8199 on " + host)


@pytest.fixture
def lan_server(transactional_db):
    """The site served on 127.0.0.2 (a LAN address on this machine's loopback), as the README's venue mode
    serves it on the club's network."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer(f"127.0.0.2:{_free_port('127.0.0.2')}", start=False)
    server._live_server_modified_settings.enable()   # ALLOWED_HOSTS gets 127.0.0.2 (pytest-django's own helper)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server._live_server_modified_settings.disable()


def test_a_card_printed_from_a_lan_address_opens_the_table_on_a_phone(make_match, lan_server, browser, tmp_path):
    from playwright.sync_api import expect

    from tests.qr import qr_codes
    from tournaments.models import TableCard

    match = make_match()
    organizer = browser.new_context(locale="pt-BR").new_page()
    sign_in(organizer, lan_server.url, "organizadora", "org-secret")
    printed = organizer.request.get(f"{lan_server.url}/sumulas/impressao/rodada/{match.round_id}/cartoes-de-mesa.pdf")
    assert printed.ok, printed.status
    card = TableCard.objects.get(tournament=match.tournament, table=match.table, revoked_at__isnull=True)
    assert qr_codes(printed.body(), tmp_path) == {f"{lan_server.url}/mesa/{card.token}/"}   # the address printed from
    phone = _page(browser, f"{lan_server.url}/mesa/{card.token}/", "#values button.v")    # what the camera opens
    phone.locator("#values .col[data-team='0'] button[data-value='3']").tap()
    expect(phone.locator("#msg")).to_contain_text("Mão 1 lançada")
    phone.screenshot(path=str(SHOTS / "day-lan-card.png"))
    assert match.games.get().hands.count() == 1
