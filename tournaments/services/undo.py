"""Undo for a few seconds: a reversible action on the organizer's pages is offered an "undo" right
after it, which names the audit entry it undoes (docs/organizer_taps.md).

A result the organizer set by hand on an undecided match (the dashboard's quick result, art. 26):
:func:`undo_result` takes it back while its ``result_set`` entry is still the match's latest decision
and younger than :data:`UNDO_SECONDS`; the match is open again (its table's link reopened) and what
followed from the result is brought back in line (``after_results.results_changed``: a bracket's
next match that it created, unplayed, is removed; the tournament's status; live pages; the ratings).
Audited as ``result_undone`` naming the entry it undoes. A result that replaced another is not
offered an undo (set it again by hand).

A pair's withdrawal (or disqualification). :func:`undo_withdrawal` calls the same service as
reinstating a pair from its row (``withdrawals.reinstate_pair``), but only for the entry it names,
while that entry is still the pair's latest withdrawal or reinstatement and younger than
:data:`UNDO_SECONDS`. A stale device (the pair was reinstated and withdrew again since, or the toast
was left open) is refused (409) instead of undoing something else; reinstating later stays possible,
with a reason, from the pair's row.

The check-in needs no toast: its button toggles (``check_in.undo_check_in``), and an undo names the
check-in it removes.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict

from tables import links as table_links
from scoring.models import Match

from ..models import AuditEntry, Pair, Result
from .base import _audit, _lock_tournament, _managed_match, _require_manager, _result_json
from .after_results import results_changed
from .withdrawals import reinstate_pair

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


DECISIONS = (AuditEntry.Action.RESULT_SET, AuditEntry.Action.RESULT_UNDONE, AuditEntry.Action.WALKOVER,
             AuditEntry.Action.RESULT_OFFICIAL, AuditEntry.Action.RESULT_IGNORED)


def _latest_decision(match_id: int) -> AuditEntry | None:
    return AuditEntry.objects.filter(match_id=match_id, action__in=DECISIONS).order_by("-id").first()


def result_undo_offer(match: Match) -> AuditEntry | None:
    """The ``result_set`` entry of ``match`` that may still be undone now (the page's toast), if any: the
    match's latest decision, the first result it was given (nothing before it), young enough."""
    entry = _latest_decision(match.pk)
    if entry is None or entry.action != AuditEntry.Action.RESULT_SET or entry.before is not None:
        return None
    return entry if timezone.now() - entry.at <= timedelta(seconds=UNDO_SECONDS) else None


def undo_result(match: Match, by, entry: int | str | None) -> Match:
    """Take back the organizer's result ``entry`` (a ``result_set`` AuditEntry id): see the module docstring."""
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        named = str(entry or "")
        latest = _latest_decision(match.pk)
        result = Result.objects.select_for_update().filter(match=match).first()
        if (latest is None or not named.isdigit() or latest.pk != int(named)
                or latest.action != AuditEntry.Action.RESULT_SET or latest.before is not None
                or result is None or _result_json(result) != latest.after):
            raise Conflict(_("This undo is out of date: the match's result changed since; look at its card "
                             "again."), "entry")
        if timezone.now() - latest.at > timedelta(seconds=UNDO_SECONDS):
            raise Conflict(_("Too late to undo here: change the result by hand, with a reason (art. 26)."),
                           "entry")
        before = _result_json(result)
        result.delete()
        table_links.reopen(match, by)  # to be played after all: its table's card opens it again
        _audit(tournament, by, AuditEntry.Action.RESULT_UNDONE, match=match, round=match.round,
               reason=(_("Result undone right after: %(reason)s") % {"reason": latest.reason})[:300],
               before=before, after={"undoes": latest.pk})
        results_changed(tournament, by, [match.pk])  # a bracket's next match goes back (Conflict if played)
        return match
