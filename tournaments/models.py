"""Tournaments, players and the pairs they form.

Kept deliberately small: enough for registration and the demo. Tournament formats
(rounds, matches, standings) build on these models. A player's signing PIN (art. 25: the
pairs sign the súmula) is kept only as a hash.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
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
    rule_set = models.JSONField(
        _("rule set"),
        default=default_rule_set,
        help_text=_('A preset and its named variant options, e.g. {"preset": "regulamento-tecnico", "options": {}}.'),
    )
    best_of = models.PositiveSmallIntegerField(
        _("match format"), choices=BestOf.choices, default=BestOf.ONE
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
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


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True, help_text=_("Phone or e-mail."))
    pin_hash = models.CharField(
        _("signing PIN (hash)"),
        max_length=128,
        blank=True,
        editable=False,
        help_text=_("The personal PIN the player signs súmulas with (art. 25); only its hash is kept."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name

    @property
    def has_pin(self) -> bool:
        return bool(self.pin_hash)

    def set_pin(self, pin: str | None) -> None:
        """Keep the hash of ``pin`` (never the PIN); ``None`` or ``""`` removes it. Does not save."""
        self.pin_hash = make_password(pin) if pin else ""

    def check_pin(self, pin: str) -> bool:
        return bool(self.pin_hash) and bool(pin) and check_password(pin, self.pin_hash)


class Round(models.Model):
    """A round of a tournament; its matches (and their súmulas) point to it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                name="round_unique_number_per_tournament",
                violation_error_message=_("This tournament already has a round with this number."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="round_number_positive",
                violation_error_message=_("Rounds are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name or _("Round %(number)s") % {"number": self.number}


class Pair(models.Model):
    """Two partners registered together in one tournament (a *dupla*), with an optional substitute."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=120)
    first_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first player")
    )
    second_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("second player")
    )
    substitute = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("substitute"),
    )

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"],
                name="pair_unique_name_per_tournament",
                violation_error_message=_("This tournament already has a pair with this name."),
            ),
            models.CheckConstraint(
                condition=~Q(first_player=models.F("second_player")),
                name="pair_two_different_players",
                violation_error_message=_("A pair needs two different players."),
            ),
            models.CheckConstraint(
                condition=Q(substitute__isnull=True)
                | (~Q(substitute=models.F("first_player")) & ~Q(substitute=models.F("second_player"))),
                name="pair_substitute_not_a_partner",
                violation_error_message=_("The substitute cannot be one of the two partners."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> list[Player]:
        return [self.first_player, self.second_player]

    @property
    def clubs(self) -> str:
        """The partners' clubs, each named once, in order."""
        return " · ".join(dict.fromkeys(p.club for p in self.players if p.club))
