"""Presence at the table (the room, docs/room.md): each pair says "estamos na mesa" from the table page; when the
lateness tolerance runs out with one pair there and the other not, the organizer gets a W.O. proposal
(:func:`walkover_proposals`) and confirms it in one tap (:func:`confirm_proposal`, through
``tournaments.services.walkovers.record_walkover``: audited with its reason). Never an automatic
result: the regulation gives the W.O. to the organizer (art. 26), and a pair may be at the table
without having tapped.

The tolerance is the room's (first round / later rounds, ``RoomSettings``, off by default; ASSTJ's
regulation: 15 and 5 minutes). Functions take ``now`` so tests run a controlled clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import HandEntry, Match

from tournaments.models import Pair, Result, Tournament
from tournaments.services.base import TournamentError, _pair_of
from tournaments.services.walkovers import record_walkover

from ..models import MatchCall
from .clock import clock_of
from . import time_limit
from .ready import _open_matches, room_of


def _call_of(match: Match) -> MatchCall:
    """The match's call row, made when missing (a match called with its round: called when paired)."""
    call = MatchCall.objects.select_for_update().filter(match=match).first()
    if call is None:
        called = match.round.generated_at if match.round_id else match.created_at
        call = MatchCall.objects.create(match=match, tournament_id=match.tournament_id, table=match.table,
                                        called_at=called or timezone.now())
    return call


def confirm_presence(match: Match | int, team: int, *, now: datetime | None = None) -> MatchCall:
    """Pair ``team`` (0: pair A, 1: pair B) is at the table. Idempotent (a second tap keeps the first
    time). When both are there the match's clock starts. The caller checked the credential (the
    table's link or card)."""
    if team not in (0, 1):
        raise TournamentError(_("Say which pair is at the table."), "team")
    now = now or timezone.now()
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("round").get(
            pk=match.pk if isinstance(match, Match) else match)
        if match.table is None or match.round_id is None:
            raise Conflict(_("This match was not called to a table yet."), "match")
        if Result.objects.filter(match=match).exists():
            raise Conflict(_("This match already has an official result."), "match")
        call = _call_of(match)
        name = "present_a_at" if team == 0 else "present_b_at"
        if getattr(call, name) is None:
            setattr(call, name, now)
            fields = [name]
            if call.present_a_at and call.present_b_at and call.started_at is None:
                call.started_at = now
                fields.append("started_at")
            call.save(update_fields=fields)
            Match.objects.filter(pk=match.pk).update(updated_at=now)  # the live views' marker moves
            if call.started_at is not None:  # the time limit runs from here (written on the match for the entry)
                time_limit.sync(match.tournament_id, room_of(match.tournament_id), [match.pk])
        return call


@dataclass(frozen=True)
class Proposal:
    """A W.O. proposal: ``absent`` did not come within the tolerance; ``present`` is at the table."""

    match: Match
    absent: Pair
    present: Pair
    late_after: datetime
    present_since: datetime


def walkover_proposals(tournament: Tournament, *, now: datetime | None = None) -> list[Proposal]:
    """Matches at a table, not decided, nothing entered, past the tolerance with exactly one pair
    at the table. A fixed number of queries."""
    now = now or timezone.now()
    room = room_of(tournament)
    if room.tolerance_first is None and room.tolerance_later is None:
        return []
    calls = {c.match_id: c for c in MatchCall.objects.filter(tournament=tournament)
             .exclude(present_a_at__isnull=True, present_b_at__isnull=True)}
    if not calls:
        return []
    matches = list(_open_matches(tournament.pk).filter(pk__in=list(calls), status=Match.Status.OPEN,
                                                       table__isnull=False)
                   .select_related("round", "pair_a", "pair_b"))
    entered = set(HandEntry.objects.filter(game__match__in=matches).values_list("game__match_id", flat=True))
    out = []
    for m in matches:
        call = calls[m.pk]
        if m.pk in entered or (call.present_a_at is None) == (call.present_b_at is None):
            continue
        deadline = clock_of(m, room, now, call=call).late_after
        if deadline is None or now < deadline:
            continue
        a_here = call.present_a_at is not None
        out.append(Proposal(m, absent=m.pair_b if a_here else m.pair_a, present=m.pair_a if a_here else m.pair_b,
                            late_after=deadline, present_since=call.present_a_at if a_here else call.present_b_at))
    return sorted(out, key=lambda p: (p.late_after, p.match.table))


def confirm_proposal(match: Match, absent: Pair | int, by, *, now: datetime | None = None) -> Result:
    """The organizer confirms a W.O. proposal: refused (409) unless it still stands (tolerance past,
    the absent pair still not at the table, nothing entered); then the W.O. is recorded and audited
    with the times."""
    now = now or timezone.now()
    tournament = Tournament.objects.get(pk=match.tournament_id)
    absent_id = absent.pk if isinstance(absent, Pair) else absent
    proposal = next((p for p in walkover_proposals(tournament, now=now) if p.match.pk == match.pk), None)
    if proposal is None or proposal.absent.pk != absent_id:
        raise Conflict(_("There is no W.O. proposal for this pair now (it arrived, or the tolerance is not over)."),
                       "absent")
    _pair_of(tournament, absent_id, "absent")
    call = MatchCall.objects.get(match_id=match.pk)
    at = lambda moment: f"{timezone.localtime(moment):%H:%M}"  # noqa: E731
    reason = _("Late beyond the tolerance: called at %(called)s, deadline %(deadline)s; the other pair at the "
               "table since %(present)s.") % {"called": at(call.called_at), "deadline": at(proposal.late_after),
                                              "present": at(proposal.present_since)}
    return record_walkover(proposal.match, absent_id, by, reason=reason)
