"""The card of a physical table for the whole event: one link and QR code per table of
the venue (Bridgemate's device per table, Tabbycat's participant URLs), scanned once, always showing
the match currently assigned to that table.

This module owns the :class:`~tables.models.TableCard` rows (issued, revoked, reissued by the
organizer, one active per table) and :func:`current_match`: of the tournament's matches at that table,
the first (by round) whose súmula is not received and that has no official result — a W.O. or an
organizer's result closes a match to entries — or None between rounds. The table page
(``referee.table_views``) answers a card's token with that match's page (through the match's own
table link, ``tables.links``) or with "no match at this table now"; the round's table cards
PDF prints the card's address (``printing.round_views``); the organizer revokes or reissues a card
from the round page (``tables.views.manage_card``).
"""
from __future__ import annotations

from typing import Iterable

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from draw.models import Match
from events import access
from events.models import Tournament

from .links import found, lookup, new_token
from .models import TableCard


def ensure_cards(tournament: Tournament, tables: Iterable[int]) -> dict[int, TableCard]:
    """Every table given gets its active card (created when missing); ``{table: card}``."""
    tables = sorted({t for t in tables if t})
    cards = {c.table: c for c in TableCard.objects.filter(tournament=tournament, table__in=tables,
                                                          revoked_at__isnull=True)}
    missing = [TableCard(tournament=tournament, table=t, token=new_token()) for t in tables if t not in cards]
    if missing:
        TableCard.objects.bulk_create(missing, ignore_conflicts=True)  # a concurrent print made them: keep its
        cards = {c.table: c for c in TableCard.objects.filter(tournament=tournament, table__in=tables,
                                                              revoked_at__isnull=True)}
    return cards


def _check(tournament: Tournament, table: int, by) -> None:
    if not access.manages(by, tournament):
        raise Forbidden(_("Only the tournament's organizer revokes and reissues table cards."))
    if type(table) is not int or table < 1:
        raise ServiceError(_("Tables are numbered from 1."), "table")


def revoke(tournament: Tournament, table: int, by) -> int:
    """The organizer revokes the table's card (a lost card) without a new one; how many were revoked."""
    _check(tournament, table, by)
    return TableCard.objects.filter(tournament=tournament, table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=by)


def reissue(tournament: Tournament, table: int, by) -> TableCard:
    """The old card stops at once; the table gets a new one (to print)."""
    _check(tournament, table, by)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        now = timezone.now()
        TableCard.objects.filter(tournament=tournament, table=table, revoked_at__isnull=True).update(
            revoked_at=now, revoked_by=by)
        try:
            with transaction.atomic():
                return TableCard.objects.create(tournament=tournament, table=table, token=new_token(),
                                                created_by=by, created_at=now)
        except IntegrityError:  # another reissue won the race: keep its card
            return TableCard.objects.get(tournament=tournament, table=table, revoked_at__isnull=True)


def resolve(token: str) -> TableCard | None:
    """The active card of ``token``, or None."""
    return found(lookup(TableCard.objects.select_related("tournament").filter(revoked_at__isnull=True), token)
                  .first(), token)


def current_match(card: TableCard) -> Match | None:
    """The match at the card's table now: the first by round not received and without an official
    result (a W.O. is closed to entries); None between rounds."""
    return (Match.objects.filter(tournament_id=card.tournament_id, table=card.table, tournament_result__isnull=True)
            .exclude(status=Match.Status.RECEIVED).order_by("round__number", "pk").first())


def card_path(card: TableCard) -> str:
    return reverse("table:page", kwargs={"token": card.token})
