"""On a phone: the organizer's start page and the tournament's dashboard list a player locked out of
their PIN, with the table, and one tap unlocks it. Screenshots under $TRUCO_SHOTS/."""
from __future__ import annotations


import pytest

from .conftest import phone_context, shot, sign_in

pytestmark = pytest.mark.browser


def test_the_organizer_sees_the_lockout_and_unlocks_it(lan_server, browser, sumula_match):
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
    sign_in(page, lan_server.url, "organizadora", "org-secret")
    lock = page.locator(".pin-lockout")
    expect(lock).to_contain_text("Mesa 4")
    expect(lock).to_contain_text("Ana Souza")
    expect(page.get_by_test_id("waiting")).to_contain_text("1 jogador com o PIN bloqueado")
    shot(page, "organizer-home-lockout.png", full_page=True)

    page.goto(f"{lan_server.url}/torneios/{match.tournament.slug}/painel/")
    expect(page.locator("#pin-lockouts .pin-lockout")).to_contain_text("Ana Souza")
    shot(page, "dashboard-lockout.png")
    page.locator("#pin-lockouts button").click()
    page.wait_for_load_state()
    expect(page.locator("#pin-lockouts")).to_have_count(0)
    assert page.url.endswith("/painel/")
    assert not CredentialAttempts.objects.filter(locked_until__isnull=False).exists()


def _table_phone(browser, lan_server, token, width: int):
    from .conftest import phone_context

    page = phone_context(browser).new_page()
    page.set_viewport_size({"width": width, "height": 640})
    page.goto(f"{lan_server.url}/mesa/{token}/")
    page.locator("#signing form").first.wait_for()
    return page


def _sign_ana(page, pin: str):
    form = page.locator('#signing form[data-team="0"]')
    form.locator('select[name="player"]').select_option(label="Ana Souza")
    form.locator('input[name="pin"]').fill(pin)
    form.locator("button").click()


def test_the_opponents_phone_locked_out_leaves_the_players_own_phone_signing(lan_server, browser, sumula_match):
    """Two phones on one table, one address (the same Wi-Fi): the opponent types six wrong PINs for Ana on
    theirs; the table page sends its device cookie to the API, so only that phone is locked out, each refusal
    says the tries left, and Ana signs at once on her own phone."""
    from playwright.sync_api import expect

    from scoring import pins, services
    from tables import links as table_links
    from scoring.models import CredentialAttempts, Signature

    match = sumula_match
    for _ in range(4):
        services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, match.referee)
    token = table_links.ensure_links([match])[match.pk].token
    own = _table_phone(browser, lan_server, token, 390)        # Ana's phone, at the table from the start
    opponents = _table_phone(browser, lan_server, token, 320)  # the opponent's, a cheap one
    message = opponents.locator("#msg")
    for n in range(pins.PER_CLIENT_LIMIT):
        _sign_ana(opponents, f"90000{n}")
        left = pins.PER_CLIENT_LIMIT - n - 1
        expect(message).to_contain_text(f"{left} tentativa" if left else "Nenhuma tentativa restante")
    shot(opponents, "lockout-opponents-phone-320.png")
    _sign_ana(opponents, "1111")   # even the right PIN: this phone waits
    expect(message).to_contain_text("neste aparelho")
    clients = set(CredentialAttempts.objects.exclude(client=pins.EVERY_CLIENT).values_list("client", flat=True))
    assert all(c.startswith(("dev:", "addr:")) for c in clients), clients   # the cookie reached /api/

    _sign_ana(own, "1111")
    expect(own.locator("#msg")).to_contain_text("Ana Souza")
    assert Signature.objects.filter(role="team0", player__name="Ana Souza").exists()
    shot(own, "lockout-own-phone-signed-390.png")


def test_the_table_pages_signing_preselects_nobody_names_in_full_and_clears_a_wrong_pin(lan_server, browser,
                                                                                          sumula_match):
    from playwright.sync_api import expect

    from scoring import services
    from tables import links as table_links

    match = sumula_match
    for _ in range(4):
        services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, match.referee)
    page = _table_phone(browser, lan_server, table_links.ensure_links([match])[match.pk].token, 320)
    form = page.locator('#signing form[data-team="0"]')
    select = form.locator('select[name="player"]')
    assert select.evaluate("s => s.value") == ""   # nobody preselected
    assert select.evaluate("s => s.getBoundingClientRect().width") >= 200   # room for "Ana Souza" in full
    shot(page.locator("#signing"), "table-signing-320.png")
    _sign_ana(page, "000000")
    expect(page.locator("#msg")).to_contain_text("4 tentativas restantes")
    expect(form.locator('input[name="pin"]')).to_have_value("")


@pytest.mark.parametrize("width", [320, 390])
def test_the_signing_step_names_every_player_in_full_and_preselects_nobody(lan_server, browser, sumula_match, width):
    from playwright.sync_api import expect

    from scoring import services

    match = sumula_match
    for _ in range(4):
        services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, match.referee)
    page = phone_context(browser).new_page()
    page.set_viewport_size({"width": width, "height": 640})
    sign_in(page, lan_server.url, "arbitra", "ref-secret", f"/sumulas/partida/{match.pk}/assinar/")
    signers = page.get_by_test_id("signers").first
    expect(signers).to_contain_text("Ana Souza")
    expect(page.locator('#signing input[name="player"]:checked')).to_have_count(0)
    for name in ("Ana Souza", "Beto Lima"):
        label = signers.locator(".tap span", has_text=name)
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth && e.getClientRects().length === 1")
        box = label.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= width
    form = page.locator('#signing form[action$="/assinar/"]').first
    form.locator(".tap", has_text="Ana Souza").click()
    form.locator('input[name="pin"]').fill("0000")
    form.locator("button.value").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text("4 tentativas restantes")
    expect(page.locator('#signing input[name="pin"]').first).to_have_value("")
    page.get_by_test_id("signers").first.scroll_into_view_if_needed()
    shot(page, f"signing-step-{width}.png")
