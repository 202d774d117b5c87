"""Guessing a PIN or a one-time code is useless, and nobody can lock a pair out (art. 25).

A player's PIN is theirs everywhere, so failures are counted per player across matches and
tournaments, in the database (:class:`~scoring.models.CredentialAttempts`) under a row lock: no
lost update when guesses arrive in parallel, in any process.

- **Who guesses**: each count is kept per *client*, the credential the request came with
  (:func:`client_of`: a table's credential when one is registered, else the logged-in user, else
  the address). Five failures lock that client out of that player's PIN for 10 minutes, then 20,
  40… (doubling, at most a day); a stranger's guesses lock out only the stranger. A success
  clears the client's count.
- **Every client together**: 20 failures within a day from any clients suspend the player's PIN
  for an hour (doubling on each suspension). One-time codes from the referee still work, and the
  referee or the organizer can unlock (:func:`unlock`).
- **One answer**: a wrong PIN and a player without a PIN get the same refusal; the match's state
  is checked by the callers before any PIN is looked at, so an old match answers nothing about
  the PIN; during a lockout the PIN is not checked at all.
- **Told**: every refusal is in the match's audit trail (``signature_refused``, with ``locked``
  when it started a lockout); :func:`alerts` lists the players of a match whose PIN had failures,
  for the pair and the referee to see on the signing page; the organizer sees the lockouts on
  their start page and dashboard, and gets a mail when one starts (scoring/pin_notices.py).

One-time codes (6 digits, 10 minutes, single use) are counted the same way per pair of a match
(``code:<match>:<team>``), per client.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden

from .models import CredentialAttempts, MatchEvent, TableLink

PER_CLIENT_LIMIT = 5
FIRST_LOCKOUT = timedelta(minutes=10)
MAX_LOCKOUT = timedelta(days=1)
GLOBAL_LIMIT = 20
GLOBAL_WINDOW = timedelta(days=1)
FIRST_SUSPENSION = timedelta(hours=1)
EVERY_CLIENT = "*"
LOCAL = "local"  # a service called without a request (shell, tests, management commands)

# ------------------------------------------------------------------------------ clients

ClientResolver = Callable[[object], "str | None"]


def _from_table_credential(request) -> str | None:
    """A table link (scoring.table_links): ``Authorization: Table <token>`` or the table page's URL."""
    auth = getattr(request, "auth", None)
    link = auth if isinstance(auth, TableLink) else getattr(getattr(request, "user", None), "table_link", None)
    return f"table:{link.pk}" if isinstance(link, TableLink) else None


def _from_user(request) -> str | None:
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return None


def _from_address(request) -> str | None:
    address = (getattr(request, "META", {}) or {}).get("REMOTE_ADDR") or ""
    return f"ip:{address[:100]}" if address else None


CLIENT_RESOLVERS: list[ClientResolver] = [_from_table_credential, _from_user, _from_address]


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


# ------------------------------------------------------------------------------ checking


@dataclass
class Outcome:
    ok: bool
    method: str
    why: str = ""
    field: str = ""
    locked: bool = False  # this refusal started a lockout
    suspended: bool = False  # ... of the PIN for every client


def _wrong_pin() -> str:
    return _("Wrong PIN (or the player has no PIN: ask the referee for a one-time code).")


def _row(subject: str, client: str) -> CredentialAttempts:
    CredentialAttempts.objects.get_or_create(subject=subject, client=client)
    return CredentialAttempts.objects.select_for_update().get(subject=subject, client=client)


def _minutes(delta: timedelta) -> int:
    return max(1, int(delta.total_seconds() + 59) // 60)


def _fail(row: CredentialAttempts, now, limit: int, first: timedelta) -> bool:
    """Count one failure; start a lockout when the limit is reached (True)."""
    row.failures += 1
    row.last_failure_at = now
    started = False
    if row.failures >= limit:
        row.lockouts += 1
        row.locked_until = now + min(first * 2 ** (row.lockouts - 1), MAX_LOCKOUT)
        row.failures = 0
        started = True
    row.save()
    return started


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
            every = _row(subject, EVERY_CLIENT)  # always in this order: no deadlock
            mine = _row(subject, client)
            if every.window_start <= now - GLOBAL_WINDOW:
                every.failures, every.window_start = 0, now
            if mine.locked_until and mine.locked_until > now:
                outcome = Outcome(False, method, _("Too many failed attempts for %(player)s from this device: wait "
                                                   "%(minutes)s minutes, or ask the referee for a one-time code.")
                                  % {"player": player.name, "minutes": _minutes(mine.locked_until - now)}, "pin")
            elif every.locked_until and every.locked_until > now:
                outcome = Outcome(False, method, _("%(player)s's PIN is suspended after many failed attempts: ask the "
                                                   "referee for a one-time code, or to unlock it.")
                                  % {"player": player.name}, "pin")
            elif player.check_pin(str(pin)):
                mine.failures, mine.lockouts, mine.locked_until = 0, 0, None
                mine.save()
                outcome = Outcome(True, method)
            else:
                locked = _fail(mine, now, PER_CLIENT_LIMIT, FIRST_LOCKOUT)
                suspended = _fail(every, now, GLOBAL_LIMIT, FIRST_SUSPENSION)
                outcome = Outcome(False, method, _wrong_pin(), "pin", locked or suspended, suspended)
        else:
            from .services import use_code

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
                from .pin_notices import lockout_started

                transaction.on_commit(partial(lockout_started, match.pk, player.pk, outcome.suspended))
    return outcome


def require(player, **kwargs) -> None:
    """:func:`verify`, raising :class:`Forbidden` (naming ``pin`` or ``code``) on a refusal."""
    outcome = verify(player, **kwargs)
    if not outcome.ok:
        raise Forbidden(outcome.why, outcome.field)


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
    from . import access

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
