"""What happens in a round: the :class:`Round` (generated or only open for check-in), its
:class:`Bye` and :class:`CheckIn` rows, the referee of each table (:class:`TableAssignment`)
and the official :class:`Result` of each match as the tournament counts it (the card of each physical
table is ``tables.models.TableCard``)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.pairs import Pair
from events.models.tournament import Tournament


class Round(models.Model):
    """A round of a tournament; its matches (and their súmulas) point to it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    class Phase(models.TextChoices):
        GROUPS = "groups", _("Round robin")
        SWISS = "swiss", _("Swiss")
        BRACKET = "bracket", _("Bracket")

    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80, blank=True)
    stage = models.ForeignKey(
        "Stage", on_delete=models.SET_NULL, null=True, blank=True, related_name="rounds", verbose_name=_("stage"),
    )
    phase = models.CharField(_("phase"), max_length=10, choices=Phase.choices, blank=True)
    generated_at = models.DateTimeField(
        _("paired at"), null=True, blank=True,
        help_text=_("Empty while the round is only open for check-in."),
    )
    lot_seed = models.BigIntegerField(
        _("lot seed"), null=True, blank=True,
        help_text=_("The seed of the draw made for this round, when it was drawn by lot."),
    )
    unavoided = models.JSONField(
        _("pairings that could not be avoided"), default=list, blank=True,
        help_text=_("Pairs sharing an avoid tag that meet in this round (or share a group of its draw): no pairing "
                    "kept them apart."),
    )

    class Meta:
        db_table = "tournaments_round"  # the table it had in ``tournaments``, kept by the move
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
            models.CheckConstraint(
                condition=Q(phase__in=["", "groups", "swiss", "bracket"]),
                name="round_phase_valid",
            ),
            models.CheckConstraint(
                condition=Q(phase="") | Q(generated_at__isnull=False),
                name="round_phase_once_paired",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name or _("Round %(number)s") % {"number": self.number}

    @property
    def is_generated(self) -> bool:
        return self.generated_at is not None


class Bye(models.Model):
    """A pair that sits out a round of a Swiss or a round robin and scores it as a win."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round"))
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="byes", verbose_name=_("pair"))

    class Meta:
        db_table = "tournaments_bye"  # the table it had in ``tournaments``, kept by the move
        ordering = ["round", "pair"]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "pair"], name="bye_once_per_round",
                violation_error_message=_("This pair already has the bye in this round."),
            ),
        ]


class CheckIn(models.Model):
    """A pair present for a round (required for it to be drawn or paired when the tournament asks for check-in)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("round"))
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("pair"))
    checked_in_at = models.DateTimeField(_("checked in at"), default=timezone.now)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        db_table = "tournaments_checkin"  # the table it had in ``tournaments``, kept by the move
        ordering = ["round", "checked_in_at", "id"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "pair"], name="check_in_once_per_round",
                violation_error_message=_("This pair is already checked in for this round."),
            ),
        ]


class TableAssignment(models.Model):
    """The referee of a table: for every round (``round`` empty) or for one round, which wins."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_assignments")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="table_assignments")
    table = models.PositiveSmallIntegerField(_("table"))
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_assignments",
        verbose_name=_("referee"),
    )

    class Meta:
        db_table = "tournaments_tableassignment"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "round", "table"]
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        constraints = [
            models.CheckConstraint(
                condition=Q(table__gte=1), name="table_assignment_table_positive",
                violation_error_message=_("Tables are numbered from 1."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "table"], condition=Q(round__isnull=True),
                name="table_assignment_unique_table",
                violation_error_message=_("This table already has a referee for every round."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "table"], condition=Q(round__isnull=False),
                name="table_assignment_unique_table_per_round",
                violation_error_message=_("This table already has a referee in this round."),
            ),
        ]


class Result(models.Model):
    """The official result of a match as the tournament counts it.

    ``sumula``: copied from the súmula once signed and received (art. 25), and updated when a
    corrected súmula is received again. ``walkover``: a pair was absent (W.O.), official at
    once. ``manual``: set by the organizer with a reason (art. 26). ``double_walkover``: both
    pairs absent (two withdrawn pairs, or the organizer's decision): no winner, a loss for each.
    """

    class Kind(models.TextChoices):
        SUMULA = "sumula", _("Súmula received")
        WALKOVER = "walkover", _("Walkover (W.O.)")
        MANUAL = "manual", _("Set by the organizer")
        DOUBLE_WALKOVER = "double_walkover", _("Double walkover (both absent, no winner)")

    match = models.OneToOneField("draw.Match", on_delete=models.PROTECT, related_name="tournament_result")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    pair_a = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    pair_b = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    winner = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner"),
                               null=True, blank=True)
    absent = models.ForeignKey(
        Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("absent pair")
    )
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    points_a = models.PositiveIntegerField(default=0)
    points_b = models.PositiveIntegerField(default=0)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    #: ``sumula``: the number of the received súmula version it copies (tournaments/result_seals.py)
    sumula_version = models.PositiveIntegerField(null=True, blank=True)
    #: the server's seal over the row (tournaments/result_seals.py): changed in SQL, it stops holding
    server_seal = models.CharField(max_length=100, blank=True, default="")
    server_key = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        db_table = "tournaments_result"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "match"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["sumula", "walkover", "manual", "double_walkover"]),
                                   name="result_kind_valid"),
            models.CheckConstraint(
                condition=~Q(pair_a=models.F("pair_b")), name="result_two_different_pairs",
            ),
            models.CheckConstraint(
                condition=(Q(winner=models.F("pair_a")) & Q(games_a__gt=models.F("games_b")))
                | (Q(winner=models.F("pair_b")) & Q(games_b__gt=models.F("games_a")))
                | (Q(kind="double_walkover") & Q(winner__isnull=True) & Q(games_a=0, games_b=0, points_a=0,
                                                                          points_b=0)),
                name="result_winner_won_more_games",
                violation_error_message=_("The winner is one of the two pairs and won more games."),
            ),
            models.CheckConstraint(
                condition=(Q(kind="walkover") & Q(absent__isnull=False) & ~Q(absent=models.F("winner"))
                           & (Q(absent=models.F("pair_a")) | Q(absent=models.F("pair_b"))))
                | (~Q(kind="walkover") & Q(absent__isnull=True)),
                name="result_walkover_names_the_absent_pair",
                violation_error_message=_("A walkover names the absent pair, which loses it."),
            ),
            models.CheckConstraint(
                condition=~Q(kind="manual") | ~Q(reason=""), name="result_manual_has_reason",
                violation_error_message=_("A result set by hand needs a reason."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.winner_id}"

    @property
    def walkover(self) -> bool:
        return self.kind in (self.Kind.WALKOVER, self.Kind.DOUBLE_WALKOVER)
