"""The tournament itself: its name, date, status, organizer, rule set, match format and
whether its rounds need check-in (:class:`Tournament`), and the rule set a new one starts with."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def default_rule_set() -> dict:
    """The rule set every new tournament starts with: the technical regulation, no variants."""
    return {"preset": "regulamento-tecnico", "options": {}}


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    class BestOf(models.IntegerChoices):
        ONE = 1, _("Single game")
        THREE = 3, _("Best of 3 games")
        FIVE = 5, _("Best of 5 games")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    date = models.DateField(_("date"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organized_tournaments",
        verbose_name=_("organizer"),
    )
    # the club or federation that owns it: its members run it (``events.access``); empty only for rows made
    # before organizations, which their organizer and co-organizers still run
    organization = models.ForeignKey(
        "events.Organization", on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments",
        verbose_name=_("organization"),
    )
    rule_set = models.JSONField(
        _("rule set"),
        default=default_rule_set,
        help_text=_('A preset and its named variant options, e.g. {"preset": "regulamento-tecnico", "options": {}}.'),
    )
    best_of = models.PositiveSmallIntegerField(
        _("match format"), choices=BestOf.choices, default=BestOf.ONE
    )
    check_in_required = models.BooleanField(
        _("check-in required"),
        default=False,
        help_text=_("Only the pairs checked in for a round are drawn or paired in it."),
    )
    placing_overrides = models.JSONField(
        _("final places set by hand"), default=dict, blank=True,
        help_text=_('Pair id to {"place": n, "reason": "..."}: the organizer\'s decision, audited.'),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_tournament"  # the table it had in ``tournaments``, kept by the move
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3, 5]),
                name="tournament_best_of_1_3_5",
                violation_error_message=_("A match is played to the best of 1, 3 or 5 games."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})
