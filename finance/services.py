"""An event's money, the only write path (docs/money.md): set the fees, charge the pairs, mark a
charge paid (one tap, idempotent), refund a withdrawn pair as the event's policy says, flag the
unpaid past the deadline, set the prize table, work out each pair's prize and record it paid, and
the statement (due, paid, refunded, prizes, balance) to the centavo.

Every action asks :func:`events.access.manages` (the event's organizers and its organization's
members, or an operator); every payment, refund and payout is a new append-only row naming who
recorded it and when. The fees and prizes are the event's own policy: the regulation says nothing
about money.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from events import access
from events.models import Pair, Tournament

from . import pix, split
from .models import ZERO, Change, Entry, FeeSettings, Movement, Payout, Prize


class MoneyRefused(ServiceError):
    """Bad money input: ``field`` names it."""


def _require(user, tournament: Tournament) -> None:
    if not access.manages(user, tournament):
        raise Forbidden(_("Only the event's organizers see and touch its money."))


def typed(value):
    """What a Brazilian types (``1.500,50``, ``120,5``) as ``1500.50``; other values unchanged."""
    if isinstance(value, str) and "," in value:
        return value.strip().replace(".", "").replace(",", ".")
    return value


def _amount(value, field: str) -> Decimal:
    value = typed(value)
    try:
        amount = pix.money(value)
    except pix.PixError as error:
        raise MoneyRefused(_("Not an amount in reais to the centavo: %(value)s") % {"value": value}, field) from error
    if amount is None:
        raise MoneyRefused(_("The amount is missing."), field)
    return amount


def _percent(value, field: str) -> Decimal:
    try:
        percent = Decimal(str(typed(value) or 0)).quantize(Decimal("0.01"))
    except ArithmeticError:
        percent = None
    if percent is None or not percent.is_finite():
        raise MoneyRefused(_("Not a percentage: %(value)s") % {"value": value}, field)
    return percent


@transaction.atomic
def set_fees(tournament: Tournament, by, *, price, pix_key: str, pix_name: str, pix_city: str,
             basis: str = FeeSettings.Basis.PAIR, late_price=None, early_until=None, pay_by=None,
             refund: str = FeeSettings.Refund.FULL, refund_percent: int = 100, pool_percent=0) -> FeeSettings:
    """The event's fees and Pix receiver, checked (the Pix key of any kind, the name and city as a
    BR Code writes them). Charges already made keep their amount."""
    _require(by, tournament)
    try:
        receiver = pix.charge(key=pix_key, name=pix_name, city=pix_city)
    except pix.PixError as error:
        raise MoneyRefused(str(error).split(": ", 1)[1], {"name": "pix_name", "city": "pix_city"}.get(
            error.field, error.field)) from error
    if basis not in FeeSettings.Basis.values:
        raise MoneyRefused(_("Charge per pair or per player."), "basis")
    if refund not in FeeSettings.Refund.values:
        raise MoneyRefused(_("The refund is full, partial or none."), "refund")
    refund_percent = {"full": 100, "none": 0}.get(refund, refund_percent)
    if not 0 <= int(refund_percent) <= 100:
        raise MoneyRefused(_("A refund is between 0 and 100%."), "refund_percent")
    pool_percent = _percent(pool_percent, "pool_percent")
    if not 0 <= pool_percent <= 100:
        raise MoneyRefused(_("The prize pool is between 0 and 100% of the fees."), "pool_percent")
    values = dict(basis=basis, price=_amount(price, "price"),
                  late_price=_amount(late_price, "late_price") if late_price not in (None, "") else None,
                  early_until=early_until, pay_by=pay_by, pix_key=receiver.key, pix_name=receiver.name,
                  pix_city=receiver.city, refund=refund, refund_percent=int(refund_percent), pool_percent=pool_percent)
    if values["late_price"] is not None and early_until is None:
        raise MoneyRefused(_("A late price needs the date the early price ends."), "early_until")
    old = FeeSettings.objects.select_for_update().filter(tournament=tournament).first()
    fees, _created = FeeSettings.objects.update_or_create(tournament=tournament, defaults=values)
    _log(tournament, by, Change.What.FEES, _fees_json(old), _fees_json(fees))
    return fees


def _fees_json(fees: FeeSettings | None) -> dict | None:
    if fees is None:
        return None
    return {"basis": fees.basis, "price": str(fees.price), "late_price": _text(fees.late_price),
            "early_until": _text(fees.early_until and fees.early_until.isoformat()),
            "pay_by": _text(fees.pay_by and fees.pay_by.isoformat()), "pix_key": fees.pix_key,
            "pix_name": fees.pix_name, "pix_city": fees.pix_city, "refund": fees.refund,
            "refund_percent": fees.refund_percent, "pool_percent": str(fees.pool_percent)}


def _prize_json(prize: Prize | None) -> dict | None:
    if prize is None:
        return None
    return {"place": prize.place, "money": str(prize.money), "pool_percent": str(prize.pool_percent), "item": prize.item}


def _text(value) -> str | None:
    return None if value is None else str(value)


def _log(tournament: Tournament, by, what: str, before, after) -> None:
    if before != after:
        Change.objects.create(tournament=tournament, what=what, before=before, after=after, by=by)


def price_for(fees: FeeSettings, pair: Pair) -> Decimal:
    """The pair's fee: early or late by when it signed up, times its players when charged per player."""
    late = fees.late_price is not None and fees.early_until is not None and pair.registered_at > fees.early_until
    each = fees.late_price if late else fees.price
    players = 2 + (1 if pair.substitute_id else 0) if fees.basis == FeeSettings.Basis.PLAYER else 1
    return (each * players).quantize(Decimal("0.01"))


