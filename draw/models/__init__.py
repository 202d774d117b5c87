"""Who plays whom, and what counted; data and its integrity only (writes go through the services).

- :class:`Stage`: the ordered stages of a tournament, each with its format (single or double
  elimination, round robin, Swiss), seeding, recorded lot seeds, tiebreaks, match format and, after
  the first, its qualifiers rule; :class:`GroupMember` (round robin groups), :class:`BracketNode`
  (every match of a bracket, its layout and its derived state);
- :class:`Round` (generated, or only open for check-in), :class:`Bye`, :class:`CheckIn`,
  :class:`TableAssignment` (the referee of a table);
- :class:`Match`: one pairing of two pairs, its rule set, best of N and where its súmula stands;
- :class:`Result`: the official result of a match as the tournament counts it (a received súmula, a
  walkover or an organizer's decision);
- :class:`AuditEntry`: the append-only log of what organizers did, with reasons.

The tables keep their names (``tournaments_round``, ``scoring_match``, …): the models moved with
state-only migrations (docs/architecture.md, "How the models moved").
"""
from draw.models.stages import BracketNode, GroupMember, Stage, default_tiebreaks, new_lot_seed  # definition order
from draw.models.rounds import Bye, CheckIn, Result, Round, TableAssignment
from draw.models.matches import Match
from draw.models.audit import AuditEntry, AuditError

__all__ = ["AuditEntry", "AuditError", "BracketNode", "Bye", "CheckIn", "GroupMember", "Match", "Result", "Round",
           "Stage", "TableAssignment", "default_tiebreaks", "new_lot_seed"]
