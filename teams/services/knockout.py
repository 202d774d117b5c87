"""The knockout after the round robin: the top four of the team standings play semifinals (1st × 4th,
2nd × 3rd), then the final and the 3rd-place match; the event's final places; and beside the teams, the
best pairs ranked by their results inside the team matches (``draw.pairing.teams``; art. 26: the event's
team rules, written in docs/teams.md)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from draw.models import Result
from draw.pairing.teams import (KnockoutMatch, PairMatchResult, PairRow, final_places, knockout_finals,
                                knockout_semifinals, pair_ranking)
from events.models import Tournament

from ..models import Stage, Team, TeamMatch, TeamMatchTable, TeamPair
from .base import require_manager
from .matches import create_team_match
from .rosters import settings_of
from .schedule import seeded_teams, standings


def _stage(tournament: Tournament, stage: str) -> list[TeamMatch]:
    return list(TeamMatch.objects.filter(tournament=tournament, stage=stage).order_by("pk"))


def _decided(matches: list[TeamMatch]) -> list[KnockoutMatch]:
    return [KnockoutMatch(m.home_id, m.away_id, m.winner_id) for m in matches]


def create_knockout_round(tournament: Tournament, by, *, best_of: int | None = None) -> list[TeamMatch]:
    """The knockout's next round: the semifinals once every round-robin match is decided; the final and
    the 3rd-place match once both semifinals are. Each team match on its block of physical tables."""
    require_manager(by, tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        matches = list(TeamMatch.objects.filter(tournament=tournament))
        if not matches:
            raise Conflict(_("The knockout follows the round robin: draw the round robin first."), "tournament")
        if any(m.winner_id is None for m in matches):
            raise Conflict(_("Every team match so far must be decided before the next knockout round (art. 26)."),
                           "tournament")
        by_id = {team.pk: team for team in seeded_teams(tournament)}
        semis = _stage(tournament, Stage.SEMIFINAL)
        if not semis:
            pairs = [(Stage.SEMIFINAL, home, away)
                     for home, away in knockout_semifinals([row.team for row in standings(tournament)])]
        elif not _stage(tournament, Stage.FINAL):
            final, third = knockout_finals(_decided(semis))
            pairs = [(Stage.FINAL, *final), (Stage.THIRD_PLACE, *third)]
        else:
            raise Conflict(_("The knockout is complete: the final and the 3rd-place match are drawn."), "tournament")
        number = max(m.round_number for m in matches) + 1
        tables = settings_of(tournament).pairs_per_match
        out = []
        for board, (stage, home, away) in enumerate(pairs):
            team_match = create_team_match(tournament, by, round_number=number, home=by_id[home], away=by_id[away],
                                           first_table=board * tables + 1, best_of=best_of, stage=stage)
            out.append(team_match)
        return out


def places(tournament: Tournament) -> list[Team]:
    """The event's final places once the final and the 3rd-place match are decided (else empty): 1–4 from
    them, 5th on in round-robin order."""
    final = [m for m in _stage(tournament, Stage.FINAL) if m.winner_id]
    third = [m for m in _stage(tournament, Stage.THIRD_PLACE) if m.winner_id]
    if not (final and third):
        return []
    round_robin = [row.team for row in standings(tournament, stage=Stage.ROUND_ROBIN)]
    by_id = {team.pk: team for team in seeded_teams(tournament)}
    return [by_id[pk] for pk in final_places(*_decided(final), *_decided(third), round_robin)]


def best_pairs(tournament: Tournament) -> list[tuple[PairRow, TeamPair]]:
    """The team pairs ranked by their official results at the tables of every team match (the negras
    apart); each row with its team pair (the pair, its team, its table)."""
    team_pairs = list(TeamPair.objects.filter(team__tournament=tournament).select_related("pair", "team"))
    team_order = {team.pk: i for i, team in enumerate(seeded_teams(tournament))}
    team_pairs.sort(key=lambda tp: (team_order[tp.team_id], tp.position))
    match_ids = TeamMatchTable.objects.filter(team_match__tournament=tournament, decider=False).values("match_id")
    results = [PairMatchResult(r.pair_a_id, r.pair_b_id, r.winner_id, (r.games_a, r.games_b), (r.points_a, r.points_b))
               for r in Result.objects.filter(match_id__in=match_ids)]
    by_pair = {tp.pair_id: tp for tp in team_pairs}
    return [(row, by_pair[row.pair]) for row in pair_ranking(list(by_pair), results)]

