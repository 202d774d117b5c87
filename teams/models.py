"""Teams of pairs (interclub events): the event's team rules, the teams and their rosters, the team
matches and their tables (docs/teams.md).

A team belongs to a club (``people.Club``) and a tournament; who manages the team is who manages the
tournament (``events.access.manages``). A team match is N normal pair matches (``draw.Match``, one per
table, each with its súmula, art. 25) tied to it by :class:`TeamMatchTable`; its result is computed by
``draw.pairing.teams`` under the event's rule (art. 26: the regulation leaves teams to the organizer)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from draw.pairing.teams import TEAM_TIEBREAKS
from tables import token_keys


def default_tiebreaks() -> list[str]:
    return [criterion.value for criterion in TEAM_TIEBREAKS]


class TeamRule(models.TextChoices):
    PAIR_WINS = "pair_wins", _("Pair wins (a tie goes to the deciding game, the negra)")
    FIRST_TO_K_GAMES = "first_to_k_games", _("First team to K games across the tables")
    TOTAL_GAMES = "total_games", _("Total games across the tables")


class TeamSettings(models.Model):
    """The event's rules for teams (art. 26): the team result, the roster limits, the tables of a match."""

    tournament = models.OneToOneField("events.Tournament", on_delete=models.CASCADE, related_name="team_settings",
                                      verbose_name=_("tournament"))
    rule = models.CharField(_("team result"), max_length=20, choices=TeamRule.choices, default=TeamRule.PAIR_WINS)
    games_to_win = models.PositiveSmallIntegerField(
        _("games to win (K)"), null=True, blank=True,
        help_text=_("With the rule \"first team to K games\": the games a team needs across the tables."))
    min_players = models.PositiveSmallIntegerField(_("minimum players"), default=6)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), default=10)
    pairs_per_match = models.PositiveSmallIntegerField(_("pairs per match (tables)"), default=3)
    win_points = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    tiebreaks = models.JSONField(_("team tiebreaks"), default=default_tiebreaks)

    class Meta:
        verbose_name = _("team rules")
        verbose_name_plural = _("team rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(pairs_per_match__gte=1) & Q(min_players__gte=2 * F("pairs_per_match"))
                & Q(max_players__gte=F("min_players")),
                name="team_settings_limits",
                violation_error_message=_("A team needs at least two players per table, and the maximum of "
                                          "players is not below the minimum (art. 26)."),
            ),
            models.CheckConstraint(
                condition=~Q(rule="first_to_k_games") | Q(games_to_win__gte=1), name="team_settings_k",
                violation_error_message=_("The rule \"first team to K games\" needs K (art. 26)."),
            ),
        ]


class Team(models.Model):
    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE, related_name="teams",
                                   verbose_name=_("tournament"))
    club = models.ForeignKey("people.Club", on_delete=models.PROTECT, related_name="teams", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    captain = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="captained_teams", verbose_name=_("captain"),
                                help_text=_("Submits the team's line-up before each match."))
    # the captain's link's token, never in clear (``tables.token_keys``): its keyed digest, what a request is
    # looked up by (unique, indexed), and its sealed text, what the organizer's page shows again
    captain_digest = models.CharField(_("captain's link digest"), max_length=64, unique=True, null=True,
                                      blank=True, editable=False)
    captain_sealed = models.CharField(_("captain's link, sealed"), max_length=255, blank=True, default="",
                                      editable=False, help_text=_("Who holds the link submits this team's line-ups."))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["tournament", "seed", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name_per_tournament",
                                    violation_error_message=_("This tournament already has a team with this name.")),
            # a link is its digest and its sealed text together, or neither
            models.CheckConstraint(
                condition=(Q(captain_digest__isnull=True, captain_sealed="")
                           | (Q(captain_digest__regex=token_keys.DIGEST_SHAPE) & ~Q(captain_sealed=""))),
                name="team_captain_digest_shape"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def captain_token(self) -> str | None:
        """The captain's link's token, unsealed once per row read (None without a link;
        ``token_keys.TokenUnreadable`` when it was sealed under a key this site no longer has)."""
        if not self.captain_sealed:
            return None
        sealed, token = self.__dict__.get("_captain_token", ("", None))
        if sealed != self.captain_sealed:  # kept with the sealed text it came from: a row read again unseals again
            token = token_keys.unseal(self.captain_sealed)
            self.__dict__["_captain_token"] = (self.captain_sealed, token)
        return token

    @captain_token.setter
    def captain_token(self, value: str | None) -> None:
        self.captain_digest = token_keys.digest(value) if value else None
        self.captain_sealed = token_keys.seal(value) if value else ""
        self.__dict__["_captain_token"] = (self.captain_sealed, value)


class TeamPlayer(models.Model):
    """A player on a team's roster, in order; reserves play when a line-up needs them."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster", verbose_name=_("team"))
    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE, related_name="+",
                                   verbose_name=_("tournament"))  # the team's, for the constraint below
    player = models.ForeignKey("people.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    position = models.PositiveSmallIntegerField(_("order"))
    reserve = models.BooleanField(_("reserve"), default=False)

    class Meta:
        ordering = ["team", "position"]
        verbose_name = _("roster player")
        verbose_name_plural = _("roster")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="team_player_one_team_per_event",
                                    violation_error_message=_("A player plays for one team per event (art. 26).")),
            models.UniqueConstraint(fields=["team", "position"], name="team_player_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="team_player_position_positive"),
        ]


class TeamPair(models.Model):
    """A team's pair (an ``events.Pair`` of two roster players); ``position`` is its table in a match."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("team"))
    pair = models.OneToOneField("events.Pair", on_delete=models.PROTECT, related_name="team_pair",
                                verbose_name=_("pair"))
    position = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="team_pair_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="team_pair_position_positive"),
        ]


