"""The money pages: the organizer's (fees, charge, one-tap paid, refund, prizes, totals) and the
player's Pix page reached from the pair's page; strangers get 403, a pair without a fee 404."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Pair
from finance import pix, services
from finance.models import Entry, Movement, Payout
from tests.tournaments.factories import organizer, pairs, tournament, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    boss = organizer("ana")
    t = tournament(boss)
    pairs(t, 3)
    client.force_login(boss)
    return boss, t


def url(t):
    return reverse("finance:money", kwargs={"slug": t.slug})


def post(client, t, **data):
    return client.post(url(t), data)


def test_the_organizer_sets_fees_charges_marks_paid_and_sees_the_totals(client, event):
    boss, t = event
    answer = post(client, t, action="fees", price="120,50".replace(",", "."), basis="pair", pix_key="+55 11 94321-4321",
                  pix_name="Clube São Carlos", pix_city="São Carlos", refund="full", refund_percent="100",
                  pool_percent="0", early_until="", pay_by="2026-11-30T20:00")
    assert answer.status_code == 302
    assert post(client, t, action="charge").status_code == 302
    entries = list(Entry.objects.filter(tournament=t))
    assert len(entries) == 3
    for _twice in range(2):  # one tap; a second is harmless
        assert post(client, t, action="paid", entry=entries[0].pk).status_code == 302
    assert Movement.objects.count() == 1
    page = client.get(url(t))
    text = page.content.decode()
    assert page.status_code == 200
    assert "R$ 361,50" in text and "R$ 120,50" in text  # due, paid (pt-BR)
    assert entries[1].txid in text
    history = text.split('data-testid="money-history"')[1]
    assert "Pagamento" in history and "Inscrição alterada" in history and "ana" in history


def test_bad_fees_come_back_naming_the_field(client, event):
    _boss, t = event
    answer = post(client, t, action="fees", price="120", pix_key="123", pix_name="x", pix_city="y")
    assert answer.status_code == 400 and "pix_key" in answer.content.decode()


def test_prizes_are_set_and_paid_from_the_page(client, event):
    boss, t = event
    assert post(client, t, action="prize", place="1", money="300", item="Troféu").status_code == 302
    pair = Pair.objects.filter(tournament=t).first()
    assert post(client, t, action="payout", pair=pair.pk, place="1", amount="300.00", item="Troféu").status_code == 302
    assert Payout.objects.get().amount == Decimal("300.00")
    assert post(client, t, action="payout", pair=pair.pk, place="1", amount="300.00").status_code == 409


def test_strangers_get_403_and_visitors_log_in(client, event):
    _boss, t = event
    client.logout()
    assert client.get(url(t)).status_code == 302
    client.force_login(user("zé"))
    assert client.get(url(t)).status_code == 403
    assert post(client, t, action="charge").status_code == 403


def test_the_player_pays_from_the_pair_page(client, event):
    boss, t = event
    services.set_fees(t, boss, price="120", pix_key="tesouraria@clube.com.br", pix_name="Clube", pix_city="Campinas")
    entry = services.charge_pairs(t, boss)[0]
    pair_page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": entry.pair_id})).content.decode()
    pay_url = reverse("finance:pay", kwargs={"slug": t.slug, "pair": entry.pair_id})
    assert pay_url in pair_page
    client.logout()
    page = client.get(pay_url)
    code = page.context["code"]
    assert pix.parse(code).txid == entry.txid and pix.parse(code).amount == Decimal("120.00")
    assert code in page.content.decode() and "<svg" in page.content.decode()
    services.mark_paid(entry, boss)
    assert 'data-testid="pix-paid"' in client.get(pay_url).content.decode()
    other = Pair.objects.filter(tournament=t).exclude(pk=entry.pair_id).first()
    Entry.objects.filter(pair=other).delete()
    assert client.get(reverse("finance:pay", kwargs={"slug": t.slug, "pair": other.pk})).status_code == 404


def test_a_finished_event_s_prizes_follow_its_final_standings(client):
    from tests.tournaments import pages_fixtures as pf
    from tournaments.services.standings import standings

    boss = organizer("ana")
    t = pf.tournament(boss, pairs=4, third_place=True)
    pf.play_all(t, boss)
    t.refresh_from_db()
    for place, money in [(1, "300"), (2, "150"), (3, "70.01")]:
        services.set_prize(t, boss, place=place, money=money)
    rows = standings(t).rows
    shares = {s.pair: s.money for s in services.prize_shares(t)}
    assert shares[rows[0].pair.pk] == Decimal("300.00") and shares[rows[1].pair.pk] == Decimal("150.00")
    assert sum(shares.values()) == Decimal("520.01")
    client.force_login(boss)
    html = client.get(url(t)).content.decode()
    assert 'data-testid="shares"' in html and rows[0].pair.name in html
