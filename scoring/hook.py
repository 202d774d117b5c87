"""The one way scoring tells the layer above it that something happened to a match.

Scoring sits below tournaments (docs/architecture.md) and never imports it, yet two moments of a
match matter above it:

* :func:`result_official` — the match's result became official: its súmula was signed by both
  pairs and received by the organizer (art. 25, ``services.receipt.mark_received``). The
  tournament records it and advances (its brackets, its room, its live pages, the ratings).
* :func:`match_started` — the match's first hand was written (``services.hand_entry``): the room's
  time limit starts (docs/room.md) and is written on the match (``Match.time_up_at``).

The tournaments app registers ONE handler for both at start-up (``TournamentsConfig.ready`` calls
:func:`register`). Scoring calls it inside its own transaction, so the receipt (or the hand) and what
follows from it above are written together or not at all; an error above rolls the receipt back.
A tournament's match with no handler registered raises :class:`HookMissing` instead of leaving the
tournament behind in silence; a friendly (no tournament) needs none: scoring alone runs without it.
This is a plain call, not a Django signal: no receiver list, no save signals, one handler, named
where it is registered.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ImproperlyConfigured


class HookMissing(ImproperlyConfigured):
    """A tournament's match told scoring something the layer above must hear, and nobody listens."""


@dataclass(frozen=True)
class Handler:
    result_official: Callable[..., object]  # (match) -> anything (ignored)
    match_started: Callable[..., object]  # (match, at) -> anything (ignored)


_handler: Handler | None = None


def register(*, result_official: Callable[..., object], match_started: Callable[..., object]) -> None:
    """Set the handler (the layer above scoring: the tournaments app, once, at start-up). Registering
    again replaces it."""
    global _handler
    _handler = Handler(result_official=result_official, match_started=match_started)


def registered() -> Handler | None:
    """The handler set by :func:`register`, if any."""
    return _handler


def _for(match) -> Handler | None:
    if _handler is None and match.tournament_id is not None:
        raise HookMissing(f"Match {match.pk} belongs to a tournament, but no handler was registered with "
                          "scoring.hook.register (TournamentsConfig.ready does it).")
    return _handler


def result_official(match) -> None:
    """The match's result became official (art. 25): tell the layer above, in the caller's transaction."""
    handler = _for(match)
    if handler is not None:
        handler.result_official(match)


def match_started(match, at: datetime) -> None:
    """The match's first hand was written at ``at``: tell the layer above, in the caller's transaction."""
    handler = _for(match)
    if handler is not None:
        handler.match_started(match, at)
