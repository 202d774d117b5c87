"""Backups that restore (scoring/backups.py, ``manage.py backup`` / ``restore``).

The drill: a received súmula sealed with a key file in one ``var/``; ``manage.py backup``; then, as on a
new machine (another ``var/``, a new database: a new SQLite file, or a new PostgreSQL database in CI's
services pass), ``manage.py restore --keys`` and ``verify_sumulas``: every súmula still verifies. Before
this work a new machine made a new key on first use and 5/5 súmulas read "altered"; now a machine without
the key makes none and says what to do (``SigningKeyMissing``, system check ``scoring.E003``).
"""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring import checks, integrity
from scoring.models import SumulaVersion
from tests.migrations import record_migrations_applied

from .sumula_setup import *  # noqa: F401,F403
from .test_tamper import verify_command

ROOT = Path(__file__).resolve().parents[2]
README_TEXT = (ROOT / "README.md").read_text()


@pytest.fixture
def var_a(settings, tmp_path):
    """The first machine's var/: its seal key is a file made there on first use (the embedded default)."""
    var = tmp_path / "var-a"
    var.mkdir()
    settings.SUMULA_SIGNING_KEY = ""
    settings.SUMULA_SIGNING_OLD_KEYS = []
    settings.SUMULA_SIGNING_KEY_FILE = str(var / "sumula-signing.key")
    settings.MEDIA_ROOT = str(var / "media")
    return var


def new_machine_env(var: Path, database_url: str | None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "SUMULA_SIGNING_KEY", "SUMULA_SIGNING_KEY_FILE", "SUMULA_SIGNING_OLD_KEYS",
                        "DJANGO_MEDIA_ROOT", "DJANGO_SECRET_KEY")}
    env.update(TRUCO_VAR_DIR=str(var), DJANGO_LOG_LEVEL="ERROR", DATABASE_CONN_MAX_AGE="0",
               CELERY_BROKER_URL="", DJANGO_SETTINGS_MODULE="config.settings")
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def new_database():
    """A new, empty database for the "new machine": a PostgreSQL database beside the test one (dropped
    after), or None on SQLite (the new machine's var/ gets a new file)."""
    if connection.vendor != "postgresql":
        yield lambda: None
        return
    import psycopg

    made = []
    params = connection.settings_dict

    def admin():
        return psycopg.connect(dbname="postgres", user=params.get("USER") or None, password=params.get("PASSWORD") or None,
                               host=params.get("HOST") or None, port=params.get("PORT") or None, autocommit=True)

    def make():
        name = f"{params['NAME']}_restore{len(made)}"[:63]
        with admin() as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        user = quote(params.get("USER") or "", safe="")
        password = quote(params.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        port = f":{params['PORT']}" if params.get("PORT") else ""
        return f"postgres://{auth}{params.get('HOST') or 'localhost'}{port}/{name}"

    yield make
    with admin() as db:
        for name in made:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)  # committed: pg_dump reads from another session
def test_restore_drill_on_a_new_machine_every_sumula_still_verifies(var_a, received, new_database, tmp_path):
    assert SumulaVersion.objects.exclude(server_seal="").exists()
    record_migrations_applied(connection)  # a real site's database, migrated (tests/migrations.py)
    (var_a / "media" / "impressao").mkdir(parents=True)
    (var_a / "media" / "impressao" / "rodada-1.pdf").write_bytes(b"%PDF-1.7 a round")
    backup_dir = tmp_path / "backups" / "2026-11-26"
    keys = tmp_path / "keys-medium" / "2026-11-26"
    err = io.StringIO()
    call_command("backup", str(backup_dir), "--keys-to", str(keys), stdout=io.StringIO(), stderr=err)
    assert "WARNING" in err.getvalue() and "apart" in err.getvalue()
    assert "sumula-signing.key" in {p.name for p in keys.iterdir()} <= {"sumula-signing.key", "secret_key", "keys.env"}
    assert not list(backup_dir.rglob("*.key"))  # the keys are not in the database's backup
    assert oct(keys.stat().st_mode & 0o777) == "0o700"
    manifest = json.loads((backup_dir / "manifest.json").read_text())
    assert manifest["seal_key_ids_used"] == [integrity.key_id()]
    assert "media/impressao/rodada-1.pdf" in manifest["files"]
    # A restore over a database in use is refused unless asked to replace it (nothing is written).
    with pytest.raises(CommandError, match="--replace"):
        call_command("restore", str(backup_dir), "--keys", str(keys), stdout=io.StringIO())

    # A new machine: another var/, a new database, and without the keys: refused before anything is written.
    var_c = tmp_path / "var-c"
    refused = manage(new_machine_env(var_c, new_database()), "restore", str(backup_dir))
    assert refused.returncode != 0
    assert "seal key is missing" in refused.stderr and "--keys" in refused.stderr
    assert not (var_c / "sumula-signing.key").exists()

    # With the keys: restored, and every súmula verifies (restore runs verify_sumulas).
    var_b = tmp_path / "var-b"
    env = new_machine_env(var_b, new_database())
    restored = manage(env, "restore", str(backup_dir), "--keys", str(keys))
    assert restored.returncode == 0, restored.stderr[-3000:]
    assert "checked: 1; altered: 0" in restored.stdout
    assert (var_b / "sumula-signing.key").read_bytes() == (var_a / "sumula-signing.key").read_bytes()
    assert (var_b / "media" / "impressao" / "rodada-1.pdf").read_bytes() == b"%PDF-1.7 a round"


