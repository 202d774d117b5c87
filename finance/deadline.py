"""The payment deadline (docs/money.md, "Paying secures the place"): once the event's ``pay_by``
has passed, a pair still unpaid gives its place to the first sign-up on the waiting list. The pair
is withdrawn through tournaments' own withdrawal (``withdraw_pair``: audited, with its reason), which
hands the place to the waiting list (``fill_from_waiting_list``, the sign-up's one rule); the players
are told by the sign-up's mail path (their e-mail contacts, when the site sends mail) and the pair's
pages say why. An organizer takes it back (``reinstate_pair``) when it pays and a place is free.

The regulation says nothing about money: the deadline is the event's own policy (its money page).
Run by the Celery beat task ``finance.release_unpaid`` (``finance/tasks.py``) over every event with a
deadline passed, and by the organizer's button on the money page.
"""
from __future__ import annotations

import logging

from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from events.models import Pair, Tournament
from tournaments.services.signup import email_in, mail_on
from tournaments.services.withdrawals import withdraw_pair

from .models import FeeSettings
from .services import _require, charge_pairs, overdue

logger = logging.getLogger(__name__)


def reason() -> str:
    return _("Entry fee not paid by the deadline: the place went to the waiting list.")


def late(tournament: Tournament, now=None) -> list[Pair]:
    """The pairs held to the deadline and unpaid past it (a pair that came in after the deadline, from
    the waiting list, is not held to it), earliest sign-up first."""
    fees = FeeSettings.objects.filter(tournament=tournament).first()
    if fees is None or fees.pay_by is None:
        return []
    return sorted((p for p in overdue(tournament, now) if p.registered_at <= fees.pay_by),
                  key=lambda p: (p.registered_at, p.pk))


def release_unpaid(tournament: Tournament, by, now=None) -> list[Pair]:
    """The pairs unpaid past the deadline, earliest sign-up first, each lose their place to a sign-up
    waiting (as many as are waiting: with nobody waiting an unpaid pair keeps its place). A pair that
    came in after the deadline (from the waiting list) is not held to it. Only before the draw (after
    it a withdrawal is a walkover, the organizer's decision). Returns the pairs moved."""
    _require(by, tournament)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return []
    moved = []
    for pair in late(tournament, now):
        gave = _gives_place(pair, by)
        if gave is None:  # withdrawn meanwhile
            continue
        if not gave:
            break  # nobody (else) waiting: the rest keep their places
        moved.append(pair)
        transaction.on_commit(lambda pair=pair: tell(pair))
    if moved:  # the pairs that took the places are charged as the others were
        charge_pairs(tournament, by)
    return moved


class _NobodyWaiting(Exception):
    pass


def _still_in(tournament_id: int) -> int:
    return Pair.objects.filter(tournament_id=tournament_id).exclude(status=Pair.Status.WITHDRAWN).count()


def _gives_place(pair: Pair, by) -> bool | None:
    """Withdraw the pair, which hands its place to the waiting list; kept only when a sign-up waiting
    took it (else undone: the savepoint rolls the withdrawal and its audit back). ``None``: the pair
    had withdrawn already."""
    before = _still_in(pair.tournament_id)
    try:
        with transaction.atomic():
            withdraw_pair(pair, by, reason())
            if _still_in(pair.tournament_id) < before:
                raise _NobodyWaiting
    except _NobodyWaiting:
        return False
    except Conflict:
        return None
    return True


def tell(pair: Pair) -> int:
    """Mail the pair's players that the place went to the waiting list; returns the mails sent."""
    if not mail_on():
        return 0
    sent = 0
    for player in (pair.first_player, pair.second_player):
        address = email_in(getattr(player, "contact", ""))
        if address is None:
            continue
        try:
            send_mail(_("Your place at %(tournament)s went to the waiting list") % {"tournament": pair.tournament.name},
                      _("%(name)s, the entry fee of the pair %(pair)s was not paid by the deadline, so its place "
                        "went to the first pair on the waiting list. If you paid, show the organizer your "
                        "receipt: they can take the pair back when a place is free.")
                      % {"name": player.name, "pair": pair.name}, None, [address], fail_silently=False)
        except Exception:  # the pair's page says it too
            logger.exception("could not mail a lost place (pair %s)", pair.pk)
            continue
        sent += 1
    return sent


@shared_task(name="finance.release_unpaid")
def release_unpaid_task() -> int:
    """Periodic (Celery beat): every event whose payment deadline passed, before its draw; acts as the
    event's organizer (the withdrawal's audit names them). Returns the pairs moved."""
    moved = 0
    now = timezone.now()
    for fees in FeeSettings.objects.filter(pay_by__lt=now, tournament__status__in=[
            Tournament.Status.DRAFT, Tournament.Status.REGISTRATION]).select_related("tournament__organizer"):
        try:
            moved += len(release_unpaid(fees.tournament, fees.tournament.organizer, now))
        except Exception:
            logger.exception("could not release the unpaid pairs of tournament %s", fees.tournament_id)
    return moved
