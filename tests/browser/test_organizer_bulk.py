"""Where the organizer's day went tap by tap, on a phone (390×844): 8 pairs typed in one field (one tap on the
field, one to send: before, 4 taps a pair) and checked in with one "Todas presentes" (before, one tap a pair),
the focus then on the draw; axe finds nothing serious or moderate on either state of the dashboard.

Screenshots: $TRUCO_SHOTS/organizer-typed-pairs.png, $TRUCO_SHOTS/organizer-all-present.png.
"""
from __future__ import annotations

import pytest

from .conftest import phone_context, shot, sign_in
from .test_accessibility import STRICT, violations

pytestmark = [pytest.mark.browser, pytest.mark.presentation]
PAIRS = [("Zap", "Ana Souza", "Beto Lima"), ("Copas", "Caio Reis", "Duda Melo"),
         ("Espadilha", "Edu Prado", "Fábio Luz"), ("Pica-fumo", "Gil Ramos", "Hugo Dias"),
         ("Manilha", "Ivo Nunes", "Jair Costa"), ("Sete-belo", "Kátia Lins", "Lia Moura"),
         ("Truco", "Mara Dutra", "Nei Paiva"), ("Retruco", "Otávio Sá", "Paula Rios")]


def test_eight_pairs_typed_and_checked_in_in_four_taps(live_server, browser, transactional_db, settings):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from tests.tournaments import factories as f
    from tournaments import services
    from tournaments.models import CheckIn, Pair

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    org = get_user_model().objects.create_user("olga", password="truco-demo", is_staff=True)
    t = f.tournament(org, slug="copa-da-porta", check_in_required=True)
    services.configure_stage(t, org, format="swiss")
    context = phone_context(browser, bypass_csp=True)  # axe goes in as an inline script
    page = context.new_page()
    sign_in(page, live_server.url, "olga", next_url=f"/torneios/{t.slug}/painel/")
    taps = 0

    page.locator("details:has([data-testid=typed-pairs-form]) > summary").click()
    taps += 1
    page.locator("#pairs-text").fill("\n".join("; ".join(line) for line in PAIRS))
    taps += 1  # the field (typing is not a tap)
    page.get_by_test_id("typed-pairs-form").get_by_role("button").click()  # posted in the background
    taps += 1
    expect(page.locator(".messages")).to_contain_text("8 duplas cadastradas")
    assert Pair.objects.filter(tournament=t).count() == 8
    shot(page, "organizer-typed-pairs.png", full_page=False)
    assert not violations(page, STRICT)

    everyone = page.get_by_test_id("checkin-all")
    expect(everyone).to_contain_text("Todas presentes: as 8 duplas")
    everyone.click()
    taps += 1
    expect(page.locator("#checkin [aria-pressed=true]")).to_have_count(8)
    expect(page.get_by_test_id("checkin-all")).to_have_count(0)
    expect(page.get_by_test_id("draw")).to_be_focused()  # the next thing to do
    assert CheckIn.objects.filter(round__tournament=t).count() == 8
    shot(page, "organizer-all-present.png", full_page=False)
    assert not violations(page, STRICT)
    print(f"8 pairs typed and checked in: {taps} taps (before: 8 × 4 + 8 = 40)")
    assert taps <= 4
    context.close()