def txid_for(pair: Pair) -> str:
    """The pair's transaction id: letters and digits only, unique with the pair's id."""
    return f"TRUCO{pair.tournament_id}P{pair.pk}"


@transaction.atomic
def charge_pairs(tournament: Tournament, by) -> list[Entry]:
    """One charge for every pair still in (confirmed or awaiting) that has none; returns the new ones."""
    _require(by, tournament)
    fees = FeeSettings.objects.filter(tournament=tournament).first()
    if fees is None:
        raise Conflict(_("Set the event's fees first."), "price")
    pairs = (Pair.objects.filter(tournament=tournament, entry__isnull=True)
             .exclude(status=Pair.Status.WITHDRAWN).order_by("pk"))
    return [Entry.objects.create(tournament=tournament, pair=p, amount=price_for(fees, p), txid=txid_for(p))
            for p in pairs]


def paid(entry: Entry) -> Decimal:
    return entry.movements.filter(kind=Movement.Kind.PAYMENT).aggregate(s=Sum("amount"))["s"] or ZERO


def refunded(entry: Entry) -> Decimal:
    return entry.movements.filter(kind=Movement.Kind.REFUND).aggregate(s=Sum("amount"))["s"] or ZERO


@transaction.atomic
def mark_paid(entry: Entry, by, note: str = "") -> Movement | None:
    """The organizer saw the Pix arrive: the rest of the charge is paid, recorded by hand. Tapping
    twice records nothing more (returns ``None`` when it was already paid)."""
    _require(by, entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    owed = entry.amount - paid(entry)
    if owed <= 0:
        return None
    return Movement.objects.create(entry=entry, kind=Movement.Kind.PAYMENT, amount=owed, by=by,
                                   method=Movement.Method.HAND, note=note[:200])


def refund_due(entry: Entry, fees: FeeSettings | None) -> Decimal:
    """What a withdrawn pair gets back: the event's policy (full, partial %, none) of what it paid,
    rounded down to the centavo, less what was already refunded."""
    if fees is None or entry.pair.status != Pair.Status.WITHDRAWN:
        return ZERO
    percent = {"full": 100, "none": 0}.get(fees.refund, fees.refund_percent)
    return max(ZERO, split.cents(paid(entry) * percent / 100) - refunded(entry))


@transaction.atomic
def refund_withdrawal(entry: Entry, by, note: str = "") -> Movement | None:
    """Record the refund of a withdrawn pair as the policy says; once (``None``: nothing due)."""
    _require(by, entry.tournament)
    entry = Entry.objects.select_for_update().select_related("pair").get(pk=entry.pk)
    if entry.pair.status != Pair.Status.WITHDRAWN:
        raise Conflict(_("Only a withdrawn pair is refunded."), "pair")
    due = refund_due(entry, FeeSettings.objects.filter(tournament=entry.tournament_id).first())
    if due <= 0:
        return None
    return Movement.objects.create(entry=entry, kind=Movement.Kind.REFUND, amount=due, by=by, note=note[:200])


@dataclass(frozen=True)
class Line:
    """One pair's row on the money page."""

    entry: Entry
    paid: Decimal
    refunded: Decimal
    refund_due: Decimal
    overdue: bool

    @property
    def owed(self) -> Decimal:
        return ZERO if self.entry.pair.status == Pair.Status.WITHDRAWN else max(ZERO, self.entry.amount - self.paid)

    @property
    def is_paid(self) -> bool:
        return self.paid >= self.entry.amount


def lines(tournament: Tournament, now=None) -> list[Line]:
    """Every charge with what came in and went out; ``overdue``: unpaid, still in, past the deadline."""
    now = now or timezone.now()
    fees = FeeSettings.objects.filter(tournament=tournament).first()
    sums: dict[tuple[int, str], Decimal] = {}
    for row in (Movement.objects.filter(entry__tournament=tournament).values("entry", "kind")
                .annotate(s=Sum("amount")).order_by()):
        sums[(row["entry"], row["kind"])] = row["s"]
    result = []
    for entry in Entry.objects.filter(tournament=tournament).select_related("pair").order_by("pair__name", "pk"):
        got, back = sums.get((entry.pk, "payment"), ZERO), sums.get((entry.pk, "refund"), ZERO)
        late = bool(fees and fees.pay_by and now > fees.pay_by and got < entry.amount
                    and entry.pair.status != Pair.Status.WITHDRAWN)
        due_back = ZERO
        if fees and entry.pair.status == Pair.Status.WITHDRAWN:
            percent = {"full": 100, "none": 0}.get(fees.refund, fees.refund_percent)
            due_back = max(ZERO, split.cents(got * percent / 100) - back)
        result.append(Line(entry=entry, paid=got, refunded=back, refund_due=due_back, overdue=late))
    return result


def overdue(tournament: Tournament, now=None) -> list[Pair]:
    """The pairs still in whose fee is unpaid past the event's payment deadline."""
    return [line.entry.pair for line in lines(tournament, now) if line.overdue]


@transaction.atomic
def set_prize(tournament: Tournament, by, *, place: int, money=0, pool_percent=0, item: str = "") -> Prize | None:
    """A place's prize (money, a share of the pool, an object); all empty removes the place's prize."""
    _require(by, tournament)
    try:
        place = int(place)
    except (TypeError, ValueError):
        place = 0
    if place < 1:
        raise MoneyRefused(_("A place is 1 or more."), "place")
    money = _amount(money, "money") if money not in (None, "", 0, "0") else ZERO
    pool_percent = _percent(pool_percent, "pool_percent")
    if not 0 <= pool_percent <= 100:
        raise MoneyRefused(_("A place's share of the pool is between 0 and 100%."), "pool_percent")
    item = (item or "").strip()[:120]
    old = Prize.objects.select_for_update().filter(tournament=tournament, place=place).first()
    if not money and not pool_percent and not item:
        Prize.objects.filter(tournament=tournament, place=place).delete()
        _log(tournament, by, Change.What.PRIZE, _prize_json(old), None)
        return None
    prize, _created = Prize.objects.update_or_create(tournament=tournament, place=place, defaults=dict(
        money=money, pool_percent=pool_percent, item=item))
    _log(tournament, by, Change.What.PRIZE, _prize_json(old), _prize_json(prize))
    return prize


def collected(tournament: Tournament) -> Decimal:
    """Fees paid less refunds."""
    rows = dict(Movement.objects.filter(entry__tournament=tournament).values_list("kind").annotate(s=Sum("amount"))
                .order_by())
    return rows.get("payment", ZERO) - rows.get("refund", ZERO)


def prize_pool(tournament: Tournament) -> Decimal:
    fees = FeeSettings.objects.filter(tournament=tournament).first()
    return split.pool(collected(tournament), fees.pool_percent) if fees else ZERO


def prize_shares(tournament: Tournament, placings=None) -> list[split.Share]:
    """Each placed pair's prize: ``placings`` (``(pair id, place)``), by default the final standings
    of a finished event (none before)."""
    if placings is None:
        if tournament.status != Tournament.Status.FINISHED:
            return []
        from tournaments.services.standings import standings

        placings = [(row.pair.pk, row.rank) for row in standings(tournament).rows]
    prizes = [split.Prize(p.place, p.money, p.pool_percent, p.item) for p in Prize.objects.filter(tournament=tournament)]
    return split.shares(prizes, placings, prize_pool(tournament))


@transaction.atomic
def record_payout(tournament: Tournament, by, *, pair: Pair, place: int, amount, item: str = "",
                  paid_to: str = "") -> Payout:
    """A prize handed over (once per pair): the money, the object, and to whom (a Pix key, a name)."""
    _require(by, tournament)
    if pair.tournament_id != tournament.pk:
        raise MoneyRefused(_("The pair is not in this event."), "pair")
    amount = _amount(amount, "amount") if amount not in (None, "", 0, "0") else ZERO
    if not amount and not item:
        raise MoneyRefused(_("A prize paid is money or an object."), "amount")
    try:
        with transaction.atomic():
            return Payout.objects.create(tournament=tournament, pair=pair, place=int(place), amount=amount,
                                         item=item[:200], paid_to=paid_to[:120], by=by)
    except IntegrityError:
        raise Conflict(_("This pair's prize is already recorded."), "pair") from None


@dataclass(frozen=True)
class Statement:
    due: Decimal
    owed: Decimal
    paid: Decimal
    refunded: Decimal
    refunds_due: Decimal
    prizes_paid: Decimal
    pool: Decimal

    @property
    def balance(self) -> Decimal:
        return self.paid - self.refunded - self.prizes_paid


def statement(tournament: Tournament, rows: list[Line] | None = None) -> Statement:
    """The books: fees due (the pairs still in), paid, refunded, refunds still due, prizes paid,
    the pool, and the balance (paid − refunded − prizes paid), to the centavo."""
    rows = lines(tournament) if rows is None else rows
    still_in = [r for r in rows if r.entry.pair.status != Pair.Status.WITHDRAWN]
    prizes_paid = Payout.objects.filter(tournament=tournament).aggregate(s=Sum("amount"))["s"] or ZERO
    return Statement(
        due=sum((r.entry.amount for r in still_in), ZERO),
        owed=sum((r.owed for r in still_in), ZERO),
        paid=sum((r.paid for r in rows), ZERO),
        refunded=sum((r.refunded for r in rows), ZERO),
        refunds_due=sum((r.refund_due for r in rows), ZERO),
        prizes_paid=prizes_paid,
        pool=prize_pool(tournament),
    )


def brcode(entry: Entry, fees: FeeSettings | None = None) -> str:
    """The entry's Pix "copia e cola": the organizer's key, what is still owed, the entry's txid."""
    fees = fees or FeeSettings.objects.get(tournament=entry.tournament_id)
    owed = entry.amount - paid(entry)
    return pix.build(pix.charge(key=fees.pix_key, name=fees.pix_name, city=fees.pix_city,
                                amount=owed if owed > 0 else entry.amount, txid=entry.txid))
