"""The append-only log of what organizers did to a tournament, with reasons
(:class:`AuditEntry`); rewriting or deleting an entry raises :class:`AuditError`."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.history import AppendOnly, HistoryError
from draw.models.rounds import Round
from events.models.tournament import Tournament


class AuditError(HistoryError):
    """Raised when code tries to rewrite or delete an audit entry (they are append-only)."""


class AuditEntry(AppendOnly):
    """What an organizer did to a tournament, when, why, and the data before and after."""

    history_error = AuditError

    class Action(models.TextChoices):
        STAGE_CONFIGURED = "stage_configured", _("Format configured")
        PAIR_REGISTERED = "pair_registered", _("Pair registered")
        PAIR_UPDATED = "pair_updated", _("Pair updated")
        PAIRS_IMPORTED = "pairs_imported", _("Pairs imported")
        PAIR_WITHDRAWN = "pair_withdrawn", _("Pair withdrawn")
        ROUND_GENERATED = "round_generated", _("Round generated")
        ROUND_REGENERATED = "round_regenerated", _("Round regenerated")
        BRACKET_ADVANCED = "bracket_advanced", _("Bracket advanced")
        PAIRING_CHANGED = "pairing_changed", _("Pairing changed by hand")
        RESULT_SET = "result_set", _("Result set by hand")
        TABLES_SWAPPED = "tables_swapped", _("Tables swapped")
        WALKOVER = "walkover", _("Walkover recorded")
        REFEREE_ASSIGNED = "referee_assigned", _("Referee assigned to a table")
        RESULT_OFFICIAL = "result_official", _("Súmula result made official")
        RESULT_IGNORED = "result_ignored", _("Súmula result not applied")
        PAIR_REINSTATED = "pair_reinstated", _("Withdrawal undone")
        STAGE_STARTED = "stage_started", _("Stage started")
        QUALIFIERS_ADJUSTED = "qualifiers_adjusted", _("Qualifiers adjusted by hand")
        REFEREE_INVITED = "referee_invited", _("Referee invited by link")
        INVITATION_REVOKED = "invitation_revoked", _("Referee's invitation revoked")
        INVITATION_USED = "invitation_used", _("Referee's invitation used")
        PAIR_DISQUALIFIED = "pair_disqualified", _("Pair disqualified")
        PLACING_OVERRIDDEN = "placing_overridden", _("Final place set by hand")
        FLIGHTS_SET = "flights_set", _("Categories set")
        MATCH_CALLED = "match_called", _("Match called to a table")
        ROOM_CONFIGURED = "room_configured", _("Room options saved")
        PUSH_REVOKED = "push_revoked", _("Phones notified of a pair's calls cleared")
        CO_ORGANIZER_ADDED = "co_organizer_added", _("Co-organizer added")
        CO_ORGANIZER_REMOVED = "co_organizer_gone", _("Co-organizer removed")
        ORGANIZER_INVITED = "organizer_invited", _("Co-organizer invited by link")
        SIGNUP_CONFIGURED = "signup_configured", _("Sign-up options saved")
        SIGNUP_APPROVED = "signup_approved", _("Sign-up approved")
        SIGNUP_REFUSED = "signup_refused", _("Sign-up refused")
        PAIR_DELETED = "pair_deleted", _("Pair deleted (registered by mistake)")
        RESULT_UNDONE = "result_undone", _("Result by hand undone")

    OVERRIDES = ("pairing_changed", "result_set", "tables_swapped", "pair_withdrawn", "pair_reinstated",
                 "qualifiers_adjusted", "pair_disqualified", "placing_overridden")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    match = models.ForeignKey("draw.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        db_table = "tournaments_auditentry"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "at", "id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        constraints = [
            models.CheckConstraint(
                condition=~Q(action__in=["pairing_changed", "result_set", "tables_swapped", "pair_withdrawn",
                                         "pair_reinstated", "qualifiers_adjusted"])
                | ~Q(reason=""),
                name="audit_override_has_reason",
                violation_error_message=_("A manual override needs a reason."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.action} {self.at:%Y-%m-%d %H:%M}"
