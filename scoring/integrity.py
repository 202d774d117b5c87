"""Tamper evidence beyond the stored copy (art. 25: what both pairs signed stays what they signed).

- **Server seal**: each súmula version is signed by the server with an Ed25519 key that is not in
  the database (``SUMULA_SIGNING_KEY``: the 32-byte private key in base64, from the environment;
  else a key file, ``SUMULA_SIGNING_KEY_FILE``, by default ``var/sumula-signing.key``, made on first
  use). The seal binds the match, the version number and the digest; its public half is printed
  on the verification page. Whoever rewrites the rows, the stored version and its digest together
  cannot make a seal that holds.
- **Key ring**: each seal records its key id (``server_key``); earlier keys' public halves stay
  verifiable (``SUMULA_SIGNING_OLD_KEYS``, and beside a key file its ``.old`` file), never from the
  database. ``manage.py rotate_signing_key`` rotates (:func:`rotate`). ``scoring/checks.py`` fails
  ``manage.py check`` in production when the key is a file made on first use or differs from the
  one this database was sealed with. With sealed súmulas in the database and no key on this machine
  (a restore without the keys), no key is made: :class:`SigningKeyMissing` says what to do.
- **Blank seals**: an install seals every version, signature and official result from its first
  one, so a blank seal is "not verifiable" and reported, never "intact" (a full rewrite that blanks
  the seal gains nothing). Only an install upgraded from before seals names its older rows, outside
  the database: ``SUMULA_UNSEALED_UNTIL`` (:func:`unsealed_until`).
- **Other sealed records**: :func:`seal_record` / :func:`record_seal_holds` seal any canonical JSON
  under a label with the same key ring (the tournaments' official results use it).
- **What the rows make**: the shown fields, the row check and the audit trail are ``scoring.row_check``.
"""
from __future__ import annotations

import base64
import hashlib
import os
from functools import lru_cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, transaction

from .content import canonical
from .models import SumulaVersion


# ------------------------------------------------------------------------------ the server's key


def _key_file() -> Path:
    return Path(getattr(settings, "SUMULA_SIGNING_KEY_FILE", "") or Path(settings.VAR_DIR) / "sumula-signing.key")


def key_file() -> Path:
    """Where the seal key is kept when ``SUMULA_SIGNING_KEY`` is not set (backups save and restore it)."""
    return _key_file()


def reload_key() -> None:
    """Forget the key read earlier in this process (a restore just put one in place)."""
    _private_key.cache_clear()


@lru_cache(maxsize=4)
def _private_key(configured: str, path: str) -> Ed25519PrivateKey:
    if configured:
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(configured))
    file = Path(path)
    if not file.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
        raw = Ed25519PrivateKey.generate().private_bytes_raw()
        # written whole under a name of its own, then linked in place: a process starting at the same
        # moment (another test process, web or Celery worker) finds no file or the whole key, never an
        # empty one; if it linked its key first, this one is dropped and both use the first
        draft = file.with_name(f".{file.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(base64.b64encode(raw) + b"\n")
        try:
            os.link(draft, file)
        except FileExistsError:  # another process made it meanwhile
            pass
        finally:
            draft.unlink()
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(file.read_bytes().strip()))


class SigningKeyMissing(ImproperlyConfigured):
    """Súmulas are sealed in this database but this machine has no seal key: a restore on a
    new machine without ``var/sumula-signing.key``. A new key made here would mark every súmula altered;
    the operator must bring the key back instead."""


def missing_key_message(path: Path) -> str:
    return (f"The súmulas in this database are sealed, but the seal key is missing: {path} does not exist "
            "and SUMULA_SIGNING_KEY is not set. A new key would mark every súmula altered, so none is made. "
            "Bring the key back from the backup's keys (manage.py restore BACKUP --keys BACKUP.keys, or copy "
            f"sumula-signing.key to {path}, or set SUMULA_SIGNING_KEY), then start again.")


def key_missing() -> str | None:
    """Why this machine cannot seal nor verify (:class:`SigningKeyMissing`), or None. Makes no key."""
    path = _key_file()
    if (not getattr(settings, "SUMULA_SIGNING_KEY", "") and not path.exists()
            and SumulaVersion.objects.exclude(server_seal="").exists()):
        return missing_key_message(path)
    return None


def private_key() -> Ed25519PrivateKey:
    configured = getattr(settings, "SUMULA_SIGNING_KEY", "") or ""
    path = _key_file()
    if not configured and not path.exists():
        problem = key_missing()
        if problem:
            raise SigningKeyMissing(problem)
    return _private_key(configured, str(path))


def public_key_b64(key: Ed25519PublicKey | None = None) -> str:
    key = key or private_key().public_key()
    return base64.b64encode(key.public_bytes_raw()).decode("ascii")


def key_id(key: Ed25519PublicKey | None = None) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    key = key or private_key().public_key()
    return hashlib.sha256(key.public_bytes_raw()).hexdigest()[:16]


def _message(match_id: int, number: int, version_digest: str) -> bytes:
    return b"truco-sumula-v1\n" + canonical({"match": match_id, "version": number, "digest": version_digest})


