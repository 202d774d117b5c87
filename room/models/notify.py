"""Telling a pair that its match was called to a table, both optional.

- :class:`PushSubscription`: a phone that allowed notifications on the pair's page (Web Push), subscribed
  with one of the pair's players' PIN (``player``). The
  subscription's endpoint and keys are secrets of that phone's browser: they are stored to send, never
  shown on a page or in the API; the phone revokes its subscription by sending the endpoint again
  (only it knows it), the organizer revokes every subscription of a pair.
- :class:`Player.call_email <people.models.Player>` (in ``people``): a player's opt-in to an e-mail.
- :class:`CallNotice`: one row per match and table notified, so a call is told once whatever the number
  of workers or retries.

Both kept their tables when they moved from ``tournaments`` (``Meta.db_table``).
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import Pair
from people.models import Player


class PushSubscription(models.Model):
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="push_subscriptions",
                             verbose_name=_("pair"))
    #: the player whose PIN subscribed the phone (their phones are capped: room.services.notify)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                               verbose_name=_("player"))
    endpoint = models.URLField(_("endpoint"), max_length=1000)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=64)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("last sent at"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_pushsubscription"
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            models.UniqueConstraint(fields=["pair", "endpoint"], condition=Q(revoked_at__isnull=True),
                                    name="push_subscription_once_per_pair"),
        ]

    def __str__(self) -> str:  # never the endpoint: it is the phone's secret
        return f"push subscription {self.pk} of pair {self.pair_id}"


class CallNotice(models.Model):
    match = models.ForeignKey("draw.Match", on_delete=models.CASCADE, related_name="+")
    table = models.PositiveSmallIntegerField(_("table"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    pushes = models.PositiveSmallIntegerField(_("pushes sent"), default=0)
    emails = models.PositiveSmallIntegerField(_("e-mails sent"), default=0)

    class Meta:
        db_table = "tournaments_callnotice"
        verbose_name = _("call notice")
        verbose_name_plural = _("call notices")
        constraints = [models.UniqueConstraint(fields=["match", "table"], name="call_notice_once")]

    def __str__(self) -> str:
        return f"match {self.match_id} called to table {self.table}: notified"
