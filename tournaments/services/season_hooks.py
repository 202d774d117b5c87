"""What tournaments tells the season above it, and asks it: the calls the ``seasons`` app (circuits,
ratings and categories) registers at start-up (``SeasonsConfig.ready``, :func:`register`), so this layer
never imports it (docs/architecture.md). With none registered (tournaments booted alone) every call
does nothing and no pair has a rating.

- :func:`placings_changed`: the tournament's final table may have changed (its status refreshed after
  a result, a place set by hand): the stages of circuits it is copy its placings again;
- :func:`rating_order_changed`: matches (or every match of ``tournaments``) whose place in the rating
  order changed (two tables swapped, a tournament's date): marked in the caller's transaction, the
  ratings' sync queued after its commit;
- :func:`players_merged`: a player merge or its undoing (``tournaments.players``): the matches of the
  pairs it repointed now rate as the kept person's;
- :func:`pair_ratings` (seeding by the players' ratings) and :func:`player_ratings` (the forecasts):
  each pair's combined rating, each rated player's current one (``draw.pairing.ratings.Rating``);
- :func:`derived_problems` (``manage.py verify_results``): the rating history and the circuits'
  placings derived again from the official results and compared with what is stored.

Every decision on results reaches the ratings through ``after_results.register_follower`` (last).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

NAMES = ("placings_changed", "rating_order_changed", "players_merged", "pair_ratings", "player_ratings",
         "derived_problems")

_hooks: dict[str, Callable] = {}


def register(**hooks: Callable) -> None:
    """Set the season's calls by name (:data:`NAMES`); registering one again replaces it."""
    unknown = sorted(set(hooks) - set(NAMES))
    if unknown:
        raise TypeError(f"season_hooks.register: unknown hook(s) {', '.join(unknown)}")
    _hooks.update(hooks)


def placings_changed(tournament) -> None:
    hook = _hooks.get("placings_changed")
    if hook is not None:
        hook(tournament)


def rating_order_changed(match_ids: Iterable[int] = (), *, tournaments: Iterable[int] = ()) -> None:
    hook = _hooks.get("rating_order_changed")
    if hook is not None:
        hook(match_ids, tournaments=tournaments)


def players_merged(merge) -> None:
    hook = _hooks.get("players_merged")
    if hook is not None:
        hook(merge)


def pair_ratings(pairs) -> dict:
    """``{pair id: Rating}`` for ``pairs`` (empty: no season installed, nobody is rated)."""
    hook = _hooks.get("pair_ratings")
    return hook(pairs) if hook is not None else {}


def player_ratings(player_ids) -> dict:
    """``{player id: Rating}`` of the rated ones among ``player_ids``."""
    hook = _hooks.get("player_ratings")
    return hook(player_ids) if hook is not None else {}


def derived_problems(tournament_id: int | None, write: Callable[[str], object]) -> list[str]:
    """Each problem of the season's derived data ``write``-n as a line; what differs, in short, for the
    summary (empty: everything derived holds, or no season installed)."""
    hook = _hooks.get("derived_problems")
    return hook(tournament_id, write) if hook is not None else []
