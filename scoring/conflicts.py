"""The súmula's side of a conflict between the phones of one table (the rows are ``tables.conflicts``):
a table's entry or undo the server refuses as stale (409, ``PositionConflict``) is recorded as pending
with its audit event, and settled by the phone that sent it or by a referee.

Only a refusal writes here (a plain accepted hand costs nothing: ``hand_entry.record_hand`` calls
:func:`record` on its refusal path only). A refused hand equal to the hand the server recorded at that
position is no conflict (both phones entered the same hand: it counts as recorded, and the page says so).

This module owns who may settle one (``scoring.access``) and the conflicts' audit events (``MatchEvent``
kinds ``entry_conflict`` and ``conflict_settled``, authored by the table link or the referee).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from tables import conflicts as rows
from tables.conflicts import REFEREE, TABLE_CHOICES
from tables.models import EntryConflict

from . import access
from .models import HandEntry, Match, MatchEvent


def record(match: Match, by, *, kind: str, game: int, position: int, sent: dict | None = None,
           server: dict | None = None) -> EntryConflict | None:
    """Record that the table's ``kind`` ("hand" or "undo") at (``game``, ``position``) was refused as stale;
    None when ``by`` is not a table link or the hand equals the one recorded there. The same refusal sent
    again (another key, same body) is the conflict already pending."""
    link = getattr(by, "table_link", None)
    if link is None or type(game) is not int or type(position) is not int:
        return None
    sent = {k: (sent or {}).get(k) for k in ("winner", "ended_by", "value")} if kind == "hand" else {}
    if kind == "hand" and HandEntry.objects.filter(game__match_id=match.pk, game__number=game, number=position,
                                                   winner=sent["winner"], ended_by=sent["ended_by"],
                                                   value=sent["value"]).exists():
        return None
    where = {"kind": kind, "game": game, "position": position, "sent": sent}
    same = rows.pending_same(match, link, **where)
    if same is not None:
        return same
    from .services.base import _event

    conflict = rows.open_row(match, link, **where)
    _event(match, MatchEvent.Kind.CONFLICT, by, conflict=conflict.pk, entry=kind, game=game, position=position,
           sent=sent, server={k: (server or {}).get(k) for k in ("game", "hand", "entries")})
    return conflict


def settle(match: Match, conflict_id: int, by, how: str, *, answerer: bool = False) -> EntryConflict:
    """The phone that sent it chose ``how`` (``tables.conflicts.TABLE_CHOICES``), or a referee settled it
    (``"referee"``: the match's referee or organizer, or ``answerer`` when the caller checked that ``by``
    answers the tournament's tables). Settling a settled conflict changes nothing (a phone's choice after
    the referee's)."""
    if how not in TABLE_CHOICES + (REFEREE,):
        raise ServiceError(_("A conflict is settled as \"keep\", \"after\", \"discard\" or \"same\"."), "how")
    if how == REFEREE:
        if not (answerer or access.can_enter(by, match)):
            raise Forbidden(_("Only a referee of the tournament or the organizer settles a table's conflict."))
    elif not (access.is_table(by, match) or access.can_enter(by, match)):
        raise Forbidden(_("Only the match's table settles its own conflict."))
    from .services.base import _event

    with transaction.atomic():
        conflict, settled = rows.settle_row(match, conflict_id, by, how)
        if conflict is None:
            raise ServiceError(_("This match has no such conflict."), "conflict")
        if settled:
            _event(match, MatchEvent.Kind.CONFLICT_SETTLED, by, conflict=conflict.pk, how=how)
        return conflict
