"""An event's money end to end: fees set with a Pix key, every pair charged with its own txid,
paid by one tap (twice is once), a withdrawn pair refunded as the policy says, the unpaid flagged
past the deadline, a prize table with a tie for 3rd, and the statement balancing to the centavo.
Only the event's organizers (and its organization's members) touch any of it."""
from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import Conflict, Forbidden
from events.models import OrganizationMember, Pair
from finance import pix, services
from finance.split import cents as split_cents
from finance.models import Entry, FeeSettings, Movement, MoneyError, Payout
from tests.tournaments.factories import organizer, pairs, tournament, user

pytestmark = pytest.mark.django_db
D = Decimal
CPF = "529.982.247-25"


@pytest.fixture
def event():
    boss = organizer("ana")
    t = tournament(boss, organization=boss.organization_roles.get().organization)
    return boss, t


def fees(t, boss, **extra):
    values = dict(price="120", pix_key=CPF, pix_name="Clube de Truco São Carlos", pix_city="São Carlos")
    return services.set_fees(t, boss, **{**values, **extra})


def withdraw(pair):
    from tournaments.services.withdrawals import withdraw_pair

    withdraw_pair(pair, pair.tournament.organizer, "desistiu")
    pair.refresh_from_db()


def test_ten_pairs_seven_paid_one_late_one_withdrawn_and_the_books_balance(event):
    boss, t = event
    now = timezone.now()
    fees(t, boss, refund="partial", refund_percent=50, pool_percent=50, pay_by=now - datetime.timedelta(hours=1))
    ten = pairs(t, 10)
    entries = services.charge_pairs(t, boss)
    assert len(entries) == 10 and len({e.txid for e in entries}) == 10
    assert all(e.amount == D("120.00") for e in entries)
    assert services.charge_pairs(t, boss) == []  # once per pair
    by_pair = {e.pair_id: e for e in entries}
    for p in ten[:8]:  # 7 stay in and paid; the 8th pays and then withdraws
        assert services.mark_paid(by_pair[p.pk], boss) is not None
    assert services.mark_paid(by_pair[ten[0].pk], boss) is None  # a second tap records nothing
    withdraw(ten[7])
    refund = services.refund_withdrawal(by_pair[ten[7].pk], boss, note="desistiu")
    assert refund.amount == D("60.00")  # the event's policy: half back
    assert services.refund_withdrawal(by_pair[ten[7].pk], boss) is None
    # ten[8] and ten[9] never paid: past the deadline both are flagged (ten[8] is the one that
    # goes behind the waiting list; the move itself is the sign-up's)
    assert {p.pk for p in services.overdue(t)} == {ten[8].pk, ten[9].pk}
    assert services.overdue(t, now=now - datetime.timedelta(days=1)) == []

    for place, money in [(1, "300"), (2, "150"), (3, "70"), (4, "30.01")]:
        services.set_prize(t, boss, place=place, money=money)
    services.set_prize(t, boss, place=1, money="300", pool_percent=100, item="Troféu")
    # collected: 8 × 120 − 60 = 900; the pool is half: 450, all to 1st
    assert services.collected(t) == D("900.00") and services.prize_pool(t) == D("450.00")
    placings = [(ten[0].pk, 1), (ten[1].pk, 2), (ten[2].pk, 3), (ten[3].pk, 3), (ten[4].pk, 5)]
    shares = {s.pair: s for s in services.prize_shares(t, placings)}
    assert shares[ten[0].pk].money == D("750.00") and shares[ten[0].pk].items == ("Troféu",)
    # the tie for 3rd splits 3rd and 4th (R$100.01): the odd centavo to the earlier sign-up
    assert (shares[ten[2].pk].money, shares[ten[3].pk].money) == (D("50.01"), D("50.00"))
    for s in shares.values():
        services.record_payout(t, boss, pair=Pair.objects.get(pk=s.pair), place=s.place, amount=s.money,
                               item=", ".join(s.items), paid_to="pix da dupla")
    with pytest.raises(Conflict):
        services.record_payout(t, boss, pair=ten[0], place=1, amount="1")

    books = services.statement(t)
    assert books.due == D("1080.00")  # nine pairs still in
    assert books.owed == D("240.00")  # two unpaid
    assert books.paid == D("960.00") and books.refunded == D("60.00") and books.refunds_due == D("0.00")
    assert books.prizes_paid == D("750.00") + D("150.00") + D("100.01")
    assert books.balance == books.paid - books.refunded - books.prizes_paid == D("-100.01")


