"""The money pages on a 390 px phone: the organizer taps "Pago" on a pair and the totals move; the
player opens the Pix page from the pair's page and copies the code under the QR; nothing runs past
the screen's edge; the statement import, the Pix page and the receipt at 390 and 320 px.
Screenshots: $TRUCO_SHOTS/money-*.png."""
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
    shot(page, "money-organizer-taps-390.png", full_page=True)

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
    shot(player, "money-pay-copied-390.png", full_page=True)


@pytest.mark.parametrize("width", [390, 320])
def test_the_statement_import_the_deadline_and_the_receipt_on_a_phone(live_server, browser, transactional_db, width,
                                                                      tmp_path):
    """At 390 and 320 px: the organizer's money page (a pair late, the statement import's link),
    the import's preview (matched, to decide, a debit) confirmed, the player's Pix page (QR and code)
    and, once paid, its receipt (PDF, looked at as a phone shows it: fitted to the width)."""
    import base64
    import subprocess

    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from playwright.sync_api import expect

    from finance import services
    from tests.finance.statement_files import ofx
    from tournaments.models import Pair, Player, Tournament

    org = get_user_model().objects.create_user("organizadora", password="senha-forte-1")
    t = Tournament.objects.create(name="Copa do Bar", slug="copa-do-bar", organizer=org,
                                  date=datetime.date(2026, 12, 5), status=Tournament.Status.REGISTRATION)
    names = [("Zap e Copas", "João da Silva"), ("Os Manilhas", "Maria Souza"), ("Truco Seco", "Pedro Alves"),
             ("Dupla do Bar", "Rita Gomes"), ("Espadilha FC", "Caio Prado")]
    pairs = [Pair.objects.create(tournament=t, name=n, first_player=Player.objects.create(name=first),
                                 second_player=Player.objects.create(name=f"{first.split()[0]} Júnior"))
             for n, first in names]
    services.set_fees(t, org, price="120", pix_key="+55 16 99123-4567", pix_name="Clube de Truco São Carlos",
                      pix_city="São Carlos", pay_by=timezone.now() + datetime.timedelta(days=2))
    entries = {e.pair_id: e for e in services.charge_pairs(t, org)}
    services.mark_paid(entries[pairs[3].pk], org)
    for place, money, item in [(1, "500", "Troféu"), (2, "250", ""), (3, "100", "")]:
        services.set_prize(t, org, place=place, money=money, item=item)
    statement = tmp_path / "extrato-itau.ofx"
    statement.write_bytes(ofx([("20261120", "120.00", "I1", f"PIX RECEBIDO FULANO {entries[pairs[0].pk].txid}"),
                               ("20261120", "120.00", "I2", "PIX RECEBIDO MARIA SOUZA"),
                               ("20261121", "120.00", "I3", "PIX RECEBIDO SEM NOME"),
                               ("20261121", "-12.90", "I4", "TARIFA PIX")]))
    fits = f"document.documentElement.scrollWidth <= {width}"
    size = {"width": width, "height": 844 if width == 390 else 640}

    page = browser.new_context(viewport=size, device_scale_factor=1, is_mobile=True, has_touch=True,
                               locale="pt-BR").new_page()
    sign_in(page, live_server.url, "organizadora", "senha-forte-1", "/torneios/copa-do-bar/painel/dinheiro/")
    page.locator("[data-testid=statement-link]").tap()
    page.locator("#statement-file").set_input_files(str(statement))
    page.get_by_role("button", name="Ver as linhas").tap()
    expect(page.locator("[data-testid=line-matched]")).to_have_count(2)
    expect(page.locator("[data-testid=line-ambiguous]")).to_have_count(1)
    assert page.evaluate(fits)
    shot(page, f"money-statement-{width}.png", full_page=True)
    page.locator("[data-testid=statement-confirm]").tap()
    expect(page.locator("[data-testid=balance]")).to_have_text("R$ 360,00")
    assert page.evaluate(fits)
    shot(page, f"money-organizer-{width}.png", full_page=True)

    player = browser.new_context(viewport=size, device_scale_factor=1, is_mobile=True, has_touch=True,
                                 locale="pt-BR").new_page()
    player.goto(f"{live_server.url}/torneios/copa-do-bar/duplas/{pairs[2].pk}/pagar/")
    expect(player.locator("svg.qr")).to_be_visible()
    expect(player.locator("[data-testid=pix-code]")).to_be_visible()
    assert player.evaluate(fits)
    shot(player, f"money-pay-{width}.png", full_page=True)
    player.goto(f"{live_server.url}/torneios/copa-do-bar/duplas/{pairs[0].pk}/pagar/")
    expect(player.locator("[data-testid=pix-paid]")).to_be_visible()
    assert player.evaluate(fits)
    shot(player, f"money-paid-{width}.png", full_page=True)
    answer = player.request.get(live_server.url + player.locator("[data-testid=receipt-link]").get_attribute("href"))
    assert answer.ok and answer.headers["content-type"] == "application/pdf"
    (tmp_path / "recibo.pdf").write_bytes(answer.body())
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", str(tmp_path / "recibo.pdf"),
                    str(tmp_path / "recibo")], check=True)
    phone = browser.new_context(viewport=size, device_scale_factor=1).new_page()
    png = base64.b64encode((tmp_path / "recibo.png").read_bytes()).decode()
    phone.set_content(f'<body style="margin:0;background:#777"><img style="width:100%;display:block" '
                      f'src="data:image/png;base64,{png}"></body>')
    shot(phone, f"money-receipt-{width}.png", full_page=True)
    if width == 390:  # the page itself at 100 dpi, as pdftoppm renders it
        phone.set_viewport_size({"width": 827, "height": 1170})
        shot(phone, "money-receipt-100dpi.png", full_page=True)
