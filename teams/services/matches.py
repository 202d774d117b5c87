"""Team matches: two teams' pairs meeting at N tables at once, each table a normal pair match with its
súmula (art. 25), and the deciding game, "a negra", when a tie needs it (art. 26: the event's team rule)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from draw.models import Round
from events.access import manages
from events.models import Tournament
from scoring.services import create_match

from ..models import Stage, Team, TeamMatch, TeamMatchTable, TeamPair
from .base import require_manager
from .rosters import settings_of

#: the negra is one game (art. 26: the event's rule; a best of 1 súmula)
DECIDER_BEST_OF = 1


def _pairs(team: Team, count: int):
    pairs = list(TeamPair.objects.filter(team=team).select_related("pair").order_by("position"))
    if len(pairs) < count:
        raise Conflict(_("%(team)s has %(have)s pairs formed; a match here is played at %(n)s tables (art. 26).")
                       % {"team": team.name, "have": len(pairs), "n": count}, "team")
    return [row.pair for row in pairs[:count]]


def team_round(tournament: Tournament, number: int) -> Round:
    """The tournament's round ``number``, made for the team matches when missing: the pair matches of a team
    match belong to a round like any other (W.O.s, results by the organizer, the room, printing)."""
    rnd, _created = Round.objects.get_or_create(
        tournament=tournament, number=number,
        defaults={"name": _("Round %(n)s (teams)") % {"n": number}, "phase": Round.Phase.GROUPS,
                  "generated_at": timezone.now()})
    return rnd


def create_team_match(tournament: Tournament, by, *, round_number: int, home: Team, away: Team,
                      first_table: int | None = None, best_of: int | None = None,
                      stage: str = Stage.ROUND_ROBIN) -> TeamMatch:
    """The team match and its pair matches, table ``k`` between the ``k``-th pairs of the two teams (the
    home team's as pair A); the physical tables a block from ``first_table``. The rule is the event's now."""
    require_manager(by, tournament)
    for field, team in (("home", home), ("away", away)):
        if team.tournament_id != tournament.pk:
            raise ServiceError(_("%(team)s is not a team of %(tournament)s.")
                               % {"team": team.name, "tournament": tournament.name}, field)
    if home.pk == away.pk:
        raise ServiceError(_("A team match is played between two different teams."), "away")
    rules = settings_of(tournament)
    count = rules.pairs_per_match
    with transaction.atomic():
        rnd = team_round(tournament, round_number)
        team_match = TeamMatch.objects.create(tournament=tournament, round_number=round_number, home=home,
                                              away=away, stage=stage, rule=rules.rule, games_to_win=rules.games_to_win)
        for table, (a, b) in enumerate(zip(_pairs(home, count), _pairs(away, count)), start=1):
            match = create_match(pair_a=a, pair_b=b, by=by, tournament=tournament, round=rnd, best_of=best_of,
                                 table=None if first_table is None else first_table + table - 1)
            TeamMatchTable.objects.create(team_match=team_match, match=match, table=table)
    return team_match


def create_decider(team_match: TeamMatch, by=None) -> TeamMatchTable:
    """The negra of a tied team match: one game between the teams' first pairs in roster order (the
    captains' choice is not taken yet), at table 1's physical table. Created by the system under the event's
    rule (art. 26) for the tournament's organizer when ``by`` does not manage it."""
    tournament = team_match.tournament
    existing = TeamMatchTable.objects.filter(team_match=team_match, decider=True).first()
    if existing is not None:
        return existing
    tables = list(TeamMatchTable.objects.filter(team_match=team_match).select_related("match").order_by("table"))
    first = tables[0].match
    creator = by if manages(by, tournament) else tournament.organizer
    match = create_match(pair_a=first.pair_a, pair_b=first.pair_b, by=creator, tournament=tournament,
                         round=first.round, best_of=DECIDER_BEST_OF, table=first.table)
    return TeamMatchTable.objects.create(team_match=team_match, match=match, table=tables[-1].table + 1,
                                         decider=True)
