"""Organizer accounts: one service for ``manage.py create_organizer`` and the
site's page "Contas" (``referee.account_views``).

An organizer is an account with ``events.add_tournament`` and an organization it administers (its club,
named on creation or after it): it runs what its organizations own and nothing else
(``events.access``; docs/security.md, "Many clubs on one site"). It is not staff. Who may create one from
the pages (:func:`may_manage_accounts`): a superuser (a site operator, ``create_organizer --superuser``) or
an account holding Django's "add user" permission (``auth.add_user``) — an *account manager*.

From the pages the account is made without a password and the manager gets a link, shown once, where
the new organizer chooses their own password (``referee.account_views``: Django's password-reset
token, valid ``PASSWORD_RESET_TIMEOUT`` seconds — :func:`link_days` — and only until a password is
set, since it is made from the account's password hash). The password never passes through the manager.
"""
from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from events import organizations


USERNAME = re.compile(r"^[\w.@+-]{1,150}$")


def may_manage_accounts(user) -> bool:
    """A superuser, or staff with ``auth.add_user``: may create organizer accounts (and unlock any login)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_superuser or user.has_perm("auth.add_user"))


def create_organizer(*, username: str, name: str = "", email: str = "", password: str | None = None,
                     superuser: bool = False, manager: bool = False, organization: str = "", by=None):
    """An organizer account administering ``organization`` (a new club of that name; by default named after
    the account); ``superuser`` a site operator (staff, for Django's admin);
    ``manager`` one that may create organizers too (``auth.add_user``). ``password`` is held to the
    password validators; ``None`` leaves the account without one until its owner sets it (from a link). ``by`` (the pages): must be an account manager, and only a superuser makes
    a superuser. Raises ``ServiceError`` naming the field."""
    if by is not None:
        if not may_manage_accounts(by):
            raise Forbidden(_("Only the site's operators and account managers create organizer accounts."))
        if superuser and not by.is_superuser:
            raise Forbidden(_("Only a site operator (superuser) makes another."), "superuser")
    User = get_user_model()
    username = (username or "").strip()
    if not USERNAME.match(username):
        raise ServiceError(_("Choose a login of letters, digits and . @ + - _ (at most 150)."), "username")
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(_("The login %(login)s is taken: choose another.") % {"login": username}, "username")
    email = (email or "").strip()
    if email and ("@" not in email or len(email) > 254):
        raise ServiceError(_("Enter a valid e-mail address (or leave it empty)."), "email")
    first, _sep, last = (name or "").strip().partition(" ")
    user = User(username=username, email=email, first_name=first[:150], last_name=last.strip()[:150],
                is_staff=superuser, is_superuser=superuser)
    if password is None:
        user.set_unusable_password()
    else:
        try:
            validate_password(password, user)
        except ValidationError as problems:
            raise ServiceError(" ".join(problems.messages), "password") from None
        user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
            permissions = Permission.objects.filter(content_type__app_label="events", codename="add_tournament")
            if manager:
                permissions = permissions | Permission.objects.filter(content_type__app_label="auth",
                                                                      codename="add_user")
            user.user_permissions.add(*permissions)
            organizations.create_organization(user, name=(organization or name or username).strip())
    except IntegrityError:  # two managers, one login, at the same moment
        raise ServiceError(_("The login %(login)s is taken: choose another.") % {"login": username},
                           "username") from None
    return user


def link_days() -> int:
    return max(1, round(settings.PASSWORD_RESET_TIMEOUT / 86400))
