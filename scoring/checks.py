"""System checks of the súmulas' seal key (Django's checks framework; run by ``manage.py check``,
``migrate`` and ``check --deploy``, so ``scripts/serve`` stops before serving).

- ``scoring.E001``: in production (debug off, a host that is not this machine) the seal key must come
  from the environment (``SUMULA_SIGNING_KEY``) or a key file the operator named
  (``SUMULA_SIGNING_KEY_FILE``: a secret or a shared volume). A key file made on first use differs
  between machines and is lost when a container is recreated: every seal would stop holding.
- ``scoring.E002``: an entry of ``SUMULA_SIGNING_OLD_KEYS`` is not a 32-byte public key in base64.
- ``scoring.E003`` (a database check: ``migrate``, hence ``scripts/serve``, and ``check --database
  default``): súmulas are sealed in this database but the seal key is missing on this machine (a
  restore without the keys). Nothing starts, instead of a new key marking every súmula altered.
- ``scoring.E005``: the seal key given (``SUMULA_SIGNING_KEY``, or the file ``SUMULA_SIGNING_KEY_FILE`` names)
  is not a 32-byte key in base64: said as a check's message, not a traceback at the first súmula.
- ``scoring.E004``: in production, this process's key is not the one the database was sealed with
  (``integrity.key_in_use_problem``: its id, recorded at the first start and by ``rotate_signing_key``, by
  the tables' owner only; never the key itself), or no key is recorded and this role may not record it.
  The message names the row and how many seals its key made, so a wrong row is told from a wrong machine.
  Skipped while the database is unreachable or not migrated yet.
"""
from __future__ import annotations

import base64

from django.conf import settings
from django.core.checks import Error, Tags, register
from django.db import DatabaseError

LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1", "testserver"}


def _production() -> bool:
    hosts = set(getattr(settings, "ALLOWED_HOSTS", []) or [])
    return not settings.DEBUG and bool(hosts - LOCAL_HOSTS)


def in_production() -> bool:
    """Debug off and a host that is not this machine: what the deploy checks hold to production rules."""
    return _production()


@register()
def seal_key(app_configs=None, **kwargs):
    errors = []
    if (_production() and not getattr(settings, "SUMULA_SIGNING_KEY", "")
            and not getattr(settings, "SUMULA_SIGNING_KEY_FILE_CHOSEN", False)):
        errors.append(Error(
            "The súmulas' seal key would be a file made on first use on each machine.",
            hint="Set SUMULA_SIGNING_KEY (the same on every machine; see the README) or SUMULA_SIGNING_KEY_FILE "
                 "(a secret or a shared volume).", id="scoring.E001"))
    unusable = _unusable_key()
    if unusable:
        errors.append(Error(f"The súmulas' seal key {unusable} is not a 32-byte key in base64.",
                            hint="Make one with python3 -c 'import base64,os; print(base64.b64encode(os.urandom(32))"
                                 ".decode())' (README, Settings), or give the key this site sealed with.",
                            id="scoring.E005"))
    for text in getattr(settings, "SUMULA_SIGNING_OLD_KEYS", []) or []:
        try:
            valid = len(base64.b64decode(text, validate=True)) == 32
        except ValueError:
            valid = False
        if not valid:
            errors.append(Error(f"SUMULA_SIGNING_OLD_KEYS: {text[:12]}… is not a 32-byte public key in base64.",
                                id="scoring.E002"))
    return errors


def _unusable_key() -> str:
    """Where the configured seal key comes from, when it cannot be a key (else "")."""
    from pathlib import Path

    configured = getattr(settings, "SUMULA_SIGNING_KEY", "")
    if configured:
        text, origin = configured, "in SUMULA_SIGNING_KEY"
    else:
        path = Path(getattr(settings, "SUMULA_SIGNING_KEY_FILE", "") or "")
        if not path.name or not path.is_file():
            return ""  # made on first use (scoring.E001 says where that is refused)
        try:
            text, origin = path.read_text().strip(), f"in {path}"
        except (OSError, UnicodeDecodeError):
            return f"in {path} (unreadable by this account)"
    try:
        return "" if len(base64.b64decode(text, validate=True)) == 32 else origin
    except ValueError:
        return origin


@register(Tags.database)
def seal_key_present(app_configs=None, databases=None, **kwargs):
    if not databases or "default" not in databases:
        return []
    from . import integrity

    try:
        problem = integrity.key_missing()
    except DatabaseError:  # not migrated yet: nothing is sealed
        return []
    return [Error(problem, id="scoring.E003")] if problem else []


@register()
def seal_key_in_use(app_configs=None, **kwargs):
    if not _production():
        return []
    from . import integrity

    if _unusable_key():
        return []  # scoring.E005 says it
    try:
        problem = integrity.key_in_use_problem(record=True)
    except DatabaseError:  # no database yet (the first migrate checks before it creates the table)
        return []
    if problem is None:
        return []
    return [Error(f"The súmulas' seal key in use: {problem}.",
                  hint="Another machine's key: give every machine and container the same SUMULA_SIGNING_KEY (or the "
                       "same key file: a Docker secret or a shared volume); after a rotation, restart them all with "
                       "the new key. A wrong row: README, \"A wrong seal key in use\" (as the tables' owner).",
                  id="scoring.E004")]
