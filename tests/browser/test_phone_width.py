"""Every page a table, a referee or an organizer uses fits a phone: at 360 px wide nothing
scrolls sideways (``document.documentElement.scrollWidth <= window.innerWidth``), with long pair names, a
best-of-3 match under way (the games won, labelled, beside the game's tentos) and the entries marked with
their game.

Screenshots (one per page, full page): $TRUCO_SHOTS/w360-<page>.png.
"""
from __future__ import annotations


import pytest

from .conftest import log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.presentation]
WIDTH = 360
LONG_NAMES = ("Os Zapeiros do Sul Unidos", "Copas e Espadas da Vila Nova")


@pytest.fixture
def busy_match(make_match):
    """A best-of-3 match with long pair names, its first game won by the second pair, the second under way."""
    from django.contrib.auth import get_user_model

    from scoring import services
    from tables import links as table_links
    match = make_match(pair_names=LONG_NAMES, best_of=3)
    organizer = get_user_model().objects.get(username="organizadora")
    for _ in range(4):
        services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, organizer)
    for winner, value in ((0, 1), (1, 3), (0, 6)):
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": value}, organizer)
    return match, table_links.ensure_links([match])[match.pk]


def _too_wide(page) -> str | None:
    sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if sizes[0] <= sizes[1]:
        return None
    # name the widest element, to say what to fix
    culprit = page.evaluate("""() => { let worst = null, right = window.innerWidth;
        for (const el of document.querySelectorAll('body *')) { const r = el.getBoundingClientRect();
          if (r.width && r.right > right + 0.5) { right = r.right; worst = el; } }
        return worst ? worst.tagName.toLowerCase() + (worst.id ? '#' + worst.id : '') +
          (worst.className && typeof worst.className === 'string' ? '.' + worst.className.split(' ').join('.') : '') +
          ' → ' + Math.round(right) + 'px' : ''; }""")
    return f"{sizes[0]} px wide ({culprit})"


def _note(page, name: str, wide: dict) -> None:
    """Records in ``wide``, under ``name``, that the page as it is now is wider than the screen."""
    problem = _too_wide(page)
    if problem:
        wide[name] = problem


def _tables_stick_out(page) -> list[str]:
    """Tables wider than the box around them (the page may clip them, so its width alone does not tell)."""
    return page.evaluate("""() => [...document.querySelectorAll('table')].flatMap(t => {
        const box = t.parentElement.getBoundingClientRect(), r = t.getBoundingClientRect();
        return r.right > box.right + 0.5 ? [t.className + ' → ' + Math.round(r.right) + '/' + Math.round(box.right)] : []; })""")


def _check(page, base: str, pages: dict[str, str], wide: dict) -> None:
    for name, path in pages.items():
        page.goto(base + path)  # "load": the pages are drawn on the server; their polls change no width
        shot(page, f"w{WIDTH}-{name}.png", full_page=True)
        _note(page, f"{name} {path}", wide)


