"""A referee enters a short match on a phone, both pairs sign with their PINs, the referee
countersigns; the súmula shows locked (art. 25) and its verification page shows it intact.

Drives Debian's chromium through Playwright (never ``playwright install``). Screenshots:
$TRUCO_SHOTS/sumula-phone.png (the signed súmula), $TRUCO_SHOTS/sumula-phone-entry.png (entering a mão de onze),
$TRUCO_SHOTS/sumula-phone-verify.png (the verification page).
"""
from __future__ import annotations

import pytest

from .conftest import enter_hand, log_in, phone_context, shot

pytestmark = pytest.mark.browser


def test_referee_enters_and_pairs_sign_on_a_phone(live_server, browser, sumula_match):
    from playwright.sync_api import expect

    match = sumula_match
    context = phone_context(browser, clock=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/sumulas/partida/{match.pk}/")
    assert "/entrar/" in page.url
    log_in(page, "arbitra", "ref-secret")
    expect(page.locator("h1")).to_contain_text("Os Zaps")

    # the entry screen: value buttons by pair, updated in place
    for team in (0, 1, 0, 0):
        enter_hand(page, team, 3)
    expect(page.locator("#pts0")).to_have_text("9")
    enter_hand(page, 0, 1)
    enter_hand(page, 0, 1)  # 11-3: mão de onze
    expect(page.locator("#pts0")).to_have_text("11")
    values = page.locator("#values button.v")
    expect(values).to_have_count(2)  # only what the engine allows (art. 18, 19): 3 for either pair
    assert values.all_inner_texts() == ["3 · mão de onze"] * 2
    page.locator("#endings button[data-ending='eleven_refused']").click()
    enabled = [b.get_attribute("data-value") for b in page.locator("#values button.v:enabled").all()]
    assert enabled == ["1"], enabled  # the pair facing the onze scores 1 when it is refused
    page.locator("#endings button[data-ending='tricks']").click()
    shot(page, "sumula-phone-entry.png", full_page=True)
    enter_hand(page, 0, 3)
    expect(page.locator("#signing .result")).to_contain_text("Os Zaps")

    for role, player, pin in (("team0", "Ana Souza", "1111"), ("team1", "Duda Melo", "4444")):
        signing = page.locator(f'form:has(input[name="role"][value="{role}"])')
        signing.locator("label.tap", has_text=player).click()
        signing.locator('input[name="pin"]').fill(pin)
        # the page that answers the signature, before the next pair's form is filled: a second submit
        # while the first is on its way would cancel its navigation (the first pair would not sign)
        with page.expect_navigation():
            signing.locator('button[type="submit"]').click()
    expect(page.locator(".status.signed").first).to_be_visible()
    with page.expect_navigation():
        page.locator('form[action$="/contra-assinar/"] button').click()
    expect(page.locator(".signed-ok")).to_have_count(3)
    expect(page.locator(".status.signed").first).to_be_visible()
    expect(page.locator("#signing")).to_contain_text("art. 25")
    assert not page.locator("#hand-form").count()
    shot(page, "sumula-phone.png", full_page=True)

    page.locator("#signing a.digest").click()
    page.wait_for_load_state()
    expect(page.locator("#verdict")).to_have_class("panel verdict-ok")
    expect(page.locator("#verdict")).to_contain_text("Os Zaps")
    expect(page.locator("table.doc").first).to_be_visible()
    shot(page, "sumula-phone-verify.png", full_page=True)

    from scoring.models import Match

    match = Match.objects.get(pk=match.pk)
    assert match.status == "signed" and match.winner == 0
    version = match.versions.get()
    assert {s.role for s in version.signatures.all()} == {"team0", "team1", "referee"}
    assert all(s.digest == version.digest for s in version.signatures.all())


def test_a_pin_typed_while_the_page_refreshes_its_signatures_is_kept(live_server, browser, make_match):
    """The page replaces its signing forms when the match changes (another pair signs, the referee
    enters from another phone): what a player typed or chose there is put back, never dropped (CI once
    lost a PIN typed between two such refreshes)."""
    from playwright.sync_api import expect

    from tests.scoring.sumula_setup import play

    match = make_match(pair_names=("Os Zaps", "Copas"))
    play(match, match.referee, 0, 0, 0)  # 9-0
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/sumulas/partida/{match.pk}/")
    log_in(page, "arbitra", "ref-secret")
    page.locator("#values .col[data-team='0'] button[data-value='3']").click()  # 12-0, on this page
    expect(page.locator("#signing .result")).to_contain_text("Os Zaps")
    signing = page.locator('form:has(input[name="role"][value="team0"])')
    signing.locator("label.tap", has_text="Beto Lima").click()
    signing.locator('input[name="pin"]').fill("2222")
    page.evaluate("window.trucoSumula.reloadParts()")  # a promise: awaited
    signing = page.locator('form:has(input[name="role"][value="team0"])')
    expect(signing.locator('input[name="pin"]')).to_have_value("2222")
    expect(signing.locator('input[type="radio"][value]:checked')).to_have_count(1)
    assert "Beto" in signing.locator("label.tap:has(input:checked)").inner_text()
    expect(signing.locator('input[name="pin"]')).to_be_focused()
    with page.expect_navigation():
        signing.locator('button[type="submit"]').click()
    expect(page.locator("#signing")).to_contain_text("Assinada por Beto Lima")  # the PIN kept was sent
    context.close()
