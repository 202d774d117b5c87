"""The room (docs/room.md): the clock, calls to tables, presence and notifications. Above ``tournaments``
(it calls tournaments' services), plugged into the layers below by ``room.hooks``."""
