"""When each table will finish and who is likely to win: the forecast model (``referee.engine.forecast``,
pure) fed with what the súmulas recorded (docs/predictions.md).

For every match in play: the score of the game in play and the games won (``scoring.Game``, ``Match``), the
format (best of N, the match's time limit and end-of-time procedure, ``Match.time_up_at``/``end_of_time``
written by the room: docs/room.md), the pairs' ratings (``draw.pairing.ratings``: the chance of winning a
game, turned into the chance of winning a hand) and the pace:

* the table's own minutes per hand (from the match's start, the room's ``room.services.clock``, to its last hand entered),
  pulled toward the event's pace while it has few hands (``blended_pace``);
* the event's pace: the minutes between the first and the last hand of each of its matches over the hands
  between them, pulled toward the site's default (``TRUCO_MINUTES_PER_HAND``, 2 minutes) likewise;
* the event's hands: how often a hand scores 1, 3, 6, 9 or 12 and how often nobody scores, pulled toward
  the model's defaults (the mãos de onze and de ferro are left out: their value is fixed, art. 18).

A fixed number of queries whatever the number of tables; nothing is written. The figures are rounded
(the hand chance to 0.01, the shares to 0.01) so that the model's solutions are shared between tables and
between the monitor's refreshes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, F, Max, Min, Q
from django.utils import timezone

from draw.pairing.ratings import Rating, Ratings
from referee.engine.game import game_start
from referee.engine.errors import ReportError
from referee.engine.forecast import Forecast, HandModel, Pace, forecast, hand_probability
from referee.engine.forecast.chain import POINTS, observed_hands
from referee.engine.forecast.match import SITE_MINUTES_PER_HAND, blended_pace, pace_doubt
from referee.engine.rules import DEFAULT, rule_set_from
from scoring.models import Game, HandEntry, Match

from .room_hooks import room
from .services import season_hooks



def site_minutes_per_hand() -> float:
    return float(getattr(settings, "TRUCO_MINUTES_PER_HAND", SITE_MINUTES_PER_HAND))


@dataclass(frozen=True)
class TableForecast:
    """A match's forecast as shown: pair A's chances (team 0), the minutes left and when it ends."""

    match: Match
    forecast: Forecast
    now: datetime
    minutes_per_hand: float
    pace_from: str  # "table", "event" or "site": where most of the pace comes from

    @property
    def minutes(self) -> int:
        return round(self.forecast.minutes)

    @property
    def low(self) -> int:
        return math.floor(self.forecast.low)

    @property
    def high(self) -> int:
        return math.ceil(self.forecast.high)

    @property
    def ends_at(self) -> datetime:
        return self.now + timedelta(minutes=self.forecast.minutes)

    @property
    def ends_low(self) -> datetime:
        """The 80 % interval's earliest end, as a clock time."""
        return self.now + timedelta(minutes=self.forecast.low)

    @property
    def ends_high(self) -> datetime:
        return self.now + timedelta(minutes=self.forecast.high)

    @property
    def percent_a(self) -> int:
        return round(100 * self.forecast.match_probability)

    @property
    def percent_b(self) -> int:
        return 100 - self.percent_a

    @property
    def at_risk(self) -> bool:
        return self.forecast.at_risk


#: The hands played for a fixed value, a team at 11 before them (art. 18: the mão de onze, for 3, or refused;
#: the mão de ferro), told by the score after them: the loser or nobody was at 11, or the winner's score less
#: the points is 11 (a game-winning hand capped at 12 cannot be told apart: counted with the others).
_AT_ELEVEN = game_start(eleven_all=True)[0]  # the score of a team at the mão de onze (the engine's number)
_FIXED_VALUE = (Q(ended_by__in=[HandEntry.EndedBy.ELEVEN_REFUSED, HandEntry.EndedBy.IRON_TIE])
                | Q(winner=0, score_b=_AT_ELEVEN) | Q(winner=1, score_a=_AT_ELEVEN)
                | Q(winner=0, score_a=F("points") + _AT_ELEVEN) | Q(winner=1, score_b=F("points") + _AT_ELEVEN)
                | Q(winner__isnull=True) & (Q(score_a=_AT_ELEVEN) | Q(score_b=_AT_ELEVEN)))


@dataclass(frozen=True)
class EventFigures:
    minutes_per_hand: float
    pace_from: str
    points: tuple[float, ...]
    no_score: float


def event_figures(tournament_id: int) -> EventFigures:
    """The event's pace and hands, each pulled toward the site's defaults (two queries)."""
    site = site_minutes_per_hand()
    spans = (HandEntry.objects.filter(game__match__tournament_id=tournament_id).values("game__match_id")
             .annotate(n=Count("id"), first=Min("created_at"), last=Max("created_at")))
    hands = minutes = 0.0
    for row in spans:
        if row["n"] >= 2:
            hands += row["n"] - 1
            minutes += (row["last"] - row["first"]).total_seconds() / 60
    pace = blended_pace(int(hands), minutes, site) if hands else site
    counts = dict.fromkeys(POINTS, 0)
    tied = 0
    for points, winner, n in (HandEntry.objects.filter(game__match__tournament_id=tournament_id)
                              .exclude(_FIXED_VALUE).values_list("points", "winner").annotate(n=Count("id"))):
        if winner is None:
            tied += n
        elif points in counts:
            counts[points] += n
    shares, no_score = observed_hands(counts, tied)
    return EventFigures(pace, "event" if hands >= 4 else "site", shares, no_score)


