"""The production database roles (README, "A database role that does not own the tables"):
with the grants of ``scripts/postgres-grants.sql`` the app's role reads and writes hands but cannot
switch the append-only triggers off (DISABLE TRIGGER, DROP FUNCTION truco_append_only, TRUNCATE,
session_replication_role). PostgreSQL only: skipped on SQLite, which has no roles."""
from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from rest_framework.test import APIClient

from scoring import services
from scoring.models import HandEntry, MatchEvent
from tests.scoring.sumula_setup import *  # noqa: F401,F403

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def superuser_sql(statements: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statements)


@pytest.fixture
def app_role():
    """A role like the README's truco_app, granted by the README's file on the test database (whose
    tables the test runner's superuser owns, as truco_owner owns them in production); dropped after."""
    if connection.vendor != "postgresql":
        pytest.skip("database roles are PostgreSQL's (DATABASE_URL is not PostgreSQL)")
    role = f"truco_app_test_{secrets.token_hex(4)}"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
    grants = (ROOT / "scripts" / "postgres-grants.sql").read_text()
    superuser_sql(f"CREATE ROLE {role} LOGIN PASSWORD 'app-test'")
    try:
        superuser_sql(grants.replace("truco_owner", f'"{owner}"').replace("truco_app", role))
        yield role
    finally:
        connection.close()
        superuser_sql(f"DROP OWNED BY {role}; DROP ROLE {role}")


class As:
    """The default connection logged in as another role for the block (then back to the test's own)."""

    def __init__(self, role: str):
        self.role = role

    def __enter__(self):
        connection.close()
        self.saved = connection.settings_dict["USER"], connection.settings_dict["PASSWORD"]
        connection.settings_dict["USER"], connection.settings_dict["PASSWORD"] = self.role, "app-test"
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone()[0] == self.role
        return self

    def __exit__(self, *exc):
        connection.close()
        connection.settings_dict["USER"], connection.settings_dict["PASSWORD"] = self.saved


def refused(statement: str) -> str:
    """The SQLSTATE PostgreSQL answers ``statement`` with ('' when it passed)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    except DatabaseError as error:
        return getattr(error.__cause__, "sqlstate", "") or "?"
    return ""


def test_the_apps_role_writes_hands_but_cannot_switch_the_triggers_off(app_role, match, referee):
    with As(app_role):
        services.record_hand(match, three(0), referee)  # the app at work: a hand written, then read
        services.record_hand(match, three(1), referee)
        api = APIClient()
        api.force_authenticate(referee)
        assert api.get(f"/api/scoring/matches/{match.pk}/").status_code == 200
        assert HandEntry.objects.filter(game__match=match).count() == 2
        for statement in ("ALTER TABLE scoring_matchevent DISABLE TRIGGER ALL",
                          "ALTER TABLE scoring_matchevent DISABLE TRIGGER scoring_matchevent_append_only",
                          "DROP FUNCTION truco_append_only() CASCADE",
                          "TRUNCATE scoring_matchevent",
                          "TRUNCATE scoring_sumulaversion CASCADE",
                          "SET session_replication_role = replica"):
            assert refused(statement) == "42501", statement  # insufficient_privilege: not the owner
        with pytest.raises(IntegrityError), transaction.atomic():  # and the triggers hold for it
            MatchEvent.objects.filter(match=match).update(data={})
        with pytest.raises(IntegrityError), transaction.atomic():
            MatchEvent.objects.filter(match=match).delete()
    with connection.cursor() as cursor:  # back as the owner: every trigger is still there
        cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE '%%_append_only' AND tgenabled = 'O'")
        assert cursor.fetchone()[0] >= 4  # súmula versions, signatures, match events, audit entries
    assert MatchEvent.objects.filter(match=match).count() >= 2
