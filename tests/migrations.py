"""For the migrations' own tests: a test database made from the models (SQLite's, tests/conftest.py)
has its tables but no record of the migrations; record them as applied (``migrate --fake``, which
runs nothing) so that the tests can walk the real migrations down and up from there."""
from django.core.management import call_command
from django.db.migrations.recorder import MigrationRecorder


def record_migrations_applied(connection) -> None:
    if not MigrationRecorder(connection).applied_migrations():
        call_command("migrate", fake=True, verbosity=0)
