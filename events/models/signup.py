"""Players signing themselves up (the public sign-up): a tournament's options (:class:`SignUpSettings`), a
pair's request (:class:`SignUp`) and each of its two players' confirmation (:class:`SignUpPlayer`): by
the link mailed to their own contact, or by the organizer.

A sign-up becomes a :class:`~tournaments.models.Pair` once both players confirmed and, when the
organizer asked for it, the organizer approved; while the tournament is full it waits in the
waiting list (ordered by ``ready_at``) and fills the place of a pair that withdraws. Only the SHA-256 of
each player's confirmation token is stored; contacts are read by the tournament's organizers only.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.tournament import Tournament


class SignUpSettings(models.Model):
    """Whether a tournament takes sign-ups on its public page, and on what terms (one row per tournament)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="signup_settings",
                                      verbose_name=_("tournament"))
    open = models.BooleanField(_("sign-up open on the public page"), default=False)
    pair_limit = models.PositiveIntegerField(_("limit of pairs"), null=True, blank=True,
                                             help_text=_("Empty: no limit."))
    waiting_list = models.BooleanField(
        _("waiting list"), default=True,
        help_text=_("Past the limit, pairs wait in order and take the place of a pair that withdraws."))
    deadline = models.DateTimeField(_("sign-up deadline"), null=True, blank=True)
    approval_required = models.BooleanField(
        _("the organizer approves each pair"), default=False,
        help_text=_("Otherwise a pair is registered as soon as both players confirm."))
    floods_refused = models.PositiveIntegerField(
        _("sign-ups refused as a flood"), default=0, editable=False,
        help_text="Sign-ups refused for too many from one address (the organizer sees it on the sign-ups page).")
    flood_refused_at = models.DateTimeField(_("last sign-up refused as a flood"), null=True, blank=True,
                                            editable=False)

    class Meta:
        db_table = "tournaments_signupsettings"  # the table it had in ``tournaments``, kept by the move
        verbose_name = _("sign-up settings")
        verbose_name_plural = _("sign-up settings")
        constraints = [models.CheckConstraint(condition=Q(pair_limit__isnull=True) | Q(pair_limit__gte=2),
                                              name="signup_limit_at_least_two",
                                              violation_error_message=_("A limit of pairs is at least 2."))]


class SignUp(models.Model):
    """A pair's request to play, made on the tournament's public page."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups",
                                   verbose_name=_("tournament"))
    pair_name = models.CharField(_("pair's name"), max_length=120)
    submission = models.CharField(max_length=64, unique=True, editable=False,
                                  help_text="The form's one-time key: a second send of the same form is this row.")
    client = models.CharField(max_length=64, editable=False, help_text="A keyed digest of the sender (rate limit).")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    ready_at = models.DateTimeField(_("ready at"), null=True, blank=True,
                                    help_text=_("Confirmed (and approved): its place in the waiting list."))
    refused_at = models.DateTimeField(_("refused at"), null=True, blank=True)
    refusal_reason = models.CharField(_("reason"), max_length=300, blank=True)
    pair = models.OneToOneField("events.Pair", on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="signup", verbose_name=_("pair"))

    class Meta:
        db_table = "tournaments_signup"  # the table it had in ``tournaments``, kept by the move
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")

    def __str__(self) -> str:
        return self.pair_name


class SignUpPlayer(models.Model):
    """One player of a sign-up: who they say they are, and their confirmation (by link or by PIN)."""

    class Via(models.TextChoices):
        LINK = "link", _("link")
        PIN = "pin", _("PIN")  # before the sign-up stopped taking PINs: kept for old rows
        MAIL = "mail", _("link sent by e-mail")
        ORGANIZER = "org", _("the organizer")

    signup = models.ForeignKey(SignUp, on_delete=models.CASCADE, related_name="players")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    player = models.ForeignKey("people.Player", on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+", help_text="The existing identity, linked by the organizer.")
    namesake = models.BooleanField(default=False, help_text="Named like a registered player: the organizer decides.")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    confirmed_via = models.CharField(max_length=4, choices=Via.choices, blank=True)

    class Meta:
        db_table = "tournaments_signupplayer"  # the table it had in ``tournaments``, kept by the move
        ordering = ["signup", "position"]
        constraints = [models.UniqueConstraint(fields=["signup", "position"], name="signup_player_once")]
