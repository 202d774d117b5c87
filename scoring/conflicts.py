"""Conflicts between the phones of one table: a table's entry or undo the server refuses as
stale (409, ``PositionConflict``: another phone of the table moved the súmula on) is recorded as pending,
so that the other phone of the table and the referee see it; it stays pending until the phone that sent
it chooses (keep the server's, send mine after it, discard) or a referee settles it.

Only a refusal writes here (a plain accepted hand costs nothing: ``hand_entry.record_hand`` calls
:func:`record` on its refusal path only). A refused hand equal to the hand the server recorded at that
position is no conflict (both phones entered the same hand: it counts as recorded, and the page says so).

This module owns the :class:`~scoring.models.EntryConflict` rows, their audit events (``MatchEvent``
kinds ``entry_conflict`` and ``conflict_settled``, authored by the table link or the referee) and
:func:`pending_data`, the table page's ``conflicts`` (``referee.table_views``). The referees' list of
tables that need them shows the pending ones (``referee.calls.open_conflicts_for``).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError

from . import access
from .models import EntryConflict, HandEntry, Match, MatchEvent

TABLE_CHOICES = ("keep", "after", "discard", "same")  # what the phone that sent it chose
REFEREE = "referee"


def _link(by):
    return getattr(by, "table_link", None)


def record(match: Match, by, *, kind: str, game: int, position: int, sent: dict | None = None,
           server: dict | None = None) -> EntryConflict | None:
    """Record that the table's ``kind`` ("hand" or "undo") at (``game``, ``position``) was refused as stale;
    None when ``by`` is not a table link or the hand equals the one recorded there. The same refusal sent
    again (another key, same body) is the conflict already pending."""
    link = _link(by)
    if link is None or type(game) is not int or type(position) is not int:
        return None
    sent = {k: (sent or {}).get(k) for k in ("winner", "ended_by", "value")} if kind == "hand" else {}
    if kind == "hand" and HandEntry.objects.filter(game__match_id=match.pk, game__number=game, number=position,
                                                   winner=sent["winner"], ended_by=sent["ended_by"],
                                                   value=sent["value"]).exists():
        return None
    same = EntryConflict.objects.filter(match_id=match.pk, table_link_id=link.pk, kind=kind, game=game,
                                        position=position, settled_at__isnull=True).first()
    if same is not None and same.sent == sent:
        return same
    from .services.base import _event

    conflict = EntryConflict.objects.create(match_id=match.pk, table_link_id=link.pk, kind=kind, game=game,
                                            position=position, sent=sent)
    _event(match, MatchEvent.Kind.CONFLICT, by, conflict=conflict.pk, entry=kind, game=game, position=position,
           sent=sent, server={k: (server or {}).get(k) for k in ("game", "hand", "entries")})
    return conflict


def settle(match: Match, conflict_id: int, by, how: str, *, answerer: bool = False) -> EntryConflict:
    """The phone that sent it chose ``how`` (:data:`TABLE_CHOICES`), or a referee settled it (``"referee"``:
    the match's referee or organizer, or ``answerer`` when the caller checked that ``by`` answers the
    tournament's tables). Settling a settled conflict changes nothing (a phone's choice after the referee's)."""
    if how not in TABLE_CHOICES + (REFEREE,):
        raise ServiceError(_("A conflict is settled as \"keep\", \"after\", \"discard\" or \"same\"."), "how")
    if how == REFEREE:
        if not (answerer or access.can_enter(by, match)):
            raise Forbidden(_("Only a referee of the tournament or the organizer settles a table's conflict."))
    elif not (access.is_table(by, match) or access.can_enter(by, match)):
        raise Forbidden(_("Only the match's table settles its own conflict."))
    from .services.base import _event

    with transaction.atomic():
        conflict = EntryConflict.objects.select_for_update().filter(pk=conflict_id, match_id=match.pk).first()
        if conflict is None:
            raise ServiceError(_("This match has no such conflict."), "conflict")
        if conflict.settled_at is None:
            conflict.settled_at, conflict.settled_how = timezone.now(), how
            conflict.settled_by = by if getattr(by, "is_authenticated", False) else None
            conflict.save(update_fields=["settled_at", "settled_how", "settled_by"])
            _event(match, MatchEvent.Kind.CONFLICT_SETTLED, by, conflict=conflict.pk, how=how)
        return conflict


def as_data(conflict: EntryConflict) -> dict:
    return {"id": conflict.pk, "kind": conflict.kind, "game": conflict.game, "position": conflict.position,
            "sent": conflict.sent, "created_at": conflict.created_at.isoformat(),
            "settled": conflict.settled_how or None}


def pending_data(match: Match) -> list[dict]:
    """The match's pending conflicts, oldest first (one query)."""
    return [as_data(c) for c in EntryConflict.objects.filter(match_id=match.pk, settled_at__isnull=True)
            .order_by("created_at", "id")]
