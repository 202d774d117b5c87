"""The round clock (docs/room.md): when each match was called and started, how long it
has run, how long it has left, and the lateness deadline of its pairs.

Nothing here writes. A match's *called* time is its :class:`~room.models.MatchCall`'s (a ready
match called to a table), else its round's pairing time (every match of a round is called to its table
when the round is paired). It *started* when both pairs said they are at the table
(``room.services.presence``) or at its first hand, whichever came first. The options are the
room's (``RoomSettings``; all off by default, the regulation is silent): the lateness tolerance of the
first round and of later rounds (ASSTJ: 15 and 5 minutes), the match time limit (Tupantruco: 1h30) and
the end-of-time procedure. Times are computed for a given ``now`` so tests run a controlled clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Min

from scoring.models import HandEntry

from ..models import MatchCall, RoomSettings


@dataclass(frozen=True)
class Clock:
    called_at: datetime | None
    started_at: datetime | None
    elapsed: int | None  # seconds since the start (or since the call, while not started)
    remaining: int | None  # seconds left of the time limit (negative: over time); None without a limit
    late_after: datetime | None  # the lateness deadline (called + tolerance); None without a tolerance

    @property
    def remaining_minutes(self) -> int | None:
        return None if self.remaining is None else abs(self.remaining) // 60

    @property
    def over_time(self) -> bool:
        return self.remaining is not None and self.remaining < 0

    def as_dict(self) -> dict:
        iso = lambda v: v.isoformat() if v else None  # noqa: E731
        return {"called_at": iso(self.called_at), "started_at": iso(self.started_at), "elapsed": self.elapsed,
                "remaining": self.remaining, "over_time": self.over_time, "late_after": iso(self.late_after)}


def tolerance(room: RoomSettings, round_number: int | None) -> int | None:
    """Minutes of lateness tolerance for a match of round ``round_number`` (first round or later)."""
    return room.tolerance_first if round_number == 1 else room.tolerance_later


def first_hands(match_ids) -> dict[int, datetime]:
    """When each match's first hand was entered (one query)."""
    rows = (HandEntry.objects.filter(game__match_id__in=list(match_ids)).values("game__match_id")
            .annotate(first=Min("created_at")).values_list("game__match_id", "first"))
    return dict(rows)


def clock_of(match, room: RoomSettings, now: datetime, *, call: MatchCall | None = None,
             first_hand: datetime | None = None) -> Clock:
    """The clock of ``match`` (its ``round`` loaded) at ``now``."""
    rnd = match.round
    called = call.called_at if call is not None else (rnd.generated_at if rnd is not None else None)
    if match.table is None:
        return Clock(None, None, None, None, None)
    starts = [t for t in ((call.started_at if call else None), first_hand) if t is not None]
    started = min(starts) if starts else None
    since = started or called
    elapsed = int((now - since).total_seconds()) if since else None
    remaining = None
    if room.time_limit and started is not None:
        remaining = int((started + timedelta(minutes=room.time_limit) - now).total_seconds())
    minutes = tolerance(room, rnd.number if rnd is not None else None)
    late_after = called + timedelta(minutes=minutes) if minutes is not None and called else None
    return Clock(called, started, elapsed, remaining, late_after)