def test_a_machine_without_the_key_makes_none_when_sumulas_are_sealed(var_a, received, tmp_path, settings):
    settings.SUMULA_SIGNING_KEY_FILE = str(tmp_path / "new-machine" / "sumula-signing.key")
    integrity.reload_key()
    with pytest.raises(integrity.SigningKeyMissing, match="seal key is missing"):
        integrity.private_key()
    ok, out = verify_command()
    assert not ok
    with pytest.raises(CommandError, match="manage.py restore BACKUP --keys"):
        call_command("verify_sumulas", stdout=io.StringIO())
    assert [error.id for error in checks.seal_key_present(databases=["default"])] == ["scoring.E003"]
    assert not Path(settings.SUMULA_SIGNING_KEY_FILE).exists()  # no new key made


def test_a_new_site_still_makes_its_key_on_first_use(db, settings, tmp_path):
    settings.SUMULA_SIGNING_KEY = ""
    settings.SUMULA_SIGNING_KEY_FILE = str(tmp_path / "sumula-signing.key")
    integrity.reload_key()
    assert not SumulaVersion.objects.exclude(server_seal="").exists()
    assert checks.seal_key_present(databases=["default"]) == []
    integrity.private_key()
    assert (tmp_path / "sumula-signing.key").exists()


def test_a_backup_refuses_a_folder_in_use_and_keys_inside_it(var_a, db, tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("x")
    with pytest.raises(CommandError, match="not empty"):
        call_command("backup", str(tmp_path / "used"), "--keys-to", str(tmp_path / "keys" / "used"),
                     stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError, match="apart"):
        call_command("backup", str(tmp_path / "b"), "--keys-to", str(tmp_path / "b" / "keys"),
                     stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.django_db(transaction=True)  # as a site's: SQLite's backup waits while a test transaction writes
def test_the_keys_go_beside_the_backup_only_when_asked(var_a, tmp_path):
    """By default the keys went to DEST.keys, beside DEST: "copy the backups off the machine" shipped the seal
    key with the data. Now a keys folder is named, and one beside the backup is refused unless asked."""
    backups_dir = tmp_path / "backups"
    with pytest.raises(CommandError, match="--keys-to"):
        call_command("backup", str(backups_dir / "a"), stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError, match="beside the backup"):
        call_command("backup", str(backups_dir / "a"), "--keys-to", str(backups_dir / "a.keys"),
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert not backups_dir.exists()  # refused before anything is written
    call_command("backup", str(backups_dir / "a"), "--keys-beside-data", stdout=io.StringIO(), stderr=io.StringIO())
    assert (backups_dir / "a.keys" / "sumula-signing.key").exists()


@pytest.mark.django_db(transaction=True)
def test_a_secret_key_given_in_the_environment_is_saved_with_the_keys(var_a, tmp_path, settings):
    settings.SECRET_KEY_FROM_ENVIRONMENT = True
    settings.SECRET_KEY = "the-site-secret-key-given-in-its-environment"
    keys = tmp_path / "keys" / "a"
    call_command("backup", str(tmp_path / "backups" / "a"), "--keys-to", str(keys), stdout=io.StringIO(),
                 stderr=io.StringIO())
    assert "DJANGO_SECRET_KEY=the-site-secret-key-given-in-its-environment" in (keys / "keys.env").read_text().splitlines()
    assert oct((keys / "keys.env").stat().st_mode & 0o777) == "0o600"
    assert not list((tmp_path / "backups").rglob("*.env"))


def test_the_readme_documents_backups():
    readme = (ROOT / "README.md").read_text()
    assert "manage.py backup" in readme and "manage.py restore" in readme and "--keys" in readme


def compose_dump_options() -> list[str]:
    """The options of compose's ``dump`` service's pg_dump (the server's own, in the database's image)."""
    import yaml

    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert services["dump"]["image"] == services["db"]["image"]  # the server's major version
    command = " ".join(services["dump"]["command"])
    return re.search(r"pg_dump ((?:--[\w-]+(?:=\S+)? )+)--file", command).group(1).split()


def readme_compose_restore_options() -> list[str]:
    """The options of the README's ``pg_restore`` for a compose site (run in the database's container)."""
    command = re.search(r"docker compose exec db (pg_restore .*?\.dump)", README_TEXT, re.S).group(1)
    assert "-U truco_owner" in command  # as the owner
    return re.findall(r"--[\w-]+", command)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)  # committed: pg_dump reads from another session
@pytest.mark.parametrize("path", ["manage.py", "compose"])
def test_the_readme_restore_as_the_owner_role_leaves_a_site_its_own_role_can_run(var_a, received, tmp_path, path):
    """The README's whole path on a new machine (with the production database roles): the database and its two roles
    made by the README's commands, ``restore`` run as the owner (not a superuser: the drill above restores as
    one), the keys from their own folder, then the site as its own role, which owns nothing: it reads and writes
    the restored rows (the default privileges cover the tables the restore made) and every súmula verifies.

    ``compose``: as compose.yaml and the README's "With containers" do it: the dump made by the server's own
    ``pg_dump`` with the ``dump`` service's options and handed to ``backup --database-dump``; ``pg_restore``
    with the README's options as the owner, then ``restore --database-restored``."""
    if connection.vendor != "postgresql" or connection.pg_version < 150000:
        pytest.skip("the README's PostgreSQL ≥ 15 roles (CI's services pass)")
    from tests.tournaments.test_first_organizer import psql, readme_sql

    base = re.sub(r"\W", "_", connection.settings_dict["NAME"])[:40]
    owner, app, database = f"{base}_rowner", f"{base}_rapp", f"{base}_rnew"
    cleanup = (f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE);\n'
               f'DROP ROLE IF EXISTS "{owner}";\nDROP ROLE IF EXISTS "{app}";\n')
    psql(cleanup)
    sql = readme_sql().replace("truco_owner", f'"{owner}"').replace("truco_app", f'"{app}"')
    sql = re.sub(r"DATABASE truco\b", f'DATABASE "{database}"', sql).replace("\\connect truco", f'\\connect "{database}"')
    try:
        made = psql(sql)
        assert made.returncode == 0, made.stderr
        backup_dir, keys = tmp_path / "backups" / "backup", tmp_path / "keys" / "backup"
        params = connection.settings_dict
        host, port = params.get("HOST") or "127.0.0.1", str(params.get("PORT") or 5432)
        server = f"{host}:{port}"
        pg = ["-h", host, "-p", port]
        pg_env = {**os.environ, "PGPASSWORD": params.get("PASSWORD") or ""}
        extra = []
        if path == "compose":
            dump = tmp_path / "incoming" / "database.dump"
            dump.parent.mkdir()
            made = subprocess.run(["pg_dump", *compose_dump_options(), "--file", str(dump), *pg,
                                   "-U", params.get("USER") or "postgres", params["NAME"]],
                                  env=pg_env, capture_output=True, text=True, timeout=300)
            assert made.returncode == 0, made.stderr
            extra = ["--database-dump", str(dump)]
        call_command("backup", str(backup_dir), "--keys-to", str(keys), *extra,
                     stdout=io.StringIO(), stderr=io.StringIO())
        var_b = tmp_path / "var-b"
        as_owner = new_machine_env(var_b, f"postgres://{owner}@{server}/{database}")
        if path == "compose":
            assert not dump.exists()  # taken into the backup
            loaded = subprocess.run(["pg_restore", *pg, "-U", owner, "-d", database, *readme_compose_restore_options(),
                                     str(backup_dir / "database.dump")], env=pg_env, capture_output=True, text=True,
                                    timeout=300)
            assert loaded.returncode == 0, loaded.stderr
            restored = manage(as_owner, "restore", str(backup_dir), "--keys", str(keys), "--database-restored")
        else:
            restored = manage(as_owner, "restore", str(backup_dir), "--keys", str(keys))
        assert restored.returncode == 0, restored.stderr[-3000:]
        assert "checked: 1; altered: 0" in restored.stdout

        site = new_machine_env(var_b, f"postgres://{app}@{server}/{database}")
        verified = manage(site, "verify_sumulas")
        assert verified.returncode == 0, verified.stderr[-3000:]
        assert "altered: 0" in verified.stdout
        checked = manage(site, "check")
        assert checked.returncode == 0, checked.stderr[-3000:]
        rows = psql(f'SET ROLE "{app}";\nINSERT INTO auth_group (name) VALUES (\'restored\');\n'
                    "UPDATE auth_user SET last_login = now();\n", database)
        assert rows.returncode == 0, rows.stderr
        shape = psql(f'SET ROLE "{app}";\nALTER TABLE scoring_sumulaversion DISABLE TRIGGER ALL;\n', database)
        assert shape.returncode != 0 and "must be owner" in shape.stderr  # it owns nothing
    finally:
        psql(cleanup)
