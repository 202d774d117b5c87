"""Backups that restore: ``manage.py backup`` and ``manage.py restore``.

A backup is two folders, kept apart on purpose:

- ``DEST/`` — the database (``database.dump``: ``pg_dump --format=custom`` on PostgreSQL;
  ``database.sqlite3``: SQLite's online backup API, consistent while the site runs), the generated
  files that matter (``media/``: the print jobs' PDFs, when they are on this disk rather than S3) and
  ``manifest.json`` (what it holds, each file's SHA-256, the seal keys' ids the súmulas use);
- ``KEYS/`` (``--keys-to``, required) — the súmulas' seal key (``sumula-signing.key`` and its ``.old``, or
  ``keys.env`` when the key comes from the environment) and the site's secret key (``secret_key`` when it
  is the file made in ``var/``, else a ``DJANGO_SECRET_KEY=`` line of ``keys.env``). Whoever holds the
  database *and* the seal key can forge a seal: the keys go elsewhere (another medium, a password
  manager), never inside the backup, and beside it (the same parent folder) only when asked
  (``keys_beside_data``).

On PostgreSQL the database's copy is ``pg_dump``'s, which must be of the server's major version or newer:
where this machine's is older (a container image), the server's own ``pg_dump`` makes it (compose's
``dump`` service, in the database's image) and ``database_dump`` hands it over; ``restore`` then takes a
database already restored by the server's ``pg_restore`` (``database_restored``) and does the rest. Both
run as the role that owns the tables (README "Backups").

``restore`` puts the database into the configured one (an empty database, or ``--replace``), the files
back, the keys in place when given (never over a different key), then checks that every súmula's seal
key is on this machine and verifies every súmula (``verify_sumulas``). Without the keys, on a machine
that has none, it stops and says what to do (:class:`scoring.integrity.SigningKeyMissing`): a new key
would mark every súmula altered.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from django.conf import settings
from django.db import connection

from . import integrity
from .models import SumulaVersion

FORMAT = 1
KEY_FILE = "sumula-signing.key"
SECRET_FILE = "secret_key"


class BackupError(Exception):
    """What went wrong, in words the operator acts on."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _engine() -> str:
    return "postgresql" if connection.vendor == "postgresql" else connection.vendor


def _pg_env() -> tuple[list[str], dict]:
    db = settings.DATABASES["default"]
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(command: list[str], env: dict | None = None) -> None:
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)") from None
    if result.returncode != 0:
        raise BackupError(f"{command[0]} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")


def _private(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)


def _write_secret(path: Path, data: bytes) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)


def _media_root() -> Path | None:
    """The generated files' folder, or None when they are in an S3 bucket (backed up with the bucket)."""
    if "s3" in settings.STORAGES["default"]["BACKEND"].lower():
        return None
    return Path(settings.MEDIA_ROOT)


# ------------------------------------------------------------------------------------------ backup


