"""Results out: a tournament's standings, results and a round's pairings as tables
for CSV and JSON downloads, the same data on the pages (``public.views``) and
through the API (``public.export_api``).

Each builder returns an :class:`Export`: its column names (the CSV header, in order) and one
dict per row with typed values (numbers stay numbers in JSON; lists, such as a match's games,
become "12-9 7-12 12-4" in CSV; the JSON is DRF's rendering of ``as_dict``). Every builder runs
a fixed number of queries whatever the number of pairs or matches. Only official results count (received súmulas, W.O. and the
organizer's decisions, art. 25-26), as on the standings page.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from scoring.models import Game, Match

from tournaments import services
from tournaments.models import Bye, Pair, Result, Round, Stage, Tournament

from . import export_dialects

FORMATS = ("csv", "json")


@dataclass
class Export:
    """A downloadable table: ``name`` (the file's stem), ``columns`` in order and the ``rows``."""

    name: str
    columns: list[str]
    rows: list[dict]
    meta: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {**self.meta, "columns": self.columns, "rows": self.rows}

    def filename(self, fmt: str) -> str:
        return f"{self.name}.{fmt}"


def _players(pair: Pair) -> str:
    return " / ".join(p.name for p in pair.players)


def to_csv(export: Export, dialect: str = export_dialects.PLAIN) -> bytes:
    """The export as a CSV file's bytes in ``dialect`` (``public.export_dialects``)."""
    return export_dialects.write(export.columns, export.rows, dialect)


# ----------------------------------------------------------------------------------- standings

STANDING_COLUMNS = ["rank", "group", "pair_id", "pair", "players", "withdrawn", "played", "won", "lost", "byes",
                    "games_for", "games_against", "points_for", "points_against", "point_difference"]
DECIDING_COLUMNS = ["stage", "stage_name", "decided_by"]


def standings(tournament: Tournament, stage=None) -> Export:
    """The standings in their order (overall; then each group's, ``group`` named, for groups). Overall
    with several stages, each row names the stage that decided its place and carries that stage's
    figures; with ``stage``, that stage's own standings."""
    table = services.standings(tournament, stage)
    names = list(dict.fromkeys([*table.tiebreaks, *(t for st in table.stages for t in st["tiebreaks"])]))
    tiebreaks = [t for t in names if t not in STANDING_COLUMNS and t != "matches_won"]
    columns = STANDING_COLUMNS + (DECIDING_COLUMNS if table.stages else []) + tiebreaks + ["lot"]
    rows = []
    for group, lines in [("", table.rows), *table.groups]:
        for line in lines:
            data = line.as_dict()
            row = {c: data.get(c) for c in STANDING_COLUMNS + DECIDING_COLUMNS if c in data}
            row.update(group=group, pair_id=line.pair.pk, pair=line.pair.name, players=_players(line.pair),
                       lot=line.lot, **{t: line.values.get(t) for t in tiebreaks})
            rows.append(row)
    name = f"{tournament.slug}-standings" + (f"-stage-{stage.position}" if stage is not None else "")
    return Export(name, columns, rows,
                  {"tournament": tournament.slug, "tiebreaks": table.tiebreaks, "lot_seed": table.lot_seed,
                   **({"stage": stage.position} if stage is not None else {}),
                   **({"stages": table.stages} if table.stages else {})})


# ------------------------------------------------------------------------------------ results

RESULT_COLUMNS = ["match_id", "round", "round_name", "table", "pair_a_id", "pair_a", "pair_b_id", "pair_b",
                  "status", "official", "kind", "winner_id", "winner", "absent", "games_a", "games_b",
                  "points_a", "points_b", "counted_in_standings", "games", "reason"]


def _match_queryset():
    return (Match.objects.select_related("round", "pair_a", "pair_b", "tournament_result")
            .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number"))))


def finished_games(match: Match) -> list[Game]:
    """The match's games played to the end (a game to 12), in order (prefetched: no query)."""
    return [g for g in match.games.all() if g.winner is not None]


def result_row(match: Match, walkover_scores: bool = False) -> dict:
    """One match with its official result (if any) and each finished game's score (pair A first).

    ``games_a``/``games_b`` and ``points_a``/``points_b`` are what the standings count: a W.O. counts as a
    win and nothing else unless the stage counts its scores (``walkover_scores``), so its games and
    tentos are 0 here, as in the standings, and ``counted_in_standings`` says so (art. 25-26; a double
    W.O. counts nothing); the súmula's games are still in ``games``."""
    result: Result | None = getattr(match, "tournament_result", None)
    names = {match.pair_a_id: match.pair_a.name, match.pair_b_id: match.pair_b.name}
    row = {"match_id": match.pk, "round": match.round.number if match.round else None,
           "round_name": match.round.display_name if match.round else "", "table": match.table,
           "pair_a_id": match.pair_a_id, "pair_a": match.pair_a.name, "pair_b_id": match.pair_b_id,
           "pair_b": match.pair_b.name, "status": match.status, "official": result is not None,
           "games": [{"number": g.number, "a": g.score_a, "b": g.score_b} for g in finished_games(match)]}
    if result is not None:
        row.update(kind=result.kind, winner_id=result.winner_id, winner=names.get(result.winner_id, ""),
                   absent=names.get(result.absent_id, "") if result.absent_id else "",
                   games_a=result.games_a, games_b=result.games_b, points_a=result.points_a,
                   points_b=result.points_b, reason=result.reason, counted_in_standings=True)
        walkover = result.kind in (Result.Kind.WALKOVER, Result.Kind.DOUBLE_WALKOVER)
        if result.kind == Result.Kind.DOUBLE_WALKOVER or (walkover and not walkover_scores):
            row.update(games_a=0, games_b=0, points_a=0, points_b=0, counted_in_standings=False)
    else:
        row.update(kind="", winner_id=None, winner="", absent="", games_a=match.games_a, games_b=match.games_b,
                   points_a=None, points_b=None, reason="", counted_in_standings=None)
    return row


def results(tournament: Tournament) -> Export:
    """Every match of the tournament, by round and table: pairs, status, official result, games."""
    matches = _match_queryset().filter(tournament=tournament).order_by("round__number", "table", "pk")
    counts = dict(Stage.objects.filter(tournament=tournament).order_by("position")
                  .values_list("pk", "walkover_scores"))
    default = next(iter(counts.values()), False)  # the first stage's, as the overall standings
    rows = [result_row(m, counts.get(m.round.stage_id, default) if m.round else default) for m in matches]
    return Export(f"{tournament.slug}-results", RESULT_COLUMNS, rows, {"tournament": tournament.slug})


# ----------------------------------------------------------------------------------- pairings

PAIRING_COLUMNS = ["round", "table", "match_id", "pair_a_id", "pair_a", "pair_a_players", "pair_b_id", "pair_b",
                   "pair_b_players", "bye", "referee"]


def pairings(rnd: Round) -> Export:
    """A round's pairings by table (walkovers without a table, then the byes, last)."""
    rows = []
    for match in services.round_matches(rnd):
        referee = match.referee
        rows.append({"round": rnd.number, "table": match.table, "match_id": match.pk,
                     "pair_a_id": match.pair_a_id, "pair_a": match.pair_a.name,
                     "pair_a_players": _players(match.pair_a), "pair_b_id": match.pair_b_id,
                     "pair_b": match.pair_b.name, "pair_b_players": _players(match.pair_b), "bye": False,
                     "referee": (referee.get_full_name() or referee.get_username()) if referee else ""})
    rows.sort(key=lambda r: (r["table"] is None, r["table"] or 0, r["match_id"]))
    for bye in (Bye.objects.filter(round=rnd).select_related("pair__first_player", "pair__second_player")
                .order_by("pair__name")):
        rows.append({"round": rnd.number, "table": None, "match_id": None, "pair_a_id": bye.pair_id,
                     "pair_a": bye.pair.name, "pair_a_players": _players(bye.pair), "pair_b_id": None,
                     "pair_b": "", "pair_b_players": "", "bye": True, "referee": ""})
    slug = rnd.tournament.slug
    return Export(f"{slug}-round-{rnd.number}-pairings", PAIRING_COLUMNS, rows,
                  {"tournament": slug, "round": rnd.number, "round_name": rnd.display_name})


def matches_of_pair(pair: Pair) -> list[Match]:
    """A pair's matches in its tournament (by round), with games and results, in two queries."""
    return list(_match_queryset().filter(Q(pair_a=pair) | Q(pair_b=pair)).order_by("round__number", "pk"))

