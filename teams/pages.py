"""What the team pages show, read from the models and ``teams.services`` (the views stay thin): the teams
and rosters, the team matches round by round with their tables, the standings, the places, the best
pairs; the captain's matches and line-ups (the other team's hidden until both are in)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from draw.models import Result
from tables.links import ensure_links, table_path

from . import services
from .models import Stage, Team, TeamMatch, TeamMatchTable, TeamPair


def _table_state(table: TeamMatchTable, result: Result | None) -> str:
    match = table.match
    if result is not None:
        if result.winner_id is None:
            return _("double W.O.")
        if result.kind == "walkover":
            return _("W.O.")
        return f"{result.games_a} × {result.games_b}"
    if table.closed_at:
        return _("closed: the team match was decided")
    return _("playing, %(a)s × %(b)s") % {"a": match.games_a, "b": match.games_b}


def rounds_of(tournament, *, links: bool) -> list[dict]:
    """The team matches by round, each with its score and tables (with the tables' links for the organizer)."""
    matches = list(TeamMatch.objects.filter(tournament=tournament).select_related("home", "away", "winner")
                   .order_by("round_number", "pk"))
    tables = list(TeamMatchTable.objects.filter(team_match__tournament=tournament)
                  .select_related("match__pair_a", "match__pair_b").order_by("team_match", "table"))
    results = {r.match_id: r for r in Result.objects.filter(match_id__in=[t.match_id for t in tables])}
    open_matches = [t.match for t in tables if t.match_id not in results and not t.closed_at]
    active = ensure_links(open_matches) if links and open_matches else {}
    by_match: dict[int, list] = {}
    for table in tables:
        link = active.get(table.match_id)
        by_match.setdefault(table.team_match_id, []).append({
            "table": table.table, "physical": table.match.table, "decider": table.decider,
            "pair_a": table.match.pair_a.name, "pair_b": table.match.pair_b.name,
            "state": _table_state(table, results.get(table.match_id)),
            "link": table_path(link) if link else ""})
    out: list[dict] = []
    for team_match in matches:
        if not out or out[-1]["number"] != team_match.round_number:
            out.append({"number": team_match.round_number, "stage": team_match.get_stage_display(), "matches": []})
        out[-1]["matches"].append({"match": team_match, "score": services.describe(team_match),
                                   "tables": by_match.get(team_match.pk, [])})
    return out


def event_context(tournament, *, organizer: bool) -> dict:
    teams = services.seeded_teams(tournament)
    names = {team.pk: team for team in teams}
    loaded = {team.pk: team for team in Team.objects.filter(pk__in=names).prefetch_related(
        "roster__player", "pairs__pair__first_player", "pairs__pair__second_player")}
    team_rows = [{"team": team, "players": list(loaded[team.pk].roster.all()),
                  "pairs": list(loaded[team.pk].pairs.all()), "link": ""} for team in teams]
    matches = TeamMatch.objects.filter(tournament=tournament)
    drawn = matches.exists()
    return {
        "tournament": tournament, "team_rows": team_rows,
        "rules": services.settings_of(tournament),
        "rounds": rounds_of(tournament, links=organizer),
        "standings": [(row, names[row.team]) for row in services.standings(tournament)] if drawn else [],
        "places": services.places(tournament),
        "best_pairs": services.best_pairs(tournament) if drawn else [],
        "can_draw_round_robin": organizer and not drawn and len(teams) >= 2,
        "can_draw_knockout": organizer and drawn and len(teams) >= 4 and not matches.filter(winner__isnull=True).exists()
        and not matches.filter(stage=Stage.FINAL).exists(),
    }


def captain_context(team: Team) -> dict:
    """The captain's page: the team's pairs and, for each of its matches, the line-ups it may see."""
    pairs = list(TeamPair.objects.filter(team=team).select_related("pair__first_player", "pair__second_player")
                 .order_by("position"))
    names = {tp.pair_id: tp.pair.name for tp in TeamPair.objects.filter(team__tournament=team.tournament)
             .select_related("pair")}
    rows = []
    for team_match in services.matches_of(team):
        seen = services.line_ups_seen_by(team_match, team)
        opponent = team_match.away if team_match.home_id == team.pk else team_match.home
        count = team_match.tables.filter(decider=False).count()
        mine = seen[team.pk]
        theirs = seen[opponent.pk]
        both = mine is not None and theirs is not None
        chosen = mine or [tp.pair_id for tp in pairs[:count]]
        rows.append({
            "match": team_match, "opponent": opponent, "score": services.describe(team_match),
            "mine": [names.get(pk, "?") for pk in mine] if mine else [],
            "theirs": [names.get(pk, "?") for pk in theirs] if theirs else [],
            "both": both,
            "open": not both and team_match.winner_id is None and team_match.reason == "playing",
            "tables": [{"number": n, "chosen": chosen[n - 1] if n - 1 < len(chosen) else None}
                       for n in range(1, count + 1)],
        })
    return {"team": team, "tournament": team.tournament, "pairs": pairs, "rows": rows}
