"""Tournaments, players and the pairs they form, and what a tournament's format persists.

Data and its integrity only (fields, DB constraints, append-only guards); every write goes
through ``tournaments.services`` and the pairing algorithms live in the pure
``tournaments.pairing`` package. A player's signing PIN (art. 25: the pairs sign the
súmula) is kept only as a hash.

One module per concern (``tournament``, ``people``, ``stages``, ``rounds``, ``audit``); this
package re-exports every model and field default, so ``from tournaments.models import X`` and
the migrations' ``tournaments.models.default_*`` keep working.

- :class:`Tournament`, :class:`Player`, :class:`Pair` (registration status, withdrawal,
  rating and organizer's seed), :class:`Round` (generated or only open for check-in);
- :class:`Stage`: the ordered stages of a tournament, each with its format (single or double
  elimination, round robin, Swiss), seeding, recorded lot seeds, tiebreaks, match format
  (per stage and per round) and, after the first, its qualifiers rule;
- :class:`GroupMember` (round robin groups), :class:`BracketNode` (every match of a
  bracket, its layout and its derived state), :class:`Bye`, :class:`CheckIn`,
  :class:`TableAssignment` (the referee of a table), :class:`TableCard` (a table's link for the
  whole event);
- :class:`Result`: the official result of a match as the tournament counts it (a received
  súmula, a walkover or an organizer's decision);
- :class:`AuditEntry`: the append-only log of what organizers did, with reasons;
- :class:`RoomSettings` and :class:`MatchCall`: the room's options, each match's call, clock and presence;
- :class:`PushSubscription` and :class:`CallNotice`: telling a pair its match was called (push, e-mail).
- :class:`CoOrganizer`, :class:`OrganizerInvitation`: a tournament's other organizers (co-organizers);
- :class:`SignUpSettings`, :class:`SignUp`, :class:`SignUpPlayer`: players signing themselves up.
- :class:`Circuit`, :class:`CircuitStage`, :class:`CircuitPlacing`: seasons and their stages' placings;
  :class:`RatingEntry`: each player's rating history; :class:`Flight`, :class:`FlightMember`: a
  tournament's categories (``circuits``).
"""
from tournaments.models.tournament import Tournament, default_rule_set  # in definition order
from tournaments.models.people import Pair, Player
from tournaments.models.stages import BracketNode, GroupMember, Stage, default_tiebreaks, new_lot_seed
from tournaments.models.rounds import Bye, CheckIn, Result, Round, TableAssignment, TableCard
from tournaments.models.audit import AuditEntry, AuditError
from tournaments.models.room import MatchCall, RoomSettings
from tournaments.models.notify import CallNotice, PushSubscription
from tournaments.models.organizers import CoOrganizer, OrganizerInvitation
from tournaments.models.signup import SignUp, SignUpPlayer, SignUpSettings
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
    "TableCard",
    "Tournament",
    "default_circuit_points",
    "default_rule_set",
    "default_tiebreaks",
    "new_lot_seed",
]
