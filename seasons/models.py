"""The season's models: circuits, ratings and categories, what carries over from one tournament to the next.

- :class:`Circuit`: a season of one organizer's tournaments, with its rules (points per final
  place, points past the table, how many of the stages count), sealed by the server;
- :class:`CircuitStage`: one tournament of a circuit, numbered in the order played (sealed), and when its
  placings became final;
- :class:`CircuitPlacing`: a pair's final place in a stage, copied when the tournament finished
  (the ranking is computed from these by ``draw.pairing.circuit``);
- :class:`RatingEntry`: a player's rating after an official match (the history; the last row is
  the current rating), computed by ``draw.pairing.ratings``;
- :class:`RatedResult`: each rated match as it was rated (where the history stops, and what a
  later change is compared with: ``services.ratings``);
- :class:`RatingMethodChoice`: the site's rating method, as chosen by a site operator (the history);
- :class:`Flight` and :class:`FlightMember`: a tournament's categories and each pair's (declared,
  or by rating), placed apart by ``draw.pairing.flights``.

Players are referred to by the string ``"people.Player"`` (the people app, below this one). The models
moved here from ``tournaments`` with their tables (``Meta.db_table``; docs/architecture.md, "How the
models moved").
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events.models import Tournament


def default_circuit_points() -> list[int]:
    """A common table: 1st 100, 2nd 80, 3rd 65, 4th 55, then 45, 40, 35, 30 for 5th to 8th."""
    return [100, 80, 65, 55, 45, 40, 35, 30]


class Circuit(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    season = models.CharField(_("season"), max_length=40, blank=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="circuits",
                                  verbose_name=_("organizer"))
    # the club or federation that owns it (events.access); empty only for circuits made before organizations
    organization = models.ForeignKey("events.Organization", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="circuits", verbose_name=_("organization"))
    points = models.JSONField(
        _("points per final place"), default=default_circuit_points,
        help_text=_("The points of the 1st, 2nd, 3rd... places, never increasing."),
    )
    beyond_points = models.PositiveIntegerField(
        _("points past the table"), default=0, help_text=_("The points of every place after the table's last."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("stages counted"), null=True, blank=True,
        help_text=_("Only each player's best N stages count; empty: every stage."),
    )
    escalation_across_stages = models.BooleanField(
        _("escalation counts across the stages"), default=False,
        help_text=_("A pair's confirmed rulings in the circuit's other stages count for the escalation "
                    "policy (warning, tento, match loss: art. 26) as if made in this tournament."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: the server's seal over the rules that turn places into points (seasons/circuit_seals.py)
    server_seal = models.CharField(max_length=100, blank=True, default="", editable=False)
    server_key = models.CharField(max_length=16, blank=True, default="", editable=False)

    class Meta:
        db_table = "tournaments_circuit"  # the table it had in ``tournaments``, kept by the move
        ordering = ["-created_at", "name"]
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        constraints = [
            models.CheckConstraint(condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="circuit_best_of_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()

    def get_absolute_url(self) -> str:
        return reverse("seasons:circuit", kwargs={"slug": self.slug})


class CircuitStage(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="stages", verbose_name=_("circuit"))
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="circuit_stages",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("stage number"))
    final_at = models.DateTimeField(_("placings final at"), null=True, blank=True)
    #: the server's seal over which tournament is which stage of which circuit (seasons/circuit_seals.py)
    server_seal = models.CharField(max_length=100, blank=True, default="", editable=False)
    server_key = models.CharField(max_length=16, blank=True, default="", editable=False)

    class Meta:
        db_table = "tournaments_circuitstage"  # the table it had in ``tournaments``, kept by the move
        ordering = ["circuit", "number"]
        verbose_name = _("circuit stage")
        verbose_name_plural = _("circuit stages")
        constraints = [
            models.UniqueConstraint(fields=["circuit", "tournament"], name="circuit_stage_tournament_once"),
            models.UniqueConstraint(fields=["circuit", "number"], name="circuit_stage_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="circuit_stage_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.circuit} #{self.number}"


class CircuitPlacing(models.Model):
    stage = models.ForeignKey(CircuitStage, on_delete=models.CASCADE, related_name="placings")
    pair = models.ForeignKey("events.Pair", on_delete=models.PROTECT, related_name="+")
    place = models.PositiveSmallIntegerField(_("final place"))

    class Meta:
        db_table = "tournaments_circuitplacing"  # the table it had in ``tournaments``, kept by the move
        ordering = ["stage", "place", "pair"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "pair"], name="circuit_placing_pair_once"),
            models.CheckConstraint(condition=Q(place__gte=1), name="circuit_placing_place_positive"),
        ]


class RatingEntry(models.Model):
    """A player's rating after one official match (``sequence``: the match's place in the rating order)."""

    player = models.ForeignKey("people.Player", on_delete=models.CASCADE, related_name="rating_entries")
    match = models.ForeignKey("draw.Match", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField()
    method = models.CharField(max_length=10)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField(_("rating"))
    date = models.DateField()
    fingerprint = models.CharField(max_length=16)  # what was rated (players, winner, tentos, hands)

    class Meta:
        db_table = "tournaments_ratingentry"  # the table it had in ``tournaments``, kept by the move
        ordering = ["player", "sequence"]
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_entry_once_per_match"),
        ]
        indexes = [models.Index(fields=["sequence"], name="rating_entry_sequence"),
                   models.Index(fields=["player", "sequence"], name="rating_entry_player_sequence")]


class RatedResult(models.Model):
    """One official match as the rating history rated it, in rating order (``sequence``: its place;
    the last row is where the history stops). The columns copy what the rating read from the
    result, its match, round, stage, tournament and pairs, so that the database itself finds the
    official results that are new or no longer as rated (``services.ratings.sync_ratings``)."""

    match = models.OneToOneField("draw.Match", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField(unique=True)
    method = models.CharField(max_length=10)
    # the rating order's key: the tournament's date, the tournament, the stage, the round, the table
    date = models.DateField()
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    stage = models.PositiveIntegerField()  # 0: none, as in the key
    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    # what was rated: the result's pairs (and the match's first pair, for the side), their players,
    # the winner, the tentos, the kind and the súmula version (a corrected súmula: other hands)
    match_pair_a = models.BigIntegerField()
    pair_a = models.BigIntegerField()
    pair_a_first = models.BigIntegerField()
    pair_a_second = models.BigIntegerField()
    pair_b_first = models.BigIntegerField()
    pair_b_second = models.BigIntegerField()
    winner = models.BigIntegerField()
    points_a = models.PositiveIntegerField()
    points_b = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    sumula_version = models.PositiveIntegerField()  # 0: none (a result set by hand)

    class Meta:
        db_table = "tournaments_ratedresult"  # the table it had in ``tournaments``, kept by the move
        ordering = ["sequence"]
        verbose_name = _("rated result")
        verbose_name_plural = _("rated results")
        indexes = [models.Index(fields=["date"], name="rated_result_date")]  # where a new result fits


class RatingChange(models.Model):
    """A change that may rate differently, written in the same transaction as the change
    (``services.ratings.mark_changed``): a match whose result was decided, changed or taken back,
    or every match of a tournament (its date changed). The next sync compares only what is marked
    with its copy and deletes the marks it read; a lost task leaves them to the next sync. Plain
    ids, not foreign keys: a mark outlives a deleted match (the sync finds the hole it leaves)."""

    match = models.BigIntegerField(null=True)
    tournament = models.BigIntegerField(null=True)

    class Meta:
        db_table = "tournaments_ratingchange"  # the table it had in ``tournaments``, kept by the move
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")


class RatingSync(models.Model):
    """One row, locked by the sync that runs (two syncs never interleave their reads and writes),
    with when the last full comparison of every official result ran (``manage.py sync_ratings --full``
    and the periodic task)."""

    checked_at = models.DateTimeField(null=True)

    class Meta:
        db_table = "tournaments_ratingsync"  # the table it had in ``tournaments``, kept by the move
        verbose_name = _("ratings sync")
        verbose_name_plural = _("ratings syncs")


class Flight(models.Model):
    """A category of a tournament (A, B...): its pairs are placed apart (``pairing.flights``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="flights",
                                   verbose_name=_("tournament"))
    name = models.CharField(_("name"), max_length=40)
    position = models.PositiveSmallIntegerField(_("order"))
    min_rating = models.IntegerField(_("minimum rating"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_flight"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "position"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="flight_name_once"),
            models.UniqueConstraint(fields=["tournament", "position"], name="flight_position_once"),
        ]

    def __str__(self) -> str:
        return self.name


class FlightMember(models.Model):
    """A pair's category in its tournament (declared, or given by its rating)."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="members")
    pair = models.OneToOneField("events.Pair", on_delete=models.CASCADE, related_name="flight_member")
    by_rating = models.IntegerField(_("rating when placed"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_flightmember"  # the table it had in ``tournaments``, kept by the move


class RatingMethodChoice(models.Model):
    """The site's rating method chosen by a site operator (one rating list for every organizer, so
    not a tournament's option): each choice is a row (who, when, from which method), the latest is
    the method in force; none: ``settings.TRUCO_RATING_METHOD``. Changing it rates every match again
    (``services.ratings.choose_method``)."""

    method = models.CharField(_("rating method"), max_length=10)
    previous = models.CharField(_("previous method"), max_length=10)
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("chosen by"))
    chosen_at = models.DateTimeField(_("chosen at"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_ratingmethodchoice"  # the table it had in ``tournaments``, kept by the move
        ordering = ["-chosen_at", "-pk"]
        verbose_name = _("rating method choice")
        verbose_name_plural = _("rating method choices")
        constraints = [
            models.CheckConstraint(condition=Q(method__in=["match", "margin", "hands"]),
                                   name="rating_method_choice_known"),
        ]
