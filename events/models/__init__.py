"""A tournament and who is in it; data and its integrity only (writes go through the services).

- :class:`Organization`, :class:`OrganizationMember`: the clubs and federations that own events, and who acts
  for them;
- :class:`Tournament`: the event, its rule set (``default_rule_set``) and its organizer;
- :class:`Pair`: two partners registered in one tournament (registration status, withdrawal, rating,
  organizer's seed); the players themselves are ``people.models.Player``;
- :class:`CoOrganizer`, :class:`OrganizerInvitation`: a tournament's other organizers;
- :class:`SignUpSettings`, :class:`SignUp`, :class:`SignUpPlayer`: players signing themselves up.

The tables keep the names they had in ``tournaments`` (``tournaments_tournament``, …): the models
moved with state-only migrations (docs/architecture.md, "How the models moved").
"""
from events.models.organizations import Organization, OrganizationMember  # in definition order
from events.models.tournament import Tournament, default_rule_set
from events.models.pairs import Pair
from events.models.organizers import CoOrganizer, OrganizerInvitation
from events.models.signup import SignUp, SignUpPlayer, SignUpSettings

__all__ = ["CoOrganizer", "Organization", "OrganizationMember", "OrganizerInvitation", "Pair", "SignUp", "SignUpPlayer", "SignUpSettings", "Tournament",
           "default_rule_set"]
