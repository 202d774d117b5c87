"""Players sign themselves up on a tournament's public page (the public sign-up): the players' side. The
organizer's side (the options, approving, refusing, linking, the waiting list and the places) is
``signup_review``.

- **A pair signs up** (:func:`submit`): the pair's name and its two players, each with their own contact.
  The sign-up takes **no PIN**: a player's signing credential is checked only in a match they play
  (``scoring.pins``), so nobody can guess it or lock it out from this public page. A name alike to a
  registered player (``tournaments.players.NameIndex``) is a new player flagged to the organizer
  ("namesake"), never a silent merge; the organizer links it to the registered player
  (``signup_review.link_player``, audited) when it is them. The contact is never shown outside the organizers' pages.
- **Each player confirms by a link that reaches them, not the sender**: the link of each player is mailed to
  that player's own e-mail contact (:func:`mail_links`) and never shown on the page that answers the form;
  the two players give two different contacts. A player whose contact is not an e-mail (or when the site
  sends no mail) is confirmed by the organizer, who approves the sign-up after speaking to them
  (``signup_review.approve``). The link's key is an HMAC of the form's one-time key under ``SECRET_KEY`` (only its
  SHA-256 is stored), so the same form sent twice is the same sign-up with the same links.
- **Then** (``signup_review.advance``): confirmed by both (and approved, when asked) the sign-up takes a
  place or waits in the waiting list.
- **An unconfirmed sign-up takes no place and expires**: a place (or a waiting-list position) is taken
  only when both players confirmed (and the organizer approved, when asked); a sign-up that is not
  confirmed by both players within ``signup_review.confirm_within`` (``TRUCO_SIGNUP_CONFIRM_HOURS``, 48 hours,
  never past the deadline) expires: it holds no pair name any more, its links confirm nothing, and the
  organizer's list shows it expired.
- **Limits, by what costs an attacker something**: at most :func:`per_address_hour`
  (``TRUCO_SIGNUPS_PER_ADDRESS_HOUR``, 3) sign-ups an hour from one address for one tournament (a keyed
  digest of the address: a device cookie costs nothing, so it is not what is counted); a refused flood is
  counted on the tournament's options (the organizer's sign-ups page says it) and mailed to the organizer
  at most once an hour. A closed, full (without waiting list) or past-deadline sign-up is refused naming why.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from scoring.pin_mail import first_notice_in
from scoring.pins import address_of
from scoring.site import absolute

from .. import players as identities
from ..models import Pair, SignUp, SignUpPlayer, SignUpSettings, Tournament
from .base import _lock_tournament
from .registration import clean_player
from .signup_review import (advance, closed_because, confirm_within, email_in, is_expired, mail_on, options_of,
                            signups_in_play)

logger = logging.getLogger(__name__)
FLOOD_MAIL_EVERY = timedelta(hours=1)
SUBMISSION_MAX = 64


def per_address_hour() -> int:
    """Sign-ups an hour one address may send to one tournament (``TRUCO_SIGNUPS_PER_ADDRESS_HOUR``, default 3)."""
    return int(getattr(settings, "TRUCO_SIGNUPS_PER_ADDRESS_HOUR", 3))


# --------------------------------------------------------------------------------------- signing up


def link_token(submission: str, position: int) -> str:
    """A player's confirmation key: derived from the form's one-time key under ``SECRET_KEY`` (never stored)."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"signup:{submission}:{position}".encode(), hashlib.sha256)
    return digest.hexdigest()[:40]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def sender_digest(client: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), f"signup-client:{client}".encode(), hashlib.sha256).hexdigest()[:64]


