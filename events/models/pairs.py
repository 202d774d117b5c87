""":class:`Pair`, two partners registered in one tournament (registration status, withdrawal,
rating and organizer's seed). The players themselves are ``people.models.Player`` (re-exported
here and by ``tournaments.models``): one person across tournaments and organizers."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from people.models import Player
from events.models.tournament import Tournament

__all__ = ["Pair", "Player"]


class Pair(models.Model):
    """Two partners registered together in one tournament (a *dupla*), with an optional substitute.

    Only ``confirmed`` pairs are drawn and paired; a ``withdrawn`` pair keeps its results and
    its remaining matches are walkovers.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        WITHDRAWN = "withdrawn", _("Withdrawn")

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
    status = models.CharField(_("registration"), max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    seed = models.PositiveIntegerField(
        _("seed"), null=True, blank=True, help_text=_("The organizer's order: 1 is the top seed.")
    )
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawal_reason = models.CharField(_("reason for withdrawal"), max_length=300, blank=True)
    disqualified = models.BooleanField(
        _("disqualified"), default=False,
        help_text=_("Withdrawn by the organizer's decision (a disqualification), not of its own accord."),
    )
    avoid_tags = models.CharField(
        _("avoid meeting"), max_length=200, blank=True,
        help_text=_("Club, family...: comma separated. Pairs sharing one are kept apart in the Swiss rounds and "
                    "the group draw when possible."),
    )

    class Meta:
        db_table = "tournaments_pair"  # the table it had in ``tournaments``, kept by the move
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
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "withdrawn"]),
                name="pair_status_valid",
            ),
            models.CheckConstraint(
                condition=(Q(status="withdrawn") & Q(withdrawn_at__isnull=False) & ~Q(withdrawal_reason=""))
                | (~Q(status="withdrawn") & Q(withdrawn_at__isnull=True) & Q(withdrawal_reason="")),
                name="pair_withdrawal_has_time_and_reason",
                violation_error_message=_("A withdrawn pair records when and why it withdrew."),
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=1),
                name="pair_seed_positive",
                violation_error_message=_("Seeds are numbered from 1."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="pair_unique_seed_per_tournament",
                violation_error_message=_("Another pair of this tournament has this seed."),
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
        return " · ".join(dict.fromkeys(p.club.name for p in self.players if p.club_id))

    @property
    def is_active(self) -> bool:
        """Drawn and paired: confirmed and not withdrawn."""
        return self.status == self.Status.CONFIRMED
