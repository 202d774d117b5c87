"""API tokens for scripts: ``Authorization: Token <key>`` on ``/api/…``.

- A token belongs to one user and carries exactly that user's rights, no more (every permission check
  reads ``request.user``, as with a session); an inactive user's tokens answer 401.
- The key (``truco_`` and 40 URL-safe characters, 240 bits) is shown once, to its owner, when made
  (:func:`create`); only its SHA-256 is stored (:class:`ApiToken`), with its first characters (``prefix``)
  for the owner to tell their tokens apart. A high-entropy key needs no slow hash: nothing to brute-force.
- Revoked (:func:`revoke`) means refused at once, for good (401); a token may also expire (``expires_at``).
- A token is no session: no CSRF (a script sends no cookie), no sign-in to the pages, never in a URL.
- ``last_used_at`` is written at most once a minute per token (not a write per request).
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from config.errors import Conflict, ServiceError

SCHEME = b"token"
PREFIX = "truco_"
NAME_MAX = 60
TOKENS_PER_USER = 20
USED_EVERY = timedelta(minutes=1)


class ApiToken(models.Model):
    """A user's API key for scripts: its SHA-256, never the key."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=gettext_lazy("user"))
    name = models.CharField(gettext_lazy("name"), max_length=NAME_MAX,
                            help_text=gettext_lazy("What the script is, to recognise the token later."))
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(gettext_lazy("start of the key"), max_length=16, editable=False)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    expires_at = models.DateTimeField(gettext_lazy("expires at"), null=True, blank=True)
    last_used_at = models.DateTimeField(gettext_lazy("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(gettext_lazy("revoked at"), null=True, blank=True)

    class Meta:
        app_label = "scoring"
        ordering = ["-created_at", "-id"]
        verbose_name = gettext_lazy("API token")
        verbose_name_plural = gettext_lazy("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > timezone.now())


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def create(user, name: object, days: object = None) -> tuple[ApiToken, str]:
    """A new token for ``user`` named ``name`` (valid ``days`` days, or until revoked): the row and the key,
    which is never shown again."""
    if not _is_user(user):
        raise ServiceError(_("Sign in to make an API token."), "user")
    text = " ".join(name.split()) if isinstance(name, str) else ""
    if not text:
        raise ServiceError(_("Name the token (what the script is)."), "name")
    if len(text) > NAME_MAX:
        raise ServiceError(_("At most %(limit)s characters.") % {"limit": NAME_MAX}, "name")
    if days in (None, ""):
        expires = None
    elif isinstance(days, int) and not isinstance(days, bool) and 1 <= days <= 3650:
        expires = timezone.now() + timedelta(days=days)
    else:
        raise ServiceError(_("Give a whole number of days from 1 to 3650, or leave it empty."), "days")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= TOKENS_PER_USER:
        raise Conflict(_("You have %(n)s active tokens: revoke one first.") % {"n": TOKENS_PER_USER}, "name")
    key = PREFIX + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(user=user, name=text, key_hash=key_hash(key), prefix=key[:len(PREFIX) + 6],
                                    expires_at=expires)
    return token, key


def revoke(token_id: object, user) -> ApiToken:
    """Revoke one of ``user``'s tokens (a second revoke changes nothing); another user's token is not found."""
    token = ApiToken.objects.filter(pk=token_id if isinstance(token_id, int) else -1, user_id=getattr(user, "pk", None)
                                    ).first() if _is_user(user) else None
    if token is None:
        raise ServiceError(_("No such token of yours."), "token")
    if token.revoked_at is None:
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        token.refresh_from_db()
    return token


def tokens_of(user):
    return ApiToken.objects.filter(user=user) if _is_user(user) else ApiToken.objects.none()


def resolve(key: str) -> ApiToken | None:
    """The active token with this key, its user active, or None."""
    if not key.startswith(PREFIX) or len(key) > 100:
        return None
    now = timezone.now()
    token = (ApiToken.objects.select_related("user")
             .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now), key_hash=key_hash(key), revoked_at__isnull=True)
             .first())
    if token is None or not token.user.is_active:
        return None
    if token.last_used_at is None or token.last_used_at < now - USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


class TokenAuthentication(BaseAuthentication):
    """``Authorization: Token <key>``: the token's owner, with their rights; a revoked, expired or unknown key
    answers 401 (never falls back to anonymous)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != SCHEME:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_('Send the API token: "Authorization: Token <key>".'))
        token = resolve(parts[1].decode("ascii", "replace"))
        if token is None:
            raise AuthenticationFailed(_("This API token is not valid: unknown, expired or revoked."))
        return token.user, token

    def authenticate_header(self, request) -> str:
        return "Token"


try:  # the OpenAPI schema documents the scheme (drf-spectacular)
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
        target_class = TokenAuthentication
        name = "apiToken"

        def get_security_definition(self, auto_schema):
            return {"type": "apiKey", "in": "header", "name": "Authorization",
                    "description": "`Token <key>`: a user's API token for scripts, made and revoked on "
                                   "`/conta/tokens/`; it carries exactly its owner's rights (docs/security.md)."}
except ImportError:  # pragma: no cover
    pass
