"""Who organizes a tournament: its ``organizer`` and its co-organizers (``events.models.CoOrganizer``, with
the same rights), or a site operator (staff or superuser); a friendly's (no tournament) organizers are the
site operators. ``manages`` is that one definition for one tournament, and ``organizes`` the same rule as
a query filter; every layer above uses them (never ``tournament.organizer`` compared by hand).
"""
from __future__ import annotations

from django.db.models import Q


def active_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def manages(user, tournament) -> bool:
    """The tournament's organizer, one of its co-organizers, or a site operator (staff, superuser); a friendly
    (None): operators. A co-organizer costs one query, remembered on the tournament object."""
    if not active_user(user):
        return False
    if user.is_superuser or user.is_staff:
        return True
    if tournament is None:
        return False
    if tournament.organizer_id == user.id:
        return True
    known = getattr(tournament, "co_organizer_ids", None)
    if known is None:
        known = tournament.co_organizer_ids = set(tournament.co_organizers.values_list("user_id", flat=True))
    return user.id in known


def organizes(user, path: str = "tournament") -> Q:
    """A filter for rows whose tournament (reached by ``path``: ``"tournament"``, ``"match__tournament"``; ``""``
    for tournaments themselves) ``user`` organizes or co-organizes. Operators are the caller's: this is only
    the organizers' rule. One subquery, no join that could repeat a row."""
    if not active_user(user):
        return Q(pk__in=[])
    prefix = f"{path}__" if path else ""
    return (Q(**{f"{prefix}organizer": user})
            | Q(**{f"{prefix}pk__in": user.co_organizer_roles.values("tournament_id")}))