def _clean_player(tournament: Tournament, value: object, position: int) -> dict:
    field = f"players[{position}]"
    if not isinstance(value, dict):
        raise ServiceError(_("A player has a name (and nickname, club, contact)."), field)
    if value.get("pin"):  # never checked here: a PIN is tried only in a match its player plays
        raise ServiceError(_("The sign-up takes no PIN. If you have played with this organizer, sign up with your "
                           "name: the organizer links you to your history."), f"{field}.pin")
    spec = clean_player({k: v for k, v in value.items() if k != "pin"}, field, None)  # text only: no reuse by contact
    data = dict(spec.data, player=None)
    if not (data.get("contact") or "").strip():
        raise ServiceError(_("Each player gives their own contact (e-mail, to receive their confirmation link, "
                             "or phone: the organizer confirms them)."), f"{field}.contact")
    data["namesake"] = bool(identities.NameIndex(tournament).lookup(data["name"]))
    return data


def find_submission(submission: str) -> SignUp | None:
    return SignUp.objects.filter(submission=submission).first() if isinstance(submission, str) else None


def sender_of(client: str) -> str:
    """The keyed digest the limit counts: the client's address (a device cookie costs nothing to renew)."""
    return sender_digest(address_of(client) or client)


def _flood_refused(tournament: Tournament, now: datetime) -> None:
    """Count a refused flood on the tournament's options and tell the organizer (a mail at most once an hour)."""
    SignUpSettings.objects.filter(tournament=tournament).update(floods_refused=F("floods_refused") + 1,
                                                                flood_refused_at=now)
    organizer = tournament.organizer
    address = getattr(organizer, "email", "") or ""
    if not (address and mail_on() and first_notice_in(f"signup-flood:{tournament.pk}", FLOOD_MAIL_EVERY)):
        return
    url = absolute(reverse("tournaments:signups", kwargs={"slug": tournament.slug}))
    try:
        send_mail(_("Sign-ups refused at %(tournament)s") % {"tournament": tournament.name},
                  _("More than %(limit)s sign-ups an hour came from one address to %(tournament)s: the next ones "
                    "were refused. Check the sign-ups waiting for confirmation: %(url)s")
                  % {"limit": per_address_hour(), "tournament": tournament.name, "url": url},
                  None, [address], fail_silently=False)
    except Exception:  # a mail server that is down must not turn a refusal into a server error
        logger.exception("could not mail the organizer of tournament %s about a refused flood", tournament.pk)


def submit(tournament: Tournament, *, submission: str, client: str, pair_name: object, players: list,
           link_url=None) -> SignUp:
    """A pair signs up (``players``: two ``{"name", "nickname", "club", "contact"}``). The same
    ``submission`` key again (a double tap, a reload) is the same sign-up, changed by nothing. Each player's
    link (:func:`link_token`) is mailed to their own contact (:func:`mail_links`; ``link_url`` makes a
    token an absolute URL)."""
    if not isinstance(submission, str) or not 16 <= len(submission) <= SUBMISSION_MAX:
        raise ServiceError(_("This form is stale: open the sign-up page again."), "submission")
    again = find_submission(submission)
    if again is not None:
        return again
    now = timezone.now()
    digest = sender_of(client)
    if (SignUp.objects.filter(tournament=tournament, client=digest, created_at__gt=now - timedelta(hours=1)).count()
            >= per_address_hour()):
        _flood_refused(tournament, now)
        raise Conflict(_("Too many sign-ups from this network for this tournament in the last hour: try again "
                         "later, or ask the organizer to register your pair."), "submission")
    why = closed_because(tournament, options_of(tournament), now)
    if why:
        raise Conflict(why, "tournament")
    name = " ".join(pair_name.split()) if isinstance(pair_name, str) else ""
    if not name:
        raise ServiceError(_("The pair's name is required."), "pair_name")
    if len(name) > 120:
        raise ServiceError(_("At most %(limit)s characters.") % {"limit": 120}, "pair_name")
    if (Pair.objects.filter(tournament=tournament, name__iexact=name).exists()
            or signups_in_play(tournament).filter(pair_name__iexact=name).exists()):
        raise ServiceError(_("This tournament already has a pair named %(name)s.") % {"name": name}, "pair_name")
    if not isinstance(players, list) or len(players) != 2:
        raise ServiceError(_("A pair has two players."), "players")
    cleaned = [_clean_player(tournament, value, i) for i, value in enumerate(players)]
    first, second = cleaned
    if identities.plain_name(first["name"]) == identities.plain_name(second["name"]):
        raise ServiceError(_("A pair needs two different players."), "players[1].name")
    if first["contact"].strip().casefold() == second["contact"].strip().casefold():
        raise ServiceError(_("Each player gives their own contact: each one receives their own confirmation."),
                           "players[1].contact")
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        again = find_submission(submission)
        if again is not None:
            return again
        signup = SignUp.objects.create(tournament=tournament, pair_name=name, submission=submission, client=digest,
                                       created_at=now)
        for i, data in enumerate(cleaned):
            SignUpPlayer.objects.create(
                signup=signup, position=i, name=data["name"], nickname=data["nickname"], club=data["club"],
                contact=data["contact"], namesake=data["namesake"], token_hash=token_hash(link_token(submission, i)))
        transaction.on_commit(lambda: mail_links(signup, link_url))
        return signup


