"""The room monitor: every table of a tournament as a tile, for the organizer and the
referees, on a phone or a laptop.

A tile's state, most urgent first (the order of the tiles: what needs a person comes first):
``disputed`` (an open dispute holds the súmula), ``calling`` (a pair called the referee), ``late``
(a W.O. proposal: the tolerance ran out with one pair at the table), ``over_time`` (past the room's
time limit), ``signing`` (the match is over, the pairs sign), ``signed`` (the organizer receives it),
``called`` (a match called, not started), ``playing`` (game and score), ``received`` and ``free``.
:func:`tiles` builds them in a fixed number of queries whatever the number of tables.

The page updates by the live views' conditional polling (docs/live.md) on the tournament's change
marker (``public.freshness``) with the calls to the referee added (:func:`monitor_version`): ONE
query over what the tiles show (matches, results, calls to the referee, the audit log, every hand's
event, the room's options). Clock-driven states (over time, a tolerance
running out) change without a write: each fragment names its next deadline and the page's script
fetches it again then.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from scoring.models import Game, Match
from room.models import MatchCall
from tournaments.models import TableAssignment, Tournament
from public import freshness
from tournaments import forecasts
from room.services import clock, presence, ready

from .models import RefereeCall

ORDER = ("disputed", "calling", "late", "over_time", "signing", "signed", "called", "playing", "received", "free")
NEEDS_A_PERSON = {"disputed", "calling", "late", "over_time", "signed"}


@dataclass
class Tile:
    table: int
    state: str
    match: Match | None = None
    game: int | None = None
    score: tuple[int, int] | None = None
    games: tuple[int, int] | None = None
    clock: clock.Clock | None = None
    proposal: presence.Proposal | None = None
    referee: str = ""
    calls: list[str] = field(default_factory=list)
    forecast: forecasts.TableForecast | None = None  # when it should end, who should win (docs/predictions.md)

    @property
    def urgent(self) -> bool:
        return self.state in NEEDS_A_PERSON


def may_watch(user, tournament: Tournament) -> bool:
    """The organizer (staff, superusers) and the tournament's referees."""
    from scoring import access

    if access.manages(user, tournament):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return (TableAssignment.objects.filter(tournament=tournament, referee=user).exists()
            or Match.objects.filter(tournament=tournament, referee=user).exists())


def tiles(tournament: Tournament, *, now: datetime | None = None) -> tuple[list[Tile], datetime | None]:
    """Every table's tile, most urgent first, and the next moment a tile changes by the clock alone."""
    now = now or timezone.now()
    room = ready.room_of(tournament)
    rows = list(Match.objects.filter(tournament=tournament, round__isnull=False, table__isnull=False)
                .select_related("round", "pair_a", "pair_b", "referee", "tournament_result")
                .order_by("table", "round__number", "pk"))
    current: dict[int, Match] = {}
    last: dict[int, Match] = {}
    for m in rows:
        decided = getattr(m, "tournament_result", None) is not None
        if not decided and m.status != Match.Status.RECEIVED:
            current.setdefault(m.table, m)
        last[m.table] = m
    ids = [m.pk for m in current.values()]
    games = {}
    for g in Game.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        games[g.match_id] = g  # the last game of each match
    calls = {c.match_id: c for c in MatchCall.objects.filter(match_id__in=ids)}
    firsts = clock.first_hands(ids)
    open_calls: dict[int, list[str]] = {}
    for match_id, kind in RefereeCall.objects.filter(match_id__in=ids, resolved_at__isnull=True).values_list(
            "match_id", "kind"):
        open_calls.setdefault(match_id, []).append(kind)
    proposals = {p.match.pk: p for p in presence.walkover_proposals(tournament, now=now)}
    count = max([room.tables or 0, *current.keys(), *last.keys()], default=0)
    out, upcoming = [], []
    for table in range(1, count + 1):
        m = current.get(table)
        if m is None:
            previous = last.get(table)
            out.append(Tile(table, "received" if previous is not None else "free", match=previous))
            continue
        state_clock = clock.clock_of(m, room, now, call=calls.get(m.pk), first_hand=firsts.get(m.pk))
        game = games.get(m.pk)
        kinds = open_calls.get(m.pk, [])
        started = state_clock.started_at is not None
        if "dispute" in kinds:
            state = "disputed"
        elif kinds:
            state = "calling"
        elif m.pk in proposals:
            state = "late"
        elif m.status == Match.Status.SIGNED:
            state = "signed"
        elif m.winner is not None:
            state = "signing"
        elif state_clock.over_time:
            state = "over_time"
        elif not started:
            state = "called"
        else:
            state = "playing"
        for moment in (state_clock.late_after if not started else None,
                       state_clock.started_at + timezone.timedelta(minutes=room.time_limit)
                       if started and room.time_limit else None):
            if moment is not None and moment > now:
                upcoming.append(moment)
        referee = m.referee.get_full_name() or m.referee.get_username() if m.referee_id else ""
        out.append(Tile(table, state, match=m, game=game.number if game else None,
                        score=(game.score_a, game.score_b) if game else None, games=(m.games_a, m.games_b),
                        clock=state_clock, proposal=proposals.get(m.pk), referee=referee, calls=kinds))
    started = {tile.match.pk: tile.clock.started_at for tile in out
               if tile.clock is not None and tile.clock.started_at is not None and tile.match.winner is None}
    estimates = forecasts.estimates(tournament.pk, [tile.match for tile in out
                                                            if tile.match is not None and tile.match.pk in started],
                                    now=now, starts=started) if started else {}
    for tile in out:
        if tile.match is not None:
            tile.forecast = estimates.get(tile.match.pk)
    out.sort(key=lambda tile: (ORDER.index(tile.state), tile.table))
    return out, min(upcoming) if upcoming else None


#: what the monitor shows beyond the public pages: the calls to the referee (taken, resolved)
CALLS = {"call": (RefereeCall.objects, "match__tournament", ("taken_at", "resolved_at"))}


def monitor_version(slug: str) -> str | None:
    """The monitor's change marker for ``slug`` (None: no such tournament): the tournament's one marker
    (``public.freshness``) with the calls to the referee. One query."""
    current = freshness.state(slug, also=CALLS)
    return current.tag if current is not None else None
