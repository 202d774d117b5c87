"""The organizer's manual overrides, each with a reason in the audit log: changing a match's pairs,
swapping two matches' tables and setting a pair's final place (setting a result by hand is
``results.set_result``).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict
from scoring.models import Match
from scoring.words import pair_names

from ..models import AuditEntry, Bye, Pair, Result, Round
from . import season_hooks
from .base import (
    TournamentError,
    _audit,
    _check_match,
    _has_entries,
    _lock_tournament,
    _managed_match,
    _match_json,
    _pair_of,
    _reason,
    _require_manager,
)


def change_pairing(match: Match, by, *, pair_a: Pair | int, pair_b: Pair | int, reason: str) -> list[Match]:
    """Override (Swiss rounds only): the match is now ``pair_a`` v ``pair_b``. A pair taken from
    another match (or from the bye) of the round is replaced there by the pair it displaces, so
    everyone still plays once: every pair of the round ends with exactly one board or the bye, or
    the change is refused (a pair not in the round, a late registration, would push one out; a
    pending pair is not paired at all). Only matches without entries or results change. Returns
    the matches changed."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        rnd = match.round
        if rnd.phase != Round.Phase.SWISS:
            raise Conflict(_("Pairings are changed by hand only in a Swiss round; regenerate the round instead."),
                           "match")
        new = [_pair_of(tournament, pair_a, "pair_a"), _pair_of(tournament, pair_b, "pair_b")]
        if new[0].pk == new[1].pk:
            raise TournamentError(_("A match is played between two different pairs."), "pair_b")
        for key, pair in zip(("pair_a", "pair_b"), new):
            if pair.status == Pair.Status.WITHDRAWN:
                raise TournamentError(ngettext("%(pair)s withdrew from the tournament.", "%(pair)s withdrew from the tournament.",
                                                pair_names.number(pair.name)) % {"pair": pair.name}, key)
            if pair.status == Pair.Status.PENDING:
                raise TournamentError(ngettext("%(pair)s is awaiting confirmation: confirm it before pairing it.",
                                               "%(pair)s is awaiting confirmation: confirm it before pairing it.",
                                               pair_names.number(pair.name)) % {"pair": pair.name}, key)
        others = {m.pk: m for m in Match.objects.filter(round=rnd).exclude(pk=match.pk)}
        place = {}
        for m in others.values():
            place[m.pair_a_id] = (m, "pair_a_id")
            place[m.pair_b_id] = (m, "pair_b_id")
        byes = {b.pair_id: b for b in Bye.objects.filter(round=rnd)}
        old = [match.pair_a_id, match.pair_b_id]
        new_ids = [p.pk for p in new]
        leaving = [p for p in old if p not in new_ids]
        entering = [p for p in new_ids if p not in old]
        in_round = set(place) | set(byes) | set(old)
        for key, pair in zip(("pair_a", "pair_b"), new):
            if pair.pk not in in_round:
                raise TournamentError(ngettext(
                    "%(pair)s is not in this round: putting it in would leave another pair with neither a match "
                    "nor the bye. Regenerate the round to include it.",
                    "%(pair)s is not in this round: putting it in would leave another pair with neither a match "
                    "nor the bye. Regenerate the round to include it.",
                    pair_names.number(pair.name)) % {"pair": pair.name}, key)
        touched = {match.pk: match}
        before = [_match_json(match)]
        bye_changes = []
        for enter, leave in zip(entering, leaving):
            if enter in place:
                other, side = place[enter]
                if other.pk not in touched:
                    before.append(_match_json(other))
                setattr(other, side, leave)
                touched[other.pk] = other
            elif enter in byes:
                bye_changes.append((byes[enter], leave))
        # Lock the other matches that change (after the tournament: none of them can be in the middle of
        # a receipt, which needs entries), then check they are still untouched.
        list(Match.objects.select_for_update().filter(pk__in=[pk for pk in touched if pk != match.pk]))
        if _has_entries(touched) or Result.objects.filter(match_id__in=list(touched)).exists():
            raise Conflict(_("A match involved already has entries or a result."), "match")
        match.pair_a_id, match.pair_b_id = new_ids
        seats = [p for m in touched.values() for p in (m.pair_a_id, m.pair_b_id)]
        seats += [p for m in others.values() if m.pk not in touched for p in (m.pair_a_id, m.pair_b_id)]
        seats += [pair_id for bye, pair_id in bye_changes] + [p for p, b in byes.items()
                                                             if b not in {c[0] for c in bye_changes}]
        if sorted(seats) != sorted(set(seats)) or set(seats) != in_round:
            raise Conflict(_("This change would leave a pair with two boards or none."), "pair_b")
        for m in touched.values():
            m.save(update_fields=["pair_a", "pair_b", "updated_at"])
        for bye, pair_id in bye_changes:
            bye.pair_id = pair_id
            bye.save(update_fields=["pair"])
        _audit(tournament, by, AuditEntry.Action.PAIRING_CHANGED, reason=reason, match=match, round=rnd,
               before={"matches": before}, after={"matches": [_match_json(m) for m in touched.values()],
                                                  "byes": [b.pair_id for b in byes.values()]})
        return list(touched.values())


