"""The public sign-up on 390 and 320 px phones: from the tournament's page to the form, no link shown to the
sender, the player with an e-mail confirming on the link mailed to them, the player with a phone confirmed
by the organizer, the pair registered; nothing runs past the screen's edge. Screenshots: $TRUCO_SHOTS/*.png.
"""
from __future__ import annotations

import datetime

import pytest

from .conftest import shot

pytestmark = pytest.mark.browser


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("width", [390, 320])
def test_a_pair_signs_up_and_both_players_confirm_on_a_phone(live_server, browser, transactional_db, settings,
                                                             width):
    import re

    from django.contrib.auth import get_user_model
    from django.core import mail
    from playwright.sync_api import expect

    from tournaments.models import Pair, Tournament
    from tournaments.services import signup_review
    org = get_user_model().objects.create_user("organizadora", password="x")
    t = Tournament.objects.create(name="Copa do Bar", slug="copa-do-bar", organizer=org,
                                  date=datetime.date(2026, 12, 5), status=Tournament.Status.REGISTRATION)
    signup_review.configure_signup(t, org, open=True, pair_limit=16, waiting_list=True, deadline=None,
                             approval_required=False)
    settings.EMAIL_CONFIGURED = True
    page = browser.new_context(viewport={"width": width, "height": 844}, device_scale_factor=1, is_mobile=True,
                               has_touch=True, locale="pt-BR").new_page()
    page.goto(f"{live_server.url}/torneios/copa-do-bar/")
    page.click("[data-testid=signup-link]")
    page.fill("#signup_pair_name", "Os Zapeiros")
    page.fill("#signup_p0_name", "Ana Souza")
    page.fill("#signup_p0_contact", "(41) 99999-0000")
    page.fill("#signup_p1_name", "Beto Lima")
    page.fill("#signup_p1_contact", "beto@example.org")
    shot(page, f"form-{width}.png", full_page=True)
    assert _fits(page)
    page.click("[data-testid=signup-send]")
    expect(page.locator("[data-testid=signup-state]")).to_have_attribute("data-state", "confirmation")
    shot(page, f"sent-{width}.png", full_page=True)
    assert _fits(page) and not re.search(r"/inscricao/[^/\"]{20,}/", page.content())  # the sender holds no link
    (sent,) = [m for m in mail.outbox if m.to == ["beto@example.org"]]
    link = re.search(r"https?://\S+/inscricao/\S+/", sent.body)[0]
    page.goto(link)  # Beto, on the link mailed to him
    page.click("[data-testid=confirm]")
    expect(page.locator("[data-testid=confirmed]")).to_be_visible()
    expect(page.locator("[data-testid=signup-state]")).to_have_attribute("data-state", "confirmation")
    signup_review.approve(t.signups.get(), org)  # Ana gave a phone: the organizer confirms her
    page.reload()
    expect(page.locator("[data-testid=signup-state]")).to_have_attribute("data-state", "registered")
    assert "99999" not in page.content()
    shot(page, f"confirmed-{width}.png", full_page=True)
    assert _fits(page)
    assert Pair.objects.get(tournament=t).name == "Os Zapeiros"
