"""Players sign themselves up on a tournament's public page (the public sign-up).

- **Options** (:func:`configure_signup`, the organizer, audited): open or closed, a limit of pairs, a
  waiting list, a deadline, the organizer's approval of each pair.
- **A pair signs up** (:func:`submit`): the pair's name and its two players, each with their own contact.
  The sign-up takes **no PIN**: a player's signing credential is checked only in a match they play
  (``scoring.pins``), so nobody can guess it or lock it out from this public page. A name alike to a
  registered player (``tournaments.players.NameIndex``) is a new player flagged to the organizer
  ("namesake"), never a silent merge; the organizer links it to the registered player
  (:func:`link_player`, audited) when it is them. The contact is never shown outside the organizers' pages.
- **Each player confirms by a link that reaches them, not the sender**: the link of each player is mailed to
  that player's own e-mail contact (:func:`mail_links`) and never shown on the page that answers the form;
  the two players give two different contacts. A player whose contact is not an e-mail (or when the site
  sends no mail) is confirmed by the organizer, who approves the sign-up after speaking to them
  (:func:`approve`). The link's key is an HMAC of the form's one-time key under ``SECRET_KEY`` (only its
  SHA-256 is stored), so the same form sent twice is the same sign-up with the same links.
- **Then** (:func:`_advance`): confirmed by both (and approved, when asked) the sign-up takes a place, a
  :class:`~tournaments.models.Pair` registered through ``registration`` (audited as the registration of a
  pair, with the sign-up's id); without a place it waits in the waiting list by the time it was ready, and
  a pair that withdraws before the draw gives its place to the first one waiting
  (:func:`fill_from_waiting_list`, called by ``withdraw_pair``).
- **An unconfirmed sign-up takes no place and expires**: a place (or a waiting-list position) is taken
  only when both players confirmed (and the organizer approved, when asked); a sign-up that is not
  confirmed by both players within :func:`confirm_within` (``TRUCO_SIGNUP_CONFIRM_HOURS``, 48 hours,
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
from django.db import transaction
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db.models import Count, F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from people.services.players import create_player
from scoring.pin_mail import first_notice_in
from scoring.pins import address_of
from scoring.site import absolute

from .. import players as identities
from ..models import AuditEntry, Pair, Player, SignUp, SignUpPlayer, SignUpSettings, Tournament
from .base import _audit, _lock_tournament, _reason, _require_manager
from .registration import _check_registration_open, _create_pair, _pair_json, clean_player, clean_registration

logger = logging.getLogger(__name__)
FLOOD_MAIL_EVERY = timedelta(hours=1)
SUBMISSION_MAX = 64
REFUSED, REGISTERED, WITHDRAWN, WAITING, APPROVAL, CONFIRMATION, EXPIRED = (
    "refused", "registered", "withdrawn", "waiting", "approval", "confirmation", "expired")


def per_address_hour() -> int:
    """Sign-ups an hour one address may send to one tournament (``TRUCO_SIGNUPS_PER_ADDRESS_HOUR``, default 3)."""
    return int(getattr(settings, "TRUCO_SIGNUPS_PER_ADDRESS_HOUR", 3))


def mail_on() -> bool:
    return bool(getattr(settings, "EMAIL_CONFIGURED", False))


def email_in(contact: str) -> str | None:
    """The contact when it is an e-mail address (a phone number is not)."""
    contact = (contact or "").strip()
    try:
        validate_email(contact)
    except ValidationError:
        return None
    return contact


def reachable(entry: SignUpPlayer) -> bool:
    """Whether this player's link was mailed to them (else the organizer confirms them)."""
    return mail_on() and email_in(entry.contact) is not None


def confirm_within() -> timedelta:
    """How long both players have to confirm a sign-up (``TRUCO_SIGNUP_CONFIRM_HOURS``, default 48)."""
    return timedelta(hours=int(getattr(settings, "TRUCO_SIGNUP_CONFIRM_HOURS", 48)))


def expires_at(signup: SignUp, options: SignUpSettings | None = None) -> datetime:
    """When ``signup`` expires unless both players confirmed: ``confirm_within`` after it was sent, or the
    sign-up deadline if that comes first."""
    options = options or options_of(signup.tournament)
    end = signup.created_at + confirm_within()
    return min(end, options.deadline) if options.deadline is not None else end


