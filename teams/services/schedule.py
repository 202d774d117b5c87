"""Formats for teams: a round robin of teams (the pairs' Berger tables, ``draw.pairing.round_robin``, with
teams as entrants) and the teams' standings (``draw.pairing.teams.team_standings``, the event's tiebreaks
as data, art. 26)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from draw.pairing.round_robin import round_robin as berger_rounds
from draw.pairing.teams import TeamMatchResult, TeamRow, team_standings
from events.models import Tournament

from ..models import Team, TeamMatch
from .base import require_manager
from .matches import create_team_match
from .rosters import settings_of


def seeded_teams(tournament: Tournament) -> list[Team]:
    """The teams in seed order (unseeded ones after, by name)."""
    teams = list(Team.objects.filter(tournament=tournament))
    return sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.name, t.pk))


def create_round_robin(tournament: Tournament, by, *, best_of: int | None = None) -> list[TeamMatch]:
    """Every team meets every other once: the Berger rounds, each round's team matches on consecutive
    blocks of physical tables (a team with the bye that round, when their number is odd, rests)."""
    require_manager(by, tournament)
    teams = seeded_teams(tournament)
    if len(teams) < 2:
        raise Conflict(_("A round robin of teams needs at least two teams."), "teams")
    by_id = {team.pk: team for team in teams}
    tables = settings_of(tournament).pairs_per_match
    out = []
    with transaction.atomic():
        if TeamMatch.objects.filter(tournament=tournament).exists():
            raise Conflict(_("The team matches of this tournament are already drawn."), "tournament")
        for rnd in berger_rounds([team.pk for team in teams]):
            for game in rnd.games:
                out.append(create_team_match(tournament, by, round_number=rnd.number, home=by_id[game.home],
                                             away=by_id[game.away], first_table=(game.board - 1) * tables + 1,
                                             best_of=best_of))
    return out


def standings(tournament: Tournament, *, stage: str = "round_robin") -> list[TeamRow]:
    """The teams ranked by the event's tiebreaks (match points, pair-win difference, game difference,
    head-to-head by default) over the decided team matches of the round robin (the knockout's matches
    give the final places instead); the negra counts for the winner only."""
    rules = settings_of(tournament)
    results = [TeamMatchResult(m.home_id, m.away_id, m.winner_id, (m.pair_wins_home, m.pair_wins_away),
                               (m.games_home, m.games_away))
               for m in TeamMatch.objects.filter(tournament=tournament, stage=stage, winner__isnull=False)]
    return team_standings([team.pk for team in seeded_teams(tournament)], results, rules.tiebreaks,
                          win_points=rules.win_points)
