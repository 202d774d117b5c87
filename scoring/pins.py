"""Guessing a PIN or a one-time code is useless, and no stranger can lock a player out (art. 25).

Owns: the device cookie of the table page, who a guessing client is (:func:`client_of`), the counts
of failures and the lockouts (:func:`verify`), what the pair and the organizer are shown
(:func:`alerts`, :func:`describe`) and the unlock (:func:`unlock`).

A player's PIN is theirs everywhere, so failures are counted per player across matches and
tournaments, in the database (:class:`~scoring.models.CredentialAttempts`) under a row lock: no
lost update when guesses arrive in parallel, in any process.

- **Who guesses** (:func:`client_of`): a *device*, the table page's device cookie (random, signed by
  the server, HttpOnly, SameSite=Lax: :func:`set_device_cookie`) with the client's address
  (``config.auth.client_ip``: the same trusted-proxy logic as login throttling, ``DJANGO_PROXY_COUNT``);
  else the logged-in user; else the address alone. Every phone at a table is its own device: an
  opponent's guesses on the table's phone lock out that phone, not the player's own. The table page
  sends its API calls with same-origin credentials, so the cookie reaches ``/api/`` (the table link's
  ``Authorization`` header still says which table: the cookie only names the phone).
- **Per (player, device)**: five failures lock that device out of that player's PIN for 10 minutes,
  then 20, 40… (doubling, at most a day). A success clears the device's count. Each refusal of a wrong
  PIN says how many tries this device has left (:attr:`Outcome.message`).
- **Per (player, address)**: a device cookie costs nothing (clear the cookies, reload the page), so the
  failures from one address are counted too (``addr:<address>``, every device and cookieless client
  there together): 15 within a day (three devices' worth) close the address to the PIN for 30 minutes,
  then 60, 120… (at most a day). The ceiling is high because a venue's phones often share one address
  (one Wi-Fi behind a NAT, a hotspot), and it never closes the PIN to a device that has not failed:
  during the address's lockout a device that was already at the table when it started and never failed
  this PIN signs at once; refused are the address without a device cookie, the devices there that
  failed this PIN, and the devices first seen since the lockout started (a fresh cookie is what
  clearing the cookies gives, so it is not a phone that "has not failed"). An attacker at one address
  gets 15 tries, then one per cookie they held before, then waits; the player's own phone never waits.
- **Every client together**: 20 failures within a day *slow* the player's PIN for an hour (doubling
  on each slowdown), never block it: a device that was at the table before the slowdown started (its
  cookie's date) or a logged-in user tries once a minute; an address without a device cookie, or a
  device first seen since, is refused (it asks the referee for a one-time code). So the right PIN
  from the player's own phone waits at most a minute, whatever strangers do.
- **One-time codes** (6 digits, 10 minutes, single use) are counted apart, per pair of a match
  (``code:<match>:<team>``) and device: failures of the PIN never block the referee's code.
- **One answer**: a wrong PIN and a player without a PIN get the same refusal; the match's state
  is checked by the callers before any PIN is looked at, so an old match answers nothing about
  the PIN; during a lockout the PIN is not checked at all.
- **The codes themselves**: only a keyed hash of a code is stored (:func:`hash_code`, by
  ``scoring.services.signing.issue_code``); :func:`use_code` consumes one.
- **Told**: every refusal is in the match's audit trail (``signature_refused``, with the client and
  ``locked`` when it started a lockout); :func:`alerts` lists the players of a match whose PIN had
  failures, for the pair and the referee to see on the signing page; the organizer sees the lockouts,
  with the devices and addresses and their counts, on their start page and dashboard, and gets a mail
  when one starts (scoring/pin_notices.py).
"""
from __future__ import annotations

import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.auth import client_ip
from config.errors import Forbidden

from . import access
from .models import CredentialAttempts, MatchEvent, SigningCode
from .pin_mail import lockout_started

