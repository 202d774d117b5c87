"""Who plays, across tournaments and organizers (docs/people.md): :class:`Player`, one person
whatever tournament or organizer registered them, with the hash of the personal PIN they sign
súmulas with (art. 25).

The player's table is still ``tournaments_player`` (the model moved here from ``tournaments``
with ``SeparateDatabaseAndState`` migrations that kept the table and its rows).
Data and its integrity only; writes go through ``people.services``.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import models
from django.utils.translation import gettext_lazy as _


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
        db_table = "tournaments_player"  # the table it had in ``tournaments``, kept by the move
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
