"""Who owns an event: clubs and federations as organizations (:class:`Organization`), and the accounts
that act for them with a role (:class:`OrganizationMember`). A tournament and a circuit belong to one
organization; its administrators and organizers run everything it owns (``events.access``), and nothing of
another's; its referees run nothing (they may be given its tournaments' tables).

Site operation (accounts, the site-wide rating method, any login's lockout, merges across organizations)
is not an organization's: it is the small ``events.operate_site`` permission (or a superuser), see
docs/security.md, "Many clubs on one site".
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Organization(models.Model):
    class Kind(models.TextChoices):
        CLUB = "club", _("Club")
        FEDERATION = "federation", _("Federation")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CLUB)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("organization")
        verbose_name_plural = _("organizations")
        permissions = [("operate_site", _("Operate the site: accounts, the rating method, any login's lockout, "
                                          "merges across organizations"))]

    def __str__(self) -> str:
        return self.name


class OrganizationMember(models.Model):
    """An account of an organization: ``admin`` and ``organizer`` act for it (``admin`` also adds and removes its
    members); a ``referee`` acts for nothing, it only referees the organization's tables (``events.access``)."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("Administrator")
        ORGANIZER = "organizer", _("Organizer")
        REFEREE = "referee", _("Referee")

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="members",
                                     verbose_name=_("organization"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organization_roles",
                             verbose_name=_("account"))
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.ORGANIZER)
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        ordering = ["organization", "user"]
        verbose_name = _("organization member")
        verbose_name_plural = _("organization members")
        constraints = [models.UniqueConstraint(fields=["organization", "user"], name="organization_member_once")]

    def __str__(self) -> str:
        return f"{self.user} · {self.organization} ({self.role})"