PER_CLIENT_LIMIT = 5
FIRST_LOCKOUT = timedelta(minutes=10)
MAX_LOCKOUT = timedelta(days=1)
ADDRESS_LIMIT = 15  # failures from one address (every device there) within a day: three devices' worth
FIRST_ADDRESS_LOCKOUT = timedelta(minutes=30)
GLOBAL_LIMIT = 20
GLOBAL_WINDOW = timedelta(days=1)
FIRST_SUSPENSION = timedelta(hours=1)  # the PIN slowed (each known device once a minute), doubling
SLOW_INTERVAL = timedelta(minutes=1)
EVERY_CLIENT = "*"
LOCAL = "local"  # a service called without a request (shell, tests, management commands)

# ------------------------------------------------------------------------------ devices and clients

DEVICE_COOKIE = "truco_device"
DEVICE_SALT = "scoring.pins.device"
DEVICE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


def _signer() -> signing.Signer:
    return signing.Signer(salt=DEVICE_SALT)


def device_of(request) -> tuple[str, int] | None:
    """The device cookie's ``(id, issued at)`` when the request carries a valid one (signed by this
    server: a client cannot choose an id or its date), else None."""
    value = (getattr(request, "COOKIES", None) or {}).get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        device_id, issued = _signer().unsign(value).split(".", 1)
        return device_id, int(issued)
    except (signing.BadSignature, ValueError):
        return None


def set_device_cookie(request, response) -> None:
    """Give the phone a device cookie (the table page sets it): random, signed, HttpOnly, SameSite=Lax,
    for the whole site (the API is under /api/). A valid one is kept: its date says since when the
    device is at the table."""
    if device_of(request) is not None:
        return
    value = _signer().sign(f"{secrets.token_urlsafe(16)}.{int(time.time() * 1000)}")  # issued, in ms
    response.set_cookie(DEVICE_COOKIE, value, max_age=DEVICE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=bool(getattr(settings, "SESSION_COOKIE_SECURE", False)))


ClientResolver = Callable[[object], "str | None"]


def _from_device(request) -> str | None:
    """A phone with the table page's device cookie: ``dev:<id>.<issued>@<address>``."""
    device = device_of(request)
    if device is None:
        return None
    return f"dev:{device[0]}.{device[1]}@{client_ip(request)[:64]}"


def _from_user(request) -> str | None:
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return None


def _from_address(request) -> str | None:
    """The client's address behind the trusted proxies (``config.auth.client_ip``, as for login throttling)."""
    address = client_ip(request) if getattr(request, "META", None) is not None else ""
    return f"ip:{address[:100]}" if address else None


CLIENT_RESOLVERS: list[ClientResolver] = [_from_device, _from_user, _from_address]


def register_client_resolver(resolver: ClientResolver) -> None:
    """Put ``resolver`` first: it names the client of a request (or returns None to pass)."""
    if resolver not in CLIENT_RESOLVERS:
        CLIENT_RESOLVERS.insert(0, resolver)


def client_of(request) -> str:
    """Who is guessing: the first resolver that knows the request."""
    if request is None:
        return LOCAL
    for resolver in CLIENT_RESOLVERS:
        found = resolver(request)
        if found:
            return found[:120]
    return LOCAL


def _device_issued(client: str) -> int | None:
    """When the device cookie of a ``dev:`` client was issued, in ms since the epoch (None for any other client)."""
    if not client.startswith("dev:"):
        return None
    try:
        return int(client[4:].split("@", 1)[0].rsplit(".", 1)[1])
    except (IndexError, ValueError):
        return None


def address_of(client: str) -> str | None:
    """The address a ``dev:`` or ``ip:`` client guesses from (None for a user, an organizer, the shell)."""
    if client.startswith("dev:"):
        return client.partition("@")[2] or None
    if client.startswith("ip:"):
        return client[3:] or None
    return None


def describe(client: str) -> str:
    """The client as the organizer reads it: a device (its id's first characters) and address, an
    address, or a user."""
    if client.startswith("dev:"):
        device, _at, address = client[4:].partition("@")
        return _("device %(device)s at %(address)s") % {"device": device[:6], "address": address or "?"}
    if client.startswith("ip:"):
        return _("address %(address)s without a device cookie") % {"address": client[3:]}
    if client.startswith("addr:"):
        return _("every device at address %(address)s") % {"address": client[5:]}
    if client.startswith("user:"):
        return _("user #%(id)s") % {"id": client[5:]}
    return client