def _unconfirmed(tournament: Tournament):
    return SignUp.objects.filter(tournament=tournament, refused_at__isnull=True, pair__isnull=True,
                                 ready_at__isnull=True, players__confirmed_at__isnull=True)


def _expired_ids(tournament: Tournament, now: datetime | None = None):
    """The sign-ups not confirmed by both players in time (ids, as a subquery)."""
    now = now or timezone.now()
    late = Q(created_at__lte=now - confirm_within())
    deadline = options_of(tournament).deadline
    if deadline is not None and deadline <= now:
        late |= Q(created_at__lte=now)
    return _unconfirmed(tournament).filter(late).values("pk")


def is_expired(signup: SignUp, entries: list[SignUpPlayer] | None = None, now: datetime | None = None) -> bool:
    if signup.refused_at is not None or signup.pair_id is not None or signup.ready_at is not None:
        return False
    entries = entries if entries is not None else list(signup.players.all())
    if all(e.confirmed_at is not None for e in entries):
        return False
    return (now or timezone.now()) >= expires_at(signup)


def options_of(tournament: Tournament) -> SignUpSettings:
    """The tournament's sign-up options (closed, unsaved, when the organizer never set them)."""
    found = SignUpSettings.objects.filter(tournament=tournament).first()
    return found if found is not None else SignUpSettings(tournament=tournament)


def active_pairs(tournament: Tournament) -> int:
    return Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN).count()


def closed_because(tournament: Tournament, options: SignUpSettings, now: datetime | None = None) -> str:
    """Why the public sign-up takes no new pair now ("" when it does)."""
    if not options.open:
        return _("Sign-up is not open for this tournament.")
    if options.deadline is not None and options.deadline <= (now or timezone.now()):
        return _("The sign-up deadline has passed.")
    try:
        _check_registration_open(tournament)
    except Conflict as error:
        return error.message
    if (options.pair_limit is not None and not options.waiting_list
            and active_pairs(tournament) >= options.pair_limit):
        return _("The tournament is full (%(limit)s pairs).") % {"limit": options.pair_limit}
    return ""


def configure_signup(tournament: Tournament, by, *, open: bool, pair_limit: int | None, waiting_list: bool,
                     deadline: datetime | None, approval_required: bool) -> SignUpSettings:
    """Save the sign-up options (audited); a raised limit fills places from the waiting list."""
    if pair_limit is not None and (type(pair_limit) is not int or not 2 <= pair_limit <= 10_000):
        raise ServiceError(_("A limit of pairs is a whole number from 2 to 10,000, or empty."), "pair_limit")
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        options = options_of(tournament)
        before = _options_json(options) if options.pk else None
        options.open, options.pair_limit, options.waiting_list = bool(open), pair_limit, bool(waiting_list)
        options.deadline, options.approval_required = deadline, bool(approval_required)
        options.save()
        _audit(tournament, by, AuditEntry.Action.SIGNUP_CONFIGURED, before=before, after=_options_json(options))
        for signup in _live(tournament).filter(ready_at__isnull=True).prefetch_related("players"):
            _advance(signup, tournament, by, options)  # approval no longer asked: confirmed pairs are ready
        fill_from_waiting_list(tournament, by, options)
        return options


def _options_json(options: SignUpSettings) -> dict:
    return {"open": options.open, "pair_limit": options.pair_limit, "waiting_list": options.waiting_list,
            "deadline": options.deadline.isoformat() if options.deadline else None,
            "approval_required": options.approval_required}


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
            or _live(tournament).filter(pair_name__iexact=name).exists()):
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


def _live(tournament: Tournament):
    """Sign-ups still in play (neither refused, expired, nor a pair yet)."""
    return (SignUp.objects.filter(tournament=tournament, refused_at__isnull=True, pair__isnull=True)
            .exclude(pk__in=_expired_ids(tournament)))


def _playing(tournament: Tournament, player: Player) -> Pair | None:
    return (Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN)
            .filter(Q(first_player=player) | Q(second_player=player) | Q(substitute=player)).first())


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
            _advance(SignUp.objects.select_for_update().get(pk=signup.pk), tournament, None)
        return entry


