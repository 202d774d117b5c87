"""The projector's "chamadas": the matches at the tables now, the newest calls first —
table, pairs, when called and, with the room's time limit, until when — one slide of 16 a page ahead
of the round's tables when the room calls matches one by one (ready matches) or has a clock.
A fixed number of queries.

:func:`round_clock` is the projector's clock of the round on screen: when the round was called (its
pairing) and, with a time limit, when its last started match runs out, and each match's own end. The
page ticks them client-side from these absolute times (``data-since``, ``data-until``): the clock costs
no poll, and the live marker does not move with time."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef

from scoring.models import Match

from tournaments.models import Result, Round, Tournament

from .models import MatchCall, RoomSettings
from .services.clock import first_hands
from .services.ready import room_of


@dataclass(frozen=True)
class Called:
    match: Match
    called_at: datetime | None
    until: datetime | None  # the time limit's end, once started


@dataclass(frozen=True)
class RoundClock:
    since: datetime | None  # the round was called (paired) at
    until: datetime | None  # the time limit's end of its last started match (or of the round's call)
    ends: dict  # match id -> the time limit's end of that match, once it started


def round_clock(rnd: Round | None, room: RoomSettings) -> RoundClock | None:
    """The clock of round ``rnd`` for the projector (two queries); None without a round or when the
    room has no clock (no time limit, no tolerance, no ready matches)."""
    if rnd is None or rnd.generated_at is None or not (
            room.time_limit or room.ready_matches or room.tolerance_first is not None
            or room.tolerance_later is not None):
        return None
    ends: dict = {}
    until = None
    if room.time_limit:
        limit = timedelta(minutes=room.time_limit)
        ids = list(Match.objects.filter(round=rnd, table__isnull=False).values_list("pk", flat=True))
        started = {c.match_id: c.started_at for c in MatchCall.objects.filter(match_id__in=ids,
                                                                             started_at__isnull=False)}
        for pk, first in first_hands(ids).items():
            started[pk] = min(t for t in (started.get(pk), first) if t is not None)
        ends = {pk: at + limit for pk, at in started.items()}
        until = max(ends.values(), default=rnd.generated_at + limit)
    return RoundClock(rnd.generated_at, until, ends)


def called_now(tournament: Tournament, room: RoomSettings | None = None) -> list[Called]:
    """The matches at a table now (no official result, súmula not received), newest call first; empty
    unless the room has ready matches or a time limit."""
    room = room if room is not None else room_of(tournament)
    if not (room.ready_matches or room.time_limit):
        return []
    matches = list(Match.objects.filter(tournament=tournament, round__isnull=False, table__isnull=False)
                   .exclude(Exists(Result.objects.filter(match=OuterRef("pk"))))
                   .exclude(status=Match.Status.RECEIVED).select_related("round", "pair_a", "pair_b"))
    calls = {c.match_id: c for c in MatchCall.objects.filter(match__in=matches)}
    out = []
    for m in matches:
        call = calls.get(m.pk)
        called = call.called_at if call else m.round.generated_at
        until = (call.started_at + timedelta(minutes=room.time_limit)
                 if call and call.started_at and room.time_limit else None)
        out.append(Called(m, called, until))
    return sorted(out, key=lambda c: (-(c.called_at.timestamp() if c.called_at else 0), c.match.table))