def swap_tables(match: Match, other: Match, by, *, reason: str) -> None:
    """Override: two matches of the same round exchange their tables (and the tables' referees)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        first, second = sorted([match.pk, other.pk])
        if first == second:
            raise TournamentError(_("Choose two different matches."), "other")
        # matches first, then the tournament: the order of scoring's receipt (then result_official)
        locked = {m.pk: m for m in Match.objects.select_for_update().filter(pk__in=[first, second]).order_by("pk")}
        tournament = _lock_tournament(match.tournament_id) if match.tournament_id else None
        if tournament is None:
            raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")
        _require_manager(by, tournament)
        match, other = locked[match.pk], locked.get(other.pk)
        if other is None or other.round_id != match.round_id or other.tournament_id != tournament.pk:
            raise TournamentError(_("Both matches must be of the same round."), "other")
        _check_match(match, tournament)
        if match.table is None or other.table is None:
            raise Conflict(_("A walkover has no table."), "other")
        for m in (match, other):
            if m.status != Match.Status.OPEN:
                raise Conflict(_("The súmula of a match at these tables was already signed."), "match")
        before = [_match_json(match), _match_json(other)]
        match.table, other.table = other.table, match.table
        match.referee_id, other.referee_id = other.referee_id, match.referee_id
        for m in (match, other):
            m.save(update_fields=["table", "referee", "updated_at"])
        season_hooks.rating_order_changed([match.pk, other.pk])  # the table places a match in the rating order
        _audit(tournament, by, AuditEntry.Action.TABLES_SWAPPED, reason=reason, match=match, round=match.round,
               before={"matches": before}, after={"matches": [_match_json(match), _match_json(other)]})


def override_placing(tournament, by, *, pair: Pair | int, place: int | None, reason: str) -> dict:
    """Set ``pair``'s final place by hand (``place`` None: take the decision back), with a reason,
    audited: the overall table puts the pair at that place, the other pairs keep their order around
    it, and its row says the organizer placed it and why. Returns the tournament's overrides."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        pair = _pair_of(tournament, pair, "pair")
        if pair.status == Pair.Status.PENDING:
            raise TournamentError(_("A pending registration has no place."), "pair")
        count = Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING).count()
        if place is not None and (type(place) is not int or not 1 <= place <= count):
            raise TournamentError(_("A place from 1 to %(count)s.") % {"count": count}, "place")
        overrides = dict(tournament.placing_overrides or {})
        before = overrides.get(str(pair.pk))
        if place is None:
            if before is None:
                raise Conflict(_("This pair's place was not set by hand."), "pair")
            overrides.pop(str(pair.pk))
        else:
            taken = [p for p, o in overrides.items() if o["place"] == place and p != str(pair.pk)]
            if taken:
                raise Conflict(_("Another pair was placed %(place)s by hand: take that decision back first.")
                               % {"place": place}, "place")
            overrides[str(pair.pk)] = {"place": place, "reason": reason}
        tournament.placing_overrides = overrides
        tournament.save(update_fields=["placing_overrides"])
        _audit(tournament, by, AuditEntry.Action.PLACING_OVERRIDDEN, reason=reason,
               before={"pair": pair.pk, "placing": before},
               after={"pair": pair.pk, "placing": overrides.get(str(pair.pk))})
        season_hooks.placings_changed(tournament)  # a finished stage of a circuit: its placings as now decided
        return overrides
