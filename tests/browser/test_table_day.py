"""The table's súmula on the day, what the two-phone tests leave: a dispute holds the súmula
(signatures and receipt) until the referee settles it, with two phones at the table; the card of a table
printed from a LAN address (127.0.0.2 stands in for it) is read by a phone; one card for a table across
two rounds, the test acting only through the site as its people do.

Screenshots: $TRUCO_SHOTS/day-*.png.
"""
from __future__ import annotations


import pytest

from .conftest import PINS, past_double_tap, phone_context, shot, sign_in

pytestmark = pytest.mark.browser


def _page(browser, url: str, ready: str, clock: bool = False):
    page = phone_context(browser, clock=clock).new_page()
    page.goto(url)
    page.locator(ready).first.wait_for()
    return page


def _refresh(page):
    page.evaluate("() => window.trucoTable.refresh()")   # the page's next poll, now


def _sign(page, team: int, pin: str):
    form = page.locator(f"#signing form[data-team='{team}']")
    form.locator("select[name=player]").select_option(index=1)  # the pair's first player (nobody preselected)
    form.locator("input[name=pin]").fill(pin)
    form.locator("button").tap()


def test_a_dispute_holds_the_signatures_and_the_receipt_until_the_referee_settles_it(live_server, browser,
                                                                                     make_match):
    from playwright.sync_api import expect

    from scoring import services
    from tables import links as table_links
    from scoring.models import Match, MatchEvent
    match = make_match()
    for winner in (0, 1, 0, 0, 0):   # 12-3: the match is over, its version to sign (before any page is open)
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": 3}, match.referee)
    link = table_links.ensure_links([match])[match.pk]
    table_url = f"{live_server.url}/mesa/{link.token}/"
    a = _page(browser, table_url, "#signing form")
    b = _page(browser, table_url, "#signing form")
    b.locator("#last button.dispute").first.tap()                     # pair B disputes hand 3 on its phone
    b.locator("#confirm-dispute button.yes").tap()                     # asked first: it calls the referee
    expect(b.locator("#msg")).to_contain_text("rbitro chamado")
    _refresh(a)
    held = a.locator("#signing p.held")
    expect(held).to_contain_text("A mão 3 da partida 1 está contestada")
    expect(a.locator("#signing form")).to_have_count(0)              # nobody signs on either phone
    expect(a.locator("#disputes p.open")).to_contain_text("a súmula espera o árbitro")
    shot(a, "day-dispute-held.png")
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
    shot(b, "day-dispute-signed.png")
    referee.goto(f"{live_server.url}/sumulas/partida/{match.pk}/")
    referee.locator("form[action$='/contra-assinar/'] button").click()
    expect(referee.locator("form[action$='/contra-assinar/']")).to_have_count(0)
    organizer.reload()
    organizer.locator("form[action$='/recebida/'] button").click()
    expect(organizer.locator("form[action$='/recebida/']")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).status == "received"


def test_a_card_printed_from_a_lan_address_opens_the_table_on_a_phone(make_match, lan_server, browser, tmp_path):
    from playwright.sync_api import expect

    from tests.qr import qr_codes
    from tables.models import TableCard

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
    shot(phone, "day-lan-card.png")
    assert match.games.get().hands.count() == 1


@pytest.fixture
def round_robin(transactional_db, settings):
    """Four pairs in a round robin (three rounds, tables 1 and 2), round 1 generated, organized by
    "organizadora" (org-secret); each pair's first player signs with PIN 1234. Made before any page opens."""
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Pair, Player, Tournament

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = get_user_model().objects.create_user("organizadora", password="org-secret")
    tournament = Tournament.objects.create(name="Copa da Mesa", slug="copa-da-mesa", organizer=organizer,
                                           date=datetime.date(2026, 11, 21), status=Tournament.Status.REGISTRATION)
    for i in range(1, 5):
        first, second = Player(name=f"Jogador {i}a"), Player.objects.create(name=f"Jogador {i}b")
        first.set_pin("1234")
        first.save()
        Pair.objects.create(tournament=tournament, name=f"Dupla {i}", first_player=first, second_player=second)
    services.configure_stage(tournament, organizer, format="round_robin")
    services.generate_first_round(tournament, organizer)
    return tournament


def test_one_card_follows_its_table_across_two_rounds(live_server, browser, round_robin):
    """The card of table 1, scanned once, shows round 1's match; once its súmula is received it says
    "no match at this table now"; the next round's match when it is generated. Every write goes through the
    site, as the table, the organizer and their phones make it."""
    from playwright.sync_api import expect

    from scoring.models import Match
    from tables import cards as table_cards

    tournament = round_robin
    first = Match.objects.get(tournament=tournament, round__number=1, table=1)
    other = Match.objects.get(tournament=tournament, round__number=1, table=2)
    card = table_cards.ensure_cards(tournament, [1, 2])[1]
    boot_match = "() => JSON.parse(document.getElementById('boot').textContent).match"
    phone = _page(browser, f"{live_server.url}/mesa/{card.token}/", "#values button.v", clock=True)
    assert phone.evaluate(boot_match) == first.pk
    for value in (3, 6, 3):                                            # the first pair wins 12-0
        phone.locator(f"#values .col[data-team='0'] button[data-value='{value}']").tap()
        phone.wait_for_function("() => window.trucoTable.queue().length === 0", timeout=15000)
        past_double_tap(phone)
    _sign(phone, 0, "1234")
    expect(phone.locator("#signing p.done")).to_have_count(1)
    _sign(phone, 1, "1234")
    expect(phone.locator("#signing p.done")).to_have_count(3)
    # the organizer receives it and settles the other table (a W.O.), then generates round 2
    organizer = browser.new_context(locale="pt-BR").new_page()
    sign_in(organizer, live_server.url, "organizadora", "org-secret", f"/sumulas/partida/{first.pk}/")
    organizer.locator("form[action$='/recebida/'] button").click()
    expect(organizer.locator("form[action$='/recebida/']")).to_have_count(0)
    _refresh(phone)                                                    # the card's next poll: no match now
    expect(phone.locator("body")).to_contain_text("Nenhum jogo na mesa 1 agora")
    csrf = next(c["value"] for c in organizer.context.cookies() if c["name"] == "csrftoken")
    api = f"{live_server.url}/api/tournaments/{tournament.slug}/"
    headers = {"X-CSRFToken": csrf, "Content-Type": "application/json"}
    done = organizer.request.post(f"{api}matches/{other.pk}/walkover/", headers=headers,
                                  data={"absent": other.pair_b_id, "reason": "Não compareceu"})
    assert done.ok, done.text()
    generated = organizer.request.post(f"{api}rounds/next/", headers=headers, data={})
    assert generated.ok, generated.text()
    second = Match.objects.get(tournament=tournament, round__number=2, table=1)
    phone.reload()                                                     # (the idle page reloads itself every 30 s)
    phone.locator("#values button.v").first.wait_for()
    assert phone.evaluate(boot_match) == second.pk                     # the same card: round 2's match
    expect(phone.locator("#table-no")).to_contain_text("Mesa 1")
    shot(phone, "day-card-round-2.png")
