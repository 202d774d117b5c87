"""For the migrations' own tests: walk the real migrations to a state, then back to the latest.

``start_at(connection, targets)`` walks down from the latest migrations to ``targets``.
``start_at(..., fresh=True)`` starts from an empty database and runs forward only the migrations
``targets`` need: on SQLite the test database is emptied; on PostgreSQL the walk happens in a schema of
its own (``SCRATCH``, first on the connection's ``search_path``), dropped by ``back_to_latest``, so the
test database's own tables are never touched (making them again by the migrations took ~10 s).
Django's walk down renders the project's state once per migration of the whole history, so an early
state is cheaper reached from nothing: tournaments 0005 (tests/tournaments/test_migration_stages.py)
took 40 s on SQLite and 29 s on PostgreSQL walking down, 7 s and 14 s from nothing, on a 2-core CI
machine. Every move by concern (tests/draw/test_migration_move.py) goes from nothing too, in one trip.
``back_to_latest`` then brings the database back for the tests that follow in the process: on SQLite
by making the tables from the models again, as its test database was made (tests/conftest.py); on
PostgreSQL by dropping the scratch schema, or after a walk down by the real migrations, whose
append-only triggers the other tests need.

``record_migrations_applied`` records a models-made database's migrations as applied
(``migrate --fake``, which runs nothing), for a test that needs the history of a migrated site."""
from django.apps import apps as installed_apps
from django.core.management import call_command
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.test.utils import override_settings


SCRATCH = "migration_scratch"


def record_migrations_applied(connection) -> None:
    if not MigrationRecorder(connection).applied_migrations():
        call_command("migrate", fake=True, verbosity=0)


def _empty(connection) -> None:
    """Every table dropped. The project's only other schema objects are PostgreSQL's append-only
    trigger function (``CREATE OR REPLACE``d by its migration) and the triggers, dropped with their
    tables."""
    with connection.constraint_checks_disabled(), connection.cursor() as cursor:
        tables = [connection.ops.quote_name(table) for table in connection.introspection.table_names(cursor)]
        if connection.vendor == "postgresql" and tables:
            cursor.execute(f"DROP TABLE {', '.join(tables)} CASCADE")
        else:
            for table in tables:
                cursor.execute(f"DROP TABLE {table}")


def migrate_to(connection, targets):
    """The real migrations from the database's state to ``targets`` (``(app, None)``: the app unapplied);
    the historical apps at ``targets``."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def start_at(connection, targets, fresh: bool = False):
    """The database at ``targets`` by the real migrations (see the module's docstring); its apps.
    ``fresh``: from an empty database (only the apps ``targets`` need have tables)."""
    if fresh and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {SCRATCH} CASCADE")
            cursor.execute(f"CREATE SCHEMA {SCRATCH}")
            cursor.execute(f"SET search_path TO {SCRATCH}")  # the session's, until back_to_latest
    elif fresh:
        _empty(connection)
    else:
        record_migrations_applied(connection)
    return migrate_to(connection, targets)


def back_to_latest(connection) -> None:
    """The database at the latest migrations again, for the tests that follow in this process."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW search_path")
            if cursor.fetchone()[0] == SCRATCH:  # a walk from nothing (start_at(fresh=True)): its schema goes
                cursor.execute("RESET search_path")
                cursor.execute(f"DROP SCHEMA {SCRATCH} CASCADE")
                return
    if connection.vendor != "sqlite":
        call_command("migrate", verbosity=0)
        return
    _empty(connection)
    no_migrations = {config.label: None for config in installed_apps.get_app_configs()}
    with override_settings(MIGRATION_MODULES=no_migrations):
        call_command("migrate", run_syncdb=True, verbosity=0)
    record_migrations_applied(connection)
