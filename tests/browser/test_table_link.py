"""The table's own súmula from its link: a phone opens the QR code's link with no
account, enters a game in place (no reload), keeps entering offline, and a pair disputes an entry that
then shows on the referees' page.

Screenshots: $TRUCO_SHOTS/table-entry.png, $TRUCO_SHOTS/table-offline.png, $TRUCO_SHOTS/table-eleven.png,
$TRUCO_SHOTS/table-signing.png, $TRUCO_SHOTS/referee-calls.png.
"""
from __future__ import annotations

import pytest

from .conftest import Fetched, log_in, past_double_tap, phone_context, shot, value_button

pytestmark = pytest.mark.browser


@pytest.fixture
def table_match(make_match):
    from tables import links as table_links

    match = make_match()
    return match, table_links.ensure_links([match])[match.pk]


def _hands(match):
    from scoring.models import HandEntry

    return list(HandEntry.objects.filter(game__match=match).order_by("game__number", "position")
                .values_list("game__number", "number", "winner", "value"))


def test_a_table_enters_a_game_from_its_link_on_a_phone(live_server, browser, table_match):
    from playwright.sync_api import expect

    match, link = table_match
    context = phone_context(browser, clock=True, fresh=True)  # the same-hand asks, not the check before sending
    page = context.new_page()
    fetched = Fetched(page)
    page.goto(f"{live_server.url}/mesa/{link.token}/")
    expect(page.locator("#where")).to_contain_text("Ana Souza")  # seats by the players' names
    # the page's clock moves only with the test (past_double_tap): a loaded machine's slow tap never outlasts
    # the same-hand question's 10 s (it hides itself after them, as it should on a real phone)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    shot(page, "table-entry.png")
    # one screen, no scroll on a 390x844 phone
    assert page.evaluate("document.documentElement.scrollHeight") <= 844
    loads = fetched.documents()
    # a double tap (two taps 60 ms apart) records one hand and says nothing alarming
    page.evaluate("""() => { const b = document.querySelector("#values .col[data-team='0'] button[data-value='3']");
                             b.click(); setTimeout(() => b.click(), 60); }""")
    expect(page.locator("#pts0")).to_have_text("3")
    past_double_tap(page, 200)
    expect(page.locator("#pts0")).to_have_text("3")
    for _ in range(2):  # the same hand again within seconds: the page asks before sending
        value_button(page, 0, 3).tap()
        expect(page.locator("#ask")).to_contain_text("Lançar outra mão igual?")
        page.locator("#ask button.yes").tap()
        past_double_tap(page)
    expect(page.locator("#pts0")).to_have_text("9")
    value_button(page, 1, 1).tap()
    past_double_tap(page)
    value_button(page, 0, 1).tap()
    past_double_tap(page)
    value_button(page, 0, 1).tap()           # 11 × 1: mão de onze (the same hand again: confirmed)
    page.locator("#ask button.yes").tap()
    past_double_tap(page)
    expect(page.locator("#where")).to_contain_text("7")
    eleven = page.locator("#values .col[data-team='0'] button.v")
    expect(eleven).to_have_count(1)
    assert "truco" not in eleven.inner_text() and "onze" in eleven.inner_text()
    shot(page, "table-eleven.png")
    eleven.tap()
    expect(page.locator("#msg")).to_contain_text("Partida 1: Os Zapeiros 12 × 1")
    expect(page.locator("#signing")).to_be_visible()
    page.wait_for_function("!document.querySelector('#net').textContent.match(/\\d/)")
    assert "nada foi feito" not in page.content()
    assert fetched.documents() == loads  # never reloaded
    hands = _hands(match)
    assert [(g, n) for g, n, *_ in hands] == [(1, i) for i in range(1, 8)]
    assert [v for *_, v in hands] == [3, 3, 3, 1, 1, 1, 3]
    # both pairs sign at the table with their PINs
    for team, pin in ((0, "1111"), (1, "3333")):
        form = page.locator(f"#signing form[data-team='{team}']")
        form.locator("select[name=player]").select_option(index=1)  # nobody preselected: the signer picks
        form.locator("input[name=pin]").fill(pin)
        form.locator("button").tap()
        expect(page.locator("#signing p.done").first).to_be_visible()
        expect(page.locator("#signing")).to_contain_text("assinada por " + ("Ana Souza" if team == 0 else "Caio Reis"))
    expect(page.locator("#signing")).to_contain_text("mesa organizadora")  # both signed: take it there
    shot(page, "table-signing.png")
    match.refresh_from_db()
    assert match.status == "signed"
    context.close()


def test_offline_three_hands_then_online_exactly_three_in_order(live_server, browser, table_match):
    from playwright.sync_api import expect

    match, link = table_match
    context = phone_context(browser, clock=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/mesa/{link.token}/")
    expect(page.locator("#net")).to_contain_text("conectado")
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    for team, value in ((0, 3), (1, 1), (0, 6)):
        value_button(page, team, value).tap()
        past_double_tap(page)
    expect(page.locator("#net")).to_contain_text("3")
    expect(page.locator("#last li.pending")).to_have_count(3)
    shot(page, "table-offline.png")
    assert _hands(match) == []
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#last li.pending")).to_have_count(0)
    assert _hands(match) == [(1, 1, 0, 3), (1, 2, 1, 1), (1, 3, 0, 6)]
    expect(page.locator("#pts0")).to_have_text("9")
    context.close()


def test_a_pair_disputes_an_entry_and_the_referee_sees_the_call(live_server, browser, table_match):
    from playwright.sync_api import expect

    match, link = table_match
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/mesa/{link.token}/")
    value_button(page, 1, 3).tap()
    expect(page.locator("#last button.dispute")).to_have_count(1)
    page.locator("#last button.dispute").tap()
    page.locator("#confirm-dispute button.yes").tap()     # asked first: it calls the referee
    expect(page.locator("#last li.disputed")).to_have_count(1)
    referee = context.browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR").new_page()
    referee.goto(f"{live_server.url}/entrar/?next=/arbitragem/")
    log_in(referee, "arbitra", "ref-secret")
    calls = referee.locator(".calls li")
    expect(calls).to_have_count(1)
    expect(calls.first).to_contain_text("4")       # the table
    expect(calls.first).to_contain_text("Copas")
    shot(referee, "referee-calls.png")
    context.close()
