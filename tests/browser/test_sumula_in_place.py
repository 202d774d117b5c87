"""The súmula entry page of the referee updates in place on a phone: hands go in without a
reload or a scroll, a hand that ends a game says "Partida 1: Os Zapeiros 12 × 7" and play goes on, a double
tap is silent, the mão de onze button reads "3 · mão de onze", seats read as names, a device that is behind
is told in Portuguese, an expired session keeps the hand until the login, and the page still works without
JavaScript.

Screenshots: $TRUCO_SHOTS/entry-start.png, entry-eleven.png, entry-game-won.png, entry-match-over.png,
entry-expired.png, entry-behind.png, entry-no-js.png.
"""
from __future__ import annotations


import pytest

from .conftest import PHONE, Fetched, enter_hand, past_double_tap, phone_context, settled, shot, value_button

pytestmark = pytest.mark.browser


@pytest.fixture
def match3(make_match):
    return make_match(best_of=3)


def _hands(match) -> list[tuple[int, int, int | None, int]]:
    from scoring.models import HandEntry

    return list(HandEntry.objects.filter(game__match=match).order_by("game__number", "position")
                .values_list("game__number", "number", "winner", "value"))


def _login(page, url: str) -> None:
    page.goto(url)
    assert "/entrar/" in page.url
    page.fill("#id_username", "arbitra")
    page.fill("#id_password", "ref-secret")
    page.click("form.login button[type=submit]")
    page.wait_for_url(url)


def _one_hand_then_expired(live_server, browser, match):
    """The referee's phone on the entry page, one hand (Os Zapeiros +3) entered, then the session gone."""
    from playwright.sync_api import expect

    url = f"{live_server.url}/sumulas/partida/{match.pk}/"
    context = phone_context(browser, clock=True)
    page = context.new_page()
    _login(page, url)
    enter_hand(page, 0, 3)
    expect(page.locator("#pts0")).to_have_text("3")
    context.clear_cookies()                                            # the session expired
    return page, url


def test_the_referee_enters_a_match_in_place_on_a_phone(live_server, browser, match3):
    from playwright.sync_api import expect

    match = match3
    url = f"{live_server.url}/sumulas/partida/{match.pk}/"
    page = phone_context(browser, clock=True).new_page()
    fetched = Fetched(page)
    _login(page, url)
    expect(page.locator("#live")).to_be_visible()
    expect(page.locator("#hand-form")).to_be_hidden()                # the plain form is the fallback
    expect(page.locator("#where")).to_contain_text("Ana Souza")      # who deals, by name
    page.evaluate("window.__marker = 'no reload'")
    loads = fetched.documents()
    shot(page, "entry-start.png")
    for team in (0, 1):  # one screen: every value button in view without a scroll (waited for: a refresh
        expect(value_button(page, team, 12)).to_be_in_viewport(ratio=1)  # may draw the buttons again meanwhile)

    # a double tap (two taps 60 ms apart) records one hand and says nothing alarming
    page.evaluate("""() => { const b = document.querySelector("#values .col[data-team='0'] button[data-value='3']");
                             b.click(); setTimeout(() => b.click(), 60); }""")
    expect(page.locator("#pts0")).to_have_text("3")
    past_double_tap(page, 200)
    settled(page)
    assert _hands(match) == [(1, 1, 0, 3)]
    expect(page.locator("#msg")).not_to_have_class("bad")
    for team, value in ((0, 3), (0, 3), (1, 3), (1, 3), (1, 1), (0, 1)):
        enter_hand(page, team, value)
    expect(page.locator("#pts0")).to_have_text("10")
    expect(page.locator("#pts1")).to_have_text("7")
    expect(page.locator("#last li")).to_have_count(3)
    expect(page.locator("#last li").last).to_contain_text("Partida 1 · mão 7")   # each entry says its game
    # the penalty form below follows: its "expect" is the súmula's position now
    assert page.locator("form[action$='/penalidade/'] input[name=expect]").input_value() == "1:7"
    expect(page.locator("#report-hint")).to_contain_text("Duda Melo")  # hand 8: seat 3
    enter_hand(page, 0, 1)                                                  # 11 × 7: mão de onze
    eleven = page.locator("#values .col[data-team='0'] button.v")
    expect(eleven).to_have_count(1)
    assert "truco" not in eleven.inner_text() and "onze" in eleven.inner_text()
    shot(page, "entry-eleven.png")
    eleven.tap()
    expect(page.locator("#msg")).to_have_text("Partida 1: Os Zapeiros 12 × 7")
    expect(page.locator("#where")).to_contain_text("Partida 2")        # and play goes on
    expect(page.locator("#pts0")).to_have_text("0")
    expect(page.locator("#games0")).to_have_text("partidas ganhas: 1")
    expect(page.locator(".sumula > .meta").first).to_contain_text("1–0")    # the rest of the page followed
    shot(page, "entry-game-won.png")
    assert page.evaluate("window.__marker") == "no reload" and fetched.documents() == loads

    for _ in range(4):                                                # game 2: 12 × 0, the match
        enter_hand(page, 0, 3)
    expect(page.locator("#msg")).to_have_text("Partida 2: Os Zapeiros 12 × 0")
    expect(page.locator("#where")).to_have_text("Jogo encerrado")
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("#signing .result")).to_contain_text("Os Zapeiros")  # signing, swapped in
    expect(page.locator("#signing form[action$='/assinar/']")).to_have_count(2)
    shot(page, "entry-match-over.png", full_page=True)
    assert page.evaluate("window.__marker") == "no reload" and fetched.documents() == loads
    scripts = fetched.count("lancamento.js")
    assert scripts == 1  # the parts swapped in never start the page's script again
    expect(page.locator("#undo")).to_have_count(1)
    assert "nada foi feito" not in page.content()
    hands = _hands(match)
    assert [(g, n) for g, n, *_ in hands] == [(1, n) for n in range(1, 10)] + [(2, n) for n in range(1, 5)]
    match.refresh_from_db()
    assert match.winner == 0 and (match.games_a, match.games_b) == (2, 0)