def test_the_pages_of_the_day_fit_a_360_px_phone(live_server, browser, busy_match):
    from playwright.sync_api import expect

    match, link = busy_match
    slug, pk = match.tournament.slug, match.pk
    viewport = {"width": WIDTH, "height": 740}
    wide: dict[str, str] = {}

    # the table: its page, the score labelled, the entries with their game, "Mais…" and the full list open
    table = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True, has_touch=True,
                                locale="pt-BR").new_page()
    table.goto(f"{live_server.url}/mesa/{link.token}/")
    expect(table.locator("#games1")).to_have_text("partidas ganhas: 1")
    expect(table.locator("#pts0")).to_have_text("7")
    expect(table.locator("#last li").first).to_contain_text("Partida 2 · mão")
    shot(table, f"w{WIDTH}-table.png", full_page=True)
    _note(table, "table", wide)
    table.locator("#all-box > summary").click()
    expect(table.locator("#all details[data-game]")).to_have_count(2)
    table.locator("#all details[data-game='1'] > summary").click()
    expect(table.locator("#all ul.entries li")).to_have_count(7)
    shot(table, f"w{WIDTH}-table-all.png", full_page=True)
    _note(table, "table, all entries", wide)
    table.locator("#more-btn").click()
    shot(table, f"w{WIDTH}-table-more.png", full_page=True)
    _note(table, "table, Mais…", wide)

    # the referee: start page, tables and calls, the súmula entry page, signing, claim, hand check, review
    referee = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True, locale="pt-BR").new_page()
    referee.goto(f"{live_server.url}/entrar/")
    log_in(referee, "arbitra", "ref-secret")
    referee.wait_for_load_state()
    _check(referee, live_server.url, {
        "referee-start": "/inicio/", "referee-tables": "/arbitragem/", "referee-entry": f"/sumulas/partida/{pk}/",
        "referee-sign": f"/sumulas/partida/{pk}/assinar/", "referee-claim": f"/arbitragem/partida/{pk}/tento/",
        "referee-check-hand": f"/arbitragem/partida/{pk}/verificar-mao/",         "referee-pair": f"/arbitragem/dupla/{match.pair_a_id}/", "referee-sumulas": "/sumulas/",
    }, wide)

    # the organizer: start page, dashboard (pairs, check-in, tables: one page), review, the súmula entry page, signing
    organizer = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True, locale="pt-BR").new_page()
    organizer.goto(f"{live_server.url}/entrar/")
    log_in(organizer, "organizadora", "org-secret")
    organizer.wait_for_load_state()
    _check(organizer, live_server.url, {
        "organizer-home": "/meus-torneios/", "organizer-dashboard": f"/torneios/{slug}/painel/",
        "organizer-review": "/arbitragem/revisao/", "organizer-entry": f"/sumulas/partida/{pk}/",
        "organizer-sign": f"/sumulas/partida/{pk}/assinar/", "organizer-round": f"/torneios/{slug}/rodadas/1/",
        "organizer-tables": "/arbitragem/",
    }, wide)
    assert not wide, wide


def test_the_public_pages_fit_a_320_px_phone_and_up(live_server, browser, make_match):
    """What a player opens from a printed súmula or a link: the súmula's verification page (its signatures'
    table once ended at 375 px), the player's page with a placing, the personal data link the organizer shows."""
    from django.contrib.auth import get_user_model

    from scoring import services
    from scoring.models import SumulaVersion
    from tests.browser.conftest import PINS

    match = make_match(pair_names=LONG_NAMES)
    organizer = get_user_model().objects.get(username="organizadora")
    for winner, value in ((1, 3), (0, 6), (0, 3), (0, 3)):
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": value}, organizer)
    match.refresh_from_db()
    services.sign(match, "team0", match.pair_a.first_player, pin=PINS[match.pair_a.first_player.name])
    match.refresh_from_db()
    services.sign(match, "team1", match.pair_b.second_player, pin=PINS[match.pair_b.second_player.name])
    match.refresh_from_db()
    services.countersign(match, match.referee)
    digest = SumulaVersion.objects.filter(match=match).order_by("-number").first().digest
    player = match.pair_a.first_player
    wide: dict[str, str] = {}
    for width in (320, WIDTH, 390):
        page = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True,
                                   locale="pt-BR").new_page()
        page.goto(f"{live_server.url}/sumulas/verificar/{digest}/")
        assert page.locator("#verdict").inner_text().count("✓") >= 1
        assert page.locator("table.doc").first.locator("tbody tr").count() == 3  # both pairs and the referee
        shot(page, f"w{width}-verify.png", full_page=True)
        _note(page, f"verify at {width}", wide)
        assert not _tables_stick_out(page), (width, _tables_stick_out(page))
        page.goto(f"{live_server.url}/jogadores/{player.pk}/")
        shot(page, f"w{width}-player.png", full_page=True)
        _note(page, f"player at {width}", wide)
        page.goto(f"{live_server.url}/entrar/?next=/jogadores/{player.pk}/")
        log_in(page, "organizadora", "org-secret")
        page.wait_for_url(f"**/jogadores/{player.pk}/")
        page.locator("form[action$='/link-dos-dados/'] button").click()
        page.get_by_test_id("data-link-qr").wait_for()
        shot(page, f"w{width}-data-link.png", full_page=True)
        _note(page, f"data link at {width}", wide)
        page.context.close()
    assert not wide, wide
