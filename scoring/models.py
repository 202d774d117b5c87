"""What a súmula records (art. 25): a match's games (the match itself is ``draw.models.Match``), the hands and penalties entered,
the immutable versions of the document, the signatures that bind them, one-time signing
codes and the append-only audit log of everything done to a match.

Only data and its integrity live here (fields, DB constraints, guards against rewriting
history). Every write goes through ``scoring.services``; the document and its digest are
built by ``scoring.content``.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from referee.engine.game import game_start
from config.history import AppendOnly, HistoryError  # noqa: F401 (HistoryError: part of this module's API)
from draw.models import Match  # noqa: F401 (the fixture the súmula is written on; re-exported for scoring's modules)

SEATS = [(0, "0"), (1, "1"), (2, "2"), (3, "3")]
TEAMS = [(0, _("Team 0")), (1, _("Team 1"))]


class Game(models.Model):
    """A game to 12 within a match. ``score_*`` is the running score, final once ``winner`` is set."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("number"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"), choices=SEATS, default=0)
    score_a = models.PositiveSmallIntegerField(_("team 0 points"), default=0)
    score_b = models.PositiveSmallIntegerField(_("team 1 points"), default=0)
    winner = models.PositiveSmallIntegerField(_("winner (team)"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    eleven_all = models.BooleanField(
        _("started at 11×11"), default=False,
        help_text=_("The match's time was up: this game started at 11×11 (the room's end-of-time procedure)."))

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number_per_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(first_dealer__lte=3), name="game_first_dealer_seat"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="game_winner_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}"

    @property
    def score(self) -> tuple[int, int]:
        return (self.score_a, self.score_b)

    @property
    def start(self) -> tuple[int, int]:
        """The score the game started at: 11×11 after the time limit (``eleven_all``), else 0×0."""
        return game_start(self.eleven_all)


class HandEntry(models.Model):
    """A hand as recorded: a summary tapped at the table, or a pasted full report and its verdict."""

    class EndedBy(models.TextChoices):
        TRICKS = "tricks", _("Tricks")
        RUN = "run", _("Ran from a raise")
        ELEVEN_REFUSED = "eleven_refused", _("Mão de onze refused")
        ALL_TIED = "all_tied", _("All tricks tied")
        DEAL_LOST = "deal_lost", _("Deal lost")
        FOLD = "fold", _("Folded")
        PENALTY = "penalty", _("Penalty (tento)")
        PROOF = "proof", _("Proved a sure win")
        IRON_TIE = "iron_tie", _("Mão de ferro tied")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(_("position among the game's entries"))
    number = models.PositiveSmallIntegerField(_("hand number"))
    dealer = models.PositiveSmallIntegerField(_("dealer (seat)"), choices=SEATS)
    ended_by = models.CharField(_("ended by"), max_length=20, choices=EndedBy.choices)
    value = models.PositiveSmallIntegerField(_("value"))
    winner = models.PositiveSmallIntegerField(_("scoring team"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"))
    score_a = models.PositiveSmallIntegerField(_("team 0 after the hand"))
    score_b = models.PositiveSmallIntegerField(_("team 1 after the hand"))
    report = models.JSONField(_("full hand report"), null=True, blank=True)
    verdict = models.JSONField(_("engine verdict"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    # The credential that entered it when it was not a user: the table's link (``tables.links``).
    table_link = models.ForeignKey(
        "tables.TableLink", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("entered through the table link"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number_per_game"),
            models.UniqueConstraint(fields=["game", "position"], name="hand_unique_position_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(dealer__lte=3), name="hand_dealer_seat"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="hand_winner_team"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=False) | Q(points=0), name="hand_points_need_a_winner"
            ),
            models.CheckConstraint(condition=Q(value__lte=12) & Q(points__lte=12), name="hand_value_at_most_12"),
        ]

    kind = "hand"

    @property
    def score(self) -> tuple[int, int]:
        return (self.score_a, self.score_b)

    @property
    def violations(self) -> list:
        return (self.verdict or {}).get("violations") or []


class PenaltyEntry(models.Model):
    """Tentos awarded by a ruling, entered between hands with the article that grants them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(_("position among the game's entries"))
    offender = models.PositiveSmallIntegerField(_("offending team"))
    beneficiary = models.PositiveSmallIntegerField(_("beneficiary team"))
    points = models.PositiveSmallIntegerField(_("points"))
    # "art. N" of the regulation; a ruling's entry may cite its catalog source (house rules) instead
    article = models.CharField(_("article"), max_length=60)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # a ruling's message as data ({"key", "params"}), rendered in the reader's language with the
    # pairs' names; {} for a reason typed by a person and for entries recorded before (``reason`` as written)
    reason_data = models.JSONField(_("reason as data"), default=dict, blank=True)
    # The referee.Ruling that produced it: a plain id, kept when a correction rewrites the entries.
    ruling_id = models.PositiveIntegerField(_("ruling"), null=True, blank=True)
    # The dealer of the hand this penalty ended (a ruling's tento ends the hand in play: art. 24; the deal
    # then passes, art. 4); null for a penalty between hands or a warning.
    dealer = models.PositiveSmallIntegerField(_("dealer of the hand it ended"), null=True, blank=True)
    score_a = models.PositiveSmallIntegerField(_("team 0 after the penalty"))
    score_b = models.PositiveSmallIntegerField(_("team 1 after the penalty"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="penalty_unique_position_per_game"),
            models.CheckConstraint(condition=Q(offender__in=[0, 1]), name="penalty_offender_team"),
            models.CheckConstraint(condition=~Q(beneficiary=F("offender")), name="penalty_beneficiary_other_team"),
            models.CheckConstraint(condition=Q(beneficiary__in=[0, 1]), name="penalty_beneficiary_team"),
            models.CheckConstraint(condition=(Q(points__gte=1) | Q(ruling_id__isnull=False)) & Q(points__lte=12),
                                   name="penalty_points_1_12"),  # 0: a ruling's warning, still on the súmula
            models.CheckConstraint(condition=~Q(article=""), name="penalty_cites_article"),
        ]

    kind = "penalty"

    @property
    def score(self) -> tuple[int, int]:
        return (self.score_a, self.score_b)


class SumulaVersion(AppendOnly):
    """One issued version of a match's súmula: the document (docs/sumula-document.md) and its digest.

    Versions are never overwritten or deleted; a correction makes a new one.
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="versions", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("version"))
    content = models.JSONField(_("document"))
    digest = models.CharField(_("digest (SHA-256)"), max_length=64, unique=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    server_seal = models.CharField(_("server's seal (Ed25519)"), max_length=100, blank=True, default="",
                                   help_text=_("The server's signature of the match, version and digest "
                                               "(scoring/integrity.py); its key is not in the database."))
    server_key = models.CharField(_("server key id"), max_length=32, blank=True, default="")

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("súmula version")
        verbose_name_plural = _("súmula versions")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="version_unique_number_per_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="version_number_positive"),
            models.CheckConstraint(condition=Q(digest__regex=r"^[0-9a-f]{64}$"), name="version_digest_sha256_hex"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} v{self.number}"


class Signature(AppendOnly):
    """A pair's (or the referee's) signature on one version: it binds that version's digest."""

    class Role(models.TextChoices):
        TEAM0 = "team0", _("Team 0")
        TEAM1 = "team1", _("Team 1")
        REFEREE = "referee", _("Referee")

    class Method(models.TextChoices):
        PIN = "pin", _("Personal PIN")
        CODE = "code", _("One-time code")
        SESSION = "session", _("Logged-in user")

    version = models.ForeignKey(
        SumulaVersion, on_delete=models.PROTECT, related_name="signatures", verbose_name=_("version")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    player = models.ForeignKey(
        "people.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="signatures",
        verbose_name=_("player"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("user"),
    )
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    digest = models.CharField(_("digest signed"), max_length=64)
    signed_at = models.DateTimeField(_("signed at"), default=timezone.now)
    # the server's seal on who signed what and when (scoring/integrity.py: signature_seal)
    server_seal = models.CharField(_("server seal"), max_length=100, blank=True, default="")
    server_key = models.CharField(_("server key id"), max_length=32, blank=True, default="")

    class Meta:
        ordering = ["version", "signed_at", "id"]
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        constraints = [
            models.UniqueConstraint(fields=["version", "role"], name="signature_one_per_role_per_version"),
            models.CheckConstraint(
                condition=(Q(role="referee") & Q(user__isnull=False) & Q(method="session"))
                | (Q(role__in=["team0", "team1"]) & Q(player__isnull=False) & Q(method__in=["pin", "code"])),
                name="signature_signer_matches_role",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} {self.role}"


class SigningCode(models.Model):
    """A one-time code the referee shows to a player without a PIN: 6 digits, 10 minutes, single use."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="signing_codes")
    team = models.PositiveSmallIntegerField(_("team"), choices=TEAMS)
    code_hash = models.CharField(max_length=128)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        "people.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("one-time signing code")
        verbose_name_plural = _("one-time signing codes")
        constraints = [
            models.CheckConstraint(condition=Q(team__in=[0, 1]), name="signing_code_team"),
            models.CheckConstraint(condition=Q(expires_at__gt=F("created_at")), name="signing_code_expires_later"),
        ]


class MatchEvent(AppendOnly):
    """The append-only audit trail of a match: every entry, undo, version, signature and receipt."""

    class Kind(models.TextChoices):
        CREATED = "created", _("Match created")
        FIRST_DEALER = "first_dealer", _("First dealer set")
        HAND = "hand", _("Hand recorded")
        PENALTY = "penalty", _("Penalty recorded")
        UNDO = "undo", _("Entry undone")
        VERSION = "version", _("Version issued")
        CORRECTION = "correction", _("Correction")
        CODE = "code", _("One-time code issued")
        SIGNATURE = "signature", _("Signed")
        SIGNATURE_REFUSED = "signature_refused", _("Signature refused")
        PIN_UNLOCKED = "pin_unlocked", _("PIN unlocked")
        LOCKED = "locked", _("Locked")
        RECEIVED = "received", _("Received")
        DISPUTE = "dispute", _("Entry disputed")
        DISPUTE_RESOLVED = "dispute_resolved", _("Dispute resolved")
        CONFLICT = "entry_conflict", _("Entry refused as stale (conflict)")
        CONFLICT_SETTLED = "conflict_settled", _("Conflict settled")
        TIME_UP = "time_up", _("Time limit: end-of-time procedure applied")
        CLOSED = "closed", _("Closed by a W.O., a disqualification or a withdrawal")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    data = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "at", "id"]
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        # public.freshness counts a tournament's events and reads the latest moment from the index alone
        indexes = [models.Index(fields=["match", "at"], name="matchevent_match_at")]



class CredentialAttempts(models.Model):
    """Failed PIN or one-time-code attempts for one credential from one client (scoring/pins.py).

    ``subject`` is what is guessed (``player:<id>`` for a PIN, ``code:<match>:<team>`` for the
    one-time codes of a pair); ``client`` is who guesses (``*`` holds the total from every client).
    Counted across matches and tournaments, updated under a row lock."""

    subject = models.CharField(max_length=40)
    client = models.CharField(max_length=120)
    failures = models.PositiveIntegerField(default=0)
    lockouts = models.PositiveIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)
    window_start = models.DateTimeField(default=timezone.now)
    last_failure_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("credential attempts")
        verbose_name_plural = _("credential attempts")
        constraints = [models.UniqueConstraint(fields=["subject", "client"], name="credential_attempts_once")]


class NoticeSent(models.Model):
    """When a notice (a mail to the organizer) was last sent for ``key``: held in the database so
    that every web process sees it (scoring/pin_notices.py: at most one mail an hour per lockout)."""

    key = models.CharField(max_length=120, unique=True)
    sent_at = models.DateTimeField()

    class Meta:
        verbose_name = _("notice sent")
        verbose_name_plural = _("notices sent")


# ---- the print job's file path, for the migrations that made ``scoring_printjob`` ----------------
# (the print job itself is ``printing.models.PrintJob``: docs/architecture.md, "How the models moved")


def print_job_upload_to(job, filename: str) -> str:
    return f"sumulas/impressao/{timezone.now():%Y/%m}/{filename}"


class SealKeyInUse(AppendOnly):
    """Which seal key this database is sealed with (scoring/checks.py, ``scoring.E004``): the key's id
    and public half, recorded at the first start that finds none and by ``rotate_signing_key``; the
    latest row is the current key. Only to compare processes' keys at start: the key ring never
    trusts a key from the database, and the private key is never stored."""

    key_id = models.CharField(_("server key id"), max_length=32, unique=True)
    public_key = models.CharField(_("public key (base64)"), max_length=64)
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    reason = models.CharField(_("reason"), max_length=40)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("seal key in use")
        verbose_name_plural = _("seal keys in use")

    def __str__(self) -> str:
        return f"{self.key_id} ({self.reason})"


from scoring.api_tokens import ApiToken  # noqa: E402,F401 (a user's API tokens: scoring/api_tokens.py)
