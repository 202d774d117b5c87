"""The draw as the pages picture it, read-only: the bracket (its drawing with the words translated,
and its matches as rows) and the round-robin grids. Fixed query counts whatever the number of pairs,
like the rest of the read side (``tournaments.pages``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from draw.pairing.round_robin import group_name
from scoring.models import Match

from tournaments import services
from tournaments.models import GroupMember, Pair, Result, Round, Stage, Tournament
from tournaments.pages import result_text
from tournaments.svg import Labels, MatchDisplay, bracket_structure, bracket_svg, match_numbers, match_title, pending_text


# ------------------------------------------------------------------------------------ bracket


def bracket_labels() -> Labels:
    return Labels(
        title=_("Bracket"),
        round=_("Round {number}"),
        final=_("Final"),
        semifinal=_("Semifinals"),
        quarterfinal=_("Quarterfinals"),
        winners_bracket=_("Winners' bracket"),
        losers_bracket=_("Losers' bracket"),
        winners_final=_("Winners' final"),
        losers_round=_("Losers' round {number}"),
        losers_final=_("Losers' final"),
        grand_final=_("Grand final"),
        reset=_("Grand final, 2nd match"),
        reset_not_needed=_("not needed"),
        third_place=_("Third place"),
        classification=_("Places 5 to 8"),
        classification_semifinal=_("Places 5 to 8: semifinal"),
        fifth_place=_("Fifth-place match"),
        seventh_place=_("Seventh-place match"),
        champion=_("Champion"),
        bye=_("bye"),
        winner_of=_("Winner of {match}"),
        loser_of=_("Loser of {match}"),
        to_be_decided=_("to be decided"),
        match=_("Match {number}"),
    )


def _score_cells(result: Result, top_pair: int | None, best_of: int) -> tuple[str, str]:
    """The two score cells of a box (top, bottom) for an official result."""
    if result.kind == Result.Kind.WALKOVER:
        top_won = result.winner_id == top_pair
        return ("W.O.", "–") if top_won else ("–", "W.O.")
    a, b = (result.points_a, result.points_b) if best_of == 1 else (result.games_a, result.games_b)
    return (str(a), str(b)) if result.pair_a_id == top_pair else (str(b), str(a))


def _match_best_of(view: services.BracketView, code: str, default: int) -> int:
    """The format the bracket match was created with (each match keeps its own)."""
    node = view.nodes.get(code)
    return node.match.best_of if node is not None and node.match is not None else default


def bracket_drawing(view: services.BracketView, *, links: dict[str, str] | None = None) -> str:
    """The SVG of a tournament's bracket with its official results (scores, W.O.) and the champion."""
    best_of = view.stage.tournament.best_of
    displays = {}
    bracket = view.bracket
    by_code = {m.match_id: m for m in bracket.matches()}
    for code, result in view.results.items():
        m = by_code.get(code)
        if m is None:
            continue
        top, bottom = _score_cells(result, m.top.pair, _match_best_of(view, code, best_of))
        displays[code] = MatchDisplay(top, bottom, href=(links or {}).get(code, ""))
    for code, href in (links or {}).items():
        displays.setdefault(code, MatchDisplay(href=href))
    return bracket_svg(bracket, view.names, displays, labels=bracket_labels())


@dataclass
class BracketMatchRow:
    """One bracket match in the text list under the drawing (phones, screen readers)."""

    number: int
    code: str
    round: int
    title: str
    top: str
    bottom: str
    winner: str
    score: str
    table: int | None


def bracket_rows(view: services.BracketView) -> list[BracketMatchRow]:
    """The numbered (really played) matches of the bracket, in number order."""
    labels = bracket_labels()
    structure = bracket_structure(view.bracket)
    numbers = match_numbers(view.bracket, structure)
    names = view.names
    best_of = view.stage.tournament.best_of
    rows = []
    for m in view.bracket.matches():
        number = numbers.get(m.match_id)
        if number is None:
            continue
        result = view.results.get(m.match_id)
        node = view.nodes.get(m.match_id)

        def side(slot) -> str:
            if slot.pair is not None:
                return names.get(slot.pair, str(slot.pair))
            return pending_text(view.bracket, slot, labels, numbers, structure)

        score = ""
        if result is not None:
            top, bottom = _score_cells(result, m.top.pair, _match_best_of(view, m.match_id, best_of))
            score = "W.O." if "W.O." in (top, bottom) else f"{top}–{bottom}"
        rows.append(BracketMatchRow(
            number=number, code=m.match_id, round=view.round_of(m.match_id),
            title=match_title(view.bracket, m, labels),
            top=side(m.top), bottom=side(m.bottom),
            winner=names.get(m.winner, "") if m.winner is not None else "",
            score=score if not m.unplayed else labels.reset_not_needed,
            table=node.match.table if node is not None and node.match is not None else None,
        ))
    rows.sort(key=lambda r: r.number)
    return rows


# ------------------------------------------------------------------------------- round robin


@dataclass
class GridCell:
    text: str = ""
    outcome: str = ""  # "won", "lost", "pending", "self", ""
    title: str = ""


@dataclass
class GridRow:
    number: int
    pair: Pair
    cells: list[GridCell]
    won: int = 0
    lost: int = 0


@dataclass
class Grid:
    name: str
    pairs: list[Pair]
    rows: list[GridRow]


def round_robin_grids(tournament: Tournament, stage: Stage) -> list[Grid]:
    """Per group, the pairs × pairs table: each cell the row pair's result against the column pair
    (official results only; "·" for a match paired but not decided). Three queries."""
    members: dict[int, list[int]] = defaultdict(list)
    for group, pair_id in GroupMember.objects.filter(stage=stage).order_by("group", "number").values_list(
            "group", "pair_id"):
        members[group].append(pair_id)
    if not members:
        return []
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament)}
    played: dict[frozenset, tuple[Match, Result | None]] = {}
    for match in (Match.objects.filter(tournament=tournament, round__phase=Round.Phase.GROUPS)
                  .select_related("tournament_result").order_by("pk")):
        played[frozenset((match.pair_a_id, match.pair_b_id))] = (match, getattr(match, "tournament_result", None))
    grids = []
    for g in sorted(members):
        ids = members[g]
        rows = []
        for i, row_id in enumerate(ids, start=1):
            cells = []
            row = GridRow(i, pairs[row_id], cells)
            for col_id in ids:
                if col_id == row_id:
                    cells.append(GridCell("", "self"))
                    continue
                found = played.get(frozenset((row_id, col_id)))
                if found is None:
                    cells.append(GridCell())
                    continue
                match, result = found
                if result is None:
                    cells.append(GridCell("·", "pending", _("To be played")))
                    continue
                won = result.winner_id == row_id
                flip = result.pair_a_id != row_id
                text = result_text(result, match.best_of, flip=flip)
                if won:
                    row.won += 1
                else:
                    row.lost += 1
                title = (_("Won against %(pair)s") if won else _("Lost to %(pair)s")) % {"pair": pairs[col_id].name}
                cells.append(GridCell(text, "won" if won else "lost", title))
            rows.append(row)
        grids.append(Grid(group_name(g), [pairs[p] for p in ids], rows))
    return grids
