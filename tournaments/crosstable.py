"""The Swiss crosstable page: ``/torneios/<slug>/fases/<position>/tabela-cruzada/`` (public, read-only).

One row per pair in the stage's standings order (chess-results' layout): its place, each round's
opponent (by the opponent's place), the result and the tentos, the table it played at, its match
points, and each tiebreak of the stage with how it is made (a Buchholz as the sum of the
opponents' match points, a median Buchholz without the best and worst of them, a
Sonneborn-Berger as each opponent's points times the result against it, the tentos' difference
as scored minus conceded). Truco pairs have no colours: the table stands where a chess
crosstable puts the colour.

The figures are the standings' own (``services.standings`` of the stage, the order and the
tiebreak values the standings page shows); the breakdown is recomputed from the same official
results with ``draw.pairing.standings.pair_records`` (the records the tiebreaks are made of).
A fixed number of queries whatever the number of pairs. The page is linked from the standings
of a tournament with a Swiss stage (``templatetags/crosstable.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from draw.pairing.standings import MatchResult, pair_records
from scoring.models import Match

from . import pages, services
from .models import Bye, Pair, Result, Round, Stage
from .view_helpers import public_context, tournament_of

#: the tiebreaks whose breakdown lists the opponents
_OPPONENT_SUMS = ("buchholz", "median_buchholz", "sonneborn_berger")


@dataclass
class Cell:
    """One round of one pair: ``kind`` is ``win``, ``loss``, ``draw``, ``pending``, ``bye`` or ``none``."""

    round: int
    kind: str
    opponent: int | None = None  # the opponent's place in this table
    opponent_name: str = ""
    walkover: bool = False
    score: str = ""
    table: int | None = None

    @property
    def text(self) -> str:
        """The cell said in full (its title and its screen readers' text)."""
        if self.kind == "bye":
            return _("Round %(round)s: bye") % {"round": self.round}
        if self.kind == "none":
            return _("Round %(round)s: did not play") % {"round": self.round}
        said = {"win": _("Round %(round)s: beat %(place)s. %(name)s"),
                "loss": _("Round %(round)s: lost to %(place)s. %(name)s"),
                "draw": _("Round %(round)s: drew with %(place)s. %(name)s"),
                "pending": _("Round %(round)s: plays %(place)s. %(name)s")}[self.kind]
        out = said % {"round": self.round, "place": self.opponent, "name": self.opponent_name}
        if self.walkover:
            out += " (" + _("W.O.") + ")"
        if self.score:
            out += " " + self.score
        if self.table:
            out += ", " + _("table %(table)s") % {"table": self.table}
        return out


@dataclass
class Breakdown:
    key: str
    short: str
    title: str
    value: str
    parts: list[tuple[str, bool]] = field(default_factory=list)  # (term, counted): a median Buchholz cuts two


@dataclass
class Row:
    rank: int
    pair: Pair
    withdrawn: bool
    cells: list[Cell]
    points: str
    values: list[str]
    breakdown: list[Breakdown]


def _number(value) -> str:
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    return pages.format_number(value)


def _results(stage: Stage, ids: set[int]) -> tuple[list[Round], dict, list[tuple[MatchResult, int]], list[tuple[int, int]]]:
    """The stage's rounds, its matches by round (pair a, pair b, table, match id), its official results
    (with their round number) and its byes (pair, round number): three queries."""
    rounds = list(Round.objects.filter(stage=stage).order_by("number"))
    matches: dict[int, list[tuple[int, int, int | None, int]]] = {}
    for a, b, table, pk, number in (Match.objects.filter(round__stage=stage)
                                    .values_list("pair_a_id", "pair_b_id", "table", "pk", "round__number")
                                    .order_by("pk")):
        matches.setdefault(number, []).append((a, b, table, pk))
    results = []
    for a, b, ga, gb, pa, pb, w, kind, number in (
            Result.objects.filter(match__round__stage=stage)
            .values_list("pair_a_id", "pair_b_id", "games_a", "games_b", "points_a", "points_b", "winner_id", "kind",
                         "match__round__number").order_by("match_id")):
        if a not in ids or b not in ids:
            continue
        double = kind == Result.Kind.DOUBLE_WALKOVER
        results.append((MatchResult(a, b, ga, gb, pa, pb, w, kind == Result.Kind.WALKOVER or double, double), number))
    byes = list(Bye.objects.filter(round__stage=stage).values_list("pair_id", "round__number"))
    return rounds, matches, results, byes


def _cell(number: int, pair_id: int, match, result: MatchResult | None, place: dict, names: dict) -> Cell:
    a, b, table, _pk = match
    other = b if a == pair_id else a
    cell = Cell(number, "pending", place.get(other), names.get(other, ""), table=table)
    if result is None:
        return cell
    mine, theirs = ((result.points_a, result.points_b) if result.pair_a == pair_id
                    else (result.points_b, result.points_a))
    cell.walkover = result.walkover
    cell.kind = ("loss" if result.double_forfeit or (result.winner is not None and result.winner != pair_id)
                 else "draw" if result.winner is None else "win")
    if not result.walkover and (mine or theirs):
        cell.score = f"{mine}–{theirs}"
    return cell


def _breakdown(column, value: str, record, score: dict) -> Breakdown:
    key = column.key
    out = Breakdown(key, column.short, column.title, value)
    if key in ("buchholz", "median_buchholz"):
        scores = [score[o] for o, _outcome in record.opponents]
        cut = set()
        if key == "median_buchholz" and len(scores) >= 3:
            order = sorted(range(len(scores)), key=lambda i: scores[i])
            cut = {order[0], order[-1]}
        out.parts = [(_number(s), i not in cut) for i, s in enumerate(scores)]
    elif key == "sonneborn_berger":
        out.parts = [(f"{_number(score[o])} × {_number(outcome)}", True) for o, outcome in record.opponents]
    elif key == "point_difference":
        out.parts = [(f"{record.points_for} − {record.points_against}", True)]
    return out


def crosstable_rows(stage: Stage) -> tuple[list[Row], list[Round], list]:
    """The crosstable of a Swiss ``stage``: its rows in the standings' order, its rounds and the
    tiebreak columns."""
    tournament = stage.tournament
    table = services.standings(tournament, stage)
    ids = {line.pair.pk for line in table.rows}
    rounds, matches, results, byes = _results(stage, ids)
    records = pair_records([r for r, _n in results], pairs=sorted(ids), byes=[p for p, _n in byes if p in ids],
                           count_walkover_scores=stage.walkover_scores, bye_value=stage.bye_value,
                           bye_played=stage.bye_played)
    score = {p: rec.match_points for p, rec in records.items()}
    place = {line.pair.pk: line.rank for line in table.rows}
    names = {line.pair.pk: line.pair.name for line in table.rows}
    result_of = {(frozenset((r.pair_a, r.pair_b)), n): r for r, n in results}
    bye_of = {(p, n) for p, n in byes}
    columns = pages.value_columns(pages.tiebreak_columns(table.tiebreaks))
    rows = []
    for line in table.rows:
        p = line.pair.pk
        cells = []
        for rnd in rounds:
            match = next((m for m in matches.get(rnd.number, ()) if p in (m[0], m[1])), None)
            if match is not None:
                cells.append(_cell(rnd.number, p, match, result_of.get((frozenset(match[:2]), rnd.number)),
                                   place, names))
            else:
                cells.append(Cell(rnd.number, "bye" if (p, rnd.number) in bye_of else "none"))
        values = [pages.format_number(line.values.get(c.key, "")) for c in columns]
        breakdown = [_breakdown(c, v, records[p], score) for c, v in zip(columns, values)
                     if c.key in _OPPONENT_SUMS or c.key == "point_difference"]
        rows.append(Row(line.rank, line.pair, line.pair.status == Pair.Status.WITHDRAWN, cells,
                        _number(score.get(p, 0)), values, breakdown))
    return rows, rounds, columns


@require_GET
def crosstable(request, slug: str, position: int):
    tournament = tournament_of(slug, request)
    current = pages.stage_of(tournament)
    stage = next((st for st in getattr(tournament, "stage_list", []) if st.position == position), None)
    if stage is None or stage.format != Stage.Format.SWISS:
        raise Http404(_("This tournament has no Swiss stage at that position."))
    stage.tournament = tournament
    rows, rounds, columns = crosstable_rows(stage)
    context = public_context(request, tournament, "standings", current, crosstable_stage=stage, rows=rows,
                             rounds=rounds, columns=columns,
                             several=len(getattr(tournament, "stage_list", [])) > 1)
    return render(request, "tournaments/crosstable.html", context)
