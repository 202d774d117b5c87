"""The event's team rules, its teams and their rosters, and the pairs a roster plays in (art. 26: the
regulation leaves teams to the organizer, who sets the rules and limits per event)."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from events.models import Pair, Tournament
from people.models import Club, Player

from ..models import Team, TeamPair, TeamPlayer, TeamRule, TeamSettings
from .base import require_manager

RULE_FIELDS = ("rule", "games_to_win", "min_players", "max_players", "pairs_per_match", "win_points", "tiebreaks")


def settings_of(tournament: Tournament) -> TeamSettings:
    """The event's team rules (the defaults until the organizer sets them)."""
    return TeamSettings.objects.filter(tournament=tournament).first() or TeamSettings(tournament=tournament)


def configure(tournament: Tournament, by, **values) -> TeamSettings:
    """Set the event's team rules (art. 26); an unknown field, rule or limit is refused naming it."""
    require_manager(by, tournament)
    unknown = sorted(set(values) - set(RULE_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown team rule: %(field)s.") % {"field": unknown[0]}, unknown[0])
    if "rule" in values and values["rule"] not in TeamRule.values:
        raise ServiceError(_("The team result is one of: %(rules)s (art. 26).") % {"rules": ", ".join(TeamRule.values)},
                           "rule")
    row = settings_of(tournament)
    for key, value in values.items():
        setattr(row, key, value)
    if row.pairs_per_match < 1 or row.min_players < 2 * row.pairs_per_match:
        raise ServiceError(_("A team needs at least two players per table: the minimum is %(n)s players (art. 26).")
                           % {"n": 2 * max(row.pairs_per_match, 1)}, "min_players")
    if row.max_players < row.min_players:
        raise ServiceError(_("The maximum of players is not below the minimum (art. 26)."), "max_players")
    if row.rule == TeamRule.FIRST_TO_K_GAMES and not row.games_to_win:
        raise ServiceError(_("The rule \"first team to K games\" needs K, the games to win (art. 26)."),
                           "games_to_win")
    row.save()
    return row


def create_team(tournament: Tournament, by, *, club: Club, name: str, seed: int | None = None) -> Team:
    require_manager(by, tournament)
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("A team needs a name."), "name")
    try:
        with transaction.atomic():
            return Team.objects.create(tournament=tournament, club=club, name=name[:120], seed=seed)
    except IntegrityError:
        raise Conflict(_("This tournament already has a team with this name."), "name") from None


def add_player(team: Team, by, player: Player, *, reserve: bool = False) -> TeamPlayer:
    """Put ``player`` on the roster, after the others; one team per event (art. 26, a DB constraint)."""
    tournament = team.tournament
    require_manager(by, tournament)
    with transaction.atomic():
        Team.objects.select_for_update().get(pk=team.pk)
        count = TeamPlayer.objects.filter(team=team).count()
        if count >= settings_of(tournament).max_players:
            raise Conflict(_("The roster of %(team)s is full: at most %(n)s players (art. 26).")
                           % {"team": team.name, "n": settings_of(tournament).max_players}, "player")
        last = TeamPlayer.objects.filter(team=team).aggregate(m=Max("position"))["m"] or 0
        try:
            with transaction.atomic():
                return TeamPlayer.objects.create(team=team, tournament=tournament, player=player,
                                                 position=last + 1, reserve=reserve)
        except IntegrityError:
            raise Conflict(_("%(player)s already plays for a team of this event: one team per event (art. 26).")
                           % {"player": player.name}, "player") from None


def form_pairs(team: Team, by) -> list[Pair]:
    """The team's pairs from its roster in order: players 1-2 are table 1's pair, 3-4 table 2's, and so on,
    the reserves apart; the roster must hold the event's minimum (art. 26). Once: pairs formed stay."""
    tournament = team.tournament
    require_manager(by, tournament)
    rules = settings_of(tournament)
    with transaction.atomic():
        Team.objects.select_for_update().get(pk=team.pk)
        if TeamPair.objects.filter(team=team).exists():
            raise Conflict(_("The pairs of %(team)s are already formed.") % {"team": team.name}, "team")
        roster = list(TeamPlayer.objects.filter(team=team).select_related("player").order_by("position"))
        if len(roster) < rules.min_players:
            raise Conflict(_("%(team)s has %(have)s players; the event asks for at least %(n)s (art. 26).")
                           % {"team": team.name, "have": len(roster), "n": rules.min_players}, "roster")
        starters = [row.player for row in roster if not row.reserve]
        needed = 2 * rules.pairs_per_match
        if len(starters) < needed:
            raise Conflict(_("%(team)s needs %(n)s players who are not reserves, two per table (art. 26).")
                           % {"team": team.name, "n": needed}, "roster")
        out = []
        for table in range(1, rules.pairs_per_match + 1):
            first, second = starters[2 * table - 2], starters[2 * table - 1]
            pair = Pair.objects.create(tournament=tournament, name=f"{team.name} {table}"[:120],
                                       first_player=first, second_player=second)
            TeamPair.objects.create(team=team, pair=pair, position=table)
            out.append(pair)
        return out
