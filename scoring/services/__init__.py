"""Every write to a súmula (art. 25): creating matches, recording hands and penalties, undo,
corrections, issuing versions, signing, countersigning and receiving.

A package of modules by concern; the public functions are re-exported here
(``from scoring import services; services.record_hand(...)``):

* ``base``: the error type, locking the match, the audit trail event, :func:`rules_of`;
* ``matches``: :func:`check_new_match`, :func:`create_match`;
* ``entry``: :func:`set_first_dealer`, :func:`record_penalty`, :func:`undo_last` (entry while the
  match is played); ``hand_entry``: :func:`record_hand`, the one write of a hand; ``game_state``:
  where the current game stands and the 409 of a device that is behind;
* ``versions``: :func:`issue_version`, :func:`current_version`;
* ``corrections``: :func:`correct`;
* ``signing``: :func:`issue_code`, :func:`sign`, :func:`countersign`;
* ``receipt``: :func:`mark_received` (the result becomes official), :func:`official_result`;
* ``page_state``: :func:`entry_state`, :func:`signing_state`, :func:`matches_for`.

Each function runs in one ``transaction.atomic`` block holding ``select_for_update`` on the
match, checks who may do it (``scoring.access``) and refuses bad input with a
:class:`ScoringError` that names the field and the article. Hands are checked by the rules
engine (``check_summary`` for a summary, ``check_report`` for a full hand report); the
document and its digest come from ``scoring.content``. Every action is appended to the
match's audit trail (:class:`~scoring.models.MatchEvent`): that is where an undo stays visible.

Scoring knows nothing of rounds, brackets or standings: pairs, players and tournaments are the
rows callers pass in or that ``Match``'s foreign keys point to (docs/architecture.md).

Life of a súmula (docs/sumulas.md): entries while the match is played; when the match is
decided a version is issued and waits for signatures; once both pairs signed it is locked;
a correction (with a reason) reopens it as a new version; the organizer marks it received
and only then is the result official.
"""
from config.errors import Conflict, Forbidden, ServiceError

from .base import ARTICLE_RE, CODE_LIFETIME, LAST_ARTICLE, MAX_FAILED_SIGNATURES, ScoringError, rules_of
from .matches import check_new_match, create_match
from .entry import (
    GameState,
    check_hand,
    is_report,
    normalize_article,
    record_penalty,
    set_first_dealer,
    state_token,
    undo_last,
)
from .hand_entry import record_hand
from .closing import close_sumulas, closed_refusal, refuse_closed
from .versions import current_version, issue_version
from .corrections import CHANGE_OPS, correct
from .signing import countersign, issue_code, sign
from .receipt import mark_received, official_result
from .page_state import entry_state, matches_for, page_token, preview, signing_state

__all__ = [
    "ARTICLE_RE",
    "CHANGE_OPS",
    "CODE_LIFETIME",
    "Conflict",
    "Forbidden",
    "GameState",
    "LAST_ARTICLE",
    "MAX_FAILED_SIGNATURES",
    "ScoringError",
    "ServiceError",
    "check_hand",
    "check_new_match",
    "close_sumulas",
    "closed_refusal",
    "correct",
    "countersign",
    "create_match",
    "current_version",
    "entry_state",
    "is_report",
    "issue_code",
    "issue_version",
    "mark_received",
    "matches_for",
    "preview",
    "normalize_article",
    "official_result",
    "page_token",
    "record_hand",
    "refuse_closed",
    "record_penalty",
    "rules_of",
    "set_first_dealer",
    "sign",
    "signing_state",
    "state_token",
    "undo_last",
]
