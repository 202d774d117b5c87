"""Telling a pair that its match was called to a table: optional Web Push and e-mail.

Both are off unless configured: Web Push needs the VAPID keys in the environment
(``WEBPUSH_VAPID_PRIVATE_KEY``, ``WEBPUSH_VAPID_PUBLIC_KEY``, ``WEBPUSH_VAPID_SUBJECT``) and a page
served over HTTPS (browsers give a service worker only to a secure page); e-mail needs a mail backend
(``EMAIL_CONFIGURED``: ``EMAIL_HOST`` or ``EMAIL_BACKEND`` set).

- **Push**: a phone on the pair's page allows notifications; its browser's subscription (endpoint and
  keys) is stored for the pair with one of its players' PIN (:func:`subscribe`: a stranger, who has no
  PIN, subscribes nothing, so cannot fill the pair's phones). A player has at most
  :data:`PHONES_PER_PLAYER` phones notified: a new one replaces that player's oldest, so the player's own
  phone always gets in. The endpoint is the phone's secret: never shown nor logged; sending it again
  revokes it (:func:`unsubscribe`); the organizer revokes every subscription of a pair
  (:func:`revoke_all`, audited). The server POSTs to the endpoint, so it is parsed once, by one strict
  parser (:func:`endpoint_of`), into the address that is posted to: ``https://`` + a host equal to one of
  the push services' (``WEBPUSH_HOSTS``; an entry ``*.x`` is one more DNS label before ``x``) + a path of
  plain URL characters, port 443 only; no backslash, userinfo, fragment or other port, which HTTP
  libraries read differently (``WEBPUSH_HTTP_HOSTS``: hosts allowed plain HTTP on any port, for the
  tests' loopback only, empty by default). The worker sends a call's pushes concurrently, each waiting
  at most :data:`PUSH_TIMEOUT` seconds.
- **E-mail**: a player opts in with their PIN on the pair's page (:func:`set_call_email`); the mail goes
  to the player's contact when it is an e-mail address, one message per player (no address is shown to
  anyone else, nor on the page).

A call (``ready._call``) queues :func:`send_call` in a Celery task once its transaction commits
(:func:`match_called`); a :class:`~room.models.CallNotice` per match and table makes it tell each
call once, whatever the retries. Nothing of this decides anything: the pair's page and the projector
show the call anyway.
"""
from __future__ import annotations

import json
import logging
import re
from concurrent.futures import ThreadPoolExecutor

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring import pins as pin_checks
from scoring.models import Match

from tournaments import links
from tournaments.models import AuditEntry, Pair, Player, Tournament
from tournaments.pins import pair_players
from tournaments.services.base import TournamentError, _audit, _require_manager

from ..models import CallNotice, PushSubscription

logger = logging.getLogger(__name__)
#: phones one player may have notified at once; a new one replaces that player's oldest
PHONES_PER_PLAYER = 3
#: seconds a push service may take to answer one push (the call's pushes go out together)
PUSH_TIMEOUT = 4.0
#: pushes sent at once by one worker
PUSH_THREADS = 8
#: the only endpoints accepted: scheme, host, optional port, then a path (and query) of plain URL characters.
#: Nothing any HTTP library could read as another host: no backslash, "@", "#", space or percent-less escape.
_ENDPOINT = re.compile(r"(?P<scheme>https?)://(?P<host>[A-Za-z0-9.-]{1,253})(?::(?P<port>[0-9]{1,5}))?"
                       r"(?P<path>/[A-Za-z0-9._~/:%=?&+-]*)", re.ASCII)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?", re.ASCII)


def push_configured() -> bool:
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY and settings.WEBPUSH_VAPID_PUBLIC_KEY)


def email_configured() -> bool:
    return bool(settings.EMAIL_CONFIGURED)


def email_of(player: Player) -> str | None:
    """The player's contact when it is an e-mail address."""
    contact = (player.contact or "").strip()
    try:
        validate_email(contact)
    except ValidationError:
        return None
    return contact


def _known_host(host: str) -> bool:
    """``host`` is one of ``WEBPUSH_HOSTS`` exactly (``*.x``: one DNS label, then ``.x``)."""
    for known in settings.WEBPUSH_HOSTS:
        if known.startswith("*."):
            label, _dot, rest = host.partition(".")
            if rest == known[2:] and _LABEL.fullmatch(label):
                return True
        elif host == known:
            return True
    return False


def endpoint_of(value: object) -> str | None:
    """The address to post a push to, rebuilt from its parts, or None when ``value`` is not the endpoint of a
    known push service: HTTPS, port 443, the host compared exactly. The only parser of an endpoint: what is
    checked is what is stored and posted to."""
    if not isinstance(value, str) or len(value) > 1000:
        return None
    parts = _ENDPOINT.fullmatch(value)
    if parts is None:
        return None
    scheme, host, port, path = parts["scheme"], parts["host"].lower(), parts["port"], parts["path"]
    if not all(_LABEL.fullmatch(label) for label in host.split(".")):
        return None
    if scheme == "http":  # the tests' loopback push service only
        return f"http://{host}:{port}{path}" if port and host in settings.WEBPUSH_HTTP_HOSTS else None
    if port not in (None, "443") or not _known_host(host):
        return None
    return f"https://{host}{path}"


