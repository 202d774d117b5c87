"""The one way scoring tells the layer above it that something happened to a match.

Scoring sits below tournaments (docs/architecture.md) and never imports it, yet two moments of a
match matter above it:

* :func:`result_official` — the match's result became official: its súmula was signed by both
  pairs and received by the organizer (art. 25, ``services.receipt.mark_received``). The
  tournament records it and advances (its brackets, its room, its live pages, the ratings).
* :func:`match_started` — the match's first hand was written (``services.hand_entry``): the room's
  time limit starts (docs/room.md) and is written on the match (``Match.time_up_at``).

Each moment has ONE handler, registered at start-up by the app that acts on it: ``TournamentsConfig.ready``
registers ``result_official``, ``RoomConfig.ready`` registers ``match_started`` (:func:`register`).
Scoring calls it inside its own transaction, so the receipt (or the hand) and what follows from it above
are written together or not at all; an error above rolls the receipt back. A tournament's match with no
handler registered for the moment raises :class:`HookMissing` instead of leaving the tournament behind in
silence; a friendly (no tournament) needs none: scoring alone runs without it. This is a plain call, not
a Django signal: no receiver list, no save signals, one handler a moment, named where it is registered.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from django.core.exceptions import ImproperlyConfigured


class HookMissing(ImproperlyConfigured):
    """A tournament's match told scoring something the layer above must hear, and nobody listens."""


@dataclass(frozen=True)
class Handler:
    result_official: Callable[..., object] | None = None  # (match) -> anything (ignored)
    match_started: Callable[..., object] | None = None  # (match, at) -> anything (ignored)


_handler = Handler()


def register(*, result_official: Callable[..., object] | None = None,
             match_started: Callable[..., object] | None = None) -> None:
    """Set the handlers given (each by the layer above scoring that acts on it, once, at start-up);
    registering one again replaces it, the other stays."""
    global _handler
    given = {"result_official": result_official, "match_started": match_started}
    _handler = replace(_handler, **{name: handler for name, handler in given.items() if handler is not None})


def registered() -> Handler:
    """The handlers set by :func:`register` (None where none is)."""
    return _handler


def _for(match, moment: str) -> Callable[..., object] | None:
    handler = getattr(_handler, moment)
    if handler is None and match.tournament_id is not None:
        registrar = "TournamentsConfig.ready" if moment == "result_official" else "RoomConfig.ready"
        raise HookMissing(f"Match {match.pk} belongs to a tournament, but no {moment} handler was registered "
                          f"with scoring.hook.register ({registrar} does it).")
    return handler


def result_official(match) -> None:
    """The match's result became official (art. 25): tell the layer above, in the caller's transaction."""
    handler = _for(match, "result_official")
    if handler is not None:
        handler(match)


def match_started(match, at: datetime) -> None:
    """The match's first hand was written at ``at``: tell the layer above, in the caller's transaction."""
    handler = _for(match, "match_started")
    if handler is not None:
        handler(match, at)
