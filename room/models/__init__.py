"""What the room persists (docs/room.md): :class:`RoomSettings` (a tournament's room options) and
:class:`MatchCall` (each match's call, clock and presence) in ``calls``; :class:`PushSubscription` and
:class:`CallNotice` (telling a pair its match was called: push, e-mail) in ``notify``. Every write goes
through ``room.services``."""
from room.models.calls import MatchCall, RoomSettings
from room.models.notify import CallNotice, PushSubscription

__all__ = ["CallNotice", "MatchCall", "PushSubscription", "RoomSettings"]
