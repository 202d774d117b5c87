"""A pair leaves the tournament and comes back: withdrawal, disqualification (a withdrawal the
organizer imposes, ranked below every pair still in) and reinstatement, each audited with a reason.

A withdrawal turns the pair's matches without an official result into walkovers (a double walkover
when the opponent had withdrawn too), closes their tables' links, gives the place to the first pair
on the sign-up's waiting list, and then tells the draw and the room that results changed
(``after_results``). Reinstating takes back the walkovers of the current round and of a bracket
when nothing was played after them.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from tables import links as table_links
from scoring.models import Match

from ..models import AuditEntry, Pair, Result, Tournament
from .after_results import results_changed
from .base import (_audit, _close_sumulas, _double_walkover_result, _lock_tournament, _reason, _require_manager,
                   _walkover_result)
from .registration import _pair_json
from .signup_review import fill_from_waiting_list
from .writing import _in_bracket


def disqualify_pair(pair: Pair, by, reason: str) -> list[Result]:
    """The organizer disqualifies the pair (``reason`` required, audited as a disqualification): it
    leaves the tournament as a withdrawn pair does (its matches without an official result become
    walkovers, results already official stay) and ranks below every pair still in; its pages say
    "disqualified". Undone as a withdrawal is (:func:`reinstate_pair`)."""
    return withdraw_pair(pair, by, reason, disqualified=True)


def withdraw_pair(pair: Pair, by, reason: str, *, disqualified: bool = False) -> list[Result]:
    """The pair leaves the tournament (``reason`` required): it is no longer drawn or paired,
    and each of its matches without an official result becomes a walkover for the opponent
    (which advances a bracket), or a double walkover when the opponent withdrew too (outside a
    bracket). Returns the results recorded. Results already official stay."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        pair = Pair.objects.select_for_update().get(pk=pair.pk)
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair already withdrew."), "status")
        before = _pair_json(pair)
        pair.status, pair.withdrawn_at, pair.withdrawal_reason = Pair.Status.WITHDRAWN, timezone.now(), reason
        pair.disqualified = disqualified
        pair.save(update_fields=["status", "withdrawn_at", "withdrawal_reason", "disqualified"])
        pending = list(
            Match.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, status=Match.Status.OPEN, tournament_result__isnull=True)
            .filter(Q(pair_a=pair) | Q(pair_b=pair))
            .select_related("pair_a", "pair_b")
        )
        walkovers = []
        for match in pending:
            other = match.pair_b if match.pair_a_id == pair.pk else match.pair_a
            if other.status == Pair.Status.WITHDRAWN:
                if not _in_bracket(match):  # both withdrew: a double walkover, nobody wins
                    walkovers.append(_double_walkover_result(match, tournament, by=by,
                                                             reason=_("Both pairs withdrew.")))
                continue  # in a bracket the organizer decides (set_result)
            walkovers.append(_walkover_result(match, tournament, absent=pair, by=by,
                                              reason=(_("Withdrawn: %(reason)s") % {"reason": reason})[:300]))
        walkovers += _walkovers_become_double(tournament, pair, by)
        Result.objects.bulk_create(walkovers)
        _close_sumulas(walkovers, by, "disqualification" if disqualified else "withdrawal")  # art. 26
        action = AuditEntry.Action.PAIR_DISQUALIFIED if disqualified else AuditEntry.Action.PAIR_WITHDRAWN
        _audit(tournament, by, action, reason=reason, before=before,
               after={**_pair_json(pair), "walkovers": [w.match_id for w in walkovers]})
        fill_from_waiting_list(tournament, by)  # the place goes to the first pair waiting (the public sign-up)
        if walkovers:  # the W.O.s free tables: the room calls what is ready (after_results)
            results_changed(tournament, by, [w.match_id for w in walkovers])
        return walkovers


def _walkovers_become_double(tournament: Tournament, pair: Pair, by) -> list[Result]:
    """The W.O.s the pair was given in the current round (the last generated one) because its opponent
    withdrew, outside a bracket: it withdraws too, so neither played that match and it is a double
    W.O. (no winner, a loss each), as when both had withdrawn before it was created.
    The W.O.s are deleted here; the double W.O.s are returned unsaved. W.O.s of earlier rounds stay:
    the pair was there to take them."""
    last = (Match.objects.filter(tournament=tournament, round__generated_at__isnull=False)
            .aggregate(n=Max("round__number"))["n"])
    given = list(Result.objects.select_for_update(of=("self",))
                 .filter(tournament=tournament, kind=Result.Kind.WALKOVER, winner=pair,
                         absent__status=Pair.Status.WITHDRAWN, match__round__number=last,
                         match__bracket_node__isnull=True)
                 .select_related("match"))
    doubles = []
    for result in given:
        match = result.match
        result.delete()
        doubles.append(_double_walkover_result(match, tournament, by=by, reason=_("Both pairs withdrew.")))
    return doubles


def reinstate_pair(pair: Pair, by, reason: str) -> Pair:
    """Undo a withdrawal (``reason`` required, audited): the pair is confirmed again and drawn and
    paired from the next round. The walkovers its withdrawal recorded in the current round (the
    last generated one) and in a bracket are taken back when nothing was played after them: those
    matches are to be played again (a walkover created without a table gets the next free one).
    Refused (409) when a later match already depends on one of them; walkovers of earlier rounds
    of a Swiss or a round robin stay (the pair did not play them)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        pair = Pair.objects.select_for_update().get(pk=pair.pk)
        if pair.status != Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair has not withdrawn."), "status")
        before = _pair_json(pair)
        withdrawal = pair.withdrawal_reason
        pair.status, pair.withdrawn_at, pair.withdrawal_reason = Pair.Status.CONFIRMED, None, ""
        pair.disqualified = False
        pair.save(update_fields=["status", "withdrawn_at", "withdrawal_reason", "disqualified"])
        last = (Match.objects.filter(tournament=tournament, round__generated_at__isnull=False)
                .aggregate(n=Max("round__number"))["n"])
        walkovers = (Result.objects.select_for_update(of=("self",))
                     .filter(tournament=tournament, kind=Result.Kind.WALKOVER, absent=pair, reason__endswith=withdrawal)
                     .filter(Q(match__round__number=last) | Q(match__bracket_node__isnull=False))
                     .select_related("match"))
        undone = []
        for result in walkovers:
            match = result.match
            result.delete()
            if match.table is None:
                top = Match.objects.filter(round_id=match.round_id).aggregate(t=Max("table"))["t"] or 0
                match.table = top + 1
                match.save(update_fields=["table", "updated_at"])
            table_links.reopen(match, by)  # to be played: its table's card opens it again
            undone.append(match.pk)
        _audit(tournament, by, AuditEntry.Action.PAIR_REINSTATED, reason=reason, before=before,
               after={**_pair_json(pair), "walkovers_undone": undone})
        if undone:  # raises Conflict when a later bracket match was already played
            results_changed(tournament, by, undone)
        return pair