def test_the_late_price_and_per_player_fees(event):
    boss, t = event
    cut = timezone.now()
    fees(t, boss, price="50", late_price="60", early_until=cut, basis="player")
    early = pairs(t, 1, registered_at=cut - datetime.timedelta(days=1))[0]
    late = pairs(t, 1, registered_at=cut + datetime.timedelta(minutes=1))[0]
    amounts = {e.pair_id: e.amount for e in services.charge_pairs(t, boss)}
    assert amounts == {early.pk: D("100.00"), late.pk: D("120.00")}


def test_the_player_s_code_carries_the_key_the_amount_and_the_txid(event):
    boss, t = event
    fees(t, boss, price="120.50")
    entry = services.charge_pairs(t, boss) if pairs(t, 1) else None
    code = services.brcode(entry[0])
    read = pix.parse(code)
    assert (read.key, read.amount, read.txid, read.name, read.city) == (
        "52998224725", D("120.50"), entry[0].txid, "Clube de Truco Sao Carlos", "Sao Carlos")


@pytest.mark.parametrize(("field", "values"), [
    ("pix_key", {"pix_key": "123"}), ("price", {"price": "12.345"}), ("price", {"price": "-1"}),
    ("pix_name", {"pix_name": "★"}), ("refund_percent", {"refund": "partial", "refund_percent": 150}),
    ("early_until", {"late_price": "130"}), ("pool_percent", {"pool_percent": "101"}),
])
def test_bad_fees_name_the_field(event, field, values):
    boss, t = event
    with pytest.raises(services.MoneyRefused) as error:
        fees(t, boss, **values)
    assert error.value.field == field


def test_only_the_event_s_organizers_touch_its_money(event):
    boss, t = event
    fees(t, boss)
    pairs(t, 1)
    entry = services.charge_pairs(t, boss)[0]
    stranger, other_club = user("zé"), organizer("bia")
    for outsider in (stranger, other_club):
        for action in (lambda u: services.mark_paid(entry, u), lambda u: services.charge_pairs(t, u),
                       lambda u: fees(t, u), lambda u: services.set_prize(t, u, place=1, money="10")):
            with pytest.raises(Forbidden):
                action(outsider)
    member = user("caio")
    OrganizationMember.objects.create(organization=t.organization, user=member)
    assert services.mark_paid(Entry.objects.get(pk=entry.pk), member).by == member  # the organization's members do


def test_payments_and_payouts_are_written_once(event):
    boss, t = event
    fees(t, boss)
    pair = pairs(t, 1)[0]
    payment = services.mark_paid(services.charge_pairs(t, boss)[0], boss)
    payment.note = "changed"
    with pytest.raises(MoneyError):
        payment.save()
    with pytest.raises(MoneyError):
        payment.delete()
    payout = services.record_payout(t, boss, pair=pair, place=1, amount="10")
    with pytest.raises(MoneyError):
        payout.delete()
    assert Movement.objects.count() == 1 and Payout.objects.count() == 1


def test_the_database_refuses_bad_amounts_and_txids(event):
    boss, t = event
    pair = pairs(t, 1)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=t, pair=pair, amount=D("0"), txid="A1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=t, pair=pair, amount=D("10"), txid="com-hifen")
    with pytest.raises(IntegrityError), transaction.atomic():
        FeeSettings.objects.create(tournament=t, price=D("-1"), pix_key=CPF, pix_name="x", pix_city="y")


