"""Tournaments, players and the pairs they form, and what a tournament's format persists.

Data and its integrity only (fields, DB constraints, append-only guards); every write goes
through ``tournaments.services`` and the pairing algorithms live in the pure
``tournaments.pairing`` package. A player's signing PIN (art. 25: the pairs sign the
súmula) is kept only as a hash.

- :class:`Tournament`, :class:`Player`, :class:`Pair` (registration status, withdrawal,
  rating and organizer's seed), :class:`Round` (generated or only open for check-in);
- :class:`Stage`: the ordered stages of a tournament, each with its format (single or double
  elimination, round robin, Swiss), seeding, recorded lot seeds, tiebreaks, match format
  (per stage and per round) and, after the first, its qualifiers rule;
- :class:`GroupMember` (round robin groups), :class:`BracketNode` (every match of a
  bracket, its layout and its derived state), :class:`Bye`, :class:`CheckIn`,
  :class:`TableAssignment` (the referee of a table);
- :class:`Result`: the official result of a match as the tournament counts it (a received
  súmula, a walkover or an organizer's decision);
- :class:`AuditEntry`: the append-only log of what organizers did, with reasons.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.history import AppendOnly, HistoryError


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
    check_in_required = models.BooleanField(
        _("check-in required"),
        default=False,
        help_text=_("Only the pairs checked in for a round are drawn or paired in it."),
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

    @property
    def stage(self) -> "Stage":
        """The stage in play: the last one started, else the first (raises ``Stage.DoesNotExist``
        when no format was chosen, as the one-stage relation did)."""
        stages = list(Stage.objects.filter(tournament=self).order_by("position"))
        if not stages:
            raise Stage.DoesNotExist("This tournament has no stage yet.")
        started = [st for st in stages if st.started_at is not None]
        return started[-1] if started else stages[0]


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True, help_text=_("Phone or e-mail."))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        editable=False, verbose_name=_("entered by"),
        help_text=_("The organizer who entered this player (and their contact): only they read the contact."),
    )
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
        return " · ".join(dict.fromkeys(p.club for p in self.players if p.club))

    @property
    def is_active(self) -> bool:
        """Drawn and paired: confirmed and not withdrawn."""
        return self.status == self.Status.CONFIRMED


# ---- formats: stage, groups, brackets, byes, check-in, tables, results, audit ----------------


def default_tiebreaks(format: str | None = None) -> list[str]:
    """Matches won, head-to-head, point difference (saldo de tentos), points scored; in a Swiss,
    Buchholz after matches won (``tournaments.pairing.standings.default_tiebreaks_for``)."""
    from tournaments.pairing.standings import default_tiebreaks_for

    return [t.value for t in default_tiebreaks_for(format)]


def new_lot_seed() -> int:
    from tournaments.pairing.seeding import new_lot_seed as draw

    return draw()


class Stage(models.Model):
    """One stage of a tournament (``position`` 1, 2, ...): how its pairs are drawn, paired and
    ranked, and, after the first, which pairs of the previous stage qualify for it.

    ``lot_seed`` is recorded when the draw is made by lot, ``standings_lot_seed`` when the
    stage is configured: with them every draw and every tie separated by lot can be redone.
    ``entrants`` are the pairs that entered the stage, in seed order (recorded when it starts;
    for a later stage, the qualifiers as the rule gave them or as the organizer adjusted them).
    """

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss system")
        GROUPS_KNOCKOUT = "groups_knockout", _("Groups then knockout")

    class Seeding(models.TextChoices):
        ORDER = "order", _("Organizer's order")
        RATING = "rating", _("Rating")
        LOT = "lot", _("Lot")

    class SwissOrder(models.TextChoices):
        FOLD = "fold", _("Top half against bottom half")
        NEIGHBOUR = "neighbour", _("Neighbours (1-2, 3-4)")

    class Qualification(models.TextChoices):
        OVERALL = "overall", _("Top of the previous stage's standings")
        PER_GROUP = "per_group", _("Top of each group")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="stages", verbose_name=_("tournament")
    )
    position = models.PositiveSmallIntegerField(_("position"), default=1)
    name = models.CharField(_("name"), max_length=80, blank=True)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    seeding = models.CharField(_("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.ORDER)
    lot_seed = models.BigIntegerField(_("lot seed of the draw"), null=True, blank=True)
    third_place = models.BooleanField(_("third-place match"), default=False)
    grand_final_reset = models.BooleanField(_("grand-final reset"), default=True)
    group_count = models.PositiveSmallIntegerField(_("groups"), default=1)
    qualifiers_per_group = models.PositiveSmallIntegerField(_("qualifiers per group"), default=2)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    swiss_order = models.CharField(
        _("Swiss pairing in a score group"), max_length=10, choices=SwissOrder.choices, default=SwissOrder.FOLD,
    )
    legs = models.PositiveSmallIntegerField(
        _("legs"), default=1, help_text=_("2: a double round robin (every pair meets every other twice)."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("match format"), null=True, blank=True,
        help_text=_("Games per match in this stage (1, 3 or 5); empty: the tournament's."),
    )
    round_best_of = models.JSONField(
        _("match format per round"), default=dict, blank=True,
        help_text=_('Round of the stage (1, 2, ...; -1 the final round, -2 the one before) to games per match, '
                    'e.g. {"-2": 3, "-1": 3}.'),
    )
    qualification = models.CharField(
        _("qualifiers"), max_length=10, choices=Qualification.choices, default=Qualification.OVERALL,
    )
    qualifiers = models.PositiveSmallIntegerField(
        _("qualifiers"), null=True, blank=True,
        help_text=_("Top N of the previous stage (overall); with groups, the best N of the next place across "
                    "groups."),
    )
    qualify_from = models.PositiveSmallIntegerField(
        _("from place"), default=1, help_text=_("5 with 4 qualifiers: the pairs placed 5th to 8th."),
    )
    entrants = models.JSONField(_("entrants"), default=list, blank=True)
    entrants_adjusted = models.BooleanField(
        _("qualifiers adjusted by hand"), default=False,
        help_text=_("The organizer chose the qualifiers (with a reason in the audit log)."),
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tiebreak order"), default=default_tiebreaks)
    standings_lot_seed = models.BigIntegerField(_("lot seed of the standings"), default=new_lot_seed)
    walkover_scores = models.BooleanField(
        _("walkovers count games and points"),
        default=False,
        help_text=_("Off: a walkover counts as a match won and nothing else."),
    )
    bracket_seeds = models.JSONField(_("bracket seeds"), default=list, blank=True)
    bracket_first_round = models.PositiveSmallIntegerField(_("first bracket round"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "position"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="stage_unique_position",
                violation_error_message=_("This tournament already has a stage at this position."),
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="stage_position_positive"),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__in=[1, 3, 5]), name="stage_best_of_1_3_5",
                violation_error_message=_("A match is played to the best of 1, 3 or 5 games."),
            ),
            models.CheckConstraint(condition=Q(legs__in=[1, 2]), name="stage_legs_1_or_2"),
            models.CheckConstraint(condition=Q(swiss_order__in=["fold", "neighbour"]), name="stage_swiss_order_valid"),
            models.CheckConstraint(condition=Q(qualification__in=["overall", "per_group"]),
                                   name="stage_qualification_valid"),
            models.CheckConstraint(condition=Q(qualify_from__gte=1), name="stage_qualify_from_positive"),
            models.CheckConstraint(
                condition=Q(format__in=["single_elimination", "double_elimination", "round_robin", "swiss",
                                        "groups_knockout"]),
                name="stage_format_valid",
            ),
            models.CheckConstraint(condition=Q(seeding__in=["order", "rating", "lot"]), name="stage_seeding_valid"),
            models.CheckConstraint(
                condition=Q(group_count__gte=1), name="stage_group_count_positive",
                violation_error_message=_("A round robin has at least one group."),
            ),
            models.CheckConstraint(
                condition=Q(qualifiers_per_group__gte=1), name="stage_qualifiers_positive",
                violation_error_message=_("At least one pair per group qualifies."),
            ),
            models.CheckConstraint(
                condition=Q(swiss_rounds__isnull=True) | Q(swiss_rounds__gte=1), name="stage_swiss_rounds_positive",
                violation_error_message=_("A Swiss has at least one round."),
            ),
            models.CheckConstraint(
                condition=Q(lot_seed__isnull=True) | Q(lot_seed__gte=0), name="stage_lot_seed_not_negative",
            ),
            models.CheckConstraint(condition=Q(standings_lot_seed__gte=0), name="stage_standings_seed_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.display_name}"

    @property
    def display_name(self) -> str:
        return self.name or self.get_format_display()

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    @property
    def is_bracket(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def has_groups(self) -> bool:
        return self.format in (self.Format.ROUND_ROBIN, self.Format.GROUPS_KNOCKOUT)


class GroupMember(models.Model):
    """A pair's place in a round-robin group: ``number`` is its Berger pairing number."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="group_members")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="group_memberships")
    group = models.PositiveSmallIntegerField(_("group (0 = A)"))
    number = models.PositiveSmallIntegerField(_("pairing number"))

    class Meta:
        ordering = ["stage", "group", "number"]
        verbose_name = _("group member")
        verbose_name_plural = _("group members")
        constraints = [
            models.UniqueConstraint(fields=["stage", "pair"], name="group_member_one_group_per_pair"),
            models.UniqueConstraint(fields=["stage", "group", "number"], name="group_member_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="group_member_number_positive"),
        ]

    @property
    def group_name(self) -> str:
        from tournaments.pairing.round_robin import group_name

        return group_name(self.group)


class BracketNode(models.Model):
    """One match of an elimination bracket: its place in the layout and, derived from the official
    results by ``tournaments.pairing``, who sits in it, who won it and its scoring match.

    The layout fields (code, section, round, position, seeds and sources) never change after
    the draw; the state fields are rewritten as results become official.
    """

    class Section(models.TextChoices):
        WINNERS = "winners", _("Winners' bracket")
        LOSERS = "losers", _("Losers' bracket")
        GRAND_FINAL = "grand_final", _("Grand final")
        THIRD_PLACE = "third_place", _("Third-place match")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="bracket_nodes")
    code = models.CharField(_("code"), max_length=16)
    section = models.CharField(_("section"), max_length=12, choices=Section.choices)
    bracket_round = models.PositiveSmallIntegerField(_("bracket round"))
    position = models.PositiveIntegerField(_("position"))
    level = models.PositiveSmallIntegerField(_("play order"), help_text=_("1 for the first round played."))
    top_seed = models.PositiveIntegerField(null=True, blank=True)
    bottom_seed = models.PositiveIntegerField(null=True, blank=True)
    top_source = models.CharField(max_length=16, blank=True)
    top_takes = models.CharField(max_length=6, blank=True)
    bottom_source = models.CharField(max_length=16, blank=True)
    bottom_takes = models.CharField(max_length=6, blank=True)
    # derived state
    top_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    bottom_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    top_bye = models.BooleanField(default=False)
    bottom_bye = models.BooleanField(default=False)
    winner = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    unplayed = models.BooleanField(default=False)
    match = models.OneToOneField(
        "scoring.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="bracket_node"
    )

    class Meta:
        ordering = ["stage", "level", "section", "bracket_round", "position"]
        verbose_name = _("bracket match")
        verbose_name_plural = _("bracket matches")
        constraints = [
            models.UniqueConstraint(fields=["stage", "code"], name="bracket_node_unique_code"),
            models.CheckConstraint(
                condition=Q(section__in=["winners", "losers", "grand_final", "third_place"]),
                name="bracket_node_section_valid",
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="bracket_node_level_positive"),
            models.CheckConstraint(
                condition=Q(top_pair__isnull=True) | Q(bottom_pair__isnull=True) | ~Q(top_pair=models.F("bottom_pair")),
                name="bracket_node_two_different_pairs",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=models.F("top_pair")) | Q(winner=models.F("bottom_pair")),
                name="bracket_node_winner_plays",
            ),
            models.CheckConstraint(
                condition=(Q(top_seed__isnull=True) | Q(top_source=""))
                & (Q(bottom_seed__isnull=True) | Q(bottom_source="")),
                name="bracket_node_slot_seed_or_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage_id}:{self.code}"


class Bye(models.Model):
    """A pair that sits out a round of a Swiss or a round robin and scores it as a win."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round"))
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="byes", verbose_name=_("pair"))

    class Meta:
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
    once. ``manual``: set by the organizer with a reason (art. 26).
    """

    class Kind(models.TextChoices):
        SUMULA = "sumula", _("Súmula received")
        WALKOVER = "walkover", _("Walkover (W.O.)")
        MANUAL = "manual", _("Set by the organizer")

    match = models.OneToOneField("scoring.Match", on_delete=models.PROTECT, related_name="tournament_result")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    pair_a = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    pair_b = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    winner = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner"))
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

    class Meta:
        ordering = ["tournament", "match"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["sumula", "walkover", "manual"]), name="result_kind_valid"),
            models.CheckConstraint(
                condition=~Q(pair_a=models.F("pair_b")), name="result_two_different_pairs",
            ),
            models.CheckConstraint(
                condition=(Q(winner=models.F("pair_a")) & Q(games_a__gt=models.F("games_b")))
                | (Q(winner=models.F("pair_b")) & Q(games_b__gt=models.F("games_a"))),
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
        return self.kind == self.Kind.WALKOVER


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

    OVERRIDES = ("pairing_changed", "result_set", "tables_swapped", "pair_withdrawn", "pair_reinstated",
                 "qualifiers_adjusted")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    match = models.ForeignKey("scoring.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
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