# ------------------------------------------------------------------------------ checking


@dataclass
class Outcome:
    ok: bool
    method: str
    why: str = ""  # the refusal (a wrong PIN's is always :func:`wrong_pin`: callers compare with it)
    field: str = ""
    locked: bool = False  # this refusal started a lockout
    suspended: bool = False  # ... of the PIN for every client
    tries_left: int | None = None  # after a wrong PIN: tries this device has before it waits
    hint: str = ""  # what comes next (the tries left, the wait that started)

    @property
    def message(self) -> str:
        """What the one who typed reads: the refusal and what comes next."""
        return f"{self.why} {self.hint}".strip()


def _wrong_pin() -> str:
    return _("Wrong PIN (or the player has no PIN: ask the referee for a one-time code).")


wrong_pin = _wrong_pin  # public: a caller tells a wrong PIN from a lockout (the public sign-up)


def _tries_hint(tries: int, wait: timedelta | None) -> str:
    if wait is not None:
        return _("No tries left on this device: it waits %(minutes)s minutes for this PIN, or ask the referee "
                 "for a one-time code.") % {"minutes": _minutes(wait)}
    return ngettext("%(tries)s try left on this device.", "%(tries)s tries left on this device.", tries) % {
        "tries": tries}


def _row(subject: str, client: str) -> CredentialAttempts:
    CredentialAttempts.objects.get_or_create(subject=subject, client=client)
    return CredentialAttempts.objects.select_for_update().get(subject=subject, client=client)


