"""A tournament's format as it is persisted: its ordered :class:`Stage` rows (format, seeding,
lot seeds, tiebreaks, match format, qualifiers), the round-robin :class:`GroupMember` rows
and every :class:`BracketNode` of an elimination bracket, with the stage's field defaults."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.models.pairs import Pair
from events.models.tournament import Tournament
from draw.pairing.round_robin import group_name
from draw.pairing.seeding import new_lot_seed as seed_by_lot
from draw.pairing.standings import default_tiebreaks_for


def default_tiebreaks(format: str | None = None) -> list[str]:
    """Matches won, head-to-head, point difference (saldo de tentos), points scored; in a Swiss,
    Buchholz after matches won (``draw.pairing.standings.default_tiebreaks_for``)."""

    return [t.value for t in default_tiebreaks_for(format)]


def new_lot_seed() -> int:
    return seed_by_lot()


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
        PLAYERS = "players", _("Players' ratings (from their official matches)")

    class SwissOrder(models.TextChoices):
        FOLD = "fold", _("Top half against bottom half")
        NEIGHBOUR = "neighbour", _("Neighbours (1-2, 3-4)")

    class Qualification(models.TextChoices):
        OVERALL = "overall", _("Top of the previous stage's standings")
        PER_GROUP = "per_group", _("Top of each group")

    class UnequalGroups(models.TextChoices):
        DROP_LAST = "drop_last", _("Leave out the results against the last of the larger groups")
        PER_MATCH = "per_match", _("Every result, per match played")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="stages", verbose_name=_("tournament")
    )
    position = models.PositiveSmallIntegerField(_("position"), default=1)
    name = models.CharField(_("name"), max_length=80, blank=True)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    seeding = models.CharField(_("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.ORDER)
    lot_seed = models.BigIntegerField(_("lot seed of the draw"), null=True, blank=True)
    third_place = models.BooleanField(_("third-place match"), default=False)
    classification = models.BooleanField(
        _("places 5 to 8 played"), default=False,
        help_text=_("A single elimination of 8 or more: the quarterfinal losers play for places 5 to 8 beside the "
                    "semifinals and the final."),
    )
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
    third_place_best_of = models.PositiveSmallIntegerField(
        _("third-place match format"), null=True, blank=True,
        help_text=_("Games in the third-place match (1, 3 or 5); empty: the stage's, not the final's."),
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
    unequal_groups = models.CharField(
        _("groups of different sizes"), max_length=10, choices=UnequalGroups.choices, default=UnequalGroups.DROP_LAST,
        help_text=_("How pairs of one place in groups of different sizes are compared (the best thirds...)."),
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
    class ByeValue(models.TextChoices):
        WIN = "win", _("A match won")
        DRAW = "draw", _("Half: a draw's points")
        NOTHING = "nothing", _("Nothing (a rest)")

    bye_value = models.CharField(
        _("a bye is worth"), max_length=8, choices=ByeValue.choices, default=ByeValue.WIN,
        help_text=_("A round without an opponent: a match won (FIDE's pairing bye), half, or nothing."),
    )
    bye_played = models.BooleanField(
        _("a bye counts as a match played"), default=True,
        help_text=_("On: a bye is in the matches played and won (drawn, lost), so P = W + L."),
    )
    avoid_rounds = models.PositiveSmallIntegerField(
        _("keep club mates apart until round"), null=True, blank=True,
        help_text=_("Pairs sharing an avoid tag (club, family) are kept apart when possible in the group draw and "
                    "the Swiss rounds up to this one; empty: every round."),
    )
    withdrawn_last = models.BooleanField(
        _("withdrawn pairs last"), default=True,
        help_text=_("On: a withdrawn or disqualified pair ranks below every pair still in, whatever it had won."),
    )
    bracket_seeds = models.JSONField(_("bracket seeds"), default=list, blank=True)
    bracket_first_round = models.PositiveSmallIntegerField(_("first bracket round"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        db_table = "tournaments_stage"  # the table it had in ``tournaments``, kept by the move
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
            models.CheckConstraint(
                condition=Q(third_place_best_of__isnull=True) | Q(third_place_best_of__in=[1, 3, 5]),
                name="stage_third_place_best_of_1_3_5",
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
            models.CheckConstraint(condition=Q(seeding__in=["order", "rating", "lot", "players"]),
                                   name="stage_seeding_valid"),
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
        db_table = "tournaments_groupmember"  # the table it had in ``tournaments``, kept by the move
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
        return group_name(self.group)


class BracketNode(models.Model):
    """One match of an elimination bracket: its place in the layout and, derived from the official
    results by ``draw.pairing``, who sits in it, who won it and its scoring match.

    The layout fields (code, section, round, position, seeds and sources) never change after
    the draw; the state fields are rewritten as results become official.
    """

    class Section(models.TextChoices):
        WINNERS = "winners", _("Winners' bracket")
        LOSERS = "losers", _("Losers' bracket")
        GRAND_FINAL = "grand_final", _("Grand final")
        THIRD_PLACE = "third_place", _("Third-place match")
        CLASSIFICATION = "classification", _("Places 5 to 8")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="bracket_nodes")
    code = models.CharField(_("code"), max_length=16)
    section = models.CharField(_("section"), max_length=14, choices=Section.choices)
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
        "draw.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="bracket_node"
    )

    class Meta:
        db_table = "tournaments_bracketnode"  # the table it had in ``tournaments``, kept by the move
        ordering = ["stage", "level", "section", "bracket_round", "position"]
        verbose_name = _("bracket match")
        verbose_name_plural = _("bracket matches")
        constraints = [
            models.UniqueConstraint(fields=["stage", "code"], name="bracket_node_unique_code"),
            models.CheckConstraint(
                condition=Q(section__in=["winners", "losers", "grand_final", "third_place", "classification"]),
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


def stage_in_play(tournament) -> Stage:
    """The tournament's stage in play: the last one started, else the first (``Stage.DoesNotExist``
    when no format was chosen yet)."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    if not stages:
        raise Stage.DoesNotExist("This tournament has no stage yet.")
    started = [st for st in stages if st.started_at is not None]
    return started[-1] if started else stages[0]
