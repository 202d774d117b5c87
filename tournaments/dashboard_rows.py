"""The organizer dashboard's matches grouped by what they need (issue 26 §12): **to do** (a signed
súmula to receive, a corrected one to receive again, one waiting for the referee's countersignature),
**playing** (open, with the score of the game in progress) and **done** (official), so a round of 30
tables does not read as one column of 30 cards. Read side only; the rows come from
``tournaments.pages.match_rows``.
"""
from __future__ import annotations

from scoring.models import Match

from .live_pages import live_scores
from .pages import MatchRow


def state_of(row: MatchRow) -> str:
    """ "todo", "playing" or "done"."""
    if row.reopened or (row.result is None and row.match.status == Match.Status.SIGNED):
        return "todo"
    if row.result is not None or row.match.status == Match.Status.RECEIVED:
        return "done"
    return "playing"


def by_state(rows: list[MatchRow]) -> dict:
    """``todo_rows``, ``playing_rows`` and ``done_rows`` for the dashboard's template, each in table
    order; the playing ones carry the score of their game in progress (``row.live``, one query)."""
    groups: dict[str, list[MatchRow]] = {"todo": [], "playing": [], "done": []}
    for row in rows:
        groups[state_of(row)].append(row)
    live_scores(groups["playing"])
    return {"todo_rows": groups["todo"], "playing_rows": groups["playing"], "done_rows": groups["done"]}
