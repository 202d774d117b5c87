"""A referee on a phone claims a tento in five taps from "Minhas mesas", counted: "Pedir tento" on the
match's card, who claims, the infraction (art. 24, a word of guidance), who committed it (the value in
play already chosen: the engine's), and "Confirmar a decisão" under the proposed ruling; then finds it on
the súmula entry page with its article. The organizer decides a case not covered (art. 26) from the
review list.

Drives Debian's chromium through Playwright (never ``playwright install``). Screenshots:
$TRUCO_SHOTS/referee-claim.png (the proposed ruling), $TRUCO_SHOTS/referee-claim-sumula.png (the súmula after it),
$TRUCO_SHOTS/referee-claim-infractions.png (tap 2, the catalog), $TRUCO_SHOTS/referee-tables.png (My tables),
$TRUCO_SHOTS/referee-history.png (the offending pair's rulings), $TRUCO_SHOTS/referee-review.png (the organizer decides a
caso omisso, art. 26), $TRUCO_SHOTS/referee-check.png (the hand checker's verdict).
"""
from __future__ import annotations

import json

import pytest

from .conftest import log_in, phone_context, shot

pytestmark = [pytest.mark.browser, pytest.mark.presentation]

COVERED_FIRST_TRICK = {  # seat 0 covers a card in the first trick (art. 11.1); the table wrote 1 to Os Zaps
    "dealer": 3, "vira": "4-ouros", "score": [6, 4],
    "deal": {"0": ["3-espadas", "2-copas", "4-paus"], "1": ["K-ouros", "7-copas", "6-paus"],
             "2": ["A-espadas", "Q-ouros", "6-copas"], "3": ["J-paus", "2-ouros", "7-espadas"]},
    "events": [{"seat": 0, "play": "3-espadas", "covered": True}, {"seat": 1, "play": "K-ouros"},
               {"seat": 2, "play": "6-copas"}, {"seat": 3, "play": "J-paus"}],
    "claimed": {"winner": 0, "points": 1},
}


@pytest.fixture
def claim_match(make_match):
    from scoring import services

    match = make_match(pair_names=("Os Zaps", "Copas"))
    for winner in (0, 1, 0):  # 6-3 after three hands of truco
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": 3}, match.referee)
    return match


def test_referee_claims_a_tento_in_five_taps(live_server, browser, claim_match):
    from playwright.sync_api import expect

    match = claim_match
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/arbitragem/")
    assert "/entrar/" in page.url
    log_in(page, "arbitra", "ref-secret")
    card = page.locator(f'.match-card[data-match="{match.pk}"]')
    expect(card).to_contain_text("Mesa 4")
    expect(card).to_contain_text("6 – 3")
    shot(page, "referee-tables.png", full_page=True)
    taps = 0

    def tap(locator) -> None:
        nonlocal taps
        taps += 1
        locator.click()

    tap(card.get_by_role("link", name="Pedir tento"))  # tap 1, from "Minhas mesas"
    tap(page.get_by_role("button", name="Copas"))  # tap 2: Copas claims
    shot(page, "referee-claim-infractions.png", full_page=True)
    tap(page.locator('button[name="code"][value="guidance_word"]'))  # tap 3: art. 24
    expect(page.locator("h2")).to_contain_text("art. 24")
    expect(page.locator('input[name="value"]:checked')).to_have_value("1")  # the value in play, preselected
    tap(page.get_by_role("button", name="Ana Souza"))  # tap 4: Ana said a word of guidance
    proposal = page.locator("#proposal")
    expect(proposal).to_contain_text("art. 24")
    expect(proposal).to_contain_text("Copas marca 1 — 6 a 4")
    expect(proposal).to_contain_text("Ana Souza")
    shot(page, "referee-claim.png", full_page=True)

    tap(page.get_by_role("button", name="Confirmar a decisão"))  # tap 5
    assert f"/sumulas/partida/{match.pk}/" in page.url
    assert taps <= 5, taps  # the bound for a tento claim (the table's "Mais…" form took 13)
    expect(page.locator("ul.messages")).to_contain_text("art. 24")
    expect(page.locator("ol.entries li.penalty").first).to_contain_text("art. 24")
    expect(page.locator('.pts[data-team="1"]')).to_have_text("4")
    shot(page, "referee-claim-sumula.png", full_page=True)

    page.goto(f"{live_server.url}/arbitragem/dupla/{match.pair_a_id}/")  # the pair's history shows it
    expect(page.locator("li.ruling.against").first).to_contain_text("art. 24")
    shot(page, "referee-history.png", full_page=True)

    page.goto(f"{live_server.url}/arbitragem/partida/{match.pk}/verificar-mao/")  # the hand checker
    page.locator("details.panel > summary").click()  # pasted JSON is folded under "for integrations"
    page.fill('textarea[name="report"]', json.dumps(COVERED_FIRST_TRICK))
    page.get_by_role("button", name="Verificar", exact=True).click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("art. 11.1")
    expect(verdict).to_contain_text("art. 25")  # the table wrote another result
    shot(page, "referee-check.png", full_page=True)
    context.close()


def test_organizer_decides_an_escalated_case_on_a_phone(live_server, browser, claim_match):
    from playwright.sync_api import expect

    from django.contrib.auth import get_user_model

    from referee import services

    match = claim_match
    referee = get_user_model().objects.get(username="arbitra")
    ruling = services.propose(match, 0, 1, "not_covered", {"description": "Celular tocou na mesa"}, referee)
    services.escalate(ruling, referee, "Celular tocou na mesa")
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/entrar/?next=/arbitragem/revisao/")
    log_in(page, "organizadora", "org-secret")
    card = page.locator(f"#ruling-{ruling.pk}")
    expect(card).to_contain_text("Celular tocou na mesa")
    card.locator("label.tap", has_text="Os Zaps").click()
    card.locator('input[name="points"]').fill("1")
    card.locator('input[name="reason"]').fill("Regra do clube: celular na mesa")
    shot(page, "referee-review.png", full_page=True)
    card.get_by_role("button", name="Decidir (art. 26)").click()
    expect(page.locator("ul.messages")).to_contain_text("Os Zaps marcam 1")
    page.goto(f"{live_server.url}/sumulas/partida/{match.pk}/")
    expect(page.locator("ol.entries li.penalty").first).to_contain_text("art. 26")
    context.close()
