"""The room monitor at 390 px and 1366 px with 30 tables in mixed states: screenshots in
$TRUCO_SHOTS/, and no page wider than the screen."""
from __future__ import annotations


import pytest

from tests.browser.conftest import shot, sign_in
from tests.referee.monitor_room import mixed_room
from tests.tournaments import factories as f



@pytest.mark.presentation
@pytest.mark.django_db(transaction=True)
def test_the_room_monitor_at_phone_and_laptop_width(live_server, browser):
    from playwright.sync_api import expect
    org = f.user("org")
    org.set_password("truco-demo")
    org.save()
    t = mixed_room(org, 30)
    for width, height in ((390, 844), (1366, 900)):
        page = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR").new_page()
        sign_in(page, live_server.url, "org", next_url=f"/torneios/{t.slug}/sala/")
        expect(page.locator("[data-testid=tile-1]")).to_have_attribute("data-state", "disputed")
        expect(page.locator(".tile")).to_have_count(30)
        shot(page, f"monitor-{width}.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
