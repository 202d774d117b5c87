"""The room's services by concern (docs/room.md): ``ready`` (ready matches, calls to the tables, the room's
options), ``clock`` (called, started, elapsed, left, late), ``presence`` ("estamos na mesa", W.O.
proposals), ``self_check_in`` ("Chegamos"), ``time_limit`` (the end of time written on the match) and
``notify`` (Web Push and e-mail when a match is called)."""