class Stage(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SEMIFINAL = "semifinal", _("Semifinal")
    FINAL = "final", _("Final")
    THIRD_PLACE = "third_place", _("3rd-place match")


class TeamMatch(models.Model):
    """Two teams meeting in a round: its tables are pair matches; its result follows the rule it was
    created with (copied from the event's, art. 26). ``stage``: the round robin or the knockout after it."""

    tournament = models.ForeignKey("events.Tournament", on_delete=models.CASCADE, related_name="team_matches",
                                   verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    stage = models.CharField(_("stage"), max_length=12, choices=Stage.choices, default=Stage.ROUND_ROBIN)
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home team"))
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away team"))
    rule = models.CharField(_("team result"), max_length=20, choices=TeamRule.choices)
    games_to_win = models.PositiveSmallIntegerField(_("games to win (K)"), null=True, blank=True)
    winner = models.ForeignKey(Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("winner"))
    reason = models.CharField(_("state"), max_length=24, default="playing")
    pair_wins_home = models.PositiveSmallIntegerField(default=0)
    pair_wins_away = models.PositiveSmallIntegerField(default=0)
    games_home = models.PositiveSmallIntegerField(default=0)
    games_away = models.PositiveSmallIntegerField(default=0)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round_number", "id"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="team_match_two_teams",
                                   violation_error_message=_("A team match is played between two different teams.")),
            models.CheckConstraint(condition=Q(winner__isnull=True) | Q(winner=F("home")) | Q(winner=F("away")),
                                   name="team_match_winner_plays_it"),
            models.CheckConstraint(condition=Q(winner__isnull=True) | Q(decided_at__isnull=False),
                                   name="team_match_decided_has_time"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="team_match_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.home} × {self.away}"


class TeamMatchTable(models.Model):
    """One table of a team match: a normal pair match (its súmula), the home team's pair as pair A.
    ``decider``: the deciding game, the negra. ``closed_at``: closed because the team match was decided."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="tables",
                                   verbose_name=_("team match"))
    match = models.OneToOneField("draw.Match", on_delete=models.PROTECT, related_name="team_table",
                                 verbose_name=_("match"))
    table = models.PositiveSmallIntegerField(_("table"))
    decider = models.BooleanField(_("deciding game (negra)"), default=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["team_match", "table"]
        constraints = [
            models.UniqueConstraint(fields=["team_match", "table"], name="team_match_table_unique"),
            models.UniqueConstraint(fields=["team_match"], condition=Q(decider=True), name="team_match_one_negra",
                                    violation_error_message=_("A team match has one deciding game (negra).")),
        ]


class LineUp(models.Model):
    """A captain's line-up for a team match: the team's pairs in table order. Hidden from the other team
    until both line-ups are in (as in chess team events); then the tables are set from them."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="line_ups",
                                   verbose_name=_("team match"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team"))
    pairs = models.JSONField(_("pairs in table order"))
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     null=True, blank=True, verbose_name=_("submitted by"),
                                     help_text=_("Empty when submitted through the captain's link."))
    submitted_at = models.DateTimeField(_("submitted at"), default=timezone.now)

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(fields=["team_match", "team"], name="line_up_one_per_team",
                                    violation_error_message=_("This team already submitted its line-up.")),
        ]
