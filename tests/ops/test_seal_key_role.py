"""Which seal key is in use is written by the tables' owner only: the app's role (the README's grants)
cannot add a row to ``scoring_sealkeyinuse`` that would stop every start (``scoring.E004``), nor rotate
the key; the check's message says what the database holds, and the README's steps remove a wrong row.
PostgreSQL only (roles)."""
from __future__ import annotations

import base64
import importlib
import os
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.test import override_settings

from scoring import checks, integrity
from scoring.models import SealKeyInUse
from tests.ops.test_database_roles import As, app_role, refused, superuser_sql  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="database roles are PostgreSQL's")]


@pytest.fixture
def env_key(settings):
    settings.SUMULA_SIGNING_KEY = base64.b64encode(os.urandom(32)).decode()
    settings.SUMULA_SIGNING_OLD_KEYS = []
    return settings


def production_check():
    with override_settings(ALLOWED_HOSTS=["truco.example.org"], DEBUG=False, SUMULA_SIGNING_KEY_FILE_CHOSEN=True):
        return [(error.id, error.msg, error.hint) for error in checks.seal_key_in_use()]


def test_the_apps_role_cannot_write_which_seal_key_is_in_use(app_role, env_key):  # noqa: F811
    assert production_check() == []  # the owner's start (migrate, scripts/serve) records the key
    [recorded] = SealKeyInUse.objects.values_list("key_id", flat=True)
    with As(app_role):
        insert = ("INSERT INTO scoring_sealkeyinuse (key_id, public_key, recorded_at, reason) "
                  "VALUES ('0123456789abcdef', 'AAAA', now(), 'rotation')")
        assert refused(insert) == "42501"  # insufficient_privilege
        for statement in ("UPDATE scoring_sealkeyinuse SET reason = 'x'", "DELETE FROM scoring_sealkeyinuse",
                          "TRUNCATE scoring_sealkeyinuse"):
            assert refused(statement) == "42501", statement
        assert not integrity.may_record_keys()
        assert production_check() == []  # the app's start still compares (it reads the table)
        with pytest.raises(CommandError, match="tables' owner"):
            call_command("rotate_signing_key")  # refused before any key changes
    assert list(SealKeyInUse.objects.values_list("key_id", flat=True)) == [recorded]
    assert integrity.may_record_keys()  # the owner may


def test_the_migration_takes_the_write_back_from_every_other_role(app_role):  # noqa: F811
    superuser_sql(f"GRANT INSERT, UPDATE, DELETE ON scoring_sealkeyinuse TO {app_role}")  # the default privileges
    migration = importlib.import_module("scoring.migrations.0025_seal_key_in_use_owner_only")
    with connection.schema_editor() as editor:
        migration.owner_only(None, editor)
    with As(app_role):
        assert refused("INSERT INTO scoring_sealkeyinuse (key_id, public_key, recorded_at, reason) "
                       "VALUES ('x', 'AAAA', now(), 'x')") == "42501"
        assert SealKeyInUse.objects.count() == 0  # reading is still allowed


def readme_removal_steps() -> str:
    """The SQL of the README's "A wrong seal key in use" section (its ``psql`` block)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("#### A wrong seal key in use"):]
    return re.search(r"<<'SQL'\n(.*?)\nSQL\n", section, re.S).group(1)


def test_a_wrong_row_is_named_as_such_and_removed_by_the_readmes_steps(env_key):
    assert production_check() == []
    current = integrity.key_id()
    SealKeyInUse.objects.create(key_id="0123456789abcdef", public_key="AAAA", reason="rotation")  # by the owner
    [(code, message, hint)] = production_check()
    assert code == "scoring.E004"
    assert "0123456789abcdef" in message and "sealed nothing in this database" in message
    assert "the row is wrong" in message and "README" in hint and "A wrong seal key in use" in hint
    with pytest.raises(IntegrityError), transaction.atomic():
        SealKeyInUse.objects.filter(key_id="0123456789abcdef").delete()  # append-only, even for the owner's ORM
    superuser_sql(readme_removal_steps().replace(":'key_id'", "'0123456789abcdef'"))
    assert list(SealKeyInUse.objects.values_list("key_id", flat=True)) == [current]
    assert production_check() == []
    with connection.cursor() as cursor:  # the append-only trigger is back on
        cursor.execute("SELECT tgenabled FROM pg_trigger WHERE tgname = 'scoring_sealkeyinuse_append_only'")
        assert cursor.fetchone()[0] == "O"


def test_another_machines_key_is_told_by_the_seals_it_made(env_key):
    assert production_check() == []
    first = integrity.key_id()
    env_key.SUMULA_SIGNING_KEY = base64.b64encode(os.urandom(32)).decode()  # a machine without the same key
    [(code, message, _hint)] = production_check()
    assert code == "scoring.E004" and f"not the key the database was sealed with ({first})" in message
