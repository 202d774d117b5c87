"""The room's time limit written on the matches (docs/room.md), so the entry can honour the end-of-time
procedure without reading the tournament (``scoring.services.time_limit``).

A match's time limit runs from its start (``services.clock``: both pairs at the table, or its first
hand) for the room's ``time_limit`` minutes; this module writes that end on the match
(``Match.time_up_at``) with the room's procedure (``Match.end_of_time``) when the match starts (the
presence that starts it, or :func:`match_started` at its first hand, which scoring calls through
``scoring.hook``) and again for every match still in play when the organizer changes the room's
options. Options off (no time limit or no procedure): nothing is enforced; the regulation is silent
(docs/room.md).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from scoring.models import Match

from ..models import MatchCall, RoomSettings
from .clock import first_hands


def _end(room: RoomSettings, started: datetime | None) -> tuple[datetime | None, str]:
    if not room.time_limit or started is None:
        return None, ""
    return started + timedelta(minutes=room.time_limit), room.end_of_time


def sync(tournament_id: int, room: RoomSettings, match_ids=None) -> int:
    """Write the time limit's end and the procedure on the tournament's matches still in play (those of
    ``match_ids`` when given); returns how many changed. A fixed number of reads, one write per change."""
    matches = Match.objects.filter(tournament_id=tournament_id, winner__isnull=True, status=Match.Status.OPEN,
                                   table__isnull=False)
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    rows = list(matches.values_list("pk", "time_up_at", "end_of_time"))
    ids = [pk for pk, _at, _procedure in rows]
    calls = dict(MatchCall.objects.filter(match_id__in=ids, started_at__isnull=False)
                 .values_list("match_id", "started_at"))
    firsts = first_hands(ids)
    changed = 0
    for pk, at, procedure in rows:
        starts = [t for t in (calls.get(pk), firsts.get(pk)) if t is not None]
        wanted = _end(room, min(starts) if starts else None)
        if wanted != (at, procedure):
            Match.objects.filter(pk=pk).update(time_up_at=wanted[0], end_of_time=wanted[1])
            changed += 1
    return changed


def match_started(match: Match, at: datetime) -> None:
    """Scoring wrote a match's first hand (``scoring.hook.match_started``): its time limit starts (unless
    both pairs' presence started it before). One query when the room has no time limit."""
    room = RoomSettings.objects.filter(tournament_id=match.tournament_id, time_limit__gt=0).first()
    if room is None:
        return
    started = MatchCall.objects.filter(match_id=match.pk).values_list("started_at", flat=True).first()
    end, procedure = _end(room, min(started, at) if started else at)
    Match.objects.filter(pk=match.pk).update(time_up_at=end, end_of_time=procedure)
    match.time_up_at, match.end_of_time = end, procedure
