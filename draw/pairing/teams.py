"""Team matches: the result of a match between two teams of pairs, and the teams' standings.

A team match is played by the teams' pairs at several tables at once; each table is a normal pair
match (its súmula, art. 25). The regulation says nothing of teams, so the event's organizer sets the
rule of the team result (art. 26: what the regulation leaves open is the organizer's to decide), one
of :class:`TeamRule`:

* ``pair_wins`` — the team whose pairs won more tables wins (5×0, 4×1, 3×2). The team result is
  known once every table is finished; a tie (2×2, or 1×1 with a double W.O. at a table) is settled by
  one more pair match, the deciding game "a negra", whose winner takes the team match. The negra
  decides the winner only: it is not counted in the pair wins nor in the games (a 2×2 stays 2×2 in
  the standings' differences).
* ``first_to_k_games`` — every game won at any table counts for its team ("quedas"), open tables'
  games won so far included; the first team to ``k`` games wins at once, and every table still open
  is closed with the reason (:attr:`TeamMatchState.close_tables`). When every table is finished and
  neither team reached ``k``, the team with more games wins; equal games → the negra. If a snapshot
  shows both teams at ``k`` or more (two results arriving together), the one with more games wins;
  equal → the negra.
* ``total_games`` — once every table is finished, the team with more games won across the tables
  wins; equal games → the negra.

The standings of the teams (:func:`team_standings`) order the teams by criteria given as data
(:data:`TEAM_TIEBREAKS`: match points, pair-win difference, game difference, head-to-head among the
teams still tied, recomputed for each tied subset); teams still tied keep the order they were given
in (their seeds). Pure Python: the ``teams`` app calls it with plain ids.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

__all__ = [
    "TeamRule", "Reason", "TableResult", "TeamMatchState", "team_match_state",
    "TeamTiebreak", "TEAM_TIEBREAKS", "TeamMatchResult", "TeamRow", "team_standings",
]

TeamId = Hashable


class TeamRule(str, Enum):
    PAIR_WINS = "pair_wins"
    FIRST_TO_K_GAMES = "first_to_k_games"
    TOTAL_GAMES = "total_games"


class Reason(str, Enum):
    """Why a team match stands where it stands (the service words each one, citing art. 26)."""
    PLAYING = "playing"  # tables still open, nothing decided
    MORE_PAIR_WINS = "more_pair_wins"
    MORE_GAMES = "more_games"
    REACHED_K = "reached_k"  # first_to_k_games: a team reached k games
    TIE_NEEDS_DECIDER = "tie_needs_decider"  # a tie: the negra is to be played
    DECIDER_PLAYING = "decider_playing"
    DECIDER_WON = "decider_won"
    DECIDER_NO_WINNER = "decider_no_winner"  # the negra went by double W.O.: the organizer decides


@dataclass(frozen=True)
class TableResult:
    """One table of a team match. ``winner``: 0 (the home team's pair), 1, or None (no winner: a double
    W.O. when finished). ``games``: games won by each side (so far, while open)."""
    table: int
    finished: bool
    winner: int | None = None
    games: tuple[int, int] = (0, 0)
    decider: bool = False

    def __post_init__(self):
        if self.winner not in (0, 1, None):
            raise ValueError(f"table {self.table}: the winner is 0, 1 or None, not {self.winner!r}")
        if self.winner is not None and not self.finished:
            raise ValueError(f"table {self.table}: an open table has no winner yet")
        if len(self.games) != 2 or min(self.games) < 0:
            raise ValueError(f"table {self.table}: games are two counts of zero or more")


@dataclass(frozen=True)
class TeamMatchState:
    """Where a team match stands. ``winner`` 0/1 once decided; ``needs_decider``: a tie, create the
    negra; ``close_tables``: the open tables to close because the team match is decided."""
    rule: TeamRule
    decided: bool
    winner: int | None
    reason: Reason
    pair_wins: tuple[int, int]
    games: tuple[int, int]
    needs_decider: bool = False
    close_tables: tuple[int, ...] = ()


def _sum_games(tables: Iterable[TableResult]) -> tuple[int, int]:
    a = b = 0
    for t in tables:
        a += t.games[0]
        b += t.games[1]
    return a, b


def team_match_state(rule: TeamRule | str, tables: Sequence[TableResult], k: int | None = None) -> TeamMatchState:
    """The state of a team match from its tables under ``rule`` (``k``: the games to win, for
    ``first_to_k_games``). At most one table is the decider (the negra)."""
    rule = TeamRule(rule)
    regular = [t for t in tables if not t.decider]
    deciders = [t for t in tables if t.decider]
    if len(deciders) > 1:
        raise ValueError("a team match has at most one deciding game (the negra)")
    if not regular:
        raise ValueError("a team match has at least one table")
    if len({t.table for t in tables}) != len(tables):
        raise ValueError("each table of a team match has its own number")
    if rule is TeamRule.FIRST_TO_K_GAMES and (k is None or k < 1):
        raise ValueError("first_to_k_games needs k, the games to win (1 or more)")
    pair_wins = (sum(t.winner == 0 for t in regular if t.finished), sum(t.winner == 1 for t in regular if t.finished))
    games = _sum_games(regular)
    all_finished = all(t.finished for t in regular)

    def state(winner, reason, *, needs=False, close=()):
        return TeamMatchState(rule, winner is not None, winner, reason, pair_wins, games, needs, tuple(close))

    tie_close: tuple[int, ...] = ()
    if rule is TeamRule.FIRST_TO_K_GAMES:
        if max(games) >= k:
            tie_close = tuple(sorted(t.table for t in regular if not t.finished))
            if games[0] != games[1]:
                return state(0 if games[0] > games[1] else 1, Reason.REACHED_K, close=tie_close)
        elif not all_finished:
            return state(None, Reason.PLAYING)
        elif games[0] != games[1]:
            return state(0 if games[0] > games[1] else 1, Reason.MORE_GAMES)
    elif not all_finished:
        return state(None, Reason.PLAYING)
    elif rule is TeamRule.PAIR_WINS and pair_wins[0] != pair_wins[1]:
        return state(0 if pair_wins[0] > pair_wins[1] else 1, Reason.MORE_PAIR_WINS)
    elif rule is TeamRule.TOTAL_GAMES and games[0] != games[1]:
        return state(0 if games[0] > games[1] else 1, Reason.MORE_GAMES)
    # a tie: the negra decides
    if not deciders:
        return state(None, Reason.TIE_NEEDS_DECIDER, needs=True, close=tie_close)
    decider = deciders[0]
    if not decider.finished:
        return state(None, Reason.DECIDER_PLAYING, close=tie_close)
    if decider.winner is None:
        return state(None, Reason.DECIDER_NO_WINNER, close=tie_close)
    return state(decider.winner, Reason.DECIDER_WON, close=tie_close)


# ------------------------------------------------------------------------------------ standings


class TeamTiebreak(str, Enum):
    MATCH_POINTS = "match_points"
    PAIR_WIN_DIFFERENCE = "pair_win_difference"
    GAME_DIFFERENCE = "game_difference"
    HEAD_TO_HEAD = "head_to_head"


#: the team criteria as an API's choices (the schema names their set ``TeamTiebreakEnum``)
TEAM_TIEBREAK_CHOICES = [(t.value, t.value) for t in TeamTiebreak]


#: the default order of the team criteria
TEAM_TIEBREAKS: tuple[TeamTiebreak, ...] = (TeamTiebreak.MATCH_POINTS, TeamTiebreak.PAIR_WIN_DIFFERENCE,
                                            TeamTiebreak.GAME_DIFFERENCE, TeamTiebreak.HEAD_TO_HEAD)


@dataclass(frozen=True)
class TeamMatchResult:
    """A decided team match: the two teams, the winner (a team id, None for no winner: both lose),
    pair wins and games of each (the negra not counted)."""
    home: TeamId
    away: TeamId
    winner: TeamId | None
    pair_wins: tuple[int, int]
    games: tuple[int, int]

    def __post_init__(self):
        if self.home == self.away:
            raise ValueError("a team match is played between two different teams")
        if self.winner not in (self.home, self.away, None):
            raise ValueError("the winner of a team match is one of its two teams")


@dataclass
class TeamRow:
    team: TeamId
    rank: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    match_points: int = 0
    pair_wins_for: int = 0
    pair_wins_against: int = 0
    games_for: int = 0
    games_against: int = 0
    head_to_head: int = 0  # match points in the last mini-table the team was ranked in
    values: dict = field(default_factory=dict)

    @property
    def pair_win_difference(self) -> int:
        return self.pair_wins_for - self.pair_wins_against

    @property
    def game_difference(self) -> int:
        return self.games_for - self.games_against


def _points(results: Iterable[TeamMatchResult], among: set, win: int) -> dict:
    points = dict.fromkeys(among, 0)
    for r in results:
        if r.home in among and r.away in among and r.winner is not None:
            points[r.winner] += win
    return points


def team_standings(teams: Sequence[TeamId], results: Iterable[TeamMatchResult],
                   tiebreaks: Sequence[TeamTiebreak | str] = TEAM_TIEBREAKS, *, win_points: int = 2) -> list[TeamRow]:
    """The teams ranked 1..n (every rank distinct) by ``tiebreaks`` in order; a win is worth
    ``win_points`` match points, a loss nothing. Teams still tied keep their order in ``teams``."""
    order = list(teams)
    if len(set(order)) != len(order):
        raise ValueError("teams: each team once")
    results = list(results)
    rows = {team: TeamRow(team) for team in order}
    for r in results:
        if r.home not in rows or r.away not in rows:
            raise ValueError(f"a team match between teams not in the standings: {r.home!r}, {r.away!r}")
        for side, team in enumerate((r.home, r.away)):
            row = rows[team]
            row.played += 1
            row.won += r.winner == team
            row.lost += r.winner != team
            row.match_points += win_points if r.winner == team else 0
            row.pair_wins_for += r.pair_wins[side]
            row.pair_wins_against += r.pair_wins[1 - side]
            row.games_for += r.games[side]
            row.games_against += r.games[1 - side]
    criteria = [TeamTiebreak(c) for c in tiebreaks]
    value = {TeamTiebreak.MATCH_POINTS: lambda row: row.match_points,
             TeamTiebreak.PAIR_WIN_DIFFERENCE: lambda row: row.pair_win_difference,
             TeamTiebreak.GAME_DIFFERENCE: lambda row: row.game_difference}
    position = {team: i for i, team in enumerate(order)}

    def rank(group: list, start: int) -> list:
        """``group`` (tied so far) ordered by the criteria from ``start`` on."""
        if len(group) < 2 or start >= len(criteria):
            return sorted(group, key=position.__getitem__)
        criterion = criteria[start]
        if criterion is TeamTiebreak.HEAD_TO_HEAD:
            points = _points(results, set(group), win_points)
            for team in group:
                rows[team].head_to_head = points[team]
            keyed = {team: points[team] for team in group}
            if len(set(keyed.values())) == 1:
                return rank(group, start + 1)
            out = []
            for score in sorted(set(keyed.values()), reverse=True):
                subset = [t for t in group if keyed[t] == score]
                out += rank(subset, start) if len(subset) < len(group) else rank(subset, start + 1)
            return out
        out = []
        keyed = {team: value[criterion](rows[team]) for team in group}
        for score in sorted(set(keyed.values()), reverse=True):
            out += rank([t for t in group if keyed[t] == score], start + 1)
        return out

    ranked = rank(order, 0)
    for number, team in enumerate(ranked, start=1):
        row = rows[team]
        row.rank = number
        row.values = {c.value: (row.head_to_head if c is TeamTiebreak.HEAD_TO_HEAD else value[c](row)) for c in criteria}
    return [rows[team] for team in ranked]
