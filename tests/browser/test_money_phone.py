"""The money pages on a 390 px phone: the organizer taps "Pago" on a pair and the totals move; the
player opens the Pix page from the pair's page and copies the code under the QR; nothing runs past
the screen's edge. Screenshots: $TRUCO_SHOTS/money-*.png."""
from __future__ import annotations

import datetime

import pytest

from .conftest import phone_context, shot, sign_in

pytestmark = pytest.mark.browser


def test_the_organizer_marks_paid_and_the_player_pays_by_pix(live_server, browser, transactional_db):
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from playwright.sync_api import expect

    from finance import pix, services
    from tournaments.models import Pair, Player, Tournament
    from tournaments.services.withdrawals import withdraw_pair

    org = get_user_model().objects.create_user("organizadora", password="senha-forte-1")
    t = Tournament.objects.create(name="Copa do Bar", slug="copa-do-bar", organizer=org,
                                  date=datetime.date(2026, 12, 5), status=Tournament.Status.REGISTRATION)
    names = ["Zap e Copas", "Os Manilhas", "Truco Seco", "Dupla do Bar", "Espadilha FC"]
    pairs = [Pair.objects.create(tournament=t, name=n, first_player=Player.objects.create(name=f"{n} 1"),
                                 second_player=Player.objects.create(name=f"{n} 2")) for n in names]
    services.set_fees(t, org, price="120", pix_key="+55 16 99123-4567", pix_name="Clube de Truco São Carlos",
                      pix_city="São Carlos", refund="partial", refund_percent=50, pool_percent=50,
                      pay_by=timezone.now() - datetime.timedelta(hours=2))
    entries = {e.pair_id: e for e in services.charge_pairs(t, org)}
    services.mark_paid(entries[pairs[0].pk], org)
    services.mark_paid(entries[pairs[4].pk], org)
    withdraw_pair(pairs[4], org, "desistiu")
    for place, money, item in [(1, "500", "Troféu"), (2, "250", ""), (3, "100", "")]:
        services.set_prize(t, org, place=place, money=money, item=item)

    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "organizadora", "senha-forte-1", "/torneios/copa-do-bar/painel/dinheiro/")
    expect(page.locator("[data-testid=balance]")).to_have_text("R$ 240,00")
    row = page.locator("[data-testid='entry-Os Manilhas']")
    expect(row).to_contain_text("não pagou no prazo")
    row.locator("[data-testid=mark-paid]").tap()
    expect(page.locator("[data-testid='entry-Os Manilhas']")).to_contain_text("pago")
    expect(page.locator("[data-testid=balance]")).to_have_text("R$ 360,00")
    page.locator("[data-testid='entry-Espadilha FC'] button").tap()  # half back, the event's policy
    expect(page.locator("[data-testid='entry-Espadilha FC']")).to_contain_text("devolvido R$ 60,00")
    expect(page.locator("[data-testid=balance]")).to_have_text("R$ 300,00")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "money-organizer-390.png", full_page=True)

    player = phone_context(browser).new_page()
    player.goto(f"{live_server.url}/torneios/copa-do-bar/duplas/{pairs[2].pk}/")
    player.locator("[data-testid=pair-pay] a").tap()
    expect(player.locator("[data-testid=pix-amount]")).to_have_text("R$ 120,00")
    code = player.locator("[data-testid=pix-code]").input_value()
    read = pix.parse(code)
    assert (read.key, str(read.amount), read.txid) == ("+5516991234567", "120.00", entries[pairs[2].pk].txid)
    expect(player.locator("svg.qr")).to_be_visible()
    player.locator("#pix-copy").tap()
    expect(player.locator("#pix-copy")).to_have_text("Copiado")
    assert player.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(player, "money-pay-390.png", full_page=True)
