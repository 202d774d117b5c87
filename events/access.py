"""Who acts on what, the one rule every layer asks (docs/security.md, "Many clubs on one site"):

- :func:`operates_site`: the site's small operator role (a superuser, or ``events.operate_site``): accounts,
  the site-wide rating method, any login's lockout, merges across organizations. Being *staff* grants
  nothing here (it only opens Django's admin, to superusers).
- A member of an organization acts for it only in an acting role (:data:`ACTING_ROLES`: ``admin``,
  ``organizer``); a ``referee`` member runs nothing, sees no contact, creates nothing for it: it is only one
  of the people a tournament of the organization may give a table to (:func:`people_of`).
- :func:`manages` one tournament: its organizer, its co-organizers, the members of the organization that
  owns it, or an operator; a friendly's (no tournament) organizers are the operators. :func:`organizes` is
  the same rule (operators aside) as a query filter.
- :func:`knows_player`: the organizers who may act on a player outside one event (read a contact they
  did not enter, register the player by id, hand the personal-data link): a player entered in an event
  of one of their organizations, or one they organize themselves. A co-organizer of another club's event
  acts on its players inside that event only.
- :func:`acts_alone_on`: a change that reaches every event of a player (a new PIN, an erasure) is made by
  an organizer (co-organizers included) only when every event the player is still playing is one they
  organize: one club's reset never breaks another club's event.

Every layer above uses these (never ``tournament.organizer`` or ``is_staff`` compared by hand).
"""
from __future__ import annotations

from django.db.models import Q

from people.operators import operates_site, operates_site_condition

__all__ = ["ACTING_ROLES", "acts_alone_on", "active_user", "administers", "knows_player", "manages", "operates_site",
           "operates_site_condition", "organization_ids", "organizes", "owns", "people_of"]

#: the roles of ``OrganizationMember`` that act for the organization; its ``referee`` members act for nothing
ACTING_ROLES = ("admin", "organizer")


def active_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def _acting(user):
    """``user``'s memberships that act for their organization (a referee's do not)."""
    return user.organization_roles.filter(role__in=ACTING_ROLES)


def organization_ids(user) -> set[int]:
    """The organizations ``user`` acts for (as an administrator or an organizer, not as a referee); one query,
    remembered on the user object."""
    if not active_user(user):
        return set()
    known = getattr(user, "truco_organization_ids", None)
    if known is None:
        known = user.truco_organization_ids = set(_acting(user).values_list("organization_id", flat=True))
    return known


def administers(user, organization) -> bool:
    """An operator, or an administrator of ``organization`` (adds and removes its members)."""
    if operates_site(user):
        return True
    return active_user(user) and organization.members.filter(user=user, role="admin").exists()


def manages(user, tournament) -> bool:
    """The tournament's organizer, one of its co-organizers, a member of its organization, or an operator; a
    friendly (None): operators. Who else runs it costs one query, remembered on the tournament object."""
    if not active_user(user):
        return False
    if tournament is not None and tournament.organizer_id == user.id:
        return True
    if operates_site(user):
        return True
    if tournament is None:
        return False
    known = getattr(tournament, "manager_ids", None)
    if known is None:  # its co-organizers and its organization's acting members, in one query
        from events.models import CoOrganizer, OrganizationMember

        co = CoOrganizer.objects.filter(tournament=tournament).order_by().values_list("user_id", flat=True)
        members = OrganizationMember.objects.filter(
            organization_id=tournament.organization_id, role__in=ACTING_ROLES).order_by().values_list("user_id", flat=True)
        known = tournament.manager_ids = set(co.union(members) if tournament.organization_id else co)
    return user.id in known


def organizes(user, path: str = "tournament") -> Q:
    """A filter for rows whose tournament (reached by ``path``: ``"tournament"``, ``"match__tournament"``; ``""``
    for tournaments themselves) ``user`` organizes, co-organizes or runs for its organization. Operators are the
    caller's: this is only the organizers' rule. Subqueries, no join that could repeat a row."""
    if not active_user(user):
        return Q(pk__in=[])
    prefix = f"{path}__" if path else ""
    return (Q(**{f"{prefix}organizer": user})
            | Q(**{f"{prefix}organization__in": _acting(user).values("organization_id")})
            | Q(**{f"{prefix}pk__in": user.co_organizer_roles.values("tournament_id")}))


def owns(user, path: str = "tournament") -> Q:
    """:func:`organizes` without the co-organizers: the events ``user`` runs as their own or their organization's."""
    if not active_user(user):
        return Q(pk__in=[])
    prefix = f"{path}__" if path else ""
    return (Q(**{f"{prefix}organizer": user})
            | Q(**{f"{prefix}organization__in": _acting(user).values("organization_id")}))


def people_of(tournament) -> Q:
    """A filter on accounts: the people of ``tournament``'s side, those its organizers may give a table to
    (``tournaments.services.referees`` adds who already referees one): its organizer, its co-organizers and the
    members of its organization in any role, its referees included (an event made before organizations is its
    organizer's own: the members of the organizations its organizer acts for). Never anyone else's people."""
    from events.models import CoOrganizer, OrganizationMember

    people = Q(pk=tournament.organizer_id) if tournament.organizer_id else Q(pk__in=[])
    people |= Q(pk__in=CoOrganizer.objects.filter(tournament_id=tournament.pk).values("user_id"))
    if tournament.organization_id:
        organizations = [tournament.organization_id]
    elif tournament.organizer_id:
        organizations = OrganizationMember.objects.filter(user_id=tournament.organizer_id,
                                                          role__in=ACTING_ROLES).values("organization_id")
    else:
        return people
    return people | Q(pk__in=OrganizationMember.objects.filter(organization_id__in=organizations).values("user_id"))


def _entered(player_ids) -> Q:
    return Q(first_player_id__in=player_ids) | Q(second_player_id__in=player_ids) | Q(substitute_id__in=player_ids)


def knows_player(user, player_ids) -> bool:
    """``user`` may act on these player records beyond one event: an operator, or an organizer of an event
    (their own or their organization's) that one of them entered."""
    from events.models import Pair

    if operates_site(user):
        return True
    if not active_user(user):
        return False
    return Pair.objects.filter(_entered(list(player_ids))).filter(owns(user)).exists()


def acts_alone_on(user, player_ids) -> bool:
    """An operator; or an organizer (co-organizers included) of an event the player entered who also runs
    every unfinished event the player is entered in: a new PIN or an erasure then breaks no other club's event."""
    from events.models import Pair, Tournament

    if operates_site(user):
        return True
    if not active_user(user):
        return False
    pairs = Pair.objects.filter(_entered(list(player_ids)))
    if not pairs.filter(organizes(user)).exists():
        return False
    return not pairs.exclude(tournament__status=Tournament.Status.FINISHED).exclude(organizes(user)).exists()
