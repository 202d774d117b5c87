"""What follows a decision on matches' results: the one service every decision goes through.

A decision is anything that gives matches an official result, changes one or takes one back: a
súmula received (art. 25, ``results.record_official_result``, called through ``scoring.hook``), a
result set by hand (art. 26, ``results.set_result``), a W.O. and a double W.O.
(``walkovers``), a withdrawal and a disqualification (their W.O.s, ``withdrawals.withdraw_pair``),
a withdrawal undone (``withdrawals.reinstate_pair``, ``undo.undo_withdrawal``) and a result undone
(``undo.undo_result``). Each of them writes its rows and its audit entry, then calls
:func:`results_changed` once, inside its transaction, which calls in this order:

1. the draw: later stages kept in agreement, the brackets advance, the tournament's status and its
   circuits' placings (:func:`advance_draw`, which tells the season through ``season_hooks``; a
   ``Conflict`` there refuses the decision);
2. the followers registered by the apps above (:func:`register_follower`), in the order their apps are
   installed: the team matches (``teams``: a negra takes its table), then the room (``room``: with
   the options ``ready_matches`` and ``auto_call`` on, the ready matches are called to the free
   tables, ``room.services.ready.auto_call``; docs/room.md);
3. live pages: the decided matches are marked changed (:func:`mark_live`), for the live pages,
   the projector and the referees' monitor;
4. the followers registered to come last (``register_follower(..., last=True)``): the ratings
   (``seasons.followers.follow_results``: the matches marked changed in this transaction, the sync
   compares only them, then brought up to date after the commit, never for a decision rolled back).

No save signal does any of this: a bulk write (a withdrawal's W.O.s) follows the same path as a
single one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils import timezone

from scoring.models import Match

from ..models import Stage, Tournament
from .brackets import _advance_bracket
from .progress import _refresh_status
from .stages import check_later_stages


#: the layers above tournaments that follow every decision on results (the ``teams`` app recomputes its team
#: matches, the ``room`` calls the ready matches; ``seasons`` marks the ratings, last), set at start-up by their
#: ``AppConfig.ready`` through :func:`register_follower`: plain calls, in order, inside the decision's
#: transaction (no signal)
_followers: list[Callable[..., object]] = []
_last_followers: list[Callable[..., object]] = []


def register_follower(follow: Callable[..., object], *, last: bool = False) -> None:
    """``follow(tournament, by, match_ids)`` is called by :func:`results_changed` after the draw advanced
    (``last``: after the room and the live pages, as the ratings are); registering the same one again
    keeps one."""
    followers = _last_followers if last else _followers
    if follow not in followers:
        followers.append(follow)


def results_changed(tournament: Tournament, by, match_ids: Iterable[int]) -> None:
    """``match_ids`` were decided, changed or taken back by ``by`` (None: the system): advance the
    draw, then the followers (team matches, the room), live pages and ratings (the module docstring). Runs inside the caller's
    transaction, which holds the tournament's lock."""
    ids = sorted(set(match_ids))
    advance_draw(tournament, by)
    for follow in _followers:  # the team matches (teams.services.results), the room's calls (room.hooks)
        follow(tournament, by, ids)
    mark_live(ids)
    for follow in _last_followers:  # the ratings (seasons.followers.follow_results; docs/ratings.md)
        follow(tournament, by, ids)


def advance_draw(tournament: Tournament, by) -> None:
    """Advance what follows from new official results: a later stage whose qualifiers changed
    (rebuilt, or the change refused), the brackets, and the tournament's status."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    if not stages:
        return
    if len(stages) > 1:
        check_later_stages(tournament, by)
    for stage in Stage.objects.filter(tournament=tournament, bracket_first_round__isnull=False).order_by("position"):
        stage.tournament = tournament
        _advance_bracket(stage, by)
    _refresh_status(tournament)


def mark_live(match_ids: list[int]) -> None:
    """The matches' ``updated_at`` moves: the change markers of the live pages, the projector
    (``public.live``, ``public.freshness``) and the referees' monitor read it, so a result
    taken back (its row deleted) shows as surely as one written. One query."""
    if match_ids:
        Match.objects.filter(pk__in=match_ids).update(updated_at=timezone.now())
