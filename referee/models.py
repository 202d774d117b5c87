"""What the referee module records at the table: rulings on claimed infractions, appeals against
them, the organizer's escalation policies and the referee settings of a tournament.

Only data and its integrity live here (fields, DB constraints); every write goes through
``referee.services``, which checks who may do it and writes the súmula through
``scoring.services``.

A confirmed ruling is on the súmula as one or more ``scoring.PenaltyEntry`` rows whose
``ruling_id`` is the ruling's id (art. 25: the súmula records it). There is no foreign key
from a ruling to its entries nor to a game: a correction of the súmula rewrites its games and
entries (``scoring.services.correct``) and keeps ``ruling_id``, so the link lives on the entry
(:meth:`Ruling.penalties`) and the game is kept by number.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from referee.engine.infractions import CATALOG

NOT_COVERED = "not_covered"  # art. 26: a case the regulation does not cover, decided by the organizer
STEPS = ("warning", "tento", "match_loss")


def infraction_codes() -> list[str]:
    return [*CATALOG, NOT_COVERED]


def validate_code(value: str) -> None:
    if value not in CATALOG and value != NOT_COVERED:
        raise ValidationError(_("Unknown infraction %(code)s.") % {"code": value})


def validate_steps(value) -> None:
    if not isinstance(value, list) or not value or any(step not in STEPS for step in value):
        raise ValidationError(_("The steps are a non-empty list of: %(steps)s.") % {"steps": ", ".join(STEPS)})


class Ruling(models.Model):
    """A referee's ruling on an infraction claimed at a table, with the consequence it proposes."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        CONFIRMED = "confirmed", _("Confirmed")
        ESCALATED = "escalated", _("Escalated to the organizer (art. 26)")
        OVERTURNED = "overturned", _("Overturned on appeal")
        CHANGED = "changed", _("Changed on appeal")
        REJECTED = "rejected", _("Rejected by the referee")

    match = models.ForeignKey("draw.Match", on_delete=models.PROTECT, related_name="rulings",
                              verbose_name=_("match"))
    game_number = models.PositiveSmallIntegerField(_("game"))
    hand_number = models.PositiveSmallIntegerField(_("hand"))  # the hand being played (hands recorded + 1)
    claimant_team = models.PositiveSmallIntegerField(_("claimant team"))
    offender_seat = models.PositiveSmallIntegerField(_("offender seat"))
    offender_team = models.PositiveSmallIntegerField(_("offender team"))
    code = models.CharField(_("infraction"), max_length=40, validators=[validate_code])
    facts = models.JSONField(_("facts"), default=dict, blank=True)
    # the consequence proposed (the engine's, after the escalation step)
    article = models.CharField(_("article"), max_length=60)
    points = models.PositiveSmallIntegerField(_("points"), default=0)
    beneficiary = models.PositiveSmallIntegerField(_("beneficiary team"), null=True, blank=True)
    ends_hand = models.BooleanField(_("ends the hand"), default=False)
    deal_lost = models.BooleanField(_("deal lost"), default=False)
    message = models.CharField(_("message"), max_length=400, blank=True)  # Portuguese, pairs by number
    # the message as data, {"key", "params"} of referee.engine.messages: rendered in the reader's
    # language with the pairs' names; {} on rulings recorded before, which show ``message`` as written
    message_data = models.JSONField(_("message as data"), default=dict, blank=True)
    step = models.CharField(_("escalation step"), max_length=20, blank=True)  # "" when no policy applies
    step_number = models.PositiveSmallIntegerField(_("nth ruling of this code against the pair"), default=1)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PROPOSED)
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                related_name="rulings", verbose_name=_("referee"))
    claimed_by_player = models.ForeignKey("people.Player", on_delete=models.PROTECT, null=True, blank=True,
                                          related_name="+", verbose_name=_("claimed by player"))
    # the table link the claim came through (its author ``table:<id>``, as a hand's)
    table_link = models.ForeignKey("tables.TableLink", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("table link"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("confirmed by"))
    escalated_at = models.DateTimeField(_("escalated at"), null=True, blank=True)
    escalation_reason = models.CharField(_("escalation reason"), max_length=300, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by (organizer)"))
    decision_reason = models.CharField(_("organizer's decision"), max_length=300, blank=True)
    # an unfounded claim, rejected by the referee with a reason (nothing goes on the súmula)
    rejected_at = models.DateTimeField(_("rejected at"), null=True, blank=True)
    rejected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("rejected by"))
    rejection_reason = models.CharField(_("reason of the rejection"), max_length=300, blank=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        constraints = [
            models.CheckConstraint(condition=Q(claimant_team__in=[0, 1]), name="ruling_claimant_team"),
            models.CheckConstraint(condition=Q(offender_team__in=[0, 1]), name="ruling_offender_team"),
            models.CheckConstraint(condition=Q(offender_seat__lte=3), name="ruling_offender_seat"),
            models.CheckConstraint(condition=~Q(claimant_team=models.F("offender_team")),
                                   name="ruling_claimed_by_the_opponents"),
            models.CheckConstraint(condition=Q(beneficiary__isnull=True) | Q(beneficiary__in=[0, 1]),
                                   name="ruling_beneficiary_team"),
            models.CheckConstraint(condition=Q(points__lte=12), name="ruling_points_at_most_12"),
            models.CheckConstraint(condition=Q(step__in=["", *STEPS]), name="ruling_step"),
            models.CheckConstraint(condition=Q(status__in=["proposed", "confirmed", "escalated", "overturned", "changed", "rejected"]),
                                   name="ruling_status"),
            models.CheckConstraint(condition=Q(code__in=infraction_codes()), name="ruling_code_in_catalog"),
            models.CheckConstraint(condition=~Q(article=""), name="ruling_cites_article"),
            models.CheckConstraint(condition=Q(status="proposed") | Q(status="escalated") | Q(status="rejected")
                                   | Q(confirmed_at__isnull=False), name="ruling_confirmed_has_time"),
            models.CheckConstraint(condition=~Q(status="rejected") | (Q(rejected_at__isnull=False)
                                                                      & ~Q(rejection_reason="")),
                                   name="ruling_rejected_has_time_and_reason"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.code} ({self.article})"

    def penalties(self):
        """The súmula entries this ruling produced (``PenaltyEntry.ruling_id``)."""
        from scoring.models import PenaltyEntry

        return PenaltyEntry.objects.filter(game__match_id=self.match_id, ruling_id=self.pk).select_related("game")


class Appeal(models.Model):
    """A pair's appeal against a confirmed ruling, decided by the organizer (art. 26)."""

    class Decision(models.TextChoices):
        UPHELD = "upheld", _("Upheld")
        OVERTURNED = "overturned", _("Overturned")
        CHANGED = "changed", _("Changed")

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals", verbose_name=_("ruling"))
    team = models.PositiveSmallIntegerField(_("appellant team"))
    player = models.ForeignKey("people.Player", on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("filed by"))
    reason = models.CharField(_("reason"), max_length=300)
    filed_at = models.DateTimeField(_("filed at"), default=timezone.now)
    # the table link the appeal came through (its author ``table:<id>``)
    table_link = models.ForeignKey("tables.TableLink", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("table link"))
    decision = models.CharField(_("decision"), max_length=12, choices=Decision.choices, blank=True)
    decision_reason = models.CharField(_("reason of the decision"), max_length=300, blank=True)
    new_points = models.PositiveSmallIntegerField(_("new points"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["ruling", "filed_at", "id"]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        constraints = [
            models.UniqueConstraint(fields=["ruling"], condition=Q(decided_at__isnull=True),
                                    name="appeal_one_open_per_ruling"),
            models.CheckConstraint(condition=Q(team__in=[0, 1]), name="appeal_team"),
            models.CheckConstraint(condition=~Q(reason=""), name="appeal_has_reason"),
            models.CheckConstraint(condition=Q(decided_at__isnull=True, decision="")
                                   | (Q(decided_at__isnull=False) & ~Q(decision="") & ~Q(decision_reason="")),
                                   name="appeal_decision_complete"),
            models.CheckConstraint(condition=~Q(decision="changed") | Q(new_points__isnull=False),
                                   name="appeal_changed_has_points"),
        ]


class EscalationPolicy(models.Model):
    """The organizer's steps for repeated infractions of one code by the same pair in a tournament:
    the nth confirmed ruling gets ``steps[n-1]``, the last step repeating."""

    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE,
                                   related_name="escalation_policies", verbose_name=_("tournament"))
    code = models.CharField(_("infraction"), max_length=40, validators=[validate_code])
    steps = models.JSONField(_("steps"), validators=[validate_steps])

    class Meta:
        ordering = ["tournament", "code"]
        verbose_name = _("escalation policy")
        verbose_name_plural = _("escalation policies")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="escalation_policy_one_per_code"),
            models.CheckConstraint(condition=Q(code__in=list(CATALOG)), name="escalation_policy_code_in_catalog"),
        ]

    def step_for(self, n: int) -> str:
        return self.steps[min(n, len(self.steps)) - 1]


class RefereeSettings(models.Model):
    """A tournament's referee settings: how long after a ruling is confirmed a pair may appeal."""

    tournament = models.OneToOneField("events.Tournament", on_delete=models.CASCADE,
                                      related_name="referee_settings", verbose_name=_("tournament"))
    appeal_window_minutes = models.PositiveSmallIntegerField(_("appeal window (minutes)"), default=30)

    class Meta:
        verbose_name = _("referee settings")
        verbose_name_plural = _("referee settings")
        constraints = [
            models.CheckConstraint(condition=Q(appeal_window_minutes__gte=1), name="referee_settings_window_positive"),
        ]


class RefereeCall(models.Model):
    """A table calls a referee: a plain call, or the dispute of an entry of the súmula.

    It shows on the referees' tables page until a referee takes it; a dispute stays on the entry
    until the referee confirms the entry or corrects the súmula (with a reason, art. 25).
    """

    class Kind(models.TextChoices):
        CALL = "call", _("Call")
        DISPUTE = "dispute", _("Disputed entry")

    class Resolution(models.TextChoices):
        CONFIRMED = "confirmed", _("Entry confirmed")
        CORRECTED = "corrected", _("Súmula corrected")
        DONE = "done", _("Attended")
        WITHDRAWN = "withdrawn", _("Withdrawn by the table")

    match = models.ForeignKey("draw.Match", on_delete=models.CASCADE, related_name="referee_calls",
                              verbose_name=_("match"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.CALL)
    team = models.PositiveSmallIntegerField(_("calling team"), null=True, blank=True)
    game_number = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    hand_number = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    table_link = models.ForeignKey("tables.TableLink", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("called through the table link"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(_("called at"), default=timezone.now)
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+", verbose_name=_("taken by"))
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolution = models.CharField(_("resolution"), max_length=10, choices=Resolution.choices, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["call", "dispute"]), name="referee_call_kind"),
            models.CheckConstraint(condition=~Q(kind="dispute") | (Q(game_number__isnull=False)
                                                                   & Q(hand_number__isnull=False)),
                                   name="referee_call_dispute_names_entry"),
            models.CheckConstraint(condition=Q(team__isnull=True) | Q(team__in=[0, 1]), name="referee_call_team"),
            models.CheckConstraint(condition=Q(resolved_at__isnull=True) | ~Q(resolution=""),
                                   name="referee_call_resolution"),
        ]


class RefereeInvitation(models.Model):
    """A one-time link the organizer gives a new referee: whoever opens it chooses a
    login and a password, and is signed in. Only the SHA-256 of the token is kept (the link is shown
    once, to the organizer who made it); it works once, until ``expires_at``, unless revoked. A
    reissue revokes it and makes a new one. Writes in ``referee.invitations``."""

    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE,
                                   related_name="referee_invitations", verbose_name=_("tournament"))
    name = models.CharField(_("name"), max_length=150)
    login = models.CharField(_("suggested login"), max_length=150, blank=True)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("revoked by"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="referee_invitations", verbose_name=_("account"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("referee's invitation")
        verbose_name_plural = _("referee's invitations")
        constraints = [
            models.CheckConstraint(condition=Q(token_hash__regex=r"^[0-9a-f]{64}$"),
                                   name="referee_invitation_token_sha256"),
            # a link is revoked before use, or a used invitation revoked afterwards
            models.CheckConstraint(condition=Q(used_at__isnull=True) | Q(revoked_at__isnull=True)
                                   | Q(revoked_at__gte=models.F("used_at")),
                                   name="referee_invitation_revoked_after_use"),
            models.CheckConstraint(condition=Q(table__isnull=True) | Q(table__gte=1),
                                   name="referee_invitation_table_positive"),
        ]

    def __str__(self) -> str:
        return f"referee invitation {self.pk} ({self.name})"