def subscribe(pair: Pair, data: object, *, client: str) -> PushSubscription:
    """Store a browser's push subscription (``{"endpoint", "keys": {"p256dh", "auth"}, "player", "pin"}``)
    for ``pair``, with one of its players' PIN (``scoring.pins.verify`` and its limits); the same endpoint
    twice is stored once; the player's oldest phone makes room past :data:`PHONES_PER_PLAYER`."""
    if not push_configured():
        raise Conflict(_("Notifications on phones are not configured on this site."), "endpoint")
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise TournamentError(_("Send the browser's subscription: endpoint and keys."), "endpoint")
    endpoint, keys = endpoint_of(data.get("endpoint")), data["keys"]
    if endpoint is None:
        raise TournamentError(_("This is not the address of a known push service."), "endpoint")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    for name, value, most in (("keys.p256dh", p256dh, 200), ("keys.auth", auth, 64)):
        if not isinstance(value, str) or not value or len(value) > most or not all(
                c.isalnum() or c in "-_=" for c in value):
            raise TournamentError(_("The subscription's keys are missing or malformed."), name)
    players = {p.pk: p for p in pair_players(pair)}
    player = players.get(data.get("player")) if isinstance(data.get("player"), int) else None
    if player is None:
        raise TournamentError(_("Choose one of the pair's players."), "player")
    outcome = pin_checks.verify(player, client=client, pin=str(data.get("pin") or ""), purpose="push")
    if not outcome.ok:
        raise TournamentError(outcome.why, "pin")
    with transaction.atomic():
        Pair.objects.select_for_update().filter(pk=pair.pk).first()  # one subscriber at a time per pair
        active = PushSubscription.objects.filter(pair=pair, revoked_at__isnull=True)
        existing = active.filter(endpoint=endpoint).first()
        if existing is not None:
            existing.p256dh, existing.auth, existing.player = p256dh, auth, player
            existing.save(update_fields=["p256dh", "auth", "player"])
            return existing
        mine = list(active.filter(player=player).order_by("-created_at", "-pk").values_list("pk", flat=True))
        if len(mine) >= PHONES_PER_PLAYER:  # the player's own oldest phones make room
            PushSubscription.objects.filter(pk__in=mine[PHONES_PER_PLAYER - 1:]).update(revoked_at=timezone.now())
        return PushSubscription.objects.create(pair=pair, player=player, endpoint=endpoint, p256dh=p256dh,
                                               auth=auth)


def unsubscribe(pair: Pair, endpoint: object) -> bool:
    """The phone stops its notifications (it sends its endpoint: only it knows it)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise TournamentError(_("Send the browser's subscription endpoint."), "endpoint")
    endpoint = endpoint_of(endpoint) or endpoint  # stored as rebuilt
    return bool(PushSubscription.objects.filter(pair=pair, endpoint=endpoint, revoked_at__isnull=True)
                .update(revoked_at=timezone.now()))


def revoke_all(pair: Pair, by) -> int:
    """The organizer clears every phone notified of ``pair``'s calls (audited)."""
    tournament = Tournament.objects.get(pk=pair.tournament_id)
    _require_manager(by, tournament)
    with transaction.atomic():
        count = PushSubscription.objects.filter(pair=pair, revoked_at__isnull=True).update(revoked_at=timezone.now())
        _audit(tournament, by, AuditEntry.Action.PUSH_REVOKED, after={"pair": pair.pk, "revoked": count})
    return count


def set_call_email(tournament: Tournament, pair: Pair, player_id: object, pin: object, on: bool, *,
                   client: str) -> Player:
    """A player asks (``on``) or stops asking for an e-mail when their match is called; their PIN is the
    credential (the page is public; ``scoring.pins.verify`` and its lockouts)."""
    if not email_configured():
        raise Conflict(_("E-mail is not configured on this site."), "player")
    players = {p.pk: p for p in pair_players(pair)}
    if not isinstance(player_id, int) or player_id not in players:
        raise TournamentError(_("Choose one of the pair's players."), "player")
    player = players[player_id]
    if on and email_of(player) is None:
        raise TournamentError(_("The organizer has no e-mail address for this player: ask them to add it to "
                                "your contact."), "player")
    outcome = pin_checks.verify(player, client=client, pin=str(pin or ""), purpose="call_email")
    if not outcome.ok:
        raise TournamentError(outcome.why, "pin")
    Player.objects.filter(pk=player.pk).update(call_email=on)
    player.call_email = on
    return player


