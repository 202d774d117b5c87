"""Pure pairing and standings algorithms for Truco tournaments (no Django, no ORM).

Everything here is fed plain values (pair identifiers, dataclasses) and returns
frozen dataclasses, so it can be tested, benchmarked and reused without a
database.  Persisting the results is the caller's job.

Modules:

* :mod:`.base` - pair identifiers.
* :mod:`.seeding` - seeding by organizer order, rating, or reproducible lot.
* :mod:`.elimination` - single elimination (standard seeding, byes, third
  place, places 5-8 beside the bracket) and the bracket engine.
* :mod:`.double_elimination` - losers' bracket and grand final with reset.
* :mod:`.round_robin` - FIDE Berger tables, snake-seeded groups.
* :mod:`.group_knockout` - crossing group qualifiers into a knockout.
* :mod:`.swiss` - Swiss pairing of one round (maximum-weight matching).
* :mod:`.matching` - exact maximum-weight matching (rustworkx's blossom).
* :mod:`.swiss_blocks` - the Swiss matching solved score group by score group when exact.
* :mod:`.standings` - rankings with per-tournament tiebreak order and lot.
* :mod:`.placings` - final placings of a bracket, read from the bracket.
* :mod:`.scores` - whether a result's games and tentos agree with its winner.
* :mod:`.circuit` - a circuit's (season's) ranking from its stages' placings.
* :mod:`.ratings` - player ratings with openskill (2 vs 2), reproducible, three methods.
* :mod:`.flights` - a tournament's categories and the placings within each.
* :mod:`.avoidance` - prohibited pairings (same club, family) kept apart in group draws.
"""

from .base import PairId
from .double_elimination import double_elimination
from .elimination import (
    BracketMatch,
    EliminationBracket,
    Slot,
    Source,
    bracket_size,
    next_round,
    record_results,
    single_elimination,
    standard_seed_order,
)
from .group_knockout import Qualifier, groups_to_knockout, knockout_seeding, rank_across_groups
from .matching import max_weight_matching
from .placings import Placing, Placings, bracket_placings, overall_placings
from .round_robin import berger_table, group_round_robins, round_robin, snake_groups
from .seeding import Seeding, seed_by_lot, seed_by_order, seed_by_rating
from .scores import ScoreError, check_match_score
from .standings import MatchResult, Standings, StandingRow, Tiebreak, compute_standings, default_tiebreaks_for
from .swiss import SwissEntrant, SwissOrder, SwissPairing, SwissRound, entrants_from_history, pair_swiss_round

__all__ = [
    "PairId",
    "Seeding",
    "seed_by_order",
    "seed_by_rating",
    "seed_by_lot",
    "BracketMatch",
    "EliminationBracket",
    "Slot",
    "Source",
    "bracket_size",
    "standard_seed_order",
    "single_elimination",
    "next_round",
    "record_results",
    "double_elimination",
    "berger_table",
    "round_robin",
    "snake_groups",
    "group_round_robins",
    "Qualifier",
    "knockout_seeding",
    "groups_to_knockout",
    "rank_across_groups",
    "SwissOrder",
    "SwissEntrant",
    "SwissPairing",
    "SwissRound",
    "pair_swiss_round",
    "entrants_from_history",
    "max_weight_matching",
    "MatchResult",
    "Standings",
    "StandingRow",
    "Tiebreak",
    "compute_standings",
    "default_tiebreaks_for",
    "Placing",
    "Placings",
    "bracket_placings",
    "overall_placings",
    "ScoreError",
    "check_match_score",
]