# -------------------------------------------------------------------------------- the organizer's part


def state(signup: SignUp, entries: list[SignUpPlayer] | None = None) -> str:
    if signup.refused_at is not None:
        return REFUSED
    if signup.pair_id is not None:
        return WITHDRAWN if signup.pair.status == Pair.Status.WITHDRAWN else REGISTERED
    if signup.ready_at is not None:
        return WAITING
    entries = entries if entries is not None else list(signup.players.all())
    if all(e.confirmed_at is not None for e in entries):
        return APPROVAL
    return EXPIRED if is_expired(signup, entries) else CONFIRMATION


def approve(signup: SignUp, by) -> SignUp:
    """The organizer approves a sign-up (audited): registered as soon as both players confirmed and a place
    is free. A player whose link could not reach them (no e-mail contact, or no mail on this site) is
    confirmed by this approval: the organizer spoke to them. Approving twice changes nothing."""
    with transaction.atomic():
        tournament = _lock_tournament(signup.tournament_id)
        _require_manager(by, tournament)
        signup = SignUp.objects.select_for_update().get(pk=signup.pk, tournament=tournament)
        if signup.refused_at is not None:
            raise Conflict(_("This sign-up was refused."), "signup")
        if is_expired(signup):
            raise Conflict(_("This sign-up expired."), "signup")
        vouched = [e for e in signup.players.all() if e.confirmed_at is None and not reachable(e)]
        if signup.approved_at is None or vouched:
            now = timezone.now()
            for entry in vouched:
                entry.confirmed_at, entry.confirmed_via = now, SignUpPlayer.Via.ORGANIZER
                entry.save(update_fields=["confirmed_at", "confirmed_via"])
            signup.approved_at, signup.approved_by = signup.approved_at or now, signup.approved_by or by
            signup.save(update_fields=["approved_at", "approved_by"])
            _audit(tournament, by, AuditEntry.Action.SIGNUP_APPROVED, after={
                "signup": signup.pk, "pair_name": signup.pair_name, "confirmed": [e.position for e in vouched]})
            _advance(signup, tournament, by)
        return signup


def candidates(tournament: Tournament, entry: SignUpPlayer) -> list[Player]:
    """The registered players named like ``entry`` (whom the organizer may link it to)."""
    return [player for player, _pair in identities.NameIndex(tournament).lookup(entry.name)]


def link_player(entry: SignUpPlayer, player_id: object, by) -> SignUpPlayer:
    """The organizer says this sign-up's player is the registered player ``player_id`` (one named alike):
    their history stays theirs. Audited; no PIN is asked or checked."""
    with transaction.atomic():
        tournament = _lock_tournament(entry.signup.tournament_id)
        _require_manager(by, tournament)
        entry = SignUpPlayer.objects.select_for_update().select_related("signup").get(pk=entry.pk)
        signup = entry.signup
        if signup.refused_at is not None or signup.pair_id is not None:
            raise Conflict(_("This sign-up is closed: registered or refused."), "signup")
        player = next((p for p in candidates(tournament, entry) if str(p.pk) == str(player_id)), None)
        if player is None:
            raise ServiceError(_("Only a registered player with this name can be linked."), "player")
        clash = _playing(tournament, player)
        other = signup.players.exclude(pk=entry.pk).first()
        if clash is not None or (other is not None and other.player_id == player.pk):
            raise Conflict(_("%(player)s already plays in this tournament.") % {"player": player.name}, "player")
        entry.player, entry.namesake = player, False
        entry.save(update_fields=["player", "namesake"])
        _audit(tournament, by, AuditEntry.Action.SIGNUP_APPROVED, after={
            "signup": signup.pk, "pair_name": signup.pair_name, "linked": {str(entry.position): player.pk}})
        return entry


