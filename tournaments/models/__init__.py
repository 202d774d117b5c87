"""What the site layer persists about a tournament's day and season, and the models it reads from below.

Data and its integrity only; every write goes through ``tournaments.services``. Its own models:

- :class:`RoomSettings` and :class:`MatchCall`: the room's options, each match's call, clock and presence;
- :class:`PushSubscription` and :class:`CallNotice`: telling a pair its match was called (push, e-mail);
- :class:`Circuit`, :class:`CircuitStage`, :class:`CircuitPlacing`: seasons and their stages' placings;
  :class:`RatingEntry`: each player's rating history; :class:`Flight`, :class:`FlightMember`: a
  tournament's categories (``circuits``).

The event and its pairs are ``events.models``; stages, rounds, matches, results and the audit log are
``draw.models``; players are ``people.models``. This package re-exports them, so ``from
tournaments.models import X`` keeps working in this layer and above.
"""
# What moved below (``events``, ``draw``) is re-exported for this layer's modules and the migrations'
# ``tournaments.models.default_*`` (docs/architecture.md, "How the models moved").
from events.models import CoOrganizer, OrganizerInvitation, Pair, SignUp, SignUpPlayer, SignUpSettings, Tournament
from events.models import default_rule_set
from people.models import Player
from draw.models import (AuditEntry, AuditError, BracketNode, Bye, CheckIn, GroupMember, Result, Round, Stage,
                         TableAssignment, default_tiebreaks, new_lot_seed)
from tournaments.models.room import MatchCall, RoomSettings
from tournaments.models.notify import CallNotice, PushSubscription
from tournaments.models.circuits import (Circuit, CircuitPlacing, CircuitStage, Flight, FlightMember, RatingEntry,
                                         RatingMethodChoice, default_circuit_points)

__all__ = [
    "AuditEntry",
    "AuditError",
    "BracketNode",
    "CoOrganizer",
    "Circuit",
    "CircuitPlacing",
    "CircuitStage",
    "Flight",
    "RatingMethodChoice",
    "FlightMember",
    "Bye",
    "CallNotice",
    "CheckIn",
    "GroupMember",
    "MatchCall",
    "OrganizerInvitation",
    "Pair",
    "Player",
    "PushSubscription",
    "RatingEntry",
    "Result",
    "RoomSettings",
    "Round",
    "SignUp",
    "SignUpPlayer",
    "SignUpSettings",
    "Stage",
    "TableAssignment",
    "Tournament",
    "default_circuit_points",
    "default_rule_set",
    "default_tiebreaks",
    "new_lot_seed",
]
