"""The captain's link: a token-bearing address, like the table links (docs/table-links.md), given by the
organizer to a team's captain. Who holds it acts for that team only: sees the team's matches and submits
its line-ups (hidden from the other team until both are in, art. 26: the event's team rule).

The token is never stored in clear: the team's row keeps its keyed digest, which a request is looked up by,
and its sealed text, which the organizer's page unseals to show the link again (``tables.token_keys``, as
the table links; docs/security.md)."""
from __future__ import annotations

import secrets

from django.db.models import Q
from django.utils.translation import gettext as _

from config.errors import Forbidden
from tables import token_keys

from ..models import LineUp, Team, TeamMatch
from .base import require_manager
from .lineups import write_line_up


def issue_captain_link(team: Team, by) -> str:
    """A new captain's token for ``team``: the row's digest and sealed text are replaced, so the old token
    stops at once."""
    require_manager(by, team.tournament)
    team.captain_token = secrets.token_urlsafe(24)
    team.save(update_fields=["captain_digest", "captain_sealed"])
    return team.captain_token


def team_of_link(token: str) -> Team | None:
    """The team whose captain's link is ``token``, or None: looked up by the token's digest under each key
    (an index lookup, never a scan), then compared in constant time. A token of an impossible length finds
    nothing."""
    if not token or len(token) > 64:
        return None
    team = (Team.objects.select_related("tournament")
            .filter(captain_digest__in=token_keys.digests(token)).order_by().first())
    if team is None or not token_keys.matches(token, team.captain_digest):
        return None
    return team


def captain_link_token(team: Team) -> str | None:
    """The token of ``team``'s captain's link, unsealed for the organizer's page; None without a link or
    when it was sealed under a ``SECRET_KEY`` this site no longer has (the organizer issues a new one)."""
    try:
        return team.captain_token
    except token_keys.TokenUnreadable:
        return None


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
