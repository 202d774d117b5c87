"""The whole story of an event's money, as its "done when" says: 10 pairs sign up with fees, 7 pay
(3 by a bank statement import, 4 by one tap), 1 goes unpaid past the deadline and gives its place to
the waiting list, 1 withdraws with a refund; the event is played (single elimination, no
third-place match: the two semi-final losers share 3rd) and the prizes are split as configured
(the pool on top of 1st, the tie for 3rd splitting 3rd and 4th with the odd centavo to the earlier
sign-up); the statement balances to the centavo, and the bank lines imported add up to the payments
they made."""
from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from events.models import Pair, SignUp, Tournament
from finance import deadline, services
from finance.models import BankLine, Entry, Movement
from tests.finance.statement_files import ofx
from tests.finance.test_deadline import signed_up
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services as tournaments
from tournaments.services import signup_review as review


def waiting(t) -> int:
    """Sign-ups ready and waiting for a place."""
    return SignUp.objects.filter(tournament=t, ready_at__isnull=False, pair__isnull=True,
                                 refused_at__isnull=True).count()

pytestmark = pytest.mark.django_db
D = Decimal


def test_ten_pairs_seven_pay_one_late_one_withdraws_prizes_and_the_books(client, settings, mailoutbox,
                                                                         django_capture_on_commit_callbacks):
    settings.EMAIL_CONFIGURED = True
    boss = f.organizer("ana")
    t = f.tournament(boss, slug="gaucho")
    review.configure_signup(t, boss, open=True, pair_limit=8, waiting_list=True, deadline=None,
                             approval_required=False)
    ten = signed_up(t, 10)
    assert Pair.objects.filter(tournament=t).count() == 8 and waiting(t) == 2
    pay_by = timezone.now() + datetime.timedelta(minutes=10)
    client.force_login(boss)
    money = reverse("finance:money", kwargs={"slug": t.slug})
    assert client.post(money, {"action": "fees", "price": "120,00", "basis": "pair", "pix_key": "truco@clube.org",
                               "pix_name": "Clube Gaúcho", "pix_city": "Porto Alegre", "refund": "partial",
                               "refund_percent": "50", "pool_percent": "10", "early_until": "",
                               "pay_by": timezone.localtime(pay_by).strftime("%Y-%m-%dT%H:%M")}).status_code == 302
    assert client.post(money, {"action": "charge"}).status_code == 302
    entry = {s.pair.name: Entry.objects.get(pair=s.pair) for s in ten[:8]}
    assert len(entry) == 8 and {e.amount for e in entry.values()} == {D("120.00")}

    # 3 pay by the bank statement: one by its txid, one by the amount and a player's name, one the
    # organizer decides among the pairs owing R$120; the bank's fee is not the event's
    statement = ofx([("20261120", "120.00", "B1", f"PIX RECEBIDO FULANO {entry['Dupla 0'].txid}"),
                     ("20261120", "120.00", "B2", "PIX RECEBIDO ANA1 SOUZA"),
                     ("20261121", "120.00", "B3", "PIX RECEBIDO TIO DA DUPLA"),
                     ("20261121", "-12.90", "B4", "TARIFA PIX")])
    page = reverse("finance:statement", kwargs={"slug": t.slug})
    preview = client.post(page, {"statement": SimpleUploadedFile("extrato.ofx", statement)})
    states = [p.state for p in preview.context["proposals"]]
    assert states == ["matched", "matched", "ambiguous", "debit"]
    picks = {f"pick-{p.line.key}": "1" for p in preview.context["proposals"] if p.state == "matched"}
    picks["pick-fitid:B3"] = str(entry["Dupla 2"].pk)
    assert client.post(page, {"action": "confirm", "lines": preview.context["signed"], **picks}).status_code == 302
    again = client.post(page, {"statement": SimpleUploadedFile("extrato.ofx", statement)})
    assert [p.state for p in again.context["proposals"]] == ["done", "done", "done", "debit"]  # nothing twice
    # 4 pay by one tap (a second tap records nothing)
    for name in ("Dupla 3", "Dupla 4", "Dupla 5", "Dupla 6"):
        assert client.post(money, {"action": "paid", "entry": entry[name].pk}).status_code == 302
    client.post(money, {"action": "paid", "entry": entry["Dupla 3"].pk})
    assert Movement.objects.filter(entry__tournament=t, kind="payment").count() == 7
    assert Movement.objects.filter(entry__tournament=t, method="bank").count() == 3

    # the deadline passes: Dupla 7 never paid and gives its place to the first waiting (Dupla 8)
    assert deadline.release_unpaid(t, boss) == []
    with django_capture_on_commit_callbacks(execute=True):
        moved = deadline.release_unpaid(t, boss, pay_by + datetime.timedelta(hours=1))
    assert [p.name for p in moved] == ["Dupla 7"]
    assert Pair.objects.get(name="Dupla 7", tournament=t).status == Pair.Status.WITHDRAWN
    assert SignUp.objects.get(pk=ten[8].pk).pair.status == Pair.Status.CONFIRMED
    assert [m.to for m in mailoutbox if "lista de espera" in m.subject or "waiting list" in m.subject] == [
        ["ana7@example.org"]]
    # Dupla 6 (paid) withdraws: half back, as the event's policy says; its place to Dupla 9
    tournaments.withdraw_pair(entry["Dupla 6"].pair, boss, "desistiu")
    assert client.post(money, {"action": "refund", "entry": entry["Dupla 6"].pk}).status_code == 302
    assert client.post(money, {"action": "refund", "entry": entry["Dupla 6"].pk}).status_code == 302  # once
    assert SignUp.objects.get(pk=ten[9].pk).pair.status == Pair.Status.CONFIRMED
    assert client.post(money, {"action": "charge"}).status_code == 302  # the pairs that came in
    assert Entry.objects.filter(tournament=t).count() == 10

    # the day: 8 pairs, single elimination without a third-place match
    tournaments.configure_stage(t, boss, format="single_elimination", third_place=False)
    tournaments.generate_first_round(t, boss)
    pf.play_all(t, boss)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    for place, amount in [(1, "500"), (2, "250"), (3, "100,01"), (4, "50")]:
        assert client.post(money, {"action": "prize", "place": place, "money": amount,
                                   "pool_percent": "100" if place == 1 else "0"}).status_code == 302
    shares = services.prize_shares(t)
    by_place = {}
    for s in shares:
        by_place.setdefault(s.place, []).append(s)
    # collected 7 × 120 − 60 = 780; the pool is 10%: 78, all of it to 1st
    assert services.collected(t) == D("780.00") and services.prize_pool(t) == D("78.00")
    assert [s.money for s in by_place[1]] == [D("578.00")] and [s.money for s in by_place[2]] == [D("250.00")]
    thirds = sorted(by_place[3], key=lambda s: s.pair)  # the earlier sign-up (lower id) first
    assert len(thirds) == 2 and [s.money for s in thirds] == [D("75.01"), D("75.00")]
    assert 4 not in by_place
    for s in shares:
        assert client.post(money, {"action": "payout", "pair": s.pair, "place": s.place, "amount": str(s.money),
                                   "paid_to": "pix da dupla"}).status_code == 302

    books = services.statement(t)
    assert books.due == D("960.00")  # the 8 pairs still in (6 paid, the 2 that came from the waiting list)
    assert books.owed == D("240.00")
    assert books.paid == D("840.00") and books.refunded == D("60.00") and books.refunds_due == D("0.00")
    assert books.prizes_paid == D("578.00") + D("250.00") + D("75.01") + D("75.00") == D("978.01")
    assert books.balance == D("840.00") - D("60.00") - D("978.01") == D("-198.01")
    # the books agree with the rows they are made of, to the centavo
    rows = Movement.objects.filter(entry__tournament=t)
    assert rows.filter(kind="payment").aggregate(s=Sum("amount"))["s"] == books.paid
    assert BankLine.objects.filter(tournament=t).aggregate(s=Sum("amount"))["s"] == \
        rows.filter(method="bank").aggregate(s=Sum("amount"))["s"] == D("360.00")
    html = client.get(money).content.decode()
    assert "-198,01" in html or "−198,01" in html
