"""The organizations' services: the one an organizer's new event belongs to (:func:`home_of`), and their
members, added and removed by the organization's administrators (:func:`add_member`, :func:`remove_member`),
and the referees a tournament's organizers make for it (:func:`enlist_referee`).
Who may do what is ``events.access``; docs/security.md, "Many clubs on one site"."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError

from . import access
from .models import Organization, OrganizationMember


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "org"
    slug, n = base, 1
    while Organization.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_organization(by, *, name: str, kind: str = Organization.Kind.CLUB) -> Organization:
    """A new club or federation; ``by`` is its first administrator."""
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(_("An organization needs a name."), "name")
    if kind not in Organization.Kind.values:
        raise ServiceError(_("Choose a club or a federation."), "kind")
    with transaction.atomic():
        organization = Organization.objects.create(name=name[:120], slug=_unique_slug(name), kind=kind)
        OrganizationMember.objects.create(organization=organization, user=by, role=OrganizationMember.Role.ADMIN)
    by.truco_organization_ids = None
    return organization


def home_of(user, organization=None) -> Organization:
    """The organization a new event of ``user`` belongs to: ``organization`` (an id or a row), which they must act
    for; else the first they act for; else a new one in their name (an organizer's own club)."""
    if organization not in (None, ""):
        pk = organization.pk if isinstance(organization, Organization) else organization
        found = Organization.objects.filter(pk=pk).first() if isinstance(pk, int) or str(pk).isdigit() else None
        if found is None:
            raise ServiceError(_("No such organization."), "organization")
        if not (access.operates_site(user) or found.pk in access.organization_ids(user)):
            raise Forbidden(_("You do not act for %(name)s.") % {"name": found.name}, "organization")
        return found
    mine = OrganizationMember.objects.filter(user=user, role__in=access.ACTING_ROLES).order_by("pk").select_related("organization").first()
    if mine is not None:
        return mine.organization
    name = (user.get_full_name() or user.get_username()).strip()
    return create_organization(user, name=name)


def add_member(organization: Organization, by, *, username: str,
               role: str = OrganizationMember.Role.ORGANIZER) -> OrganizationMember:
    """An existing account joins ``organization`` (its administrators, or an operator, add it): to act for it
    (``admin``, ``organizer``) or only to referee its tables (``referee``)."""
    if not access.administers(by, organization):
        raise Forbidden(_("Only the organization's administrators add members."))
    if role not in OrganizationMember.Role.values:
        raise ServiceError(_("Choose a role: administrator, organizer or referee."), "role")
    user = get_user_model().objects.filter(username__iexact=(username or "").strip(), is_active=True).first()
    if user is None:
        raise ServiceError(_("No active account with the login %(login)s.") % {"login": username}, "username")
    try:
        with transaction.atomic():
            return OrganizationMember.objects.create(organization=organization, user=user, role=role)
    except IntegrityError:
        raise Conflict(_("%(login)s is already a member.") % {"login": user.get_username()}, "username") from None


def remove_member(member: OrganizationMember, by) -> None:
    """A member leaves; the last administrator stays (an organization is never left without one)."""
    if not access.administers(by, member.organization):
        raise Forbidden(_("Only the organization's administrators remove members."))
    with transaction.atomic():
        admins = (OrganizationMember.objects.select_for_update()
                  .filter(organization=member.organization, role=OrganizationMember.Role.ADMIN))
        if member.role == OrganizationMember.Role.ADMIN and admins.count() <= 1:
            raise Conflict(_("%(login)s is the last administrator: add another first.")
                           % {"login": member.user.get_username()}, "username")
        member.delete()


def enlist_referee(organization: Organization, user) -> OrganizationMember:
    """``user`` becomes a referee of ``organization`` (it acts for nothing: ``events.access.ACTING_ROLES``); a
    membership it already has, of any role, is kept as it is. The caller checked that ``by`` runs a tournament of
    the organization (``tournaments.organizer_tools.create_referee``: the account it has just made)."""
    member, _made = OrganizationMember.objects.get_or_create(
        organization=organization, user=user, defaults={"role": OrganizationMember.Role.REFEREE})
    return member
