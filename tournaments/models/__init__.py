"""What the site layer persists about a tournament's day and season, and the models it reads from below.

Data and its integrity only; every write goes through ``tournaments.services``. Its own models:

- :class:`TableCard` (a table's link for the whole event);
- :class:`LinkAddress`: the addresses cards are printed for.

The room (its options, calls and notices) is the ``room`` app's; circuits, ratings and categories are the
``seasons`` app's (both above this one).

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
from tournaments.models.table_cards import LinkAddress, TableCard

__all__ = [
    "AuditEntry",
    "AuditError",
    "BracketNode",
    "CoOrganizer",
    "Bye",
    "CheckIn",
    "GroupMember",
    "LinkAddress",
    "OrganizerInvitation",
    "Pair",
    "Player",
    "Result",
    "Round",
    "SignUp",
    "SignUpPlayer",
    "SignUpSettings",
    "Stage",
    "TableAssignment",
    "TableCard",
    "Tournament",
    "default_rule_set",
    "default_tiebreaks",
    "new_lot_seed",
]
