"""Who looked at an event's fair-play report, and who was refused it: written once, never changed."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.history import AppendOnly


class ReportAccess(AppendOnly):
    """One request for an event's fair-play report: by whom, when, and whether it was shown."""

    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE, related_name="+",
                                   verbose_name=_("tournament"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="+", verbose_name=_("user"))
    granted = models.BooleanField(_("shown"))
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["tournament", "at", "id"]
        verbose_name = _("fair-play report access")
        verbose_name_plural = _("fair-play report accesses")
