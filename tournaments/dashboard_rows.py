"""The organizer dashboard's matches grouped by what they need: **to do** (a signed súmula to receive, a
corrected one to receive again, one waiting for the referee's countersignature), **playing** (open, with the
score of the game in progress) and **done** (official), so a round of 30 tables does not read as one column of
30 cards. A round of more than ``PAGE`` matches is shown by table ranges (``?mesas=2``: the second range), each
range's link counting what it has to do: 128 cards were most of a 2 MB page at 256 pairs. Read side only; the
rows come from ``tournaments.pages.match_rows``.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring.models import Match

from .pages import live_scores
from .pages import MatchRow

#: matches shown at once; a round of more is shown by table ranges
PAGE = 32
#: the query parameter of the range, and the header the page's script sends it in with a background post
PAGE_PARAMETER = "mesas"
PAGE_HEADER = "X-Dashboard-Tables"


@dataclass(frozen=True)
class TableRange:
    number: int
    first: int | None  # the first and last table of the range (None: matches without a table)
    last: int | None
    todo: int
    playing: int
    current: bool


def state_of(row: MatchRow) -> str:
    """ "todo", "playing" or "done"."""
    if row.reopened or (row.result is None and row.match.status == Match.Status.SIGNED):
        return "todo"
    if row.result is not None or row.match.status == Match.Status.RECEIVED:
        return "done"
    return "playing"


def wanted_range(request) -> int | None:
    """The table range the organizer asked for: the link's ``?mesas=``, else the header a background
    post carries (the answer's redirect drops the query)."""
    value = request.GET.get(PAGE_PARAMETER) or request.headers.get(PAGE_HEADER, "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def by_state(rows: list[MatchRow], wanted: int | None = None, showing: int | None = None) -> dict:
    """``todo_rows``, ``playing_rows`` and ``done_rows`` for the dashboard's template, each in table
    order, of the range holding match ``showing`` (a refused form comes back in its card), else of the
    range asked for, else the first with something to do, else the first still playing;
    ``table_ranges`` when the round has more than ``PAGE`` matches. The playing ones carry the score of
    their game in progress (``row.live``, one query)."""
    chunks = [rows[i:i + PAGE] for i in range(0, len(rows), PAGE)] or [[]]
    states = [[state_of(row) for row in chunk] for chunk in chunks]
    if showing is not None:
        wanted = next((i + 1 for i, chunk in enumerate(chunks) if any(r.match.pk == showing for r in chunk)), wanted)
    if wanted is None or wanted > len(chunks):
        wanted = next((i + 1 for i, s in enumerate(states) if "todo" in s), None) \
            or next((i + 1 for i, s in enumerate(states) if "playing" in s), 1)
    groups: dict[str, list[MatchRow]] = {"todo": [], "playing": [], "done": []}
    for row, state in zip(chunks[wanted - 1], states[wanted - 1]):
        groups[state].append(row)
    live_scores(groups["playing"])
    ranges = []
    if len(chunks) > 1:
        ranges = [TableRange(i + 1, chunk[0].match.table, chunk[-1].match.table, s.count("todo"), s.count("playing"),
                             i + 1 == wanted) for i, (chunk, s) in enumerate(zip(chunks, states))]
    return {"todo_rows": groups["todo"], "playing_rows": groups["playing"], "done_rows": groups["done"],
            "table_ranges": ranges, "table_range": wanted if ranges else None}
