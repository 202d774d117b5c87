"""Walkovers (W.O.): the organizer records that a pair did not play; the other wins at once.
(Withdrawn pairs' matches become walkovers automatically: ``writing._auto_walkovers``.)
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring import table_links
from scoring.models import Match

from ..models import AuditEntry, Pair, Result
from .base import TournamentError, _audit, _managed_match, _pair_of, _reason, _result_json, _walkover_result
from .progress import _after_results


def record_walkover(match: Match, absent: Pair | int, by, *, reason: str = "") -> Result:
    """W.O.: ``absent`` (one of the two pairs) did not play; the other wins, officially at once, with
    the match's games won 12-0 (counted in the standings only if the stage says so). Refused once
    the match has an official result or a signed súmula."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        absent = _pair_of(tournament, absent, "absent")
        if absent.pk not in (match.pair_a_id, match.pair_b_id):
            raise TournamentError(_("The absent pair is one of the match's two pairs."), "absent")
        if Result.objects.filter(match=match).exists():
            raise Conflict(_("This match already has an official result: change it by hand, with a reason."),
                           "match")
        if match.status != Match.Status.OPEN:
            raise Conflict(_("The súmula of this match was signed: receive it instead."), "match")
        result = _walkover_result(match, tournament, absent=absent, by=by, reason=reason)
        result.save()
        table_links.close(match, by)  # a printed card of this match no longer takes entries (issue 20 §2)
        _audit(tournament, by, AuditEntry.Action.WALKOVER, reason=reason, match=match, round=match.round,
               after=_result_json(result))
        _after_results(tournament, by)
        return result