def seal(match_id: int, number: int, version_digest: str) -> dict:
    """The fields a new :class:`SumulaVersion` stores: ``server_seal`` and ``server_key``."""
    signature = private_key().sign(_message(match_id, number, version_digest))
    return {"server_seal": base64.b64encode(signature).decode("ascii"), "server_key": key_id()}


def old_keys_file() -> Path:
    """Where ``rotate_signing_key`` keeps the earlier public keys of a key file (beside it, never in
    the database: whoever writes the database must not be able to add a key)."""
    file = _key_file()
    return file.with_name(file.name + ".old")


def old_public_keys() -> list[str]:
    """The earlier public keys (base64): ``SUMULA_SIGNING_OLD_KEYS`` and, with a key file, its ``.old``."""
    keys = list(getattr(settings, "SUMULA_SIGNING_OLD_KEYS", []) or [])
    if not getattr(settings, "SUMULA_SIGNING_KEY", ""):
        try:
            keys += [line.strip() for line in old_keys_file().read_text().splitlines() if line.strip()]
        except OSError:
            pass
    return keys


@lru_cache(maxsize=8)
def _public_keys(old: tuple[str, ...]) -> dict[str, Ed25519PublicKey]:
    ring = {}
    for text in old:
        try:
            public = Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))
        except ValueError:  # a bad entry is reported by the system check, not fatal here
            continue
        ring[key_id(public)] = public
    return ring


def key_ring() -> dict[str, Ed25519PublicKey]:
    """Every public key a seal may have been made with, by key id: the current key and the old ones."""
    current = private_key().public_key()
    return {**_public_keys(tuple(old_public_keys())), key_id(current): current}


def unsealed_until(kind: str) -> int:
    """The highest id of a row of ``kind`` ("version", "signature", "result") stored before this install
    sealed them (``SUMULA_UNSEALED_UNTIL``, e.g. ``version:120,signature:300``; settings, never the
    database). 0 by default: the install has always had seals, a blank seal is never accepted."""
    value = (getattr(settings, "SUMULA_UNSEALED_UNTIL", None) or {}).get(kind, 0)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def blank_seal(row, kind: str) -> bool | None:
    """What a blank seal means: None (not verifiable, accepted) for a row the operator named as older
    than the seals (:func:`unsealed_until`), else False (not verifiable and reported)."""
    return None if row.pk is not None and row.pk <= unsealed_until(kind) else False


def seal_holds(version: SumulaVersion) -> bool | None:
    """True when the server's seal holds for this version's match, number and digest, with the key its
    ``server_key`` names (the current key or an old one: :func:`key_ring`); False when it does not, the
    key is unknown, or the seal is blank (not verifiable, :func:`blank_seal`); None only for a version
    the operator named as older than the seals."""
    if not version.server_seal:
        return blank_seal(version, "version")
    public = key_ring().get(version.server_key)
    if public is None:
        return False
    try:
        public.verify(base64.b64decode(version.server_seal),
                      _message(version.match_id, version.number, version.digest))
    except (InvalidSignature, ValueError):
        return False
    return True


def _signature_message(version: SumulaVersion, role: str, signer_id: int | None, method: str, signed_at) -> bytes:
    return b"truco-signature-v1\n" + canonical({
        "match": version.match_id, "version": version.number, "digest": version.digest, "role": role,
        "signer": signer_id, "method": method, "at": round(signed_at.timestamp() * 1_000_000)})


def signature_seal(version: SumulaVersion, role: str, signer_id: int | None, method: str, signed_at) -> dict:
    """The seal fields of a new signature: who (player or user id) signed which version, how and when."""
    signature = private_key().sign(_signature_message(version, role, signer_id, method, signed_at))
    return {"server_seal": base64.b64encode(signature).decode("ascii"), "server_key": key_id()}


def signature_seal_holds(signature, version: SumulaVersion) -> bool | None:
    """As :func:`seal_holds`, for a signature: None only for one stored before signatures were sealed."""
    if not signature.server_seal:
        return blank_seal(signature, "signature")
    public = key_ring().get(signature.server_key)
    if public is None:
        return False
    signer = signature.player_id if signature.role != "referee" else signature.user_id
    try:
        public.verify(base64.b64decode(signature.server_seal),
                      _signature_message(version, signature.role, signer, signature.method, signature.signed_at))
    except (InvalidSignature, ValueError):
        return False
    return True


def _record_message(label: str, payload: dict) -> bytes:
    return b"truco-" + label.encode("ascii") + b"-v1\n" + canonical(payload)


def seal_record(label: str, payload: dict) -> dict:
    """``server_seal`` and ``server_key`` of a record other than a súmula (``label`` names its kind, so
    a seal of one kind never holds for another): ``payload`` is canonical JSON of what it binds."""
    signature = private_key().sign(_record_message(label, payload))
    return {"server_seal": base64.b64encode(signature).decode("ascii"), "server_key": key_id()}


