"""How a table's token is kept: never in clear (docs/security.md, "Table card link").

A table link's or a table card's token (``/mesa/<token>/``, ``Authorization: Table <token>``) is looked up
by its **digest**, a keyed HMAC-SHA256 (Django's ``salted_hmac``, from ``SECRET_KEY``), stored unique and
indexed; and kept **sealed** (Fernet, from the ``cryptography`` package: AES-128-CBC with an HMAC, a key
derived from ``SECRET_KEY`` the same way), because a card or a blank súmula printed again must carry the
same token as the first print. A copy of the database (a backup, a dump read by someone with the app's
credentials) therefore holds no token that opens a table: neither the digest nor the sealed text is one,
and without ``SECRET_KEY`` neither tells the token back. A team captain's link (``teams``, docs/teams.md) is
kept the same way, by these functions.

A changed ``SECRET_KEY`` keeps every printed card working while the old key stays in
``SECRET_KEY_FALLBACKS`` (Django's rotation): a token is looked up under every key's digest, and unsealed
by whichever key sealed it. Without the old key the links and cards already issued stop working (the
organizer reissues them) and are never read by a wrong key (:class:`TokenUnreadable`).
"""
from __future__ import annotations

import base64
import functools
import hmac

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.utils.crypto import salted_hmac

DIGEST_SALT = "tables.token_keys.digest"
SEAL_SALT = "tables.token_keys.seal"
DIGEST_SHAPE = r"^[0-9a-f]{64}$"


class TokenUnreadable(RuntimeError):
    """A stored token sealed under a key this site no longer has (``SECRET_KEY`` changed without keeping
    the old one in ``SECRET_KEY_FALLBACKS``): the organizer reissues the link or the card."""


def _secrets() -> list[str]:
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def digest(token: str, secret: str | None = None) -> str:
    """The token's keyed digest under ``secret`` (the current ``SECRET_KEY`` by default): what is stored."""
    return salted_hmac(DIGEST_SALT, token, secret=secret or settings.SECRET_KEY, algorithm="sha256").hexdigest()


def digests(token: str) -> list[str]:
    """The digests ``token`` may be stored under: the current key's first, then each fallback's."""
    return [digest(token, secret) for secret in _secrets()]


def matches(token: str, stored: str) -> bool:
    """``stored`` is ``token``'s digest under one of the keys, compared in constant time."""
    return any(hmac.compare_digest(candidate, stored) for candidate in digests(token))


@functools.lru_cache(maxsize=8)
def _fernet(secret: str) -> Fernet:
    key = salted_hmac(SEAL_SALT, "fernet", secret=secret, algorithm="sha256").digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(token: str) -> str:
    """``token`` sealed under the current key (a fresh IV each time: two seals of one token differ)."""
    return _fernet(settings.SECRET_KEY).encrypt(token.encode("ascii")).decode("ascii")


def unseal(sealed: str) -> str:
    """The token ``sealed`` holds, by whichever of the keys sealed it."""
    try:
        return MultiFernet([_fernet(secret) for secret in _secrets()]).decrypt(sealed.encode("ascii")).decode("ascii")
    except (InvalidToken, ValueError) as unreadable:
        raise TokenUnreadable("this table token was sealed under a SECRET_KEY the site no longer has "
                              "(keep the old key in SECRET_KEY_FALLBACKS, or reissue the link)") from unreadable
