"""Who plays, across tournaments and organizers (docs/people.md).

- :class:`Player`: one person whatever tournament or organizer registered them (name, nickname,
  current club, federation number, contact, the hash of the personal PIN they sign súmulas
  with, art. 25); a duplicate merged into another keeps its row, pointing to the one it became;
- :class:`Club` (name, city, the organizers who manage it) and :class:`ClubMembership` (a
  player's clubs over time, from/to);
- :class:`PlayerMerge`: the audit of a merge of duplicates, with what it moved, so an undo
  puts it back;
- :class:`DataAccessLink`: the link an organizer hands a player to see, export or erase their
  personal data (LGPD); only its hash is kept.

The player's table is still ``tournaments_player`` (the model moved here from ``tournaments``
with ``SeparateDatabaseAndState`` migrations that kept the table and its rows).
Data and its integrity only; writes go through ``people.services``.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    city = models.CharField(_("city"), max_length=120, blank=True)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="managed_clubs",
                                        verbose_name=_("organizers"),
                                        help_text=_("The organizers who manage this club and its roster."))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["name", "city"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(fields=["name", "city"], name="club_unique_name_per_city",
                                    violation_error_message=_("This city already has a club with this name.")),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="players",
                             verbose_name=_("club"), help_text=_("The club the player plays for now."))
    federation_number = models.CharField(
        _("federation number"), max_length=30, blank=True,
        help_text=_("The player's number at their federation, if any; unique when given."))
    contact = models.CharField(_("contact"), max_length=200, blank=True, help_text=_("Phone or e-mail."))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        editable=False, verbose_name=_("entered by"),
        help_text=_("The organizer who entered this player (and their contact): only they read the contact."),
    )
    call_email = models.BooleanField(
        _("e-mail when the match is called"), default=False,
        help_text=_("The player asked (with their PIN, on the pair's page) for an e-mail to their contact when "
                    "a match of theirs is called to a table."))
    pin_hash = models.CharField(
        _("signing PIN (hash)"),
        max_length=128,
        blank=True,
        editable=False,
        help_text=_("The personal PIN the player signs súmulas with (art. 25); only its hash is kept."),
    )
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged_duplicates", editable=False,
        verbose_name=_("merged into"), help_text=_("A duplicate merged into another player (undone by unmerging)."))
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True, editable=False)

    class Meta:
        db_table = "tournaments_player"  # the table it had in ``tournaments``, kept by the move
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["federation_number"], condition=~Q(federation_number=""),
                                    name="player_unique_federation_number",
                                    violation_error_message=_("Another player has this federation number.")),
            models.CheckConstraint(condition=Q(merged_into__isnull=True) | ~Q(merged_into=models.F("id")),
                                   name="player_not_merged_into_itself"),
        ]

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


class ClubMembership(models.Model):
    """A player in a club from ``since`` to ``until`` (open: still there; dates unknown for the clubs
    migrated from the free text players were registered with)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships",
                               verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="memberships", verbose_name=_("club"))
    since = models.DateField(_("from"), null=True, blank=True)
    until = models.DateField(_("to"), null=True, blank=True)

    class Meta:
        ordering = ["player", "since"]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=Q(until__isnull=True),
                                    name="membership_one_open_per_player",
                                    violation_error_message=_("A player is in one club at a time.")),
            models.CheckConstraint(condition=Q(since__isnull=True) | Q(until__isnull=True)
                                   | Q(until__gte=models.F("since")),
                                   name="membership_until_after_since",
                                   violation_error_message=_("A membership ends after it starts.")),
        ]


class PlayerMerge(models.Model):
    """Two records of one person joined (audited, reversible): ``duplicate`` now points to ``kept``;
    ``moved`` names every row that was repointed (``{"app.model.field": [pk, …]}``) and ``filled`` the
    fields of ``kept`` that took the duplicate's value, so :func:`people.services.merges.unmerge` puts
    exactly those back. Append-only history (signatures, súmula versions) is never rewritten: it keeps
    the duplicate's id, which resolves to the kept player through ``merged_into``."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_kept", verbose_name=_("kept"))
    duplicate = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_as_duplicate",
                                  verbose_name=_("duplicate"))
    reason = models.CharField(_("reason"), max_length=300)
    moved = models.JSONField(_("moved rows"), default=dict)
    filled = models.JSONField(_("filled fields"), default=dict)
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("merged by"))
    merged_at = models.DateTimeField(_("merged at"), default=timezone.now)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("undone by"))
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)

    class Meta:
        ordering = ["-merged_at"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        constraints = [
            models.CheckConstraint(condition=~Q(kept=models.F("duplicate")), name="merge_two_players"),
            models.CheckConstraint(condition=Q(undone_at__isnull=True, undone_by__isnull=True)
                                   | Q(undone_at__isnull=False, undone_by__isnull=False),
                                   name="merge_undone_by_whom_and_when"),
        ]


class DataAccessLink(models.Model):
    """The link an organizer hands a player (LGPD, docs/people.md): it opens that player's data page
    (see, export as JSON, ask to erase) and nothing else; only the SHA-256 of its token is kept,
    it expires, and the organizer may revoke it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="data_links", verbose_name=_("player"))
    token_hash = models.CharField(_("token (hash)"), max_length=64, unique=True, editable=False)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("issued by"))
    issued_at = models.DateTimeField(_("issued at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-issued_at"]
        verbose_name = _("personal data link")
        verbose_name_plural = _("personal data links")
