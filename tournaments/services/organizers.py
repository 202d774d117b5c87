"""A tournament's co-organizers: added by login or by a one-use invitation link, removed,
every step in the tournament's audit log. A co-organizer has the organizer's rights
(``events.access.manages``), adding and removing other co-organizers included; nobody removes the
tournament's own ``organizer``.

The invitation token is ``secrets.token_urlsafe`` (192 bits, as the referees' links); only its SHA-256 is
stored, so the link is shown once, to who made it. It works once, for ``ORGANIZER_INVITATION_DAYS`` (7),
for the signed-in user who opens it; a repeat by the same user (a double tap) changes nothing.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError

from ..models import AuditEntry, CoOrganizer, OrganizerInvitation, Tournament
from .base import _audit, _is_user, _lock_tournament, _require_manager

TOKEN_BYTES = 24


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def validity() -> timedelta:
    return timedelta(days=float(getattr(settings, "ORGANIZER_INVITATION_DAYS", 7)))


def organizers_of(tournament: Tournament) -> list:
    """The tournament's organizer then its co-organizers (users), in the order they joined."""
    rows = CoOrganizer.objects.filter(tournament=tournament).select_related("user")
    return [tournament.organizer] + [row.user for row in rows]


def _add(tournament: Tournament, by, user, via: str, added_by=None) -> CoOrganizer:
    if user.pk == tournament.organizer_id:
        raise Conflict(_("%(login)s is this tournament's organizer already.") % {"login": user.get_username()},
                       "username")
    found = CoOrganizer.objects.filter(tournament=tournament, user=user).first()
    if found is not None:  # a second send of the same form: done already
        return found
    try:
        with transaction.atomic():
            row = CoOrganizer.objects.create(tournament=tournament, user=user,
                                             added_by=added_by or (by if _is_user(by) else None))
    except IntegrityError:
        return CoOrganizer.objects.get(tournament=tournament, user=user)
    _audit(tournament, by, AuditEntry.Action.CO_ORGANIZER_ADDED,
           after={"user": user.pk, "username": user.get_username(), "via": via})
    return row


def add_co_organizer(tournament: Tournament, by, username: object) -> CoOrganizer:
    """Give the account ``username`` the organizer's rights on ``tournament``."""
    login = username.strip() if isinstance(username, str) else ""
    if not login:
        raise ServiceError(_("Give the person's login."), "username")
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        user = get_user_model().objects.filter(username__iexact=login, is_active=True).first()
        if user is None:
            raise ServiceError(_("No active account has the login %(login)s: invite them by link instead.")
                               % {"login": login[:150]}, "username")
        return _add(tournament, by, user, "username")


def remove_co_organizer(tournament: Tournament, by, user_id: object) -> None:
    """Take a co-organizer's rights away (a co-organizer may leave by removing themselves)."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        row = CoOrganizer.objects.filter(tournament=tournament, user_id=user_id if type(user_id) is int else -1
                                         ).select_related("user").first()
        if row is None:
            raise ServiceError(_("This person is not a co-organizer of this tournament."), "user")
        row.delete()
        _audit(tournament, by, AuditEntry.Action.CO_ORGANIZER_REMOVED,
               before={"user": row.user_id, "username": row.user.get_username()})


def invite(tournament: Tournament, by) -> tuple[OrganizerInvitation, str]:
    """A new invitation link: the row and its token (shown once)."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = timezone.now()
        invitation = OrganizerInvitation.objects.create(
            tournament=tournament, token_hash=token_hash(token), created_by=by if _is_user(by) else None,
            created_at=now, expires_at=now + validity())
        _audit(tournament, by, AuditEntry.Action.ORGANIZER_INVITED,
               after={"invitation": invitation.pk, "expires_at": invitation.expires_at.isoformat()})
        return invitation, token


def revoke_invitation(invitation: OrganizerInvitation, by) -> None:
    with transaction.atomic():
        _lock_tournament(invitation.tournament_id)
        _require_manager(by, invitation.tournament)
        OrganizerInvitation.objects.filter(pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True).update(
            revoked_at=timezone.now())


def find(token: str) -> OrganizerInvitation | None:
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return OrganizerInvitation.objects.select_related("tournament").filter(token_hash=token_hash(token)).first()


def refusal(invitation: OrganizerInvitation | None, user=None) -> str | None:
    """Why this link does nothing (None: it works for ``user``)."""
    if invitation is None:
        return _("This invitation link is not valid.")
    if invitation.revoked_at is not None:
        return _("This invitation was revoked.")
    if invitation.used_at is not None and (user is None or invitation.used_by_id != user.pk):
        return _("This invitation was already used.")
    if invitation.used_at is None and invitation.expires_at <= timezone.now():
        return _("This invitation expired: ask for a new link.")
    return None


def accept(token: str, user) -> CoOrganizer:
    """The signed-in ``user`` becomes a co-organizer through the link ``token``."""
    if not _is_user(user):
        raise Forbidden(_("Sign in (or create your account) first, then open the link again."))
    with transaction.atomic():
        invitation = find(token)
        if invitation is not None:
            invitation = OrganizerInvitation.objects.select_for_update().get(pk=invitation.pk)
        why = refusal(invitation, user)
        if why:
            raise Conflict(why, "token")
        tournament = _lock_tournament(invitation.tournament_id)
        if invitation.used_at is None:
            invitation.used_at, invitation.used_by = timezone.now(), user
            invitation.save(update_fields=["used_at", "used_by"])
        if user.pk == tournament.organizer_id:
            raise Conflict(_("You are this tournament's organizer already."), "token")
        return _add(tournament, user, user, f"link:{invitation.pk}", added_by=invitation.created_by)