def test_refunds_follow_the_policy_and_only_for_withdrawn_pairs(event):
    boss, t = event
    fees(t, boss, refund="none")
    pair = pairs(t, 1)[0]
    entry = services.charge_pairs(t, boss)[0]
    services.mark_paid(entry, boss)
    with pytest.raises(Conflict):
        services.refund_withdrawal(entry, boss)
    withdraw(pair)
    assert services.refund_withdrawal(entry, boss) is None  # the policy: no refund
    fees(t, boss, refund="full")
    assert services.refund_withdrawal(entry, boss).amount == D("120.00")


def test_amounts_typed_the_brazilian_way(event):
    boss, t = event
    assert fees(t, boss, price="1.500,50", pool_percent="12,5").price == D("1500.50")
    assert services.set_prize(t, boss, place=1, money="700,00").money == D("700.00")
    with pytest.raises(services.MoneyRefused) as error:
        services.set_prize(t, boss, place=2, money="10", pool_percent="muito")
    assert error.value.field == "pool_percent"
    for bad in ("NaN", "1e99", "-1"):
        with pytest.raises(services.MoneyRefused) as error:
            fees(t, boss, pool_percent=bad)
        assert error.value.field == "pool_percent"


@pytest.mark.skipif(not __import__("os").environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="the append-only trigger is PostgreSQL's (SQLite keeps the Python guard)")
def test_postgresql_refuses_to_rewrite_or_delete_a_payment(event):
    boss, t = event
    fees(t, boss)
    pairs(t, 1)
    payment = services.mark_paid(services.charge_pairs(t, boss)[0], boss)
    with pytest.raises(IntegrityError), transaction.atomic():
        Movement.objects.filter(pk=payment.pk).update(amount=D("1.00"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Movement.objects.filter(pk=payment.pk).delete()


@settings(max_examples=15)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=6),
       st.sampled_from(["full", "partial", "none"]), st.integers(0, 100),
       st.decimals(min_value=D("0.01"), max_value=D("999.99"), places=2))
def test_the_books_always_balance_to_the_centavo(django_db_blocker, plan, policy, percent, price):
    """Any mix of paid, tapped twice, withdrawn and refunded: the totals are the sums of the rows,
    and a refund never exceeds what the pair paid."""
    with django_db_blocker.unblock(), transaction.atomic():
        boss = organizer(f"org{abs(hash((tuple(plan), policy, percent, price)))}")
        t = tournament(boss, slug=f"t{boss.pk}")
        fees(t, boss, price=price, refund=policy, refund_percent=percent)
        made = pairs(t, len(plan))
        entries = services.charge_pairs(t, boss)
        for entry, pair, (pays, twice, leaves) in zip(entries, made, plan):
            if pays:
                services.mark_paid(entry, boss)
                if twice:
                    services.mark_paid(entry, boss)
            if leaves:
                withdraw(pair)
                services.refund_withdrawal(entry, boss)
        books = services.statement(t)
        paid_in = sum(1 for pays, _twice, _leaves in plan if pays) * price
        assert books.paid == paid_in
        assert books.due == sum(1 for *_x, leaves in plan if not leaves) * price
        back = {"full": 100, "none": 0}.get(policy, percent)
        assert books.refunded == sum(1 for pays, _t, leaves in plan if pays and leaves) * split_cents(price * back / 100)
        assert books.refunds_due == 0 and books.balance == books.paid - books.refunded
        transaction.set_rollback(True)


def test_changes_of_the_fees_and_prizes_are_recorded_with_before_and_after(event):
    from finance.models import Change

    boss, t = event
    fees(t, boss)
    fees(t, boss)  # the same again: nothing changed, nothing recorded
    fees(t, boss, price="130")
    services.set_prize(t, boss, place=1, money="300")
    services.set_prize(t, boss, place=1)  # removed
    got = [(c.what, c.before and c.before.get("price", c.before.get("money")),
            c.after and c.after.get("price", c.after.get("money")), c.by) for c in Change.objects.all()]
    assert got == [("fees", None, "120.00", boss), ("fees", "120.00", "130.00", boss),
                   ("prize", None, "300.00", boss), ("prize", "300.00", None, boss)]
    with pytest.raises(MoneyError):
        Change.objects.first().delete()
