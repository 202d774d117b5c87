"""Who may referee a tournament's tables, the one rule (docs/security.md, "Many clubs on one site"): the people
of the tournament's side (``events.access.people_of``: its organizer, co-organizers and its organization's
members of any role, its referees included), whoever referees a table of it already, and those the apps above
vouch for through :func:`register_source` (the referee app: the accounts its accepted invitations to this
tournament made). Nobody else's people: the dashboard's picker lists :func:`eligible` and
``tables.assign_referee`` refuses anyone outside it, naming the field ``referee``. The regulation leaves who
referees to the organizing department (art. 26, cases it does not foresee); that one club's organizers neither
see nor appoint another club's accounts is the site's rule, not the regulation's.

Two decisions of that rule (docs/security.md, "Many clubs on one site"):

- A referee account made from a tournament's page (``organizer_tools.create_referee``) joins the event's
  organization as a referee member, which makes it eligible in every event of that club; so it is made only by
  whoever acts for that organization (:func:`club_of_new_referee`: its administrators and organizers, or an
  operator). A co-organizer from another club adds nobody to the club: its way is the referee invitation,
  whose account referees that event only, until the invitation is revoked.
- A site operator is no one's referee by being an operator: the rule lists the tournament's side only, so an
  operator referees a club's tables only as one of its people (a member, an organizer, a co-organizer, an
  invited referee), and the pickers never list the site's operator accounts to a club.
"""
from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from events import access, organizations
from events.models import Organization, OrganizationMember

from ..models import TableAssignment, Tournament
from .base import TournamentError

#: each takes a tournament and answers a queryset of account ids (``.values("user_id")``) it vouches for
_sources: list[Callable[[Tournament], QuerySet]] = []


def register_source(source: Callable[[Tournament], QuerySet]) -> None:
    """An app above adds the accounts it vouches for as a tournament's referees (once per source)."""
    if source not in _sources:
        _sources.append(source)


def _condition(tournament: Tournament) -> Q:
    people = access.people_of(tournament)
    people |= Q(pk__in=TableAssignment.objects.filter(tournament_id=tournament.pk).values("referee_id"))
    for source in _sources:
        people |= Q(pk__in=source(tournament))
    return people


def eligible(tournament: Tournament) -> QuerySet:
    """The active accounts that may referee ``tournament``'s tables, by login."""
    return get_user_model().objects.filter(_condition(tournament), is_active=True).order_by("username")


def may_referee(tournament: Tournament, user) -> bool:
    return bool(getattr(user, "pk", None)) and eligible(tournament).filter(pk=user.pk).exists()


def refusal() -> TournamentError:
    """The one answer for anyone outside the rule: an unknown id and another club's account read the same."""
    return TournamentError(_("Choose a referee among the people of this tournament's club: its organizers, "
                             "its members and referees, or who already referees one of its tables."), "referee")


def referee_by_id(tournament: Tournament, value) -> object:
    """The eligible account whose id ``value`` is (a form's or the API's), or :func:`refusal`."""
    text = str(value).strip() if value is not None else ""
    found = eligible(tournament).filter(pk=int(text)).first() if text.isdigit() else None
    if found is None:
        raise refusal()
    return found


def club_of_new_referee(tournament: Tournament, by) -> Organization:
    """The organization a referee account ``by`` makes for ``tournament`` joins as a referee member: the event's
    own (for an event made before organizations, its organizer's first club, or a new one of their own when the
    organizer or an operator makes it), when ``by`` acts for it (``access.organization_ids``) or operates the site. Anyone else
    (a co-organizer from another club) is refused naming ``username``: they invite the referee instead."""
    owner = tournament.organization
    if owner is None and tournament.organizer_id:
        if tournament.organizer_id == getattr(by, "pk", None) or access.operates_site(by):
            return organizations.home_of(tournament.organizer)  # the organizer's club, made if they had none
        mine = (OrganizationMember.objects.filter(user_id=tournament.organizer_id, role__in=access.ACTING_ROLES)
                .order_by("pk").select_related("organization").first())
        owner = mine.organization if mine is not None else None
    if owner is not None and (access.operates_site(by) or owner.pk in access.organization_ids(by)):
        return owner
    raise TournamentError(_("Only the people who act for this tournament's club add referees to it. Invite the "
                            "referee by link instead: the invitation is for this tournament only."), "username")