def confirm_url(token: str) -> str:
    return absolute(reverse("tournaments:signup-confirm", kwargs={"token": token}))


def mail_links(signup: SignUp, link_url=None) -> int:
    """Mail each player their own confirmation link, to their own e-mail contact (never to the sender's page).
    Returns how many mails left."""
    if not mail_on():
        return 0
    sent = 0
    for entry in signup.players.all():
        address = email_in(entry.contact)
        if address is None:
            continue
        token = link_token(signup.submission, entry.position)
        url = (link_url or confirm_url)(token)
        try:
            send_mail(_("Confirm your sign-up at %(tournament)s") % {"tournament": signup.tournament.name},
                      _("%(name)s, you were signed up in the pair %(pair)s at %(tournament)s. If it was you, "
                        "confirm here: %(url)s\n\nIf it was not you, ignore this mail: without your "
                        "confirmation the sign-up expires.")
                      % {"name": entry.name, "pair": signup.pair_name, "tournament": signup.tournament.name,
                         "url": url}, None, [address], fail_silently=False)
        except Exception:  # the organizer still sees the sign-up, and can confirm the player
            logger.exception("could not mail a sign-up confirmation (sign-up %s)", signup.pk)
            continue
        sent += 1
    return sent

# ------------------------------------------------------------------------------------- confirming


def find_player(token: object) -> SignUpPlayer | None:
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return (SignUpPlayer.objects.select_related("signup__tournament", "signup__pair", "player")
            .filter(token_hash=token_hash(token)).first())


def confirm(token: str, *, client: str = "") -> SignUpPlayer:
    """The player of this link (mailed to them) confirms. A second confirmation changes nothing. No PIN is
    asked or checked here."""
    entry = find_player(token)
    if entry is None:
        raise ServiceError(_("This confirmation link is not valid."), "token")
    signup = entry.signup
    if signup.refused_at is not None:
        raise Conflict(_("The organizer refused this sign-up: %(reason)s") % {"reason": signup.refusal_reason},
                       "token")
    if entry.confirmed_at is not None:
        return entry
    if is_expired(signup):
        raise Conflict(_("This sign-up expired: both players did not confirm within %(hours)s hours (or before "
                         "the deadline). Sign up again.") % {"hours": int(confirm_within().total_seconds() // 3600)},
                       "token")
    with transaction.atomic():
        tournament = _lock_tournament(signup.tournament_id)
        entry = SignUpPlayer.objects.select_for_update().get(pk=entry.pk)
        if entry.confirmed_at is None and is_expired(SignUp.objects.get(pk=signup.pk)):  # expired meanwhile
            raise Conflict(_("This sign-up expired: both players did not confirm within %(hours)s hours (or "
                             "before the deadline). Sign up again.")
                           % {"hours": int(confirm_within().total_seconds() // 3600)}, "token")
        if entry.confirmed_at is None:
            entry.confirmed_at = timezone.now()
            entry.confirmed_via = SignUpPlayer.Via.MAIL
            entry.save(update_fields=["confirmed_at", "confirmed_via"])
            advance(SignUp.objects.select_for_update().get(pk=signup.pk), tournament, None)
        return entry


# -------------------------------------------------------------------------------- the organizer's part
