"""Walkovers (W.O.): the organizer records that a pair did not play; the other wins at once. A
double walkover: neither pair played; nobody wins, each loses, nothing else counts (outside a
bracket, where a match needs a winner to go on). (Withdrawn pairs' matches become walkovers
automatically, and double walkovers when both withdrew: ``writing._auto_walkovers``.)
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Match

from ..models import AuditEntry, Pair, Result
from .base import (TournamentError, _audit, _close_sumulas, _double_walkover_result, _managed_match, _pair_of, _reason,
                   _result_json, _walkover_result)
from .after_results import results_changed
from .writing import _in_bracket


def record_walkover(match: Match, absent: Pair | int, by, *, reason: str = "") -> Result:
    """W.O.: ``absent`` (one of the two pairs) did not play; the other wins, officially at once, with
    the match's games won 12-0 (counted in the standings only if the stage says so). Refused once
    the match has an official result or a signed súmula. The súmula is closed with the W.O. and its reason:
    no hand, tento or ruling enters it afterwards (art. 26)."""
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
        _close_sumulas([result], by, "walkover")  # the súmula closed: nothing enters it afterwards (art. 26)
        _audit(tournament, by, AuditEntry.Action.WALKOVER, reason=reason, match=match, round=match.round,
               after=_result_json(result))
        results_changed(tournament, by, [match.pk])
        return result


def record_double_walkover(match: Match, by, *, reason: str) -> Result:
    """Double W.O.: neither pair played (``reason`` required, audited). No winner: a match played
    and lost by each, no games, no tentos, no opponent met. Refused in a bracket (a knockout match
    needs a winner: record a W.O. or a result instead), once the match has an official result,
    or once its súmula was signed."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        if _in_bracket(match):
            raise Conflict(_("A bracket's match needs a winner: record a W.O. for the absent pair instead."),
                           "match")
        if Result.objects.filter(match=match).exists():
            raise Conflict(_("This match already has an official result: change it by hand, with a reason."),
                           "match")
        if match.status != Match.Status.OPEN:
            raise Conflict(_("The súmula of this match was signed: receive it instead."), "match")
        result = _double_walkover_result(match, tournament, by=by, reason=reason)
        result.save()
        _close_sumulas([result], by, "walkover")
        _audit(tournament, by, AuditEntry.Action.WALKOVER, reason=reason, match=match, round=match.round,
               after=_result_json(result))
        results_changed(tournament, by, [match.pk])
        return result
