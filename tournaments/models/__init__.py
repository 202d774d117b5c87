"""The models the site layer reads from below; it has none of its own.

Every write goes through ``tournaments.services``. The event and its pairs are ``events.models``;
stages, rounds, matches, results and the audit log are ``draw.models``; players are
``people.models``. This package re-exports them, so ``from tournaments.models import X`` keeps
working in this layer and above. A table's card and link are the ``tables`` app's (below); the room
(its options, calls and notices) is the ``room`` app's, circuits, ratings and categories the
``seasons`` app's, print jobs the ``printing`` app's (above this one).
"""
# What moved below (``events``, ``draw``) is re-exported for this layer's modules and the migrations'
# ``tournaments.models.default_*`` (docs/architecture.md, "How the models moved").
from events.models import CoOrganizer, OrganizerInvitation, Pair, SignUp, SignUpPlayer, SignUpSettings, Tournament
from events.models import default_rule_set
from people.models import Player
from draw.models import (AuditEntry, AuditError, BracketNode, Bye, CheckIn, GroupMember, Result, Round, Stage,
                         TableAssignment, default_tiebreaks, new_lot_seed)

__all__ = [
    "AuditEntry",
    "AuditError",
    "BracketNode",
    "CoOrganizer",
    "Bye",
    "CheckIn",
    "GroupMember",
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
    "Tournament",
    "default_rule_set",
    "default_tiebreaks",
    "new_lot_seed",
]
