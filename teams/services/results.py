"""The team result, recomputed whenever a decision on results touches one of a team match's tables.

``tournaments.services.after_results.results_changed`` calls :func:`follow_results` (registered in
``TeamsConfig.ready``) inside the decision's transaction; it recomputes each team match concerned with
``draw.pairing.teams.team_match_state`` under the match's rule (art. 26) and writes what follows: the
team result; the negra when a tie needs it; under "first team to K games", the súmulas of the tables still
open closed with the reason (``scoring.services.close_sumulas``, cause ``team_decided``), so nothing more
enters them. A table counts as finished once it has an official result (art. 25: a súmula signed and
received, or the organizer's decision, art. 26); an open table counts the games won so far."""
from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from draw.models import Result
from draw.pairing.teams import Reason, TableResult, TeamMatchState, team_match_state
from scoring.services import close_sumulas

from ..models import TeamMatch, TeamMatchTable
from .matches import create_decider


def follow_results(tournament, by, match_ids: Iterable[int]) -> None:
    """Recompute the team matches whose tables are among ``match_ids`` (called by ``results_changed``)."""
    ids = list(match_ids)
    if not ids:
        return
    team_match_ids = set(TeamMatchTable.objects.filter(match_id__in=ids).values_list("team_match_id", flat=True))
    for team_match in TeamMatch.objects.filter(pk__in=team_match_ids).select_for_update().order_by("pk"):
        recompute(team_match, by)


def table_results(team_match: TeamMatch) -> list[tuple[TeamMatchTable, TableResult]]:
    """Each table with what the rules read of it: its official result, else its games so far."""
    tables = list(TeamMatchTable.objects.filter(team_match=team_match).select_related("match").order_by("table"))
    results = {r.match_id: r for r in Result.objects.filter(match_id__in=[t.match_id for t in tables])}
    out = []
    for table in tables:
        result, match = results.get(table.match_id), table.match
        if result is None:
            row = TableResult(table.table, False, None, (match.games_a, match.games_b), table.decider)
        else:
            winner = None if result.winner_id is None else 0 if result.winner_id == match.pair_a_id else 1
            row = TableResult(table.table, True, winner, (result.games_a, result.games_b), table.decider)
        out.append((table, row))
    return out


def state_of(team_match: TeamMatch) -> TeamMatchState:
    return team_match_state(team_match.rule, [row for _table, row in table_results(team_match)],
                            k=team_match.games_to_win)


def recompute(team_match: TeamMatch, by=None) -> TeamMatchState:
    """Write the team match's state; create the negra, close the tables the result made pointless."""
    rows = table_results(team_match)
    state = team_match_state(team_match.rule, [row for _table, row in rows], k=team_match.games_to_win)
    if state.needs_decider:
        create_decider(team_match, by)
    winner = None if state.winner is None else (team_match.home_id, team_match.away_id)[state.winner]
    changed = winner != team_match.winner_id
    team_match.winner_id = winner
    team_match.reason = state.reason.value
    team_match.pair_wins_home, team_match.pair_wins_away = state.pair_wins
    team_match.games_home, team_match.games_away = state.games
    if changed:
        team_match.decided_at = timezone.now() if winner is not None else None
    team_match.save(update_fields=["winner", "reason", "pair_wins_home", "pair_wins_away", "games_home",
                                   "games_away", "decided_at"])
    to_close = [table for table, row in rows if row.table in state.close_tables and table.closed_at is None]
    if to_close:
        reason = closing_reason(team_match, state)
        close_sumulas([(table.match, "team_decided", None, reason) for table in to_close], by)
        TeamMatchTable.objects.filter(pk__in=[t.pk for t in to_close]).update(closed_at=timezone.now())
    return state


def closing_reason(team_match: TeamMatch, state: TeamMatchState) -> str:
    """Why the open tables were closed, written on their súmulas."""
    if state.reason is Reason.REACHED_K:
        team = team_match.home if state.winner == 0 else team_match.away
        return _("%(team)s reached %(k)s games (%(a)s × %(b)s): the team match is decided (art. 26, first team "
                 "to %(k)s games).") % {"team": team.name, "k": team_match.games_to_win, "a": state.games[0],
                                        "b": state.games[1]}
    return _("Both teams reached %(k)s games (%(a)s × %(b)s): the deciding game settles the team match (art. 26).") % {
        "k": team_match.games_to_win, "a": state.games[0], "b": state.games[1]}


def describe(team_match: TeamMatch) -> str:
    """The team match's score in words ("Clube A 2 × 1 Clube B, 2 mesas jogando")."""
    rows = table_results(team_match)
    playing = sum(1 for table, row in rows if not row.finished and table.closed_at is None)
    by_games = team_match.rule != "pair_wins"
    a, b = ((team_match.games_home, team_match.games_away) if by_games
            else (team_match.pair_wins_home, team_match.pair_wins_away))
    text = f"{team_match.home.name} {a} × {b} {team_match.away.name}"
    if playing:
        text += ", " + ngettext("%(n)s table playing", "%(n)s tables playing", playing) % {"n": playing}
    return text
