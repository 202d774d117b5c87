"""Where do I play: a pair's next match as its page shows it — the match called to a
table (the table, the opponent, when it was called) or the next one not called yet (its pairs or a
table still busy) — read in a fixed number of queries. The pair's page is live (docs/live.md): a match
called to a table moves the tournament's marker (the match's ``updated_at``), so the page shows the new
table within one poll."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Q

from scoring.models import Match

from tournaments.models import Pair, Result
from tournaments.room_hooks import room


@dataclass(frozen=True)
class NextMatch:
    match: Match
    opponent: Pair
    table: int | None  # None: not called yet
    called_at: datetime | None


def next_match(pair: Pair) -> NextMatch | None:
    """The pair's match at a table not decided yet (the earliest by round), else its next match not
    called yet; None when it has nothing left to play."""
    rows = list(Match.objects.filter(Q(pair_a=pair) | Q(pair_b=pair), round__isnull=False)
                .exclude(Exists(Result.objects.filter(match=OuterRef("pk"))))
                .exclude(status=Match.Status.RECEIVED)
                .select_related("round", "pair_a", "pair_b").order_by("round__number", "pk"))
    if not rows:
        return None
    called = [m for m in rows if m.table is not None]
    match = called[0] if called else rows[0]
    when = None
    if match.table is not None:
        when = room().called_at(match) or match.round.generated_at
    return NextMatch(match, match.pair_b if match.pair_a_id == pair.pk else match.pair_a, match.table, when)
