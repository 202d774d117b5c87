"""The organizer told of PIN lockouts (art. 25; scoring/pins.py counts and locks).

- **Where they look**: :func:`lockouts` lists, for the matches given (the open and signed ones of
  their tournaments), each player whose PIN is locked now — a device locked out of it, or the PIN
  suspended for every device — with the match (its table) to unlock it from
  (``scoring:pin-unlock``, :func:`scoring.pins.unlock`), and who is guessing: the devices and
  addresses that failed with their counts. One query when nobody is locked out, three otherwise,
  whatever the number of matches.
- **By mail**: scoring/pin_mail.py, told by ``pins.verify`` when a failed attempt starts a lockout.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from . import access, pins
from .models import CredentialAttempts, Match
from .pins import EVERY_CLIENT

@dataclass
class Lockout:
    """A player of ``match`` whose PIN is locked now."""

    match: Match
    player: object
    pair: object
    suspended: bool  # many failures from several clients: the PIN slowed, else some device(s) locked out
    until: datetime
    failures: int = 0  # within the day, from every client
    clients: tuple = ()  # (who, failures) of each client that failed, most first: who is attacking


def _clients(rows) -> tuple:
    """``(describe(client), failures)`` per client, most failures first (at most 5 shown)."""
    found = sorted(((pins.describe(row.client), row.failures + pins.PER_CLIENT_LIMIT * row.lockouts)
                    for row in rows if not row.client.startswith("addr:")),  # an address's total: not a client
                   key=lambda item: -item[1])
    return tuple(found[:5])


def open_matches(queryset):
    """The matches where a pair may still sign or appeal (not received), with what :func:`lockouts` reads."""
    return (queryset.filter(status__in=[Match.Status.OPEN, Match.Status.SIGNED])
            .select_related("pair_a__first_player", "pair_a__second_player", "pair_a__substitute",
                            "pair_b__first_player", "pair_b__second_player", "pair_b__substitute")
            .order_by("table", "pk"))


def lockouts(matches) -> list[Lockout]:
    """Every player of ``matches`` (see :func:`open_matches`) locked out of their PIN now, by table, with the
    day's failures and the clients that failed. One query when nobody is locked out (the usual case: the
    matches are not read), three otherwise."""
    now = timezone.now()
    locked: dict[str, tuple[bool, datetime]] = {}
    for row in CredentialAttempts.objects.filter(subject__startswith="player:", locked_until__gt=now):
        suspended, until = locked.get(row.subject, (False, row.locked_until))
        locked[row.subject] = (suspended or row.client == EVERY_CLIENT, max(until, row.locked_until))
    if not locked:
        return []
    counts: dict[str, list] = {subject: [0, []] for subject in locked}
    for row in CredentialAttempts.objects.filter(subject__in=locked, last_failure_at__gte=now - pins.GLOBAL_WINDOW):
        if row.client == EVERY_CLIENT:
            counts[row.subject][0] = row.failures + pins.GLOBAL_LIMIT * row.lockouts
        else:
            counts[row.subject][1].append(row)
    found = [Lockout(match, player, pair, *locked[f"player:{player.pk}"], counts[f"player:{player.pk}"][0],
                     _clients(counts[f"player:{player.pk}"][1]))
             for match in matches for pair in (match.pair_a, match.pair_b) for player in access.pair_players(pair)
             if f"player:{player.pk}" in locked]
    return sorted(found, key=lambda lock: (lock.match.table or 0, lock.match.pk, lock.player.name))
