"""The room's options and its calls (docs/room.md): how matches reach the tables and the clock of every match.

:class:`RoomSettings` holds a tournament's room options, all off by default because the regulation
is silent on them (docs/room.md names the source of each): the whole round-robin schedule made at
the draw with matches called as pairs and tables free up ("ready matches"), calling the next ready
match by itself when a table frees, the room's number of tables, the lateness tolerance (first round
and later rounds), the match time limit and the end-of-time procedure.

:class:`MatchCall` records when a match was called to its table, when it started and when each
pair said "we are at the table" (presence); a W.O. proposal is derived from it, never stored as a
result (``room.services.presence``).

Both kept their tables when they moved from ``tournaments`` (``Meta.db_table``; docs/architecture.md, "How the
models moved").
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import Tournament


class RoomSettings(models.Model):
    """A tournament's room options (one row, created when the organizer first saves them)."""

    class EndOfTime(models.TextChoices):
        NONE = "", _("No procedure (no time limit)")
        HIGHER_SCORE = "higher_score", _("Finish the hand in play; then the higher score wins")
        ONE_MORE_HAND = "one_more_hand", _("Finish the hand in play, then play one more hand")
        ELEVEN_ALL = "eleven_all", _("Finish the game in play; the remaining games start at 11×11")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="room",
                                      verbose_name=_("tournament"))
    ready_matches = models.BooleanField(
        _("ready matches"), default=False,
        help_text=_("Round robins and groups: every match is made at the draw (Berger order) and called to a "
                    "table as soon as both pairs and a table are free; no table waits for the slowest."))
    auto_call = models.BooleanField(
        _("call the next match when a table frees"), default=False,
        help_text=_("The next ready match is called to a table as soon as the table's result is official."))
    tables = models.PositiveSmallIntegerField(
        _("tables in the room"), null=True, blank=True,
        help_text=_("Empty: as many as round 1 used."))
    tolerance_first = models.PositiveSmallIntegerField(
        _("lateness tolerance, first round (minutes)"), null=True, blank=True)
    tolerance_later = models.PositiveSmallIntegerField(
        _("lateness tolerance, later rounds (minutes)"), null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(_("match time limit (minutes)"), null=True, blank=True)
    end_of_time = models.CharField(_("end-of-time procedure"), max_length=16, choices=EndOfTime.choices,
                                   blank=True, default="")
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        db_table = "tournaments_roomsettings"
        verbose_name = _("room settings")
        verbose_name_plural = _("room settings")
        constraints = [
            models.CheckConstraint(condition=Q(end_of_time__in=["", "higher_score", "one_more_hand", "eleven_all"]),
                                   name="room_end_of_time_valid"),
            models.CheckConstraint(condition=Q(tables__isnull=True) | Q(tables__gte=1), name="room_tables_positive",
                                   violation_error_message=_("Tables are numbered from 1.")),
        ]

    def __str__(self) -> str:
        return f"room of tournament {self.tournament_id}"


class MatchCall(models.Model):
    """A match called to a table: when, by whom (or by itself), when it started, who is at the table."""

    match = models.OneToOneField("draw.Match", on_delete=models.CASCADE, related_name="call",
                                 verbose_name=_("match"))
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="match_calls")
    table = models.PositiveSmallIntegerField(_("table"))
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    automatic = models.BooleanField(_("called by itself"), default=False)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    present_a_at = models.DateTimeField(_("pair A at the table since"), null=True, blank=True)
    present_b_at = models.DateTimeField(_("pair B at the table since"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_matchcall"
        ordering = ["tournament", "called_at", "id"]
        verbose_name = _("match call")
        verbose_name_plural = _("match calls")
        constraints = [
            models.CheckConstraint(condition=Q(table__gte=1), name="match_call_table_positive",
                                   violation_error_message=_("Tables are numbered from 1.")),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} at table {self.table}"
