"""The captains' line-ups: before a team match each captain submits the team's pairs in table order; a
line-up stays hidden from the other team (its captain included) until both are in, as in chess team
events; then the tables are set from them (art. 26: the event's team rule). Without line-ups the tables
keep the roster order the match was drawn with."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from draw.models import Match, Result
from events.access import manages
from scoring.models import MatchEvent, SumulaVersion

from ..models import LineUp, Team, TeamMatch, TeamMatchTable, TeamPair
from .base import require_manager


def set_captain(team: Team, by, user) -> Team:
    """The organizer names the team's captain (the account that submits its line-ups)."""
    require_manager(by, team.tournament)
    team.captain = user
    team.save(update_fields=["captain"])
    return team


def _side(team_match: TeamMatch, team: Team) -> int:
    if team.pk == team_match.home_id:
        return 0
    if team.pk == team_match.away_id:
        return 1
    raise ServiceError(_("%(team)s does not play this team match.") % {"team": team.name}, "team")


def _untouched(match_ids: list[int]) -> bool:
    """No hand, signature or result on these tables yet: their pairs may still change."""
    return not (MatchEvent.objects.filter(match_id__in=match_ids).exclude(kind=MatchEvent.Kind.CREATED).exists()
                or SumulaVersion.objects.filter(match_id__in=match_ids).exists()
                or Match.objects.filter(pk__in=match_ids).exclude(status=Match.Status.OPEN).exists()
                or Result.objects.filter(match_id__in=match_ids).exists())


def submit_line_up(team_match: TeamMatch, team: Team, by, pair_ids: list[int]) -> LineUp:
    """``team``'s captain (or who manages the tournament) submits its pairs in table order; once both
    line-ups are in, the tables' pairs are set from them and neither changes again."""
    if not (team.captain_id is not None and getattr(by, "pk", None) == team.captain_id) \
            and not manages(by, team_match.tournament):
        raise Forbidden(_("Only the captain of %(team)s submits its line-up.") % {"team": team.name}, "team")
    return write_line_up(team_match, team, by, pair_ids)


def write_line_up(team_match: TeamMatch, team: Team, by, pair_ids: list[int]) -> LineUp:
    """Write ``team``'s line-up once who acts for it was checked (its captain, its captain's link — ``by``
    None — or who manages the tournament)."""
    _side(team_match, team)
    with transaction.atomic():
        team_match = TeamMatch.objects.select_for_update().get(pk=team_match.pk)
        tables = list(TeamMatchTable.objects.filter(team_match=team_match, decider=False).order_by("table"))
        own = set(TeamPair.objects.filter(team=team).values_list("pair_id", flat=True))
        if not isinstance(pair_ids, list) or len(pair_ids) != len(tables) or len(set(pair_ids)) != len(pair_ids) \
                or not set(pair_ids) <= own:
            raise ServiceError(_("A line-up names %(n)s different pairs of %(team)s, one per table (art. 26).")
                               % {"n": len(tables), "team": team.name}, "pairs")
        if LineUp.objects.filter(team_match=team_match).exclude(team=team).exists():
            if LineUp.objects.filter(team_match=team_match, team=team).exists():
                raise Conflict(_("Both line-ups are in: they no longer change."), "pairs")
        if not _untouched([t.match_id for t in tables]):
            raise Conflict(_("The tables of this team match have started: the line-up can no longer change."),
                           "pairs")
        try:
            with transaction.atomic():
                line_up, _created = LineUp.objects.update_or_create(
                    team_match=team_match, team=team, defaults={"pairs": pair_ids, "submitted_by": by})
        except IntegrityError:
            raise Conflict(_("This team already submitted its line-up."), "pairs") from None
        line_ups = {row.team_id: row.pairs for row in LineUp.objects.filter(team_match=team_match)}
        if len(line_ups) == 2:
            home, away = line_ups[team_match.home_id], line_ups[team_match.away_id]
            for table, a, b in zip(tables, home, away):
                Match.objects.filter(pk=table.match_id).update(pair_a_id=a, pair_b_id=b)
        return line_up


def line_ups_for(team_match: TeamMatch, viewer) -> dict[int, list[int] | None]:
    """Each team's line-up as ``viewer`` may see it: its own team's always (its captain's), the other's
    only once both are in; None when hidden or not submitted. The organizers see them on the same terms."""
    rows = {row.team_id: row.pairs for row in LineUp.objects.filter(team_match=team_match)}
    both = len(rows) == 2
    out = {}
    for team in (team_match.home, team_match.away):
        mine = team.captain_id is not None and getattr(viewer, "pk", None) == team.captain_id
        out[team.pk] = rows.get(team.pk) if (both or mine) else None
    return out