def _rules(spec):
    try:
        return rule_set_from(spec)
    except ReportError:
        return DEFAULT


def _game_chances(matches: list[Match]) -> dict[int, float]:
    """The chance pair A wins a game, from the players' ratings (only where someone of the four is rated)."""
    players = {m.pk: ((m.pair_a.first_player_id, m.pair_a.second_player_id),
                      (m.pair_b.first_player_id, m.pair_b.second_player_id)) for m in matches}
    ids = {p for a, b in players.values() for p in (*a, *b)}
    current: dict[int, Rating] = season_hooks.player_ratings(ids)  # the seasons app's ratings
    ratings = Ratings()
    ratings.current = current
    return {pk: ratings.win_probability(a, b) for pk, (a, b) in players.items()
            if any(p in current for p in (*a, *b))}


def estimates(tournament_id: int, matches: list[Match], *, now: datetime | None = None,
              starts: dict[int, datetime] | None = None) -> dict[int, TableForecast]:
    """The forecast of each match in play of ``matches`` (their pairs loaded), by match id. ``starts``: when
    each started (the room's, ``room_hooks``), read here when not given. Matches over, or not started, have none."""
    now = now or timezone.now()
    playing = [m for m in matches if m.winner is None and m.status == Match.Status.OPEN]
    ids = [m.pk for m in playing]
    if not ids:
        return {}
    hands: dict[int, list[datetime]] = {}
    for match_id, at in (HandEntry.objects.filter(game__match_id__in=ids).order_by("created_at")
                         .values_list("game__match_id", "created_at")):
        hands.setdefault(match_id, []).append(at)
    if starts is None:
        starts = room().started_at(ids)
    games: dict[int, Game] = {}
    for game in Game.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        games[game.match_id] = game
    event = event_figures(tournament_id)
    chances = _game_chances(playing)
    out: dict[int, TableForecast] = {}
    for m in playing:
        times = hands.get(m.pk, [])
        started = min([t for t in (starts.get(m.pk), times[0] if times else None) if t is not None], default=None)
        if started is None:
            continue
        out[m.pk] = _estimate(m, games.get(m.pk), times, started, now, event, chances.get(m.pk))
    return out


def _estimate(m: Match, game: Game | None, times: list[datetime], started: datetime, now: datetime,
              event: EventFigures, chance: float | None) -> TableForecast:
    base = HandModel(points=event.points, no_score=event.no_score, rules=_rules(m.rule_set))
    p = 0.5 if chance is None else round(hand_probability(round(chance, 2), base), 2)
    model = HandModel(p=p, points=base.points, no_score=base.no_score, rules=base.rules)
    time_up = m.time_up_at is not None and m.time_up_at <= now
    eleven_all = m.end_of_time == Match.EndOfTime.ELEVEN_ALL and time_up
    if game is None or game.winner is not None:  # between games: the next starts at 0-0 (11-11 after the time)
        score = game_start(eleven_all)
    else:
        score = game.score
    played = (times[-1] - started).total_seconds() / 60 if times else 0.0
    pace = blended_pace(len(times), max(played, 0.0), event.minutes_per_hand)
    since = (now - (times[-1] if times else started)).total_seconds() / 60
    time_left = (m.time_up_at - now).total_seconds() / 60 if m.time_up_at is not None else None
    result = forecast(score, (m.games_a, m.games_b), model, Pace(pace, doubt=pace_doubt(len(times))),
                      best_of=m.best_of, in_hand=since,
                      time_left=time_left, procedure=m.end_of_time if time_left is not None else "",
                      next_start=game_start(eleven_all))
    source = "table" if len(times) >= 4 else event.pace_from
    return TableForecast(m, result, now, pace, source)


def in_play(tournament, *, now: datetime | None = None) -> list[TableForecast]:
    """The forecasts of a tournament's matches in play at a table, the table that frees first first (the
    organizer's dashboard: which table to call the next match to)."""
    matches = list(Match.objects.filter(tournament=tournament, table__isnull=False, winner__isnull=True,
                                        status=Match.Status.OPEN)
                   .filter(Q(tournament_result__isnull=True))
                   .select_related("pair_a", "pair_b"))
    return soonest(estimates(tournament.pk, matches, now=now))


def soonest(found: dict[int, TableForecast]) -> list[TableForecast]:
    """The forecasts, the match that should end first first."""
    return sorted(found.values(), key=lambda f: (f.forecast.minutes, f.match.table or 0))
