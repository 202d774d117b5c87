"""The projector's "chamadas" (issue 25 §5): the matches at the tables now, the newest calls first —
table, pairs, when called and, with the room's time limit, until when — one slide of 16 a page ahead
of the round's tables when the room calls matches one by one (ready matches) or has a clock.
A fixed number of queries."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef

from scoring.models import Match

from .models import MatchCall, Result, Tournament
from .services.ready import room_of


@dataclass(frozen=True)
class Called:
    match: Match
    called_at: datetime | None
    until: datetime | None  # the time limit's end, once started


def called_now(tournament: Tournament) -> list[Called]:
    """The matches at a table now (no official result, súmula not received), newest call first; empty
    unless the room has ready matches or a time limit."""
    room = room_of(tournament)
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
