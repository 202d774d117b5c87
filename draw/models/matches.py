""":class:`Match`: one pairing of two pairs in a tournament's round (or a friendly), with the rule set
and best of N it is played to, and where its súmula stands (open, signed, received: art. 25).

The fixture lives in the draw; what is written on its súmula (games, hands, versions, signatures)
is ``scoring``'s, which points down to it. The table keeps its name, ``scoring_match``: the model
moved here with a state-only migration (docs/architecture.md, "How the models moved")."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    """One pairing of two pairs, best of N games to 12 (a friendly when it has no tournament)."""

    class EndOfTime(models.TextChoices):
        """The end-of-time procedure the tournament's room chose (the regulation is silent,
        docs/room.md names each source); copied here with the time limit's end by the tournament."""
        NONE = "", _("No procedure")
        HIGHER_SCORE = "higher_score", _("Finish the hand in play; then the higher score wins")
        ONE_MORE_HAND = "one_more_hand", _("Finish the hand in play, then play one more hand")
        ELEVEN_ALL = "eleven_all", _("Finish the game in play; the remaining games start at 11×11")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        SIGNED = "signed", _("Signed (locked)")
        RECEIVED = "received", _("Received")

    tournament = models.ForeignKey(
        "events.Tournament", on_delete=models.PROTECT, null=True, blank=True,
        related_name="matches", verbose_name=_("tournament"),
    )
    round = models.ForeignKey(
        "draw.Round", on_delete=models.PROTECT, null=True, blank=True,
        related_name="matches", verbose_name=_("round"),
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="refereed_matches", verbose_name=_("referee"),
    )
    pair_a = models.ForeignKey(
        "events.Pair", on_delete=models.PROTECT, related_name="matches_as_a", verbose_name=_("pair A (team 0)"),
    )
    pair_b = models.ForeignKey(
        "events.Pair", on_delete=models.PROTECT, related_name="matches_as_b", verbose_name=_("pair B (team 1)"),
    )
    rule_set = models.JSONField(_("rule set"))
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    winner = models.PositiveSmallIntegerField(_("winner (team)"), null=True, blank=True)
    games_a = models.PositiveSmallIntegerField(_("games won by team 0"), default=0)
    games_b = models.PositiveSmallIntegerField(_("games won by team 1"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    received_at = models.DateTimeField(_("received at"), null=True, blank=True)
    time_up_at = models.DateTimeField(
        _("time limit ends at"), null=True, blank=True,
        help_text=_("Set by the tournament's room when the match starts (its time limit); the entry applies "
                    "the end-of-time procedure after it."))
    end_of_time = models.CharField(_("end-of-time procedure"), max_length=16, blank=True, default="",
                                   choices=EndOfTime.choices)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("received by"),
    )

    class Meta:
        db_table = "scoring_match"  # the table it had in ``scoring``, kept by the move
        ordering = ["-created_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=~Q(pair_a=F("pair_b")), name="match_two_different_pairs",
                violation_error_message=_("A match is played between two different pairs."),
            ),
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3, 5]), name="match_best_of_1_3_5",
                violation_error_message=_("A match is played to the best of 1, 3 or 5 games."),
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(table__gte=1), name="match_table_positive",
                violation_error_message=_("Tables are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(round__isnull=True) | Q(tournament__isnull=False), name="match_round_needs_tournament",
                violation_error_message=_("A friendly has no round."),
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="match_winner_team",
                violation_error_message=_("The winner is team 0 or team 1."),
            ),
            models.CheckConstraint(
                condition=Q(status="open") | Q(winner__isnull=False), name="match_signed_has_winner",
                violation_error_message=_("Only a finished match can be signed (art. 25)."),
            ),
            models.CheckConstraint(
                condition=~Q(status="received") | Q(received_at__isnull=False), name="match_received_has_time",
                violation_error_message=_("A received súmula records when it was received."),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.pair_a_id} × {self.pair_b_id}"

    @property
    def is_locked(self) -> bool:
        """Signed by both pairs (or received): no more entries (art. 25)."""
        return self.status != self.Status.OPEN

    @property
    def is_official(self) -> bool:
        """The result counts (standings) only once the organizer received the signed súmula (art. 25)."""
        return self.status == self.Status.RECEIVED

    @property
    def games_to_win(self) -> int:
        return self.best_of // 2 + 1

    def pair(self, team: int):
        return self.pair_a if team == 0 else self.pair_b
