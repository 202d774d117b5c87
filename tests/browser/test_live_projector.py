"""The projector view and the public standings update by themselves after an official result, with no
reload: the page polls the tournament's change marker (304 while nothing changed) and
fetches only its fragment when it moves.

Drives Debian's chromium through Playwright. Screenshots: $TRUCO_SHOTS/live-projector-tables.png,
$TRUCO_SHOTS/live-projector-bracket.png, $TRUCO_SHOTS/live-projector-standings.png (1920×1080), $TRUCO_SHOTS/live-pair.png,
$TRUCO_SHOTS/live-standings.png and $TRUCO_SHOTS/live-round.png (phone, 390×844).
"""
from __future__ import annotations

import pytest

from .conftest import phone_context, shot

pytestmark = pytest.mark.browser
SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture
def swiss(transactional_db):
    from tests.tournaments import pages_fixtures as pf

    org = pf.organizer()
    t = pf.tournament(org, "liga", pairs=12, format="swiss")
    pf.play_some(t, org, 2)
    return org, t


def test_projector_updates_after_a_result_without_reloading(live_server, browser, swiss):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf

    org, t = swiss
    context = browser.new_context(viewport=SCREEN, locale="pt-BR")
    page = context.new_page()
    documents, versions = [], []
    page.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)
    page.on("response", lambda r: versions.append(r.status) if "/versao/" in r.url else None)
    page.clock.install()  # the page's timers (the polls every 4 s) run when the test moves the clock
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=tables-1")
    page.evaluate("window.__sameDocument = true")
    match = pf.open_matches(t)[0]
    row = page.get_by_test_id(f"table-{match.pk}")
    expect(row).to_be_visible()
    expect(row.locator(".score")).to_have_text("")
    with page.expect_response(lambda r: "/versao/" in r.url and r.status == 304):
        page.clock.run_for(4_000)  # the next poll: nothing changed
    assert 304 in versions, versions
    shot(page, "live-projector-tables.png")

    pf.decide(match, org)  # official: the organizer's result, 12-7 in a single game
    page.clock.run_for(4_000)  # the next poll sees it
    expect(row.locator(".score")).to_have_text("12–7", timeout=10_000)
    expect(row.locator(".won")).to_have_text(match.pair_a.name)
    assert page.evaluate("window.__sameDocument") is True  # no reload
    assert len(documents) == 1, documents

    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=standings-1")
    expect(page.get_by_test_id("slide-standings-1")).to_be_visible()
    shot(page, "live-projector-standings.png")
    context.close()


def test_projector_cycles_through_the_bracket(live_server, browser, transactional_db):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf

    org = pf.organizer()
    t = pf.tournament(org, "copa", pairs=16)
    pf.play_some(t, org, 10)
    context = browser.new_context(viewport=SCREEN, locale="pt-BR")
    page = context.new_page()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=bracket")
    expect(page.get_by_test_id("slide-bracket")).to_be_visible()
    expect(page.get_by_test_id("slide-title")).to_have_text("Chave")
    shot(page, "live-projector-bracket.png")
    page.clock.install()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/")
    expect(page.get_by_test_id("slide-tables-1")).to_be_visible()
    seconds = int(page.locator("#slides").get_attribute("data-seconds"))
    page.clock.run_for(seconds * 1000)  # one slide's time
    expect(page.get_by_test_id("slide-bracket")).to_be_visible()  # it cycles
    context.close()


def test_standings_and_pair_page_on_a_phone(live_server, browser, swiss):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf

    org, t = swiss
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/torneios/{t.slug}/classificacao/")
    page.evaluate("window.__sameDocument = true")
    match = pf.open_matches(t)[0]
    winner_row = page.locator("table.standings tr", has_text=match.pair_a.name)
    expect(winner_row.locator("td").nth(3)).to_have_text("0")
    pf.decide(match, org)
    expect(winner_row.locator("td").nth(3)).to_have_text("1", timeout=10_000)
    assert page.evaluate("window.__sameDocument") is True
    shot(page, "live-standings.png", full_page=True)

    page.click(f"text={match.pair_a.name}")
    expect(page.get_by_test_id("pair")).to_contain_text(match.pair_a.first_player.name)
    expect(page.get_by_test_id("pair-matches")).to_contain_text("12–7")
    shot(page, "live-pair.png", full_page=True)

    page.goto(f"{live_server.url}/torneios/{t.slug}/rodadas/")
    expect(page.get_by_test_id("round-downloads")).to_contain_text("Mural da rodada (PDF)")
    shot(page, "live-round.png", full_page=True)
    context.close()