def record_seal_holds(label: str, payload: dict, server_seal: str, server_key: str) -> bool:
    """Whether a :func:`seal_record` seal holds with the key its id names (blank: False; the caller
    decides with :func:`blank_seal` whether the row is older than the seals)."""
    public = key_ring().get(server_key)
    if not server_seal or public is None:
        return False
    try:
        public.verify(base64.b64decode(server_seal), _record_message(label, payload))
    except (InvalidSignature, ValueError):
        return False
    return True


def rotate() -> tuple[str, str]:
    """A new key in the key file, the old public key kept in :func:`old_keys_file`: ``(old id, new id)``.
    Only for a key file: a key from the environment is rotated by setting a new one (see the command)."""
    file = _key_file()
    old = private_key().public_key()
    raw = Ed25519PrivateKey.generate().private_bytes_raw()
    with open(old_keys_file(), "a", encoding="ascii") as out:  # first: no moment without the old key
        out.write(public_key_b64(old) + "\n")
    draft = file.with_name(f".{file.name}.{os.getpid()}.new")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(base64.b64encode(raw) + b"\n")
    os.replace(draft, file)
    _private_key.cache_clear()
    record_rotation(private_key().public_key())
    return key_id(old), key_id()


def _record_key(public: Ed25519PublicKey, reason: str) -> bool:
    """Record ``public`` as the database's current seal key; False when this database role may not write
    ``SealKeyInUse`` (the app's role: only the tables' owner may, the deploy step: scripts/postgres-grants.sql)."""
    from .models import SealKeyInUse

    try:
        with transaction.atomic():
            SealKeyInUse.objects.bulk_create([SealKeyInUse(key_id=key_id(public), public_key=public_key_b64(public),
                                                           reason=reason)], ignore_conflicts=True)
    except DatabaseError:
        return False
    return True


class _Probe(Exception):
    pass


def may_record_keys() -> bool:
    """Whether this database role may write which seal key is in use (a row written and rolled back)."""
    from .models import SealKeyInUse

    try:
        with transaction.atomic():
            SealKeyInUse.objects.create(key_id=f"probe-{os.urandom(6).hex()}", public_key="", reason="probe")
            raise _Probe
    except _Probe:
        return True
    except DatabaseError:
        return False


def _sealed_with(key: str) -> int:
    """How many súmula versions and signatures of this database carry a seal of key ``key``."""
    from .models import Signature

    return SumulaVersion.objects.filter(server_key=key).count() + Signature.objects.filter(server_key=key).count()


def key_in_use_problem(*, record: bool) -> str | None:
    """This process's key against the one the database was sealed with (``SealKeyInUse``, latest row):
    None when they agree; with ``record``, the first start that finds no row records its key, and so
    does a start whose old keys (``SUMULA_SIGNING_OLD_KEYS``, the ``.old`` file) hold the recorded one
    (a rotation done by hand: a new key file or Docker secret). Only the tables' owner may record (the
    deploy step's ``migrate``, ``scoring.apps``); the app's role is refused by the database. A
    process with another key (a machine without the variable, a recreated container's new key file,
    one not restarted after a rotation) would make seals no other process can verify. The answer says
    what the database holds (the row, the seals made with its key), so a wrong row is told from a wrong
    machine (README, "A wrong seal key in use")."""
    from .models import SealKeyInUse

    current = private_key().public_key()
    current_id = key_id(current)
    latest = SealKeyInUse.objects.order_by("-pk").first()
    if latest is None:
        if record and not _record_key(current, "first start"):
            return ("no seal key is recorded in this database yet, and this database role may not record it: "
                    "only the tables' owner may (run migrate as the owner, MIGRATE_DATABASE_URL, before the checks)")
        return None
    if latest.key_id == current_id:
        return None
    if latest.key_id in _public_keys(tuple(old_public_keys())):
        # a rotation by hand (a new key file or secret, the old public key among the old keys): adopted by the
        # owner's start (the app's role may not record it; the migrating machine does)
        if record:
            _record_key(current, "rotation")
        return None
    sealed = _sealed_with(latest.key_id)
    row = (f"the database's latest row of seal keys in use (scoring_sealkeyinuse, recorded "
           f"{latest.recorded_at:%Y-%m-%d %H:%M}, reason \"{latest.reason[:40]}\") names key {latest.key_id}, "
           + (f"which sealed {sealed} súmula versions and signatures here" if sealed else
              "which sealed nothing in this database"))
    if SealKeyInUse.objects.filter(key_id=current_id).exists():
        mine = f"this process seals with an earlier key (id {current_id}, recorded before it)"
    else:
        mine = f"this process seals with key {current_id}, not the key the database was sealed with ({latest.key_id})"
    if sealed:
        why = "another machine or container seals with that key, or this one was not restarted after a rotation"
    else:
        why = ("either another machine or container has that key (it sealed nothing yet), or the row is wrong: only "
               "the tables' owner can write that table; remove the row as the owner, as the README says")
    return f"{mine}; {row}: {why}"


def record_rotation(public: Ed25519PublicKey) -> None:
    """``rotate_signing_key``: the new key is the current one for every process from now on (the command
    runs as the tables' owner: it checks :func:`may_record_keys` before it changes any key)."""
    if not _record_key(public, "rotation"):
        raise DatabaseError("this database role may not record the seal key in use: run as the tables' owner")
