"""The organizer's confirmations and the table's claims in the browser, on a phone: an irreversible action
asks first, naming its consequence ("Cancel" sends nothing, "OK" records the W.O.); a claim filed at a table
reaches the referee's "Minhas mesas" and is rejected there with a reason.
Screenshot: $TRUCO_SHOTS/referee-claims.png."""
from __future__ import annotations

import pytest

from .conftest import PINS, log_in, phone_context, shot

pytestmark = pytest.mark.browser


def test_a_walkover_asks_first_and_cancel_sends_nothing(live_server, browser, transactional_db, settings):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf
    from tournaments.models import Result

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    org = pf.organizer("olga")
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    page = phone_context(browser).new_page()
    page.goto(f"{live_server.url}/entrar/?next=/torneios/{t.slug}/painel/")
    log_in(page, "olga", "x")
    row = page.locator(f"#match-{match.pk}")
    row.locator("summary", has_text="W.O.").click()
    form = row.get_by_test_id("walkover-form")
    form.locator("input[type=radio]").first.check()
    form.locator("input[name=reason]").fill("não compareceu")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    form.locator("button[type=submit]").click()
    page.wait_for_timeout(300)  # a dismissed dialog sends nothing: nothing to wait for but time
    assert asked and "W.O." in asked[0] and not Result.objects.filter(match=match).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    form.locator("button[type=submit]").click()
    # the row turns into a decided W.O. in place (its fold's "W.O." label was there before the answer)
    expect(page.locator(f"#match-{match.pk} .st-wo")).to_have_count(1)
    assert Result.objects.get(match=match).kind == "walkover"


def test_the_referee_rejects_a_claim_from_my_tables(live_server, browser, make_match):
    from playwright.sync_api import expect

    from referee import services
    from referee.models import Ruling

    match = make_match(pair_names=("Os Zaps", "Copas"))
    player = match.pair_b.first_player
    ruling = services.propose(match, 1, 0, "guidance_word", {"value": 1}, None, player=player, pin=PINS[player.name])
    page = phone_context(browser).new_page()
    page.goto(f"{live_server.url}/arbitragem/")
    log_in(page, "arbitra", "ref-secret")
    claim = page.locator(f'[data-ruling="{ruling.pk}"]')
    expect(claim).to_contain_text("art. 24")
    expect(page.get_by_test_id("nav-tables")).to_contain_text("1")
    shot(page, "referee-claims.png", full_page=True)
    claim.get_by_label("Motivo, se o pedido não procede").fill("Ninguém à mesa ouviu.")
    claim.get_by_role("button", name="Rejeitar o pedido").click()
    expect(page.locator("body")).to_contain_text("Pedido rejeitado")
    expect(page.locator(f'[data-ruling="{ruling.pk}"]')).to_have_count(0)
    assert Ruling.objects.get(pk=ruling.pk).status == "rejected"
