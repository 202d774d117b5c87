"""The organizer's sign-ups page on 390 and 320 px phones: a refused flood is said at the top, a namesake
shows a button to link the registered player, a player no mail reaches shows the approval; nothing runs past
the screen's edge. Screenshots: $TRUCO_SHOTS/*.png."""
from __future__ import annotations

import datetime

import pytest

from .conftest import shot, sign_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [390, 320])
def test_the_organizer_sees_floods_and_links_a_namesake(live_server, browser, transactional_db, width):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from config.errors import Conflict
    from tournaments.models import Tournament
    from tournaments.services import signup as signups
    from tournaments.services import signup_review
    org = get_user_model().objects.create_user("organizadora", password="senha-forte-1")
    earlier = Tournament.objects.create(name="Antes", slug="antes", organizer=org, date=datetime.date(2026, 11, 1),
                                        status=Tournament.Status.REGISTRATION)
    t = Tournament.objects.create(name="Copa do Bar", slug="copa-do-bar", organizer=org,
                                  date=datetime.date(2026, 12, 5), status=Tournament.Status.REGISTRATION)
    for tournament in (earlier, t):
        signup_review.configure_signup(tournament, org, open=True, pair_limit=16, waiting_list=True, deadline=None,
                                 approval_required=False)
    old = signups.submit(earlier, submission="o" * 24, client="ip:10.0.0.2", pair_name="Velhos",
                         players=[{"name": "Ana Souza", "contact": "+55 41 99999-0000"},
                                  {"name": "Beto Lima", "contact": "+55 41 98888-0000"}])
    signup_review.approve(old, org)
    for n in range(signups.per_address_hour() + 2):
        try:
            signups.submit(t, submission=f"{n}" * 24, client="ip:203.0.113.5", pair_name=f"Dupla {n}",
                           players=[{"name": "Ana Souza" if n == 0 else f"Ana {n}", "contact": f"a{n}@example.org"},
                                    {"name": f"Bia {n}", "contact": "+55 41 97777-0000"}])
        except Conflict:
            pass
    page = browser.new_context(viewport={"width": width, "height": 844}, device_scale_factor=1, is_mobile=True,
                               has_touch=True, locale="pt-BR").new_page()
    sign_in(page, live_server.url, "organizadora", "senha-forte-1", "/torneios/copa-do-bar/painel/inscricoes/")
    expect(page.locator("[data-testid=signup-floods]")).to_be_visible()
    expect(page.locator("[data-testid=link-player]")).to_have_count(1)
    shot(page, f"organizer-signups-{width}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.click("[data-testid=link-player]")
    expect(page.locator("[data-testid=link-player]")).to_have_count(0)
    assert t.signups.get(pair_name="Dupla 0").players.get(position=0).player.name == "Ana Souza"
