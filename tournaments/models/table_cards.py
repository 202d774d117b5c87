""":class:`TableCard`: the card of a physical table for the whole event (``tournaments.table_cards``)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import Tournament


class TableCard(models.Model):
    """The card of a physical table for the whole event: one link (a QR code) scanned once,
    always showing the match currently assigned to that table (``tournaments.table_cards``).

    One active card per table of a tournament; the organizer revokes or reissues it (a lost card), and
    the old token stops at once. The token shares the table links' URL space (``/mesa/<token>/``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_cards",
                                   verbose_name=_("tournament"))
    table = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["tournament", "table", "-created_at", "-id"]
        verbose_name = _("table card")
        verbose_name_plural = _("table cards")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], condition=Q(revoked_at__isnull=True),
                                    name="table_card_one_active_per_table"),
            models.CheckConstraint(condition=Q(table__gte=1), name="table_card_table_positive",
                                   violation_error_message=_("Tables are numbered from 1.")),
            models.CheckConstraint(condition=Q(token__regex=r"^[A-Za-z0-9_-]{20,64}$"), name="table_card_token_shape"),
        ]

    def __str__(self) -> str:
        return f"card of table {self.table} of tournament {self.tournament_id}"


class LinkAddress(models.Model):
    """The address (``http://host:port``) the organizer last printed the tournament's cards from — pair
    cards or table cards: what the phones of the venue reach. Links made without a request (the "your
    match was called" e-mail and push, sent by a worker) point there too (``tournaments.links``)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="link_address",
                                      verbose_name=_("tournament"))
    site_url = models.CharField(_("site address"), max_length=200)
    printed_at = models.DateTimeField(_("printed at"), default=timezone.now)

    class Meta:
        verbose_name = _("address of the printed links")
        verbose_name_plural = _("addresses of the printed links")

    def __str__(self) -> str:
        return f"{self.site_url} for tournament {self.tournament_id}"
