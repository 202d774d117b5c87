"""Logins locked out by too many wrong passwords (django-axes, ``config.auth``), and unlocking them from
the site's page "Contas" instead of the admin's "Access attempts".

A login is locked for an (account, address) pair once its failures reach ``AXES_FAILURE_LIMIT`` within
``AXES_COOLOFF_TIME``; it unlocks by itself after that. Who may unlock it early (:func:`visible_to`):

- an account manager (``tournaments.accounts.may_manage_accounts``): any login;
- an organizer: the logins of the referees of their tournaments (a match or a table assigned to them,
  or an invitation of their tournament they accepted) — never another organizer's or staff login, so
  an organizer cannot keep a password guesser going against a colleague.

An unlock names the lock it lifts (the login, the address and the time of its last failure): when
the lock has changed since the page was drawn (lifted already, or a new failure since) it is refused
and the page shows the current state — a second tap does nothing twice.

This lives on the referee side: it reads matches, tables and invitations together.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden
from scoring.models import Match
from tournaments import accounts
from tournaments.models import TableAssignment

from . import roles
from .models import RefereeInvitation

log = logging.getLogger("truco.accounts")


@dataclass(frozen=True)
class Lock:
    username: str
    address: str
    failures: int
    last: datetime
    until: datetime
    full_name: str = ""

    @property
    def stamp(self) -> str:
        """What an unlock names: the last failure's time (changes with every new failure)."""
        return self.last.isoformat()


def _cooloff() -> timedelta:
    return timedelta(hours=float(settings.AXES_COOLOFF_TIME))


def locked() -> list[Lock]:
    """Every (login, address) locked now, the latest first."""
    now = timezone.now()
    rows = (AccessAttempt.objects.filter(attempt_time__gte=now - _cooloff())
            .values("username", "ip_address").annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            .filter(failures__gte=settings.AXES_FAILURE_LIMIT).order_by("-last"))
    rows = [r for r in rows if r["username"]]
    names = {u.username: u.get_full_name() for u in
             get_user_model().objects.filter(username__in=[r["username"] for r in rows])}
    return [Lock(r["username"], r["ip_address"] or "", r["failures"], r["last"], r["last"] + _cooloff(),
                 names.get(r["username"], "")) for r in rows]


def _referees_of(user) -> set[str]:
    """The logins of the referees of ``user``'s tournaments (staff and superusers excluded)."""
    tournaments = roles.tournaments_of(user)
    ids = set(Match.objects.filter(tournament__in=tournaments, referee__isnull=False).values_list("referee", flat=True))
    ids |= set(TableAssignment.objects.filter(tournament__in=tournaments).values_list("referee", flat=True))
    ids |= set(RefereeInvitation.objects.filter(tournament__in=tournaments, user__isnull=False)
               .values_list("user", flat=True))
    return set(get_user_model().objects.filter(pk__in=ids).exclude(Q(is_staff=True) | Q(is_superuser=True))
               .values_list("username", flat=True))


def visible_to(user) -> list[Lock]:
    """The locks ``user`` may see and lift (nothing for a user who is neither manager nor organizer)."""
    if accounts.may_manage_accounts(user):
        return locked()
    if not roles.summary(user).organizer:
        return []
    mine = _referees_of(user)
    return [lock for lock in locked() if lock.username in mine]


def unlock(user, *, username: str, address: str, stamp: str) -> Lock:
    """Lift the lock of ``username`` from ``address`` that ``stamp`` names (see the module docstring)."""
    if not (accounts.may_manage_accounts(user) or roles.summary(user).organizer):
        raise Forbidden(_("Only organizers unlock logins."))
    current = next((lock for lock in locked() if (lock.username, lock.address) == (username, address)), None)
    if current is None:
        raise Conflict(_("The login %(login)s is not locked any more (lifted already, or its time ran out).")
                       % {"login": username}, "username")
    if current not in visible_to(user):
        raise Forbidden(_("You may unlock only the logins of your tournaments' referees."), "username")
    if current.stamp != stamp:
        raise Conflict(_("The login %(login)s failed again since this page was drawn: look at it again.")
                       % {"login": username}, "stamp")
    reset(ip=address or None, username=username)
    log.info("login unlocked: %s from %s by %s", username, address, user.get_username())
    return current