def _minutes(delta: timedelta) -> int:
    return max(1, int(delta.total_seconds() + 59) // 60)


def _back_off(first: timedelta, lockouts: int) -> timedelta:
    return min(first * 2 ** max(lockouts - 1, 0), MAX_LOCKOUT)


def _suspension(lockouts: int) -> timedelta:
    return _back_off(FIRST_SUSPENSION, lockouts)


def _fail(row: CredentialAttempts, now, limit: int, first: timedelta) -> bool:
    """Count one failure; start a lockout when the limit is reached (True)."""
    row.failures += 1
    row.last_failure_at = now
    started = False
    if row.failures >= limit:
        row.lockouts += 1
        row.locked_until = now + _back_off(first, row.lockouts)
        row.failures = 0
        started = True
    row.save()
    return started


def _address_refusal(player, address: CredentialAttempts | None, mine: CredentialAttempts, client: str,
                     now) -> str:
    """While ``address`` is closed to the PIN (too many failures from every device there), why this client
    may not try ("" when it may): a device that was at the table before the lockout started and never
    failed this PIN tries; an address without a device cookie, a device that failed, or one first seen
    since, does not."""
    if address is None or not (address.locked_until and address.locked_until > now):
        return ""
    started = address.locked_until - _back_off(FIRST_ADDRESS_LOCKOUT, address.lockouts)
    issued = _device_issued(client)
    failed = bool(mine.failures or mine.lockouts)  # a success since clears both: the player's own phone
    if issued is not None and issued < started.timestamp() * 1000 and not failed:
        return ""
    return _("Too many failed attempts for %(player)s from this network: this device waits %(minutes)s minutes. "
             "A phone that was already at the table and has not failed still signs, or ask the referee for "
             "a one-time code.") % {"player": player.name, "minutes": _minutes(address.locked_until - now)}


def _slowed_refusal(player, every: CredentialAttempts, mine: CredentialAttempts, client: str, now) -> str:
    """While the PIN is slowed (many failures from several clients), why this client may not try now
    ("" when it may): a device that was at the table before the slowdown started, or a logged-in user,
    tries once a minute; an address without a device cookie, or a device first seen since, does not."""
    if not (every.locked_until and every.locked_until > now):
        return ""
    started = every.locked_until - _suspension(every.lockouts)
    issued = _device_issued(client)
    if client.startswith("ip:") or (issued is not None and issued >= started.timestamp() * 1000):
        return _("%(player)s's PIN is slowed after many failed attempts from several devices: sign on the phone "
                 "you have been using at this table, or ask the referee for a one-time code.") % {"player": player.name}
    if mine.last_failure_at and mine.last_failure_at > now - SLOW_INTERVAL:
        seconds = max(1, int((mine.last_failure_at + SLOW_INTERVAL - now).total_seconds() + 0.999))
        return _("%(player)s's PIN is slowed after many failed attempts from several devices: each device tries "
                 "once a minute. Wait %(seconds)s seconds, or ask the referee for a one-time code.") % {
            "player": player.name, "seconds": seconds}
    return ""


def verify(player, *, client: str | None = None, pin: str | None = None, code: str | None = None,
           match=None, team: int | None = None, purpose: str = "sign") -> Outcome:
    """Check ``player``'s PIN (or a one-time code of ``match``'s ``team``) for ``client``, in its own
    transaction (the count stays even when the caller's work is refused later). Returns the
    :class:`Outcome`; records a refusal in ``match``'s audit trail. Never raises for a refusal."""
    client = (client or LOCAL)[:120]
    now = timezone.now()
    method = "pin" if pin else "code"
    with transaction.atomic():
        if pin:
            subject = f"player:{player.pk}"
            every = _row(subject, EVERY_CLIENT)  # always in this order (every, address, device): no deadlock
            where = address_of(client)
            address = _row(subject, f"addr:{where}"[:120]) if where else None
            mine = _row(subject, client)
            if every.window_start <= now - GLOBAL_WINDOW:
                every.failures, every.window_start = 0, now
            if address is not None and address.last_failure_at and address.last_failure_at <= now - GLOBAL_WINDOW:
                address.failures = 0  # the address's count is a day's
            closed = _address_refusal(player, address, mine, client, now)
            slowed = _slowed_refusal(player, every, mine, client, now)
            if mine.locked_until and mine.locked_until > now:
                outcome = Outcome(False, method, _("Too many failed attempts for %(player)s from this device: wait "
                                                   "%(minutes)s minutes, or ask the referee for a one-time code.")
                                  % {"player": player.name, "minutes": _minutes(mine.locked_until - now)}, "pin",
                                  tries_left=0)
            elif closed or slowed:
                outcome = Outcome(False, method, closed or slowed, "pin", tries_left=0)
            elif player.check_pin(str(pin)):
                mine.failures, mine.lockouts, mine.locked_until = 0, 0, None
                mine.save()
                outcome = Outcome(True, method)
            else:
                locked = _fail(mine, now, PER_CLIENT_LIMIT, FIRST_LOCKOUT)
                closing = address is not None and _fail(address, now, ADDRESS_LIMIT, FIRST_ADDRESS_LOCKOUT)
                suspended = _fail(every, now, GLOBAL_LIMIT, FIRST_SUSPENSION)
                tries = PER_CLIENT_LIMIT - mine.failures if not locked else 0
                if address is not None:
                    tries = min(tries, ADDRESS_LIMIT - address.failures if not closing else 0)
                wait = None
                if tries == 0:
                    until = max(filter(None, [mine.locked_until if locked else None,
                                              address.locked_until if closing else None]), default=None)
                    wait = until - now if until else None
                outcome = Outcome(False, method, _wrong_pin(), "pin", locked or closing or suspended, suspended,
                                  tries, _tries_hint(tries, wait) if (tries or wait) else "")
        else:
            mine = _row(f"code:{match.pk}:{team}", client)
            if mine.locked_until and mine.locked_until > now:
                outcome = Outcome(False, method, _("Too many failed attempts from this device: wait %(minutes)s "
                                                   "minutes, or ask the referee for a new code.")
                                  % {"minutes": _minutes(mine.locked_until - now)}, "code")
            else:
                why = use_code(match, team, str(code), player, now)
                if why:
                    outcome = Outcome(False, method, str(why), "code",
                                      _fail(mine, now, PER_CLIENT_LIMIT, FIRST_LOCKOUT))
                else:
                    mine.failures, mine.lockouts, mine.locked_until = 0, 0, None
                    mine.save()
                    outcome = Outcome(True, method)
        if not outcome.ok and match is not None:
            data = {"team": team, "player": player.pk, "method": method, "why": outcome.why, "client": client}
            if purpose != "sign":
                data["for"] = "referee"
            if outcome.locked:
                data["locked"] = True
            MatchEvent.objects.create(match_id=match.pk, kind=MatchEvent.Kind.SIGNATURE_REFUSED, data=data)
            if outcome.locked and method == "pin":  # the organizer told (by mail, once this commits)
                transaction.on_commit(partial(lockout_started, match.pk, player.pk, outcome.suspended))
    return outcome


def hash_code(code: str, salt: str) -> str:
    """The keyed hash of a one-time code, as stored (``SigningCode.code_hash``)."""
    return f"hmac${salt}${salted_hmac('scoring.signing-code', salt + code).hexdigest()}"


def _code_matches(code: str, stored: str) -> bool:
    try:
        _, salt, _digest = stored.split("$", 2)
    except ValueError:
        return False
    return hmac.compare_digest(hash_code(code, salt), stored)


#: the codes a code is compared with: an hour's (six lifetimes of a code), so an expired one is named so
CODES_LOOKED_AT = timedelta(hours=1)


def use_code(match, team: int, code: str, player, now) -> str | None:
    """Consume a valid one-time code of ``team`` in ``match``; return None, or why it was refused."""
    if not isinstance(code, str) or not re.fullmatch(r"\d{6}", code.strip()):
        return _("A one-time code has 6 digits.")
    code = code.strip()
    recent = SigningCode.objects.select_for_update().filter(
        match=match, team=team, created_at__gte=now - CODES_LOOKED_AT).order_by("-created_at")[:20]
    for record in recent:
        if _code_matches(code, record.code_hash):
            if record.used_at is not None:
                return _("This one-time code was already used: ask the referee for a new one.")
            if record.expires_at <= now:
                return _("This one-time code expired (codes last 10 minutes): ask the referee for a new one.")
            record.used_at, record.used_by = now, player
            record.save(update_fields=["used_at", "used_by"])
            return None
    return _("Wrong one-time code.")


def require(player, **kwargs) -> None:
    """:func:`verify`, raising :class:`Forbidden` (naming ``pin`` or ``code``) on a refusal."""
    outcome = verify(player, **kwargs)
    if not outcome.ok:
        raise Forbidden(outcome.message, outcome.field)


# ------------------------------------------------------------------------------ seeing and unlocking


def alerts(players) -> list[dict]:
    """Players whose PIN failed within the last day: ``{"player", "failures", "locked_until", "suspended"}``."""
    now = timezone.now()
    by_subject = {f"player:{p.pk}": p for p in players}
    rows = CredentialAttempts.objects.filter(subject__in=by_subject, last_failure_at__gte=now - GLOBAL_WINDOW)
    found: dict[str, dict] = {}
    for row in rows:
        entry = found.setdefault(row.subject, {"player": by_subject[row.subject], "failures": 0,
                                               "locked_until": None, "suspended": False})
        if row.client == EVERY_CLIENT:
            entry["failures"] = row.failures + GLOBAL_LIMIT * row.lockouts
            entry["suspended"] = bool(row.locked_until and row.locked_until > now)
        elif row.locked_until and row.locked_until > now:
            entry["locked_until"] = max(filter(None, [entry["locked_until"], row.locked_until]))
    return [entry for entry in found.values() if entry["failures"] or entry["suspended"] or entry["locked_until"]]


def unlock(match, player, by) -> int:
    """The match's referee (or the organizer) clears every count and lockout of a player of the match."""
    if not access.can_enter(by, match):
        raise Forbidden(_("Only the match's referee or the tournament's organizer unlocks a PIN."))
    players = {p.pk for team in (0, 1) for p in access.pair_players(match.pair(team))}
    player_id = getattr(player, "pk", player)
    if player_id not in players:
        raise Forbidden(_("Only a PIN of a player of this match is unlocked here."), "player")
    with transaction.atomic():
        cleared = CredentialAttempts.objects.filter(subject=f"player:{player_id}").update(
            failures=0, lockouts=0, locked_until=None, last_failure_at=None)
        MatchEvent.objects.create(match_id=match.pk, kind=MatchEvent.Kind.PIN_UNLOCKED, by=by,
                                  data={"player": player_id})
    return cleared
