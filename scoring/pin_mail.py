"""The organizer told by mail of a PIN lockout (art. 25; scoring/pins.py counts and locks).

When a failed attempt starts a lockout, :func:`lockout_started` (called by ``pins.verify`` once its
transaction commits) queues ``scoring.mail_pin_lockout`` (:func:`mail_pin_lockout`: the request
does not wait for the mail server; eager without a broker), which writes to the tournament's
organizer when they have an address and mail is configured (``EMAIL_CONFIGURED``). At most one mail
per match, player and kind of lockout an hour (held in the database, :class:`NoticeSent`, for every
process): a stranger guessing from many devices cannot flood the organizer's inbox. What the
organizer sees on their pages is scoring/pin_notices.py.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from . import access
from .models import Match, NoticeSent

logger = logging.getLogger(__name__)
MAIL_EVERY = timedelta(hours=1)


def mail_configured() -> bool:
    return bool(getattr(settings, "EMAIL_CONFIGURED", False))


def first_notice_in(key: str, period: timedelta) -> bool:
    """True for the first call with ``key`` in ``period`` across every process (a row per key, taken
    by one atomic UPDATE or by the unique INSERT: two processes never both get True)."""
    now = timezone.now()
    if NoticeSent.objects.filter(key=key, sent_at__lte=now - period).update(sent_at=now):
        return True
    try:
        with transaction.atomic():
            NoticeSent.objects.create(key=key, sent_at=now)
    except IntegrityError:
        return False
    return True


def lockout_started(match_id: int, player_id: int, suspended: bool) -> None:
    """Queue the organizer's mail for a lockout that just started (once an hour per match, player, kind)."""
    if not mail_configured():
        return
    kind = "suspended" if suspended else "locked"
    if not first_notice_in(f"pin-lockout-mail:{match_id}:{player_id}:{kind}", MAIL_EVERY):
        return
    try:
        mail_pin_lockout.delay(match_id, player_id, suspended)
    except Exception:  # a broker that is down must not turn a refused PIN into a server error
        logger.exception("could not queue the PIN lockout mail (match %s, player %s)", match_id, player_id)


@shared_task(name="scoring.mail_pin_lockout", ignore_result=True)
def mail_pin_lockout(match_id: int, player_id: int, suspended: bool) -> None:
    """Tell the tournament's organizer that a player's PIN was locked (the task :func:`lockout_started` queues)."""
    send_lockout_mail(match_id, player_id, suspended)


def send_lockout_mail(match_id: int, player_id: int, suspended: bool) -> bool:
    """Write to the match's tournament organizer (True when a mail left). Run by the Celery task."""
    match = (Match.objects.select_related("tournament__organizer", "pair_a", "pair_b")
             .filter(pk=match_id).first())
    organizer = getattr(getattr(match, "tournament", None), "organizer", None)
    address = getattr(organizer, "email", "") or ""
    if match is None or not address or not mail_configured():
        return False
    player = next((p for pair in (match.pair_a, match.pair_b) for p in access.pair_players(pair)
                   if p.pk == player_id), None)
    if player is None:
        return False
    with translation.override(settings.LANGUAGE_CODE):
        subject, body = _message(match, player, suspended)
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # the mail server is down: the page still shows the lockout
        logger.exception("could not mail the PIN lockout to the organizer (match %s)", match_id)
        return False
    return True


def _message(match: Match, player, suspended: bool) -> tuple[str, str]:
    where = (_("table %(table)s") % {"table": match.table}) if match.table else _("a match without a table")
    subject = _("[%(tournament)s] %(player)s's PIN locked at %(where)s") % {
        "tournament": match.tournament.name, "player": player.name, "where": where}
    what = (_("The PIN is slowed after many failed attempts from several devices: each device the player was "
              "using tries once a minute, new devices are refused; the referee's one-time codes work, or you "
              "unlock it.") if suspended else
            _("A device was locked out of this PIN after several failed attempts (art. 25). If it was not the "
              "player, someone may be trying to guess it."))
    lines = [
        _("Failed PIN attempts for %(player)s at %(where)s (%(pair_a)s × %(pair_b)s), at %(time)s.") % {
            "player": player.name, "where": where, "pair_a": match.pair_a.name, "pair_b": match.pair_b.name,
            "time": time_format(timezone.localtime(), "H:i")},
        what,
        _("To unlock it (the referee can too): %(url)s") % {
            "url": settings.SITE_URL + reverse("scoring:sign", kwargs={"pk": match.pk})},
    ]
    return subject, "\n\n".join(lines) + "\n"
