"""The room as this layer sees it: what tournaments' services and pages ask of the clock, the calls to
the tables, presence and notifications, which live in the ``room`` app above this one (docs/room.md).

The room calls tournaments' services (the draw, W.O.s, check-ins), so it sits above them and nothing
here imports it: ``RoomConfig.ready`` registers its :class:`Room` with :func:`register` at start-up,
and the modules below call through :func:`room`. Without the room app installed (the lower layers
booted alone) the default :class:`Room` answers: no later round made at the draw, nobody notified, no
call, no clock, no room section. A plain call, not a signal: one room, named where it is registered.

Who asks what: ``services.rounds`` (the ready matches made at the draw, the round's calls told to the
pairs), ``services.brackets`` (a bracket match at its table told), the dashboard (``views``: the room
section; ``dashboard_panels``: whether phones are notified), the public pages (``public_views``: the
pair's self check-in and notices; ``live_pages``: the projector's calls and round clock; ``where``: when
the pair's match was called) and ``forecasts`` (when each match started).
"""
from __future__ import annotations

from datetime import datetime


class Room:
    """What tournaments asks of the room; these defaults are the answers with no room installed."""

    def after_draw(self, stage, first, by) -> list:
        """The rounds made at the draw after ``first`` (the ready matches' whole schedule), audited by the
        caller."""
        return []

    def round_called(self, rnd) -> None:
        """``rnd`` was paired with its tables: tell its pairs (push, e-mail)."""

    def match_called(self, match_id: int, table: int) -> None:
        """A match reached its table (a bracket's next match): tell its pairs."""

    def notices(self) -> dict[str, bool]:
        """Which ways of telling a pair its match was called the site has (``push``, ``email``)."""
        return {"push": False, "email": False}

    def dashboard(self, tournament, drawn: bool, stage) -> dict:
        """The dashboard's room section's context (its template as ``room_template``)."""
        return {}

    def pair_page(self, tournament, pair) -> dict:
        """The pair page's room parts: its self check-in (``self_check_in``) and notices (``notify``)."""
        return {}

    def projector(self, tournament, current) -> tuple[list, object]:
        """The projector's calls to the tables now and the clock of the ``current`` round (or None)."""
        return [], None

    def called_at(self, match) -> datetime | None:
        """When ``match`` was called to its table by the room (None: with its round)."""
        return None

    def started_at(self, match_ids: list[int]) -> dict[int, datetime]:
        """When each of these matches started (both pairs at the table), by match id."""
        return {}


_room = Room()


def register(room: Room) -> None:
    """Set the room (the ``room`` app, once, at start-up); registering again replaces it."""
    global _room
    _room = room


def room() -> Room:
    """The room registered, else the default (no room)."""
    return _room