def test_a_device_behind_is_told_in_portuguese(live_server, browser, match3):
    from playwright.sync_api import expect

    from django.contrib.auth import get_user_model

    from scoring import services

    match = match3
    url = f"{live_server.url}/sumulas/partida/{match.pk}/"
    page = phone_context(browser, clock=True, fresh=True).new_page()  # sent at once: the server refuses it
    _login(page, url)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)          # no poll from here: this phone stays behind
    page.wait_for_load_state("networkidle")  # nor one still on its way, which would bring the other device's hand
    organizer = get_user_model().objects.get(username="organizadora")
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 1}, organizer)  # another device
    enter_hand(page, 0, 3, settle=False)                                    # refused: it stays on the phone
    expect(page.locator("#msg")).to_contain_text("outro")
    expect(page.locator("#msg")).to_have_class("bad")
    expect(page.locator("#pts1")).to_have_text("1")                  # the page caught up
    expect(page.locator("#pts0")).to_have_text("0")
    # the hand of this phone is kept, marked, until the referee chooses
    expect(page.locator("#conflict")).to_contain_text("Partida 1 · mão 1")
    expect(page.locator("#last li.conflict")).to_have_count(1)
    shot(page, "entry-behind.png")
    assert _hands(match) == [(1, 1, 1, 1)]
    page.locator("#conflict button.after").tap()                     # "send mine after it"
    expect(page.locator("#pts0")).to_have_text("3")
    expect(page.locator("#conflict")).to_be_hidden()
    expect(page.locator("#msg")).to_contain_text("Mão 2 lançada")    # said once the server confirmed it
    assert _hands(match) == [(1, 1, 1, 1), (1, 2, 0, 3)]


def test_an_expired_session_keeps_the_hand_and_sends_it_after_the_login(live_server, browser, match3):
    from playwright.sync_api import expect

    match = match3
    page, url = _one_hand_then_expired(live_server, browser, match)
    enter_hand(page, 1, 1, settle=False)                                    # refused: it waits for the login
    expect(page.locator("#relogin")).to_be_visible()
    expect(page.locator("#relogin")).to_contain_text("sessão")
    expect(page.locator("#last li.pending")).to_have_count(1)
    shot(page, "entry-expired.png")
    assert _hands(match) == [(1, 1, 0, 3)]
    page.locator("#relogin a").tap()
    page.fill("#id_username", "arbitra")
    page.fill("#id_password", "ref-secret")
    page.click("form.login button[type=submit]")
    page.wait_for_url(url)
    expect(page.locator("#pts1")).to_have_text("1")                   # sent after the login, once
    expect(page.locator("#last li.pending")).to_have_count(0)
    assert _hands(match) == [(1, 1, 0, 3), (1, 2, 1, 1)]


def test_without_javascript_the_plain_form_records_the_hand(live_server, browser, match3):
    from playwright.sync_api import expect

    match = match3
    url = f"{live_server.url}/sumulas/partida/{match.pk}/"
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="pt-BR", java_script_enabled=False)
    page = context.new_page()
    _login(page, url)
    expect(page.locator("#live")).to_be_hidden()
    form = page.locator("#hand-form")
    form.locator("label.tap", has_text="Os Zapeiros").click()
    form.locator("button[name='value'][value='3']").click()
    page.wait_for_load_state()
    expect(page.locator(".pts[data-team='0']")).to_have_text("3")
    shot(page, "entry-no-js.png")
    assert _hands(match) == [(1, 1, 0, 3)]


def test_an_undo_after_the_session_expired_shows_the_login_notice(live_server, browser, match3):
    """Never a developer's message ("credentials were not provided") for an expired session."""
    from playwright.sync_api import expect

    match = match3
    page, _ = _one_hand_then_expired(live_server, browser, match)
    page.locator("#undo").tap()
    expect(page.locator("#relogin")).to_be_visible()
    expect(page.locator("#relogin")).to_contain_text("sessão")
    assert "credenciais" not in page.inner_text("body").lower()
    assert _hands(match) == [(1, 1, 0, 3)]                             # nothing undone without a login
