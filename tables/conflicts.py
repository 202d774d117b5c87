"""Conflicts between the phones of one table: the :class:`~tables.models.EntryConflict` rows. A table's
entry or undo the server refuses as stale (409, ``PositionConflict``: another phone of the table moved
the súmula on) is recorded as pending, so that the other phone of the table and the referee see it; it
stays pending until the phone that sent it chooses (keep the server's, send mine after it, discard) or a
referee settles it.

This module owns the rows: the one pending for the same refusal (:func:`pending_same`), a new one
(:func:`open_row`), its settling (:func:`settle_row`) and how a page and the API show them
(:func:`as_data`, :func:`pending_data`: the table page's ``conflicts``, ``referee.table_views``). Who may
settle, the same-hand rule and the súmula's audit events are the súmula's (``scoring.conflicts``); the
referees' list of tables that need them shows the pending ones (``referee.calls.open_conflicts_for``).
"""
from __future__ import annotations

from django.utils import timezone

from draw.models import Match

from .models import EntryConflict

TABLE_CHOICES = ("keep", "after", "discard", "same")  # what the phone that sent it chose
REFEREE = "referee"


def pending_same(match: Match, link, *, kind: str, game: int, position: int, sent: dict) -> EntryConflict | None:
    """The conflict already pending for the same refusal sent again (another key, same body), or None."""
    same = EntryConflict.objects.filter(match_id=match.pk, table_link_id=link.pk, kind=kind, game=game,
                                        position=position, settled_at__isnull=True).first()
    return same if same is not None and same.sent == sent else None


def open_row(match: Match, link, *, kind: str, game: int, position: int, sent: dict) -> EntryConflict:
    """A new pending conflict of ``link``'s table."""
    return EntryConflict.objects.create(match_id=match.pk, table_link_id=link.pk, kind=kind, game=game,
                                        position=position, sent=sent)


def settle_row(match: Match, conflict_id: int, by, how: str) -> tuple[EntryConflict | None, bool]:
    """Settle the match's conflict ``conflict_id`` as ``how``, locked (call it inside a transaction):
    ``(conflict, settled now)``; None when the match has no such conflict. A settled one is left as it was
    (a phone's choice after the referee's)."""
    conflict = EntryConflict.objects.select_for_update().filter(pk=conflict_id, match_id=match.pk).first()
    if conflict is None or conflict.settled_at is not None:
        return conflict, False
    conflict.settled_at, conflict.settled_how = timezone.now(), how
    conflict.settled_by = by if getattr(by, "is_authenticated", False) else None
    conflict.save(update_fields=["settled_at", "settled_how", "settled_by"])
    return conflict, True


def as_data(conflict: EntryConflict) -> dict:
    return {"id": conflict.pk, "kind": conflict.kind, "game": conflict.game, "position": conflict.position,
            "sent": conflict.sent, "created_at": conflict.created_at.isoformat(),
            "settled": conflict.settled_how or None}


def pending_data(match: Match) -> list[dict]:
    """The match's pending conflicts, oldest first (one query)."""
    return [as_data(c) for c in EntryConflict.objects.filter(match_id=match.pk, settled_at__isnull=True)
            .order_by("created_at", "id")]
