"""On a phone: the organizer's start page and the tournament's dashboard list a player locked out of
their PIN, with the table, and one tap unlocks it. Screenshots under $TRUCO_SHOTS/."""
from __future__ import annotations


import pytest

from .conftest import phone_context, shot, sign_in

pytestmark = pytest.mark.browser


def test_the_organizer_sees_the_lockout_and_unlocks_it(live_server, browser, sumula_match):
    from playwright.sync_api import expect

    from scoring import services
    from scoring.models import CredentialAttempts

    match = sumula_match
    for _ in range(4):
        services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, match.referee)
    for _ in range(5):
        with pytest.raises(services.Forbidden):
            services.sign(match, "team0", match.pair_a.first_player, pin="0000", client="ip:10.9.9.9")
    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "organizadora", "org-secret")
    lock = page.locator(".pin-lockout")
    expect(lock).to_contain_text("Mesa 4")
    expect(lock).to_contain_text("Ana Souza")
    expect(page.get_by_test_id("waiting")).to_contain_text("1 jogador com o PIN bloqueado")
    shot(page, "organizer-home-lockout.png", full_page=True)

    page.goto(f"{live_server.url}/torneios/{match.tournament.slug}/painel/")
    expect(page.locator("#pin-lockouts .pin-lockout")).to_contain_text("Ana Souza")
    shot(page, "dashboard-lockout.png")
    page.locator("#pin-lockouts button").click()
    page.wait_for_load_state()
    expect(page.locator("#pin-lockouts")).to_have_count(0)
    assert page.url.endswith("/painel/")
    assert not CredentialAttempts.objects.filter(locked_until__isnull=False).exists()
