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
in (their seeds).

After the round robin, a knockout of the top four with a 3rd-place match (:func:`knockout_semifinals`:
1st × 4th, 2nd × 3rd; :func:`knockout_finals`; :func:`final_places`: 1–4 from the final and the 3rd-place
match, 5th on in round-robin order). Beside the teams, the best pairs (:func:`pair_ranking`: wins, tento
difference, game difference, fewer appearances). Both are the event's rules (art. 26), written in
docs/teams.md. Pure Python: the ``teams`` app calls it with plain ids.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

__all__ = [
    "TeamRule", "Reason", "TableResult", "TeamMatchState", "team_match_state",
    "TeamTiebreak", "TEAM_TIEBREAKS", "TeamMatchResult", "TeamRow", "team_standings",
    "knockout_semifinals", "KnockoutMatch", "knockout_finals", "final_places",
    "PairMatchResult", "PairRow", "pair_ranking",
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


# ------------------------------------------------------------------------------------ knockout


def knockout_semifinals(ranked: Sequence[TeamId]) -> list[tuple[TeamId, TeamId]]:
    """The semifinals of the top four of ``ranked`` (the round robin's standings): 1st × 4th and 2nd × 3rd,
    the better placed team at home (its pairs are pair A), as a seeded bracket of four pairs it."""
    if len(ranked) < 4 or len(set(ranked[:4])) != 4:
        raise ValueError("a knockout of four needs four different teams")
    first, second, third, fourth = ranked[:4]
    return [(first, fourth), (second, third)]


@dataclass(frozen=True)
class KnockoutMatch:
    """A decided knockout team match: its two teams and the winner (one of them)."""
    home: TeamId
    away: TeamId
    winner: TeamId

    @property
    def loser(self) -> TeamId:
        return self.away if self.winner == self.home else self.home

    def __post_init__(self):
        if self.winner not in (self.home, self.away):
            raise ValueError("a knockout team match is decided by one of its two teams")


def knockout_finals(semifinals: Sequence[KnockoutMatch]) -> tuple[tuple[TeamId, TeamId], tuple[TeamId, TeamId]]:
    """The final (the two semifinal winners) and the 3rd-place match (the two losers), each with semifinal
    1's team at home."""
    if len(semifinals) != 2:
        raise ValueError("the finals follow two semifinals")
    one, two = semifinals
    return (one.winner, two.winner), (one.loser, two.loser)


def final_places(final: KnockoutMatch, third_place: KnockoutMatch, ranked: Sequence[TeamId]) -> list[TeamId]:
    """The event's places: the final's winner 1st and loser 2nd, the 3rd-place match's winner 3rd and loser
    4th; from 5th on, the teams out of the knockout in their round-robin order (``ranked``)."""
    top = [final.winner, final.loser, third_place.winner, third_place.loser]
    if len(set(top)) != 4:
        raise ValueError("the final and the 3rd-place match are played by four different teams")
    return top + [team for team in ranked if team not in top]


# ------------------------------------------------------------------------------------ the best pairs


@dataclass(frozen=True)
class PairMatchResult:
    """A pair match played inside a team match: the two pairs, the winner (one of them, or None: a double
    W.O.), the games and the tentos (points) of each."""
    pair_a: Hashable
    pair_b: Hashable
    winner: Hashable | None
    games: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)

    def __post_init__(self):
        if self.winner not in (self.pair_a, self.pair_b, None):
            raise ValueError("the winner of a pair match is one of its two pairs")


@dataclass
class PairRow:
    pair: Hashable
    rank: int = 0
    played: int = 0
    won: int = 0
    games_for: int = 0
    games_against: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def game_difference(self) -> int:
        return self.games_for - self.games_against

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against


def pair_ranking(pairs: Sequence[Hashable], results: Iterable[PairMatchResult]) -> list[PairRow]:
    """The best pairs of a team event from their matches inside the team matches (the negras left out by
    the caller, as in the team standings). Ranked by wins, then tento (point) difference, then game
    difference, then fewer appearances (the same wins in fewer matches); still tied, the order of ``pairs``
    (team seed, then table). Every rank distinct."""
    order = list(pairs)
    rows = {pair: PairRow(pair) for pair in order}
    for r in results:
        for side, pair in enumerate((r.pair_a, r.pair_b)):
            if pair not in rows:
                raise ValueError(f"a pair match of a pair not in the ranking: {pair!r}")
            row = rows[pair]
            row.played += 1
            row.won += r.winner == pair
            row.games_for += r.games[side]
            row.games_against += r.games[1 - side]
            row.points_for += r.points[side]
            row.points_against += r.points[1 - side]
    position = {pair: i for i, pair in enumerate(order)}
    ranked = sorted(order, key=lambda p: (-rows[p].won, -rows[p].point_difference, -rows[p].game_difference,
                                          rows[p].played, position[p]))
    for number, pair in enumerate(ranked, start=1):
        rows[pair].rank = number
    return [rows[pair] for pair in ranked]