def refuse(signup: SignUp, by, reason: object) -> SignUp:
    """The organizer refuses a sign-up not yet registered (``reason`` required, audited, shown on its links)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        tournament = _lock_tournament(signup.tournament_id)
        _require_manager(by, tournament)
        signup = SignUp.objects.select_for_update().get(pk=signup.pk, tournament=tournament)
        if signup.pair_id is not None:
            raise Conflict(_("This pair is registered already: withdraw it instead."), "signup")
        if signup.refused_at is None:
            signup.refused_at, signup.refusal_reason = timezone.now(), reason
            signup.save(update_fields=["refused_at", "refusal_reason"])
            _audit(tournament, by, AuditEntry.Action.SIGNUP_REFUSED, reason=reason,
                   after={"signup": signup.pk, "pair_name": signup.pair_name})
        return signup


def _ready(signup: SignUp, options: SignUpSettings) -> bool:
    confirmed = all(e.confirmed_at is not None for e in signup.players.all())
    return confirmed and (signup.approved_at is not None or not options.approval_required)


def _advance(signup: SignUp, tournament: Tournament, by, options: SignUpSettings | None = None) -> None:
    """Inside the tournament's lock: a sign-up confirmed (and approved) enters the waiting list, then takes a
    free place if there is one."""
    if signup.refused_at is not None or signup.pair_id is not None:
        return
    options = options or options_of(tournament)
    if signup.ready_at is None and _ready(signup, options):
        signup.ready_at = timezone.now()
        signup.save(update_fields=["ready_at"])
        if options.pk is not None:
            fill_from_waiting_list(tournament, by, options)


def fill_from_waiting_list(tournament: Tournament, by=None, options: SignUpSettings | None = None) -> list[Pair]:
    """Inside the tournament's lock: register the sign-ups waiting, first ready first, while places are free
    and registration is open (before the draw; a Swiss takes late pairs). Returns the pairs registered."""
    options = options or options_of(tournament)
    try:
        _check_registration_open(tournament)
    except Conflict:
        return []
    made = []
    free = None if options.pair_limit is None else options.pair_limit - active_pairs(tournament)
    waiting = (_live(tournament).filter(ready_at__isnull=False).order_by("ready_at", "id")
               .prefetch_related("players__player"))
    for signup in waiting:
        if free is not None and free <= 0:
            break
        try:
            with transaction.atomic():  # one that cannot be registered (its name taken since) waits, alone
                made.append(_register(signup, tournament, by))
        except ServiceError:
            continue
        if free is not None:
            free -= 1
    return made


def _register(signup: SignUp, tournament: Tournament, by) -> Pair:
    """The sign-up's pair, through registration's checks; new players are made here (never matched by name
    and contact: only the organizer links an existing player, :func:`link_player`)."""
    people = []
    for entry in signup.players.all():
        if entry.player is None:
            entry.player = create_player(name=entry.name, nickname=entry.nickname, club=entry.club,
                                         contact=entry.contact, entered_by_id=tournament.organizer_id)
            entry.save(update_fields=["player"])
        people.append(entry.player)
    cleaned = clean_registration(tournament, {"name": signup.pair_name, "first_player": people[0],
                                              "second_player": people[1]}, namesakes="different")
    pair = _create_pair(tournament, cleaned)
    signup.pair = pair
    signup.save(update_fields=["pair"])
    _audit(tournament, by, AuditEntry.Action.PAIR_REGISTERED, after={**_pair_json(pair), "signup": signup.pk})
    return pair


def signups_of(tournament: Tournament) -> list[SignUp]:
    """Every sign-up of the tournament with its players and state, waiting ones in their order."""
    rows = list(SignUp.objects.filter(tournament=tournament).select_related("pair").prefetch_related("players")
                .order_by("created_at", "id"))
    place = 0
    for row in sorted((r for r in rows if r.ready_at is not None), key=lambda r: (r.ready_at, r.pk)):
        if row.pair_id is None and row.refused_at is None:
            place += 1
            row.waiting_place = place
    for row in rows:
        row.entries = list(row.players.all())
        row.state = state(row, row.entries)
        row.vouch = any(e.confirmed_at is None and not reachable(e) for e in row.entries)
        for entry in row.entries:
            entry.reachable = reachable(entry)
            entry.candidates = candidates(tournament, entry) if entry.namesake and entry.player_id is None else []
    return rows


def counts(tournament: Tournament) -> dict:
    """What the public page says: places taken, the limit, pairs waiting."""
    options = options_of(tournament)
    waiting = _live(tournament).filter(ready_at__isnull=False).aggregate(n=Count("id"))["n"]
    return {"options": options, "pairs": active_pairs(tournament), "waiting": waiting,
            "closed": closed_because(tournament, options)}
