"""The captain's link: a token-bearing address, like the table links (docs/table-links.md), given by the
organizer to a team's captain. Who holds it acts for that team only: sees the team's matches and submits
its line-ups (hidden from the other team until both are in, art. 26: the event's team rule)."""
from __future__ import annotations

import secrets

from django.db.models import Q
from django.utils.translation import gettext as _

from config.errors import Forbidden

from ..models import LineUp, Team, TeamMatch
from .base import require_manager
from .lineups import write_line_up


def issue_captain_link(team: Team, by) -> str:
    """A new captain's token for ``team`` (the old one stops at once)."""
    require_manager(by, team.tournament)
    team.captain_token = secrets.token_urlsafe(24)
    team.save(update_fields=["captain_token"])
    return team.captain_token


def team_of_link(token: str) -> Team | None:
    if not token:
        return None
    return Team.objects.select_related("tournament").filter(captain_token=token).first()


def matches_of(team: Team) -> list[TeamMatch]:
    """The team's matches, round by round."""
    return list(TeamMatch.objects.filter(Q(home=team) | Q(away=team), tournament=team.tournament)
                .select_related("home", "away").order_by("round_number", "pk"))


def submit_by_link(team: Team, team_match: TeamMatch, pair_ids: list[int]) -> LineUp:
    """The link's holder submits ``team``'s line-up (only ``team``'s: the match must be one of its own)."""
    if team.pk not in (team_match.home_id, team_match.away_id):
        raise Forbidden(_("This captain's link acts for %(team)s only.") % {"team": team.name}, "team")
    return write_line_up(team_match, team, None, pair_ids)


def line_ups_seen_by(team_match: TeamMatch, team: Team) -> dict[int, list[int] | None]:
    """Each team's line-up as ``team``'s captain sees it: its own always, the other's once both are in."""
    rows = {row.team_id: row.pairs for row in LineUp.objects.filter(team_match=team_match)}
    both = len(rows) == 2
    return {tid: rows.get(tid) if (both or tid == team.pk) else None
            for tid in (team_match.home_id, team_match.away_id)}
