"""On a phone (390 px): a finished tournament's dashboard shows the champion, the placings and the exports,
links the results sheet (a PDF) and "Criar outro igual", which opens the new-tournament page filled with
that event's format (its name and date left to type). Screenshot under $TRUCO_SHOTS/finished-390.png."""
from __future__ import annotations

import pytest

from .conftest import phone_context, shot, sign_in
from .test_organizer_taps import Count

pytestmark = pytest.mark.browser


@pytest.fixture
def finished_tournament(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from tests.tournaments import factories as f
    from tests.tournaments import pages_fixtures as pf
    from tournaments import services
    from tournaments.models import Pair, Tournament

    organizer = f.organizer("organizadora", password="org-secret", first_name="Olga")
    t = Tournament.objects.create(name="Copa de Outubro", slug="copa-de-outubro", organizer=organizer,
                                  organization=organizer.organization_roles.get().organization,
                                  date="2026-10-31", venue="Clube Sete de Ouros", status=Tournament.Status.REGISTRATION)
    for a, b in (("Ana", "Bia"), ("Caio", "Davi"), ("Edu", "Fábio"), ("Gil", "Hugo")):
        services.register_pair(t, organizer, name=f"Dupla {a}", first_player={"name": f"{a} Souza"},
                               second_player={"name": f"{b} Lima"}, status=Pair.Status.CONFIRMED)
    services.configure_stage(t, organizer, format="single_elimination", third_place=True)
    services.generate_first_round(t, organizer)
    pf.play_all(t, organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_the_finished_dashboard_on_a_phone(live_server, browser, finished_tournament):
    from playwright.sync_api import expect

    from draw.models import Stage
    from tournaments import services
    from tournaments.models import Tournament

    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "organizadora", "org-secret")
    page.goto(f"{live_server.url}/torneios/{finished_tournament.slug}/painel/")
    finished = page.get_by_test_id("finished")
    champion = services.standings(finished_tournament).rows[0].pair.name
    expect(finished).to_contain_text(f"Campeã: {champion}")
    expect(finished.get_by_test_id("results-sheet")).to_be_visible()
    expect(finished.get_by_test_id("placings-link")).to_be_visible()
    expect(page.get_by_test_id("draw")).to_have_count(0)
    expect(page.get_by_test_id("next-round")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finished.scroll_into_view_if_needed()
    shot(page, "finished-390.png")
    sheet = page.request.get(live_server.url + finished.get_by_test_id("results-sheet").get_attribute("href"))
    assert sheet.status == 200 and sheet.headers["content-type"] == "application/pdf"
    n = Count(page)
    with page.expect_navigation():
        n.tap(finished.get_by_test_id("create-like"))
    expect(page.locator("#id_format")).to_have_value("single_elimination")
    expect(page.locator("#id_third_place")).to_be_checked()
    expect(page.locator("#id_venue")).to_have_value("Clube Sete de Ouros")
    expect(page.locator("#id_name")).to_have_value("")
    expect(page.locator("#id_name")).to_be_focused()
    n.type(page.locator("#id_name"), "Copa de Novembro")
    n.type(page.locator("#id_date"), "2026-11-28")
    with page.expect_navigation():
        n.tap(page.locator('[data-testid="new-tournament"] button[type=submit]'))
    expect(page.locator("h1")).to_have_text("Copa de Novembro")
    # "like last month's" from the finished dashboard: 3 taps and 3 loads (creating from scratch: 10 and 2)
    assert (n.taps, n.loads) == (3, 3), (n.taps, n.loads)
    made = Tournament.objects.get(name="Copa de Novembro")
    assert Stage.objects.get(tournament=made).third_place and made.venue == "Clube Sete de Ouros"
    # from the new-tournament page itself: "Igual a…" (open, choose; the page reloads filled)
    page.goto(f"{live_server.url}/torneios/novo/")
    n = Count(page)
    with page.expect_navigation():
        n.choose(page.locator("#id_como"), finished_tournament.slug)
    expect(page.get_by_test_id("like-source")).to_contain_text("Copa de Outubro")
    expect(page.locator("#id_third_place")).to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "new-like-390.png")
    assert (n.taps, n.loads) == (2, 1), (n.taps, n.loads)


def test_the_finished_pages_have_no_serious_or_moderate_violation(live_server, browser, finished_tournament):
    from .test_accessibility import STRICT, violations

    page = phone_context(browser, bypass_csp=True).new_page()  # axe goes in as an inline script
    sign_in(page, live_server.url, "organizadora", "org-secret")
    found = {}
    for path in (f"/torneios/{finished_tournament.slug}/painel/", f"/torneios/novo/?como={finished_tournament.slug}"):
        page.goto(live_server.url + path)
        bad = violations(page, STRICT)
        if bad:
            found[path] = bad
    assert not found, found
