"""The table channel's rows: a match's table link (:class:`TableLink`), the card of a physical table
for the whole event (:class:`TableCard`) and the address its cards were printed from
(:class:`LinkAddress`), a write's first answer by its ``Idempotency-Key`` (:class:`IdempotencyRecord`)
and a table's entry refused as stale (:class:`EntryConflict`).

They moved here from ``scoring`` and ``tournaments`` keeping their tables (``Meta.db_table``; docs/
architecture.md, "How the models moved").
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from draw.models import Match
from events.models import Tournament

from . import token_keys


class SealedToken(models.Model):
    """A table's token kept as ``tables.token_keys`` says: its keyed digest (unique, what a request is looked
    up by) and its sealed text (what a reprint reads), never the token itself. ``token`` is read and set as
    an attribute (``TableLink(match=m, token=new_token())``); it is no column and no lookup."""

    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    sealed = models.CharField(_("sealed token"), max_length=255, editable=False)

    class Meta:
        abstract = True

    @property
    def token(self) -> str:
        """The token, unsealed once per row read (``token_keys.TokenUnreadable`` under a lost key)."""
        token = self.__dict__.get("_token")
        if token is None:
            token = self.__dict__["_token"] = token_keys.unseal(self.sealed)
        return token

    @token.setter
    def token(self, value: str) -> None:
        self.__dict__["_token"] = value
        self.digest = token_keys.digest(value)
        self.sealed = token_keys.seal(value)


class TableLink(SealedToken):
    """The table's key to its match: an unguessable token in a URL printed as a QR code (stored only as
    its digest and sealed text, :class:`SealedToken`).

    Whoever holds it may enter and undo hands and act for the pairs with their PINs, on that
    match only, until the súmula is received (art. 25) or the organizer revokes it. One active
    link per match; a reissue revokes the old one.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="table_links", verbose_name=_("match"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
    )

    class ClosedAs(models.TextChoices):
        """Why a revoked link was closed by the match's result rather than by the organizer's "revoke"
        (``tables.links.close_all``): a refused table is told why."""
        NONE = "", _("revoked or reissued")
        WALKOVER = "walkover", _("W.O. (art. 26)")
        RESULT = "result", _("result set by the organizer (art. 26)")
        RECEIVED = "received", _("súmula received (art. 25)")

    closed_as = models.CharField(_("closed as"), max_length=10, choices=ClosedAs.choices, default="", blank=True)

    class Meta:
        db_table = "scoring_tablelink"
        ordering = ["match", "-created_at", "-id"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=Q(revoked_at__isnull=True),
                                    name="table_link_one_active_per_match"),
            models.CheckConstraint(condition=Q(digest__regex=token_keys.DIGEST_SHAPE), name="table_link_digest_shape"),
        ]

    def __str__(self) -> str:
        return f"table link of match {self.match_id}"


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an ``Idempotency-Key`` header, by one credential.

    ``status`` is null while the first request runs. The unique constraint on (credential, key)
    makes concurrent repeats write once (``tables.idempotency``).
    """

    credential = models.CharField(max_length=80)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "scoring_idempotencyrecord"
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["credential", "key"], name="idempotency_one_per_credential_key"),
        ]


class EntryConflict(models.Model):
    """A table's entry or undo refused as stale (``tables.conflicts``): pending until the
    phone that sent it chooses (``settled_how``) or a referee settles it; both phones and the referee see it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entry_conflicts")
    table_link = models.ForeignKey(TableLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=10)  # "hand" or "undo"
    game = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # the hand's number sent, or the undone entry's position
    sent = models.JSONField(default=dict, blank=True)  # the refused hand: winner, ended_by, value
    created_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_how = models.CharField(max_length=10, blank=True)
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        db_table = "scoring_entryconflict"
        verbose_name = _("entry conflict")
        verbose_name_plural = _("entry conflicts")
        indexes = [models.Index(fields=["match"], condition=Q(settled_at__isnull=True), name="entry_conflict_pending")]


class TableCard(SealedToken):
    """The card of a physical table for the whole event: one link (a QR code) scanned once,
    always showing the match currently assigned to that table (``tables.cards``).

    One active card per table of a tournament; the organizer revokes or reissues it (a lost card), and
    the old token stops at once. The token shares the table links' URL space (``/mesa/<token>/``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_cards",
                                   verbose_name=_("tournament"))
    table = models.PositiveSmallIntegerField(_("table"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        db_table = "tournaments_tablecard"
        ordering = ["tournament", "table", "-created_at", "-id"]
        verbose_name = _("table card")
        verbose_name_plural = _("table cards")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], condition=Q(revoked_at__isnull=True),
                                    name="table_card_one_active_per_table"),
            models.CheckConstraint(condition=Q(table__gte=1), name="table_card_table_positive",
                                   violation_error_message=_("Tables are numbered from 1.")),
            models.CheckConstraint(condition=Q(digest__regex=token_keys.DIGEST_SHAPE), name="table_card_digest_shape"),
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
        db_table = "tournaments_linkaddress"
        verbose_name = _("address of the printed links")
        verbose_name_plural = _("addresses of the printed links")

    def __str__(self) -> str:
        return f"{self.site_url} for tournament {self.tournament_id}"
