"""The organizer's side of the public sign-up (``signup`` is the players' side: a pair signs up, each
player confirms by their own link).

- **Options** (:func:`configure_signup`, the organizer, audited): open or closed, a limit of pairs, a
  waiting list, a deadline, the organizer's approval of each pair; why the sign-up takes no pair now
  (:func:`closed_because`) and what the public page says (:func:`counts`).
- **Where each sign-up stands** (:func:`state`): waiting for its players' confirmation, expired (not confirmed
  by both within :func:`confirm_within`, never past the deadline), waiting for the organizer's approval,
  waiting for a place, registered, withdrawn or refused; the organizer's list (:func:`signups_of`).
- **The organizer decides**: approves (:func:`approve`; a player no link could reach is confirmed by it),
  refuses with a reason (:func:`refuse`), links a player to the registered player named alike
  (:func:`link_player`). All audited, inside the tournament's lock.
- **The places** (:func:`advance`): a sign-up confirmed by both (and approved, when asked) enters the
  waiting list by the time it was ready and takes a free place, registered as a pair through
  ``registration`` (audited as the registration of a pair, with the sign-up's id); a pair that withdraws
  before the draw gives its place to the first one waiting (:func:`fill_from_waiting_list`, called by
  ``withdraw_pair``).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from people.services.players import create_player

from .. import players as identities
from ..models import AuditEntry, Pair, Player, SignUp, SignUpPlayer, SignUpSettings, Tournament
from .base import _audit, _lock_tournament, _reason, _require_manager
from .registration import _check_registration_open, _create_pair, _pair_json, clean_registration

REFUSED, REGISTERED, WITHDRAWN, WAITING, APPROVAL, CONFIRMATION, EXPIRED = (
    "refused", "registered", "withdrawn", "waiting", "approval", "confirmation", "expired")



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
        for signup in signups_in_play(tournament).filter(ready_at__isnull=True).prefetch_related("players"):
            advance(signup, tournament, by, options)  # approval no longer asked: confirmed pairs are ready
        fill_from_waiting_list(tournament, by, options)
        return options


def _options_json(options: SignUpSettings) -> dict:
    return {"open": options.open, "pair_limit": options.pair_limit, "waiting_list": options.waiting_list,
            "deadline": options.deadline.isoformat() if options.deadline else None,
            "approval_required": options.approval_required}



def signups_in_play(tournament: Tournament):
    """Sign-ups still in play (neither refused, expired, nor a pair yet)."""
    return (SignUp.objects.filter(tournament=tournament, refused_at__isnull=True, pair__isnull=True)
            .exclude(pk__in=_expired_ids(tournament)))


def _playing(tournament: Tournament, player: Player) -> Pair | None:
    return (Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN)
            .filter(Q(first_player=player) | Q(second_player=player) | Q(substitute=player)).first())



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
            advance(signup, tournament, by)
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


def advance(signup: SignUp, tournament: Tournament, by, options: SignUpSettings | None = None) -> None:
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
    waiting = (signups_in_play(tournament).filter(ready_at__isnull=False).order_by("ready_at", "id")
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
    waiting = signups_in_play(tournament).filter(ready_at__isnull=False).aggregate(n=Count("id"))["n"]
    return {"options": options, "pairs": active_pairs(tournament), "waiting": waiting,
            "closed": closed_because(tournament, options)}