def _is_dump(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(5) == b"PGDMP"  # pg_dump's custom format


def backup(dest: Path, keys_to: Path, *, keys_beside_data: bool = False, database_dump: Path | None = None) -> dict:
    """Write a backup to ``dest`` and the keys to ``keys_to``; return the manifest.

    ``keys_to`` in ``dest``'s own folder is refused unless ``keys_beside_data``: "copy the backups off the
    machine" would ship the seal key with the data. ``database_dump``: a ``pg_dump --format=custom`` file
    made by the server's own ``pg_dump``, moved into the backup instead of running this machine's."""
    dest, keys_to = Path(dest), Path(keys_to)
    if dest.exists() and any(dest.iterdir()):
        raise BackupError(f"{dest} is not empty: name a new folder for each backup")
    if keys_to.resolve() == dest.resolve() or keys_to.resolve().is_relative_to(dest.resolve()):
        raise BackupError("--keys-to must be outside the backup: the keys are kept apart from the database")
    if keys_to.resolve().parent == dest.resolve().parent and not keys_beside_data:
        raise BackupError(f"--keys-to {keys_to} is beside the backup ({dest.parent}): whoever copies the backups "
                          "gets the seal key too. Name a folder elsewhere (another disk, a password manager's "
                          "vault), or pass --keys-beside-data to write them there anyway")
    if database_dump is not None:
        database_dump = Path(database_dump)
        if not database_dump.is_file() or not _is_dump(database_dump):
            raise BackupError(f"{database_dump} is not a pg_dump --format=custom file")
    problem = integrity.key_missing()
    if problem:
        raise BackupError(problem)
    integrity.private_key()  # the key file exists from here on (made now if nothing was ever sealed)
    _private(dest)
    engine = _engine()
    if engine == "postgresql" and database_dump is not None:
        database = dest / "database.dump"
        shutil.move(database_dump, database)
    elif database_dump is not None:
        raise BackupError(f"--database-dump is a PostgreSQL dump and this site uses {engine}")
    elif engine == "postgresql":
        database = dest / "database.dump"
        args, env = _pg_env()
        _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", str(database), *args,
              str(settings.DATABASES["default"]["NAME"])], env)
    elif engine == "sqlite":
        database = dest / "database.sqlite3"
        connection.ensure_connection()
        target = sqlite3.connect(database)
        try:
            with connection.cursor():
                connection.connection.backup(target)  # a consistent copy while other processes write
        finally:
            target.close()
    else:
        raise BackupError(f"backups of {engine} databases are not supported")

    files = {database.name: _sha256(database)}
    media = _media_root()
    if media is not None and media.is_dir():
        shutil.copytree(media, dest / "media", symlinks=False)
        for path in sorted((dest / "media").rglob("*")):
            if path.is_file():
                files[str(path.relative_to(dest))] = _sha256(path)

    keys = _save_keys(keys_to)
    manifest = {
        "format": FORMAT,
        "made_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "engine": engine,
        "database": database.name,
        "media": "media" if (dest / "media").exists() else ("s3" if media is None else None),
        "files": files,
        "seal_key_id": integrity.key_id(),
        "seal_key_ids_used": sorted(set(SumulaVersion.objects.exclude(server_key="")
                                        .values_list("server_key", flat=True))),
        "sealed_versions": SumulaVersion.objects.exclude(server_seal="").count(),
        "keys": keys,
    }
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _save_keys(keys_to: Path) -> list[str]:
    _private(keys_to)
    saved, lines = [], []
    if getattr(settings, "SUMULA_SIGNING_KEY", ""):
        lines.append(f"SUMULA_SIGNING_KEY={settings.SUMULA_SIGNING_KEY}")
        old = list(getattr(settings, "SUMULA_SIGNING_OLD_KEYS", []) or [])
        if old:
            lines.append("SUMULA_SIGNING_OLD_KEYS=" + ",".join(old))
    else:
        _write_secret(keys_to / KEY_FILE, integrity.key_file().read_bytes())
        saved.append(KEY_FILE)
        old_file = integrity.old_keys_file()
        if old_file.exists():
            _write_secret(keys_to / (KEY_FILE + ".old"), old_file.read_bytes())
            saved.append(KEY_FILE + ".old")
    secret = Path(settings.VAR_DIR) / SECRET_FILE
    if getattr(settings, "SECRET_KEY_FROM_ENVIRONMENT", False) or getattr(settings, "SECRET_KEY_FILE_CHOSEN", False):
        # given to the site (the environment, a secret file): without it a restored site's sessions and
        # password links made before are refused
        lines.append(f"DJANGO_SECRET_KEY={settings.SECRET_KEY}")
    elif secret.exists():
        _write_secret(keys_to / SECRET_FILE, secret.read_bytes())
        saved.append(SECRET_FILE)
    if lines:
        _write_secret(keys_to / "keys.env", ("\n".join(lines) + "\n").encode())
        saved.append("keys.env")
    return saved


# ----------------------------------------------------------------------------------------- restore


def _database_has_tables() -> bool:
    return bool(connection.introspection.table_names())


