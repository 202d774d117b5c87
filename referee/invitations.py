"""Referees' invitation links: the organizer invites a referee by name from the
tournament's pages and hands over a link (a QR code on their phone); the referee opens it, chooses a
login and a password, and is signed in on "Minhas mesas".

- The token is ``secrets.token_urlsafe`` (192 bits, the table links' convention,
  ``tables.links``); only its SHA-256 is stored, so the link is shown once, to the organizer
  who made it (:func:`invite`, :func:`reissue` return it).
- A link works once, until it expires (``settings.REFEREE_INVITATION_DAYS``, 7 days by default),
  unless the organizer revokes it; a reissue revokes it and gives a new link for the same referee.
  A used link is dead: it checks no password (it is no way to sign in), and the page throttles posts
  to it like ``/entrar/`` (``referee.invitation_views``). A used invitation can be revoked: the
  referee loses the tables it gave them. A login that cannot be chosen is refused without saying
  whether an account has it (:class:`LoginRefused`, counted as a failed sign-in).
- Only the tournament's organizer (staff, superusers) invites, revokes and reissues; every one of
  these writes, and the use of a link, is in the tournament's audit log (``AuditEntry``).
- A double tap makes one invitation: the same organizer inviting the same name again within
  ``DOUBLE_SUBMIT`` reissues the first (one pending link, the newest); a second send of the
  referee's form with the same login and password signs them in again instead of refusing.
- The account a used link made is one of the people the tournament's tables may be given to until the
  invitation is revoked (:func:`invited_referees`, registered with ``tournaments.services.referees``).
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from tournaments import organizer_tools
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, TableAssignment, Tournament

from .models import RefereeInvitation

TOKEN_BYTES = 24  # 32 URL-safe characters, as a table link
DOUBLE_SUBMIT = timedelta(seconds=30)
PENDING, USED, EXPIRED, REVOKED = "pending", "used", "expired", "revoked"


class LoginRefused(ServiceError):
    """The login chosen cannot be had (taken): said without telling whether an account has it, and
    counted as a failed sign-in by the caller (throttled like ``/entrar/``)."""


def _login_refused() -> LoginRefused:
    return LoginRefused(_("This login cannot be chosen: choose another (your name with a number, for instance)."),
                        "username")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def validity() -> timedelta:
    return timedelta(days=float(getattr(settings, "REFEREE_INVITATION_DAYS", 7)))


def state(invitation: RefereeInvitation, now=None) -> str:
    if invitation.revoked_at is not None:
        return REVOKED
    if invitation.used_at is not None:
        return USED
    if invitation.expires_at <= (now or timezone.now()):
        return EXPIRED
    return PENDING


def _require_manager(by, tournament: Tournament) -> None:
    if not tournament_services.can_manage(by, tournament):
        raise Forbidden(_("Only the tournament's organizer invites referees and revokes their links."))


def _json(invitation: RefereeInvitation) -> dict:
    return {"invitation": invitation.pk, "name": invitation.name, "login": invitation.login,
            "table": invitation.table, "expires_at": invitation.expires_at.isoformat()}


def _audit(invitation: RefereeInvitation, actor, action: str, before=None, after=None) -> None:
    AuditEntry.objects.create(tournament_id=invitation.tournament_id, actor=actor, action=action,
                              before=before, after=after)


def _create(tournament: Tournament, by, *, name: str, login: str, table: int | None, now
            ) -> tuple[RefereeInvitation, str]:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = RefereeInvitation.objects.create(
        tournament=tournament, name=name, login=login, table=table, token_hash=token_hash(token),
        created_by=by, created_at=now, expires_at=now + validity())
    return invitation, token


def _suggested_login(login: str) -> str:
    """The login the organizer suggests: checked for its shape only (it is taken when the referee
    chooses it)."""
    login = (login or "").strip()
    if not login:
        return ""
    try:
        get_user_model().username_validator(login)
    except ValidationError:
        raise ServiceError(_("A login has letters, digits and @ . + - _ only, without spaces."), "login") from None
    if len(login) > 150:
        raise ServiceError(_("Give a login of at most 150 characters."), "login")
    return login


def invite(tournament: Tournament, by, *, name: str, login: str = "", table: int | None = None
           ) -> tuple[RefereeInvitation, str]:
    """A new invitation and its token (shown once). ``ServiceError`` naming the field, ``Forbidden``."""
    _require_manager(by, tournament)
    name = organizer_tools.clean_referee_name(name)
    login = _suggested_login(login)
    if table is not None and (type(table) is not int or not 1 <= table <= 10_000):
        raise ServiceError(_("A table is a number from 1 to 10,000."), "table")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        now = timezone.now()
        twin = RefereeInvitation.objects.filter(
            tournament=tournament, created_by=by, name=name, login=login, table=table, used_at__isnull=True,
            revoked_at__isnull=True, created_at__gte=now - DOUBLE_SUBMIT).first()
        if twin is not None:  # the same form sent twice: one pending link, the newest
            return _reissue(twin, by, now)
        invitation, token = _create(tournament, by, name=name, login=login, table=table, now=now)
        _audit(invitation, by, AuditEntry.Action.REFEREE_INVITED, after=_json(invitation))
        return invitation, token


def _reissue(old: RefereeInvitation, by, now) -> tuple[RefereeInvitation, str]:
    if old.revoked_at is None:
        old.revoked_at, old.revoked_by = now, by
        old.save(update_fields=["revoked_at", "revoked_by"])
    invitation, token = _create(old.tournament, by, name=old.name, login=old.login, table=old.table, now=now)
    _audit(invitation, by, AuditEntry.Action.REFEREE_INVITED, before=_json(old), after=_json(invitation))
    return invitation, token


def _locked(invitation: RefereeInvitation, by, *, used_too: bool = False) -> RefereeInvitation:
    invitation = (RefereeInvitation.objects.select_for_update(of=("self",)).select_related("tournament")
                  .get(pk=invitation.pk))
    _require_manager(by, invitation.tournament)
    if invitation.used_at is not None and not used_too:
        raise Conflict(_("This invitation was already used: the referee signs in with the login they chose."),
                       "invitation")
    return invitation


def reissue(invitation: RefereeInvitation, by) -> tuple[RefereeInvitation, str]:
    """Revoke the link (when it still works) and make a new one for the same referee (a lost or
    leaked link, or an expired one). ``Conflict`` when it was used."""
    with transaction.atomic():
        return _reissue(_locked(invitation, by), by, timezone.now())


def revoke(invitation: RefereeInvitation, by) -> RefereeInvitation:
    """The link stops working at once; revoking twice changes nothing. A used invitation is revoked too:
    the referee it made loses the tables it gave them in this tournament (their account stays: it may
    referee elsewhere; the organizer deactivates it in the admin)."""
    with transaction.atomic():
        invitation = _locked(invitation, by, used_too=True)
        if invitation.revoked_at is None:
            invitation.revoked_at, invitation.revoked_by = timezone.now(), by
            invitation.save(update_fields=["revoked_at", "revoked_by"])
            _audit(invitation, by, AuditEntry.Action.INVITATION_REVOKED, before=_json(invitation))
            if invitation.user_id is not None:
                for assignment in (TableAssignment.objects.filter(tournament_id=invitation.tournament_id,
                                                                  referee_id=invitation.user_id)
                                   .select_related("round")):
                    tournament_services.assign_referee(invitation.tournament, by, table=assignment.table,
                                                       referee=None, round=assignment.round)
        return invitation


def invited_referees(tournament: Tournament):
    """The accounts ``tournament``'s invitations made, unless revoked (``tournaments.services.referees``, as
    the people its tables may be given to): a queryset of their ids."""
    return RefereeInvitation.objects.filter(tournament_id=tournament.pk, used_at__isnull=False, revoked_at__isnull=True,
                                            user__isnull=False).values("user_id")


def find(token: str) -> RefereeInvitation | None:
    """The invitation of ``token`` (in any state), or None."""
    if not token or len(token) > 64:
        return None
    return RefereeInvitation.objects.select_related("tournament", "user").filter(token_hash=token_hash(token)).first()


def refusal(invitation: RefereeInvitation | None) -> str | None:
    """Why the link does not work (a sentence for the referee), or None when it does."""
    if invitation is None:
        return _("This invitation link is not valid: check that it was copied whole, or ask the organizer "
                 "for a new one.")
    current = state(invitation)
    when = formats.date_format(timezone.localtime(invitation.used_at or invitation.revoked_at
                                                  or invitation.expires_at), "DATETIME_FORMAT")
    if current == USED:
        return _("This invitation was already used (%(when)s): it works once. Sign in with the login chosen "
                 "then, or ask the organizer for a new link.") % {"when": when}
    if current == REVOKED:
        return _("The organizer revoked this invitation (%(when)s): ask them for a new link.") % {"when": when}
    if current == EXPIRED:
        return _("This invitation expired (%(when)s): ask the organizer for a new link.") % {"when": when}
    return None


def accept(token: str, *, username: str, password: str, password2: str, signed_in_as=None):
    """The referee's account from the link: the login they chose (free, Django's rules) and a password
    that passes the site's validators; the link is then used. The table of the invitation, if any,
    is assigned to them. A second send of the same form by the browser the first one signed in
    (``signed_in_as``, the request's user) returns the same account; a used link checks no password
    (it is not a way to sign in). ``ServiceError`` naming the field; ``Conflict`` (field
    ``token``) when the link does not work."""
    with transaction.atomic():
        found = find(token)
        invitation = (RefereeInvitation.objects.select_for_update(of=("self",)).select_related("tournament", "user")
                      .filter(pk=found.pk).first() if found is not None else None)
        if invitation is not None and invitation.user_id is not None and state(invitation) == USED \
                and getattr(signed_in_as, "pk", None) == invitation.user_id:
            return invitation.user  # the same form sent twice: its account, once
        reason = refusal(invitation)
        if reason:
            raise Conflict(reason, "token")
        if (password or "") != (password2 or ""):
            raise ServiceError(_("The two passwords differ: type the same password twice."), "password2")
        if get_user_model().objects.filter(username__iexact=(username or "").strip()).exists():
            raise _login_refused()
        username = organizer_tools.clean_login(username)
        user = organizer_tools.new_referee_user(invitation.name, username, password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            raise _login_refused() from None
        invitation.used_at, invitation.user = timezone.now(), user
        invitation.save(update_fields=["used_at", "user"])
        _audit(invitation, user, AuditEntry.Action.INVITATION_USED, after={**_json(invitation), "user": user.pk,
                                                                           "username": username})
        assigner = invitation.created_by or invitation.tournament.organizer
        if invitation.table is not None and tournament_services.can_manage(assigner, invitation.tournament):
            tournament_services.assign_referee(invitation.tournament, assigner, table=invitation.table,
                                               referee=user)
        return user
