"""Undo for a few seconds (issue 26 §5): a reversible action on the organizer's pages is offered an
"undo" right after it, which names the audit entry it undoes.

Today: a pair's withdrawal (or disqualification). :func:`undo_withdrawal` calls the same service as
reinstating a pair from its row (``registration.reinstate_pair``; issue 24's page control), but only for
the entry it names, while that entry is still the pair's latest withdrawal or reinstatement and younger
than :data:`UNDO_SECONDS`. A stale device (the pair was reinstated and withdrew again since, or the
toast was left open) is refused (409) instead of undoing something else; reinstating later stays
possible, with a reason, from the pair's row.

The check-in needs no toast: its button toggles (``check_in.undo_check_in``), and an undo names the
check-in it removes.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict

from ..models import AuditEntry, Pair
from .base import _lock_tournament, _require_manager
from .registration import reinstate_pair

UNDO_SECONDS = 60  # the server's window; the toast shows for fewer (TOAST_SECONDS), a slow network's margin
TOAST_SECONDS = 15
WITHDRAWALS = (AuditEntry.Action.PAIR_WITHDRAWN, AuditEntry.Action.PAIR_DISQUALIFIED)


def _latest_of(pair: Pair) -> AuditEntry | None:
    return (AuditEntry.objects.filter(tournament_id=pair.tournament_id, after__id=pair.pk,
                                      action__in=(*WITHDRAWALS, AuditEntry.Action.PAIR_REINSTATED))
            .order_by("-id").first())  # the latest written (ids only grow; "at" may be set)


def undo_offer(pair: Pair) -> AuditEntry | None:
    """The withdrawal of ``pair`` that may still be undone now (the page's toast), if any."""
    entry = _latest_of(pair)
    if entry is None or entry.action not in WITHDRAWALS:
        return None
    return entry if timezone.now() - entry.at <= timedelta(seconds=UNDO_SECONDS) else None


def undo_withdrawal(pair: Pair, by, entry: int | str | None) -> Pair:
    """Take back the withdrawal ``entry`` (an ``AuditEntry`` id) of ``pair``: see the module docstring."""
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        named = str(entry or "")
        latest = _latest_of(pair)
        if latest is None or not named.isdigit() or latest.pk != int(named) or latest.action not in WITHDRAWALS:
            raise Conflict(_("This undo is out of date: the pair changed since (%(pair)s); look at its row again.")
                           % {"pair": pair.name}, "entry")
        if timezone.now() - latest.at > timedelta(seconds=UNDO_SECONDS):
            raise Conflict(_("Too late to undo here: reinstate the pair from its row, with a reason."), "entry")
        return reinstate_pair(pair, by, (_("Undone right after: %(reason)s") % {"reason": latest.reason})[:300])
