"""Who runs a tournament besides its ``organizer``: :class:`CoOrganizer` (a user with the organizer's
rights on one tournament) and :class:`OrganizerInvitation` (a one-use link that makes its holder a
co-organizer; only the token's SHA-256 is stored).

The rights themselves are decided in one place, ``events.access.manages`` (and ``organizes`` for
queries). A club's organizers (docs/people.md) will be a second owner of the same rows: a ``club`` foreign
key beside ``tournament``, exactly one of the two set, read by the same two functions.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.tournament import Tournament


class CoOrganizer(models.Model):
    """A user who organizes ``tournament`` with the same rights as its organizer."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="co_organizers",
                                   verbose_name=_("tournament"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="co_organizer_roles",
                             verbose_name=_("user"))
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+", verbose_name=_("added by"))
    added_at = models.DateTimeField(_("added at"), default=timezone.now)

    class Meta:
        db_table = "tournaments_coorganizer"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "added_at", "id"]
        verbose_name = _("co-organizer")
        verbose_name_plural = _("co-organizers")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="co_organizer_once")]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.tournament_id}"


class OrganizerInvitation(models.Model):
    """A link that makes the signed-in user who opens it a co-organizer of ``tournament``: once, within
    ``ORGANIZER_INVITATION_DAYS``, unless revoked."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="organizer_invitations",
                                   verbose_name=_("tournament"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+", verbose_name=_("invited by"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+", verbose_name=_("used by"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_organizerinvitation"  # the table it had in ``tournaments``, kept by the move
        ordering = ["-created_at", "-id"]
        verbose_name = _("organizer invitation")
        verbose_name_plural = _("organizer invitations")

    def __str__(self) -> str:
        return f"invitation {self.pk} @ {self.tournament_id}"
