"""What every team service shares: who may act (the tournament's managers, ``events.access.manages``)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from config.errors import Forbidden
from events.access import manages


def require_manager(by, tournament) -> None:
    """Only who manages the tournament (its organizer, co-organizers, organization, an operator) acts on
    its teams."""
    if not manages(by, tournament):
        raise Forbidden(_("Only the tournament's organizers manage its teams."), "tournament")
