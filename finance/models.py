"""An event's money: its fee settings, one charge per pair (``Entry``), the payments and refunds
(append-only: a correction is a new row), the prize table and the prizes paid (append-only).

Amounts are ``DecimalField`` in BRL to the centavo; nothing here is a float. Who may see or touch
any of it is ``events.access.manages`` (the event's organizers and its organization's members).
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.history import AppendOnly, HistoryError
from events.models import Pair, Tournament

ZERO = Decimal("0.00")
MONEY = {"max_digits": 12, "decimal_places": 2}


class MoneyError(HistoryError):
    """A payment, refund or payout was rewritten or deleted (they are written once)."""


class FeeSettings(models.Model):
    """What an event charges and where the money goes (the organizer's Pix key)."""

    class Basis(models.TextChoices):
        PAIR = "pair", _("Per pair")
        PLAYER = "player", _("Per player")

    class Refund(models.TextChoices):
        FULL = "full", _("Full refund")
        PARTIAL = "partial", _("Partial refund")
        NONE = "none", _("No refund")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="fee_settings",
                                      verbose_name=_("tournament"))
    basis = models.CharField(_("charged"), max_length=8, choices=Basis.choices, default=Basis.PAIR)
    price = models.DecimalField(_("price"), **MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    late_price = models.DecimalField(_("late price"), **MONEY, null=True, blank=True,
                                     validators=[MinValueValidator(Decimal("0.01"))])
    early_until = models.DateTimeField(_("early price until"), null=True, blank=True)
    pay_by = models.DateTimeField(_("pay by"), null=True, blank=True)
    pix_key = models.CharField(_("Pix key"), max_length=77)
    pix_name = models.CharField(_("receiver's name"), max_length=25)
    pix_city = models.CharField(_("receiver's city"), max_length=15)
    refund = models.CharField(_("refund on withdrawal"), max_length=8, choices=Refund.choices, default=Refund.FULL)
    refund_percent = models.PositiveSmallIntegerField(_("refund (%)"), default=100,
                                                      validators=[MaxValueValidator(100)])
    pool_percent = models.DecimalField(_("prize pool (% of fees)"), max_digits=5, decimal_places=2, default=0,
                                       validators=[MinValueValidator(0), MaxValueValidator(100)])
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("fee settings")
        verbose_name_plural = _("fee settings")
        constraints = [
            models.CheckConstraint(condition=Q(price__gt=0), name="fee_price_positive"),
            models.CheckConstraint(condition=Q(late_price__isnull=True) | Q(late_price__gt=0),
                                   name="fee_late_price_positive"),
            models.CheckConstraint(condition=Q(refund_percent__lte=100), name="fee_refund_percent_at_most_100"),
            models.CheckConstraint(condition=Q(pool_percent__gte=0, pool_percent__lte=100),
                                   name="fee_pool_percent_0_to_100"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · R$ {self.price}"


class Entry(models.Model):
    """One pair's charge: the amount due and the txid its Pix code carries (unique site-wide)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries",
                                   verbose_name=_("tournament"))
    pair = models.OneToOneField(Pair, on_delete=models.CASCADE, related_name="entry", verbose_name=_("pair"))
    amount = models.DecimalField(_("amount"), **MONEY)
    txid = models.CharField(_("transaction id"), max_length=25, unique=True)
    created_at = models.DateTimeField(_("charged at"), default=timezone.now)

    class Meta:
        ordering = ["tournament", "pair"]
        verbose_name = _("entry fee")
        verbose_name_plural = _("entry fees")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="entry_amount_positive"),
            models.CheckConstraint(condition=Q(txid__regex=r"^[A-Za-z0-9]{1,25}$"), name="entry_txid_alphanumeric"),
        ]

    def __str__(self) -> str:
        return f"{self.pair} · R$ {self.amount} · {self.txid}"


class Movement(AppendOnly):
    """Money in (a payment) or out (a refund) of one entry: who recorded it, when, how."""

    history_error = MoneyError

    class Kind(models.TextChoices):
        PAYMENT = "payment", _("Payment")
        REFUND = "refund", _("Refund")

    class Method(models.TextChoices):
        HAND = "hand", _("Marked by hand")
        STATEMENT = "bank", _("Bank statement")

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="movements", verbose_name=_("entry fee"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    amount = models.DecimalField(_("amount"), **MONEY)
    method = models.CharField(_("method"), max_length=8, choices=Method.choices, default=Method.HAND)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("recorded by"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("payment or refund")
        verbose_name_plural = _("payments and refunds")
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="movement_amount_positive")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} R$ {self.amount} · {self.entry.txid}"


class Prize(models.Model):
    """One place's prize: fixed money, a share of the pool, and/or an object."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes",
                                   verbose_name=_("tournament"))
    place = models.PositiveSmallIntegerField(_("place"), validators=[MinValueValidator(1)])
    money = models.DecimalField(_("money"), **MONEY, default=ZERO, validators=[MinValueValidator(0)])
    pool_percent = models.DecimalField(_("share of the pool (%)"), max_digits=5, decimal_places=2, default=0,
                                       validators=[MinValueValidator(0), MaxValueValidator(100)])
    item = models.CharField(_("object"), max_length=120, blank=True)

    class Meta:
        ordering = ["tournament", "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="prize_once_per_place"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_from_1"),
            models.CheckConstraint(condition=Q(money__gte=0), name="prize_money_not_negative"),
            models.CheckConstraint(condition=Q(pool_percent__gte=0, pool_percent__lte=100),
                                   name="prize_pool_percent_0_to_100"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.place}º"


class Payout(AppendOnly):
    """A prize handed over: to which pair, for which place, how much and/or what, by Pix to whom."""

    history_error = MoneyError

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="payouts",
                                   verbose_name=_("tournament"))
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="payouts", verbose_name=_("pair"))
    place = models.PositiveSmallIntegerField(_("place"))
    amount = models.DecimalField(_("amount"), **MONEY, default=ZERO)
    item = models.CharField(_("object"), max_length=200, blank=True)
    paid_to = models.CharField(_("paid to"), max_length=120, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("recorded by"))
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("prize paid")
        verbose_name_plural = _("prizes paid")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "pair"], name="payout_once_per_pair"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="payout_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.pair} · {self.place}º · R$ {self.amount}"


