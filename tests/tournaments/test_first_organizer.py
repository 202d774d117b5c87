"""A production site's first account and database.

- ``manage.py create_organizer``, interactive and not (the password from an environment variable, never
  the command line), makes an organizer who may create tournaments;
- ``check --deploy`` fails (``tournaments.E001``) in production while no account can organize: before,
  a fresh production site had no account anyone could log in with, and nothing said so;
- the README's PostgreSQL commands (CI's services pass): the owner role migrates on PostgreSQL ≥ 15,
  where the README's earlier "create a database" (owned by ``postgres``, ``GRANT ALL`` to the app) failed
  with "permission denied for schema public"; the site's role reads and writes rows and owns nothing.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import checks as django_checks
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tournaments import checks
from tournaments.services import can_create_tournament

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


@pytest.fixture
def production(db, settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["truco.example.org"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings


def test_check_deploy_fails_in_production_until_an_organizer_exists(production, monkeypatch):
    assert [e.id for e in checks.an_organizer_exists()] == ["tournaments.E001"]
    deploy = django_checks.run_checks(include_deployment_checks=True, tags=None)
    assert "tournaments.E001" in [e.id for e in deploy]
    assert "tournaments.E001" not in [e.id for e in django_checks.run_checks()]  # a deploy check only

    get_user_model().objects.create_user("jogador", password="x")  # an account that cannot organize
    assert [e.id for e in checks.an_organizer_exists()] == ["tournaments.E001"]

    monkeypatch.setenv("TRUCO_ORGANIZER_PASSWORD", "um-truco-bem-trucado-9")
    call_command("create_organizer", "--no-input", "--username", "ana", "--name", "Ana Souza", stdout=io.StringIO())
    assert checks.an_organizer_exists() == []


def test_not_in_production_no_organizer_is_needed(db, settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    assert checks.an_organizer_exists() == []


def test_create_organizer_without_input_reads_the_password_from_the_environment(production, monkeypatch):
    with pytest.raises(CommandError, match="TRUCO_ORGANIZER_PASSWORD"):
        call_command("create_organizer", "--no-input", "--username", "ana", stdout=io.StringIO())
    with pytest.raises(CommandError, match="--username"):
        call_command("create_organizer", "--no-input", stdout=io.StringIO())
    monkeypatch.setenv("SENHA", "123")
    with pytest.raises(CommandError, match="password is refused"):  # the password validators hold
        call_command("create_organizer", "--no-input", "--username", "ana", "--password-env", "SENHA",
                     stdout=io.StringIO())
    monkeypatch.setenv("SENHA", "um-truco-bem-trucado-9")
    out = io.StringIO()
    call_command("create_organizer", "--no-input", "--username", "ana", "--name", "Ana Souza", "--email",
                 "ana@example.org", "--password-env", "SENHA", stdout=out)
    ana = get_user_model().objects.get(username="ana")
    assert (ana.first_name, ana.last_name, ana.email) == ("Ana", "Souza", "ana@example.org")
    # an organizer is not staff (staff grants nothing site-wide): it administers its own club
    assert not ana.is_staff and not ana.is_superuser and ana.check_password("um-truco-bem-trucado-9")
    assert list(ana.organization_roles.values_list("organization__name", "role")) == [("Ana Souza", "admin")]
    assert can_create_tournament(ana) and not ana.has_perm("events.change_tournament")  # no admin rights
    assert "/entrar/" in out.getvalue()
    with pytest.raises(CommandError, match="taken"):
        call_command("create_organizer", "--no-input", "--username", "ana", "--password-env", "SENHA",
                     stdout=io.StringIO())


def test_create_organizer_asks_when_interactive(production, monkeypatch):
    answers = iter(["bia", "Beatriz Lima", "bia@example.org"])
    passwords = iter(["123", "123", "diferente-1-x", "outra-coisa-2", "truco-de-seis-6", "truco-de-seis-6"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(passwords))
    err = io.StringIO()
    call_command("create_organizer", "--superuser", stdout=io.StringIO(), stderr=err)
    bia = get_user_model().objects.get(username="bia")
    assert bia.is_superuser and bia.is_staff and bia.check_password("truco-de-seis-6")
    assert "differ" in err.getvalue()  # asked again, not stored


def test_the_command_takes_no_password_on_its_command_line():
    from tournaments.management.commands.create_organizer import Command

    parser = Command().create_parser("manage.py", "create_organizer")
    assert not any("password" == a.dest for a in parser._actions)


# -------------------------------------------------------------------------------- the README's PostgreSQL


def readme_sql() -> str:
    block = re.search(r"<!-- postgres-setup -->\s*```sh\n(.*?)```", README, re.S)
    assert block, "README.md has no postgres-setup block"
    return re.search(r"<<'SQL'\n(.*?)\nSQL\n", block.group(1), re.S).group(1)


def test_the_readme_gives_the_database_commands_and_the_first_account():
    sql = readme_sql()
    for statement in ("CREATE ROLE truco_owner", "CREATE ROLE truco_app LOGIN", "CREATE DATABASE truco OWNER truco_owner",
                      "ALTER SCHEMA public OWNER TO truco_owner", "ALTER DEFAULT PRIVILEGES FOR ROLE truco_owner"):
        assert statement in sql
    assert "manage.py create_organizer" in README and "check --deploy" in README


def psql(sql: str, database: str = "postgres") -> subprocess.CompletedProcess:
    params = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": params.get("PASSWORD") or ""}
    return subprocess.run(["psql", "-h", params.get("HOST") or "127.0.0.1", "-p", str(params.get("PORT") or 5432),
                           "-U", params.get("USER") or "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-q"],
                          input=sql, env=env, capture_output=True, text=True, timeout=120)


def migrate_as(user: str, database: str, *apps: str) -> subprocess.CompletedProcess:
    params = connection.settings_dict
    url = f"postgres://{user}@{params.get('HOST') or '127.0.0.1'}:{params.get('PORT') or 5432}/{database}"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DATABASE_URL=url, DJANGO_LOG_LEVEL="ERROR", DATABASE_CONN_MAX_AGE="0")
    return subprocess.run([sys.executable, "manage.py", "migrate", *apps, "--noinput", "-v", "0"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.services
def test_the_readme_database_commands_migrate_as_the_owner_and_the_site_owns_nothing(db):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's roles (CI's services pass)")
    if connection.pg_version < 150000:
        pytest.skip("the schema rights of PostgreSQL ≥ 15")
    name = re.sub(r"\W", "_", connection.settings_dict["NAME"])[:40]
    owner, app, database = f"{name}_owner", f"{name}_app", f"{name}_readme"
    cleanup = (f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE);\nDROP DATABASE IF EXISTS "{database}_old" WITH (FORCE);\n'
               f'DROP ROLE IF EXISTS "{owner}";\nDROP ROLE IF EXISTS "{app}";\n')
    psql(cleanup)
    try:
        # Before: a database owned by postgres, GRANT ALL to the site's role: migrate fails.
        old = psql(f'CREATE ROLE "{app}" LOGIN;\nCREATE DATABASE "{database}_old";\n'
                   f'GRANT ALL ON DATABASE "{database}_old" TO "{app}";\n')
        assert old.returncode == 0, old.stderr
        failed = migrate_as(app, f"{database}_old", "contenttypes")
        assert failed.returncode != 0 and "permission denied for schema public" in failed.stderr
        psql(f'DROP DATABASE "{database}_old" WITH (FORCE);\nDROP ROLE "{app}";\n')

        # The README's commands, with names of this test.
        sql = readme_sql().replace("truco_owner", "@OWNER@").replace("truco_app", "@APP@")
        sql = re.sub(r"DATABASE truco\b", "DATABASE @DB@", sql).replace("\\connect truco", "\\connect @DB@")
        sql = re.sub(r"\btruco\b", "@APP@", sql)
        sql = sql.replace("@OWNER@", f'"{owner}"').replace("@APP@", f'"{app}"').replace("@DB@", f'"{database}"')
        assert "truco" not in sql.replace(name, ""), sql
        made = psql(sql)
        assert made.returncode == 0, made.stderr
        migrated = migrate_as(owner, database, "scoring")
        assert migrated.returncode == 0, migrated.stderr[-3000:]

        # The site's role: rows yes, the tables' shape and triggers no.
        rows = psql(f'SET ROLE "{app}";\nINSERT INTO auth_group (name) VALUES (\'x\');\n'
                    "SELECT count(*) FROM scoring_sumulaversion;\n", database)
        assert rows.returncode == 0, rows.stderr
        shape = psql(f'SET ROLE "{app}";\nALTER TABLE scoring_sumulaversion DISABLE TRIGGER ALL;\n', database)
        assert shape.returncode != 0 and "must be owner" in shape.stderr
    finally:
        psql(cleanup)
