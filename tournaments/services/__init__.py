"""Everything that writes to a tournament, and the standings and bracket it shows.

A package of modules by concern; the public functions are re-exported here
(``from tournaments import services; services.register_pair(...)``):

* ``base``: the error type, permissions (:func:`can_manage`), locking, the audit log, the W.O. row;
* ``tournament``: :func:`can_create_tournament`, :func:`create_tournament`, :func:`update_tournament`;
* ``registration``: :func:`register_pair`, :func:`update_pair`, :func:`withdraw_pair`,
  :func:`reinstate_pair` (a withdrawal undone), :func:`delete_pair` (registered by mistake, before the draw);
* ``check_in``: :func:`upcoming_round`, :func:`check_in`, :func:`undo_check_in`;
* ``formats``: :func:`configure_stage` (the format, seeding and tiebreaks);
* ``draw``: seeding, round-robin groups, Swiss pairing of a round;
* ``writing``: :func:`write_pairings` (matches, tables, byes in bulk), automatic walkovers of
  withdrawn pairs;
* ``rounds``: :func:`generate_first_round`, :func:`generate_next_round`,
  :func:`regenerate_round`, :func:`round_matches`;
* ``brackets``: :func:`persist_bracket`, advancing brackets, :func:`bracket_view`,
  :func:`bracket_json`;
* ``tables``: :func:`assign_referee`; ``referees``: who may referee a tournament's tables (the one rule,
  :func:`referees.eligible`; the apps above add whom they vouch for by ``referees.register_source``);
* ``results``: :func:`record_official_result` (called through ``scoring.hook.result_official``),
  :func:`set_result`;
* ``walkovers``: :func:`record_walkover` (W.O.), :func:`record_double_walkover` (both absent);
* ``after_results``: what follows every decision on results, in order: the draw (``progress``: the
  bracket, the tournament's status), the room's next ready match, live pages, then the followers
  registered by the apps above (the ratings last: ``seasons``);
* ``season_hooks``: what tournaments tells the seasons app above it (circuits' placings, the rating
  order, merges) and asks it (ratings for seeding and forecasts), registered by that app;
* ``overrides``: :func:`change_pairing`, :func:`swap_tables`, :func:`override_placing` (and
  ``results.set_result``);
* ``standings``: :func:`standings` (the tournament's, or one stage's; knockouts by placings);
* ``stages``: the ordered stages: :func:`add_stage`, :func:`update_stage`, :func:`remove_stage`,
  :func:`stage_qualifiers`, :func:`start_next_stage`, and later stages kept in agreement with
  the results of the stage before them.

The pairing and ranking algorithms are the pure ``draw.pairing`` package; these modules
feed it pair primary keys and persist what it returns. Matches are ``scoring.Match`` rows; an
official súmula result arrives through scoring's one hook (``scoring.hook.result_official``).

Conventions:

* every write runs in one ``transaction.atomic`` block holding ``select_for_update`` on
  the tournament row (per-match writes lock the match first, then the tournament, the
  order ``scoring.services.mark_received`` uses when it calls ``hook.result_official``);
* refused input raises :class:`TournamentError` (400) naming the field, :class:`Forbidden`
  (403) or :class:`Conflict` (409, the tournament's state does not allow it now);
* ``by`` is the acting user: only the tournament's organizer, staff or a superuser may
  write (:func:`can_manage`); ``by=None`` is the system (a received súmula, the room's automatic call);
* a result counts (standings, brackets, next rounds) only when it is *official*: a
  received súmula (art. 25), a walkover, or a result set by the organizer (a
  :class:`~tournaments.models.Result` row). It counts until a new official result replaces
  it: a súmula reopened by a correction after its receipt keeps its last official result
  until it is received again (then the bracket follows, unless a later match was already
  played: see :func:`record_official_result`).
"""
from config.errors import Conflict, Forbidden, ServiceError

from .base import MAX_SEED, REASON_MAX, SWISS_ONLY_TIEBREAKS, TournamentError, can_manage
from .tournament import TOURNAMENT_FIELDS, can_create_tournament, create_tournament, update_tournament
from .registration import (
    PAIR_PLAYER_FIELDS,
    PLAYER_TEXT,
    clean_player,
    clean_registration,
    register_pair,
    update_pair,
    delete_pair,
)
from .withdrawals import disqualify_pair, reinstate_pair, withdraw_pair
from .check_in import check_in, undo_check_in, upcoming_round
from .undo import result_undo_offer, undo_offer, undo_result, undo_withdrawal
from .formats import LATER_STAGE_FIELDS, STAGE_FIELDS, clean_tiebreaks, configure_stage
from .writing import write_pairings
from .brackets import NODE_STATE, BracketView, bracket_json, bracket_layout, bracket_view, persist_bracket
from .rounds import generate_first_round, generate_next_round, regenerate_round, round_matches
from .tables import assign_referee
from . import referees  # who may referee a tournament's tables
from .results import record_official_result, set_result
from .walkovers import record_double_walkover, record_walkover
from .overrides import change_pairing, override_placing, swap_tables
from . import organizers, signup, signup_review  # co-organizers and the public sign-up (players, organizer)
from .standings import StandingLine, StandingsTable, standings
from .stages import (
    Qualifiers,
    add_stage,
    remove_stage,
    stage_qualifiers,
    stage_state,
    stages_of,
    start_next_stage,
    update_stage,
)

# Low-level helpers benchmarks/pairings.py imports from here.
from .brackets import _create_nodes  # noqa: E402,F401

__all__ = [
    "BracketView",
    "Conflict",
    "Forbidden",
    "LATER_STAGE_FIELDS",
    "MAX_SEED",
    "NODE_STATE",
    "PAIR_PLAYER_FIELDS",
    "PLAYER_TEXT",
    "Qualifiers",
    "REASON_MAX",
    "STAGE_FIELDS",
    "SWISS_ONLY_TIEBREAKS",
    "ServiceError",
    "StandingLine",
    "StandingsTable",
    "TOURNAMENT_FIELDS",
    "TournamentError",
    "add_stage",
    "assign_referee",
    "bracket_json",
    "bracket_layout",
    "bracket_view",
    "can_create_tournament",
    "can_manage",
    "change_pairing",
    "check_in",
    "clean_player",
    "clean_registration",
    "clean_tiebreaks",
    "configure_stage",
    "create_tournament",
    "delete_pair",
    "disqualify_pair",
    "generate_first_round",
    "generate_next_round",
    "organizers",
    "referees",
    "override_placing",
    "persist_bracket",
    "record_double_walkover",
    "record_official_result",
    "record_walkover",
    "regenerate_round",
    "register_pair",
    "reinstate_pair",
    "remove_stage",
    "result_undo_offer",
    "round_matches",
    "set_result",
    "signup",
    "signup_review",
    "stage_qualifiers",
    "stage_state",
    "stages_of",
    "standings",
    "start_next_stage",
    "swap_tables",
    "undo_check_in",
    "undo_offer",
    "undo_result",
    "undo_withdrawal",
    "upcoming_round",
    "update_pair",
    "update_stage",
    "update_tournament",
    "withdraw_pair",
    "write_pairings",
]