class Change(AppendOnly):
    """The audit of the event's money settings: the fees or a place's prize before and after, who, when
    (payments, refunds and payouts are their own record)."""

    history_error = MoneyError

    class What(models.TextChoices):
        FEES = "fees", _("Fees changed")
        PRIZE = "prize", _("Prize changed")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="money_changes",
                                   verbose_name=_("tournament"))
    what = models.CharField(_("change"), max_length=8, choices=What.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("recorded by"))
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("money change")
        verbose_name_plural = _("money changes")

    def __str__(self) -> str:
        return f"{self.get_what_display()} · {self.at:%Y-%m-%d %H:%M}"


class BankLine(AppendOnly):
    """A credit line of a bank statement the organizer imported: recorded once per event by the bank's
    transaction id or the line's hash (importing the same statement again records nothing twice),
    with the payment it became, if any."""

    history_error = MoneyError

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bank_lines",
                                   verbose_name=_("tournament"))
    key = models.CharField(_("bank's id or line hash"), max_length=86)
    date = models.DateField(_("date"))
    description = models.CharField(_("description"), max_length=200)
    amount = models.DecimalField(_("amount"), **MONEY)
    payment = models.OneToOneField(Movement, on_delete=models.PROTECT, null=True, blank=True, related_name="bank_line",
                                   verbose_name=_("payment"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("imported by"))
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["date", "pk"]
        verbose_name = _("bank statement line")
        verbose_name_plural = _("bank statement lines")
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="bank_line_once_per_event")]

    def __str__(self) -> str:
        return f"{self.date} · R$ {self.amount} · {self.description[:40]}"
