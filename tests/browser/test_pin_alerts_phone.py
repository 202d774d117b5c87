"""On a phone: the pair sees the failed attempts on their PINs, the organizer unlocks a PIN and
countersigns in the referee's place with a reason. Screenshot: $TRUCO_SHOTS/pin-alerts-phone.png."""
from __future__ import annotations

import pytest

from .conftest import log_in, phone_context, shot

pytestmark = pytest.mark.browser


def test_alerts_unlock_and_countersign_in_place(live_server, browser, sumula_match):
    from playwright.sync_api import expect

    from scoring import services
    from scoring.models import Match, MatchEvent

    match = sumula_match
    for team in (0, 0, 0, 0):
        services.record_hand(match, {"winner": team, "ended_by": "tricks", "value": 3}, match.referee)
    for _ in range(3):
        with pytest.raises(services.Forbidden):
            services.sign(match, "team0", match.pair_a.first_player, pin="0000", client="ip:10.9.9.9")
    services.sign(match, "team0", match.pair_a.first_player, pin="1111", client="ip:10.0.0.1")
    services.sign(match, "team1", match.pair_b.first_player, pin="3333", client="ip:10.0.0.1")

    page = phone_context(browser).new_page()
    page.goto(f"{live_server.url}/sumulas/partida/{match.pk}/assinar/")
    expect(page.locator(".pin-alert")).to_contain_text("Ana Souza")
    page.goto(f"{live_server.url}/entrar/?next=/sumulas/partida/{match.pk}/assinar/")
    log_in(page, "organizadora", "org-secret")
    page.wait_for_load_state()
    form = page.locator('form[action$="/contra-assinar/"]')
    form.locator('input[name="reason"]').fill("A árbitra saiu do clube")
    shot(page, "pin-alerts-phone.png", full_page=True)
    form.locator("button").click()
    page.wait_for_load_state()
    page.locator('form[action$="/desbloquear-pin/"] button').click()
    page.wait_for_load_state()
    expect(page.locator(".pin-alert")).to_have_count(0)
    event = MatchEvent.objects.get(match=match, kind="signature", data__role="referee")
    assert event.data["reason"] == "A árbitra saiu do clube"
    assert Match.objects.get(pk=match.pk).status == "signed"
