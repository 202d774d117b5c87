"""The public sign-up on a 390 px phone: from the tournament's page to the form, the two
confirmation links, each player confirming on their link, the pair registered; nothing runs past the
screen's edge. Screenshots: $TRUCO_SHOTS/*.png.
"""
from __future__ import annotations

import datetime

import pytest

from .conftest import phone_context, shot

pytestmark = pytest.mark.browser


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_pair_signs_up_and_both_players_confirm_on_a_phone(live_server, browser, transactional_db):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from tournaments.models import Pair, Tournament
    from tournaments.services import signup as signups
    org = get_user_model().objects.create_user("organizadora", password="x")
    t = Tournament.objects.create(name="Copa do Bar", slug="copa-do-bar", organizer=org,
                                  date=datetime.date(2026, 12, 5), status=Tournament.Status.REGISTRATION)
    signups.configure_signup(t, org, open=True, pair_limit=16, waiting_list=True, deadline=None,
                             approval_required=False)
    page = phone_context(browser).new_page()
    page.goto(f"{live_server.url}/torneios/copa-do-bar/")
    page.click("[data-testid=signup-link]")
    page.fill("#signup_pair_name", "Os Zapeiros")
    page.fill("#signup_p0_name", "Ana Souza")
    page.fill("#signup_p0_contact", "(41) 99999-0000")
    page.fill("#signup_p1_name", "Beto Lima")
    shot(page, "form.png", full_page=True)
    assert _fits(page)
    page.click("[data-testid=signup-send]")
    expect(page.locator("[data-testid=signup-state]")).to_have_attribute("data-state", "confirmation")
    links = [page.input_value(f"#link-{i}") for i in (0, 1)]
    shot(page, "sent.png", full_page=True)
    assert _fits(page) and all("/inscricao/" in link for link in links)
    for link in links:  # each player on their own link
        page.goto(link)
        page.click("[data-testid=confirm]")
        expect(page.locator("[data-testid=confirmed]")).to_be_visible()
    expect(page.locator("[data-testid=signup-state]")).to_have_attribute("data-state", "registered")
    assert "99999" not in page.content()
    shot(page, "confirmed.png", full_page=True)
    assert _fits(page)
    assert Pair.objects.get(tournament=t).name == "Os Zapeiros"