def restore(source: Path, keys_from: Path | None, replace: bool = False, database_restored: bool = False) -> dict:
    """Restore the backup in ``source`` (and the keys in ``keys_from``); return its manifest.

    ``database_restored``: the operator restored ``database.dump`` with the server's own ``pg_restore``
    (as the owner role); the database is left as it is and the rest is done."""
    source = Path(source)
    try:
        manifest = json.loads((source / "manifest.json").read_text())
    except OSError:
        raise BackupError(f"{source} holds no manifest.json: not a backup made by manage.py backup") from None
    if manifest.get("format") != FORMAT:
        raise BackupError(f"unknown backup format {manifest.get('format')!r}")
    for name, expected in manifest["files"].items():
        path = source / name
        if not path.is_file() or _sha256(path) != expected:
            raise BackupError(f"{path} is missing or differs from when it was backed up: the backup is damaged")
    engine = _engine()
    if manifest["engine"] != engine:
        raise BackupError(f"the backup is of a {manifest['engine']} database and this site uses {engine}: "
                          "restore it into the same kind of database")
    if keys_from is not None:
        _restore_keys(Path(keys_from))
    elif (manifest.get("sealed_versions") and not getattr(settings, "SUMULA_SIGNING_KEY", "")
            and not integrity.key_file().exists()):
        # before anything is written: a new key made later would mark every súmula altered
        raise BackupError(integrity.missing_key_message(integrity.key_file()))

    if database_restored:
        if engine != "postgresql" or not _database_has_tables():
            raise BackupError("--database-restored: the database has no tables; restore "
                              f"{source / manifest['database']} with pg_restore first (README \"Backups\")")
    elif _database_has_tables() and not replace:
        raise BackupError("the database already has tables: restore into a new, empty database, or pass "
                          "--replace (its current content is lost; stop the site first)")
    database = source / manifest["database"]
    if database_restored:
        pass
    elif engine == "postgresql":
        args, env = _pg_env()
        connection.close()
        _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
              *(["--clean", "--if-exists"] if replace else []), *args,
              "--dbname", str(settings.DATABASES["default"]["NAME"]), str(database)], env)
    else:
        connection.close()
        backup_copy = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        target = sqlite3.connect(settings.DATABASES["default"]["NAME"])
        try:
            backup_copy.backup(target)
        finally:
            target.close()
            backup_copy.close()

    media = _media_root()
    if manifest.get("media") == "media":
        if media is None:
            raise BackupError("the backup's generated files are on disk but this site stores them in S3: "
                              f"copy {source / 'media'} into the bucket")
        shutil.copytree(source / "media", media, dirs_exist_ok=True)
    return manifest


def _restore_keys(keys_from: Path) -> None:
    if not keys_from.is_dir():
        raise BackupError(f"{keys_from} is not a folder of keys (manage.py backup's --keys-to)")
    if (keys_from / KEY_FILE).exists():
        if getattr(settings, "SUMULA_SIGNING_KEY", ""):
            raise BackupError("SUMULA_SIGNING_KEY is set here, but the backup's key is a file: unset it, or set it "
                              f"to the content of {keys_from / KEY_FILE}")
        for name in (KEY_FILE, KEY_FILE + ".old"):
            saved = keys_from / name
            if not saved.exists():
                continue
            target = integrity.old_keys_file() if name.endswith(".old") else integrity.key_file()
            if target.exists():
                if target.read_bytes().strip() != saved.read_bytes().strip():
                    raise BackupError(f"{target} already holds another key: move it away first (it may seal "
                                      "súmulas of its own), then restore again")
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_secret(target, saved.read_bytes())
    elif (keys_from / "keys.env").exists():
        lines = dict(line.split("=", 1) for line in (keys_from / "keys.env").read_text().splitlines() if "=" in line)
        if getattr(settings, "SUMULA_SIGNING_KEY", "") != lines.get("SUMULA_SIGNING_KEY"):
            raise BackupError(f"the backup's seal key is in {keys_from / 'keys.env'}: put its lines in this "
                              "machine's environment (the systemd EnvironmentFile, compose's .env), then restore again")
    else:
        raise BackupError(f"{keys_from} holds no seal key ({KEY_FILE} or keys.env)")
    secret = keys_from / SECRET_FILE
    target = Path(settings.VAR_DIR) / SECRET_FILE
    if secret.exists() and not os.environ.get("DJANGO_SECRET_KEY") and not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_secret(target, secret.read_bytes())
    integrity.reload_key()


def seal_keys_present(manifest: dict) -> list[str]:
    """The key ids the backup's seals use that this machine cannot verify (empty: all there)."""
    problem = integrity.key_missing()
    if problem:
        raise integrity.SigningKeyMissing(problem)
    ring = integrity.key_ring()
    return [key for key in manifest.get("seal_key_ids_used", []) if key not in ring]