def match_called(match_id: int, table: int) -> None:
    """Queue the call's notifications once the caller's transaction commits (nothing when neither push
    nor e-mail is configured)."""
    if not (push_configured() or email_configured()):
        return

    def queue() -> None:
        try:
            notify_match_called_task.delay(match_id, table)
        except Exception:  # a broker that is down must not turn a call into a server error
            logger.exception("could not queue the call's notifications (match %s, table %s)", match_id, table)

    transaction.on_commit(queue)


def _message(match: Match, pair: Pair, table: int) -> dict:
    opponent = match.pair_b if match.pair_a_id == pair.pk else match.pair_a
    with translation.override(settings.LANGUAGE_CODE):
        return {"title": _("Table %(table)s: your match was called") % {"table": table},
                "body": _("%(pair)s against %(opponent)s") % {"pair": pair.name, "opponent": opponent.name}
                + (f" · {match.round.display_name}" if match.round_id else ""),
                # on the address the organizer printed the cards from, as the pair's card (tournaments.links)
                "url": links.absolute(match.tournament, reverse("tournaments:pair", kwargs={
                    "slug": match.tournament.slug, "pair": pair.pk}))}


def _push(endpoint: str, p256dh: str, auth: str, message: str) -> str:
    """One push (in a worker thread: no database here): ``"sent"``, ``"gone"`` (the browser dropped the
    subscription), or the HTTP status or error class of a failure. Nothing of the endpoint is returned or
    logged: an error's text and traceback name the address."""
    from pywebpush import WebPushException, webpush

    try:
        webpush(subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                data=message, vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT}, ttl=900, timeout=PUSH_TIMEOUT)
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        return "gone" if status in (404, 410) else f"refused ({status})"
    except Exception as error:  # the push service unreachable or slow: the page and the projector still tell
        return f"failed ({type(error).__name__})"
    return "sent"


def _push_all(jobs: list[tuple[PushSubscription, dict]]) -> int:
    """Send every ``(subscription, message)`` at once, each waiting at most :data:`PUSH_TIMEOUT`; record what
    came of each; the number sent."""
    posts = []
    for subscription, message in jobs:
        endpoint = endpoint_of(subscription.endpoint)
        if endpoint is None:  # stored before the endpoints were checked as now: never posted to
            PushSubscription.objects.filter(pk=subscription.pk).update(revoked_at=timezone.now())
            logger.warning("push subscription %s revoked: not a known push service's address", subscription.pk)
            continue
        posts.append((subscription, (endpoint, subscription.p256dh, subscription.auth, json.dumps(message))))
    if not posts:
        return 0
    with ThreadPoolExecutor(max_workers=min(PUSH_THREADS, len(posts))) as pool:
        results = list(pool.map(lambda post: _push(*post[1]), posts))
    now, sent = timezone.now(), 0
    for (subscription, _post), result in zip(posts, results):
        if result == "sent":
            sent += 1
            PushSubscription.objects.filter(pk=subscription.pk).update(sent_at=now)
            continue
        if result == "gone":  # the browser dropped the subscription: stop sending to it
            PushSubscription.objects.filter(pk=subscription.pk).update(revoked_at=now)
        logger.warning("push to subscription %s not delivered: %s", subscription.pk, result)
    return sent


def send_call(match_id: int, table: int) -> CallNotice | None:
    """Tell both pairs of the match that it was called to ``table`` (the Celery task's body); None when
    this call was already told, or the match is no longer at that table."""
    match = (Match.objects.select_related("tournament", "round", "pair_a__first_player", "pair_a__second_player",
                                          "pair_b__first_player", "pair_b__second_player")
             .filter(pk=match_id, table=table, winner__isnull=True).first())
    if match is None:
        return None
    try:
        with transaction.atomic():
            notice = CallNotice.objects.create(match=match, table=table)
    except IntegrityError:
        return None
    emails = 0
    mails, jobs = [], []
    for pair in (match.pair_a, match.pair_b):
        message = _message(match, pair, table)
        if push_configured():
            jobs += [(subscription, message)
                     for subscription in PushSubscription.objects.filter(pair=pair, revoked_at__isnull=True)]
        if email_configured():
            for player in pair_players(pair):
                address = email_of(player) if player.call_email else None
                if address:  # one message per player: nobody sees another's address
                    mails.append(EmailMessage(message["title"], f"{message['body']}\n\n{message['url']}\n",
                                              settings.DEFAULT_FROM_EMAIL, [address]))
    pushes = _push_all(jobs)
    if mails:
        try:
            emails = get_connection(fail_silently=False).send_messages(mails) or 0
        except Exception:
            logger.exception("call e-mails of match %s not sent", match_id)
    CallNotice.objects.filter(pk=notice.pk).update(pushes=pushes, emails=emails)
    notice.pushes, notice.emails = pushes, emails
    return notice


@shared_task(name="tournaments.notify_match_called", ignore_result=True, acks_late=True)
def notify_match_called_task(match_id: int, table: int) -> None:
    """Web Push and e-mail to the pairs of a match just called to ``table`` (:func:`send_call`: each call
    told once, safe to run twice). Queued by :func:`match_called`, after the caller's commit."""
    send_call(match_id, table)
