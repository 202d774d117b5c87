"""Append-only tables are append-only in the database too (config/history.AppendOnly guards only
Python's ``save``/``delete``; ``QuerySet.update()`` and raw SQL pass it).

On PostgreSQL a trigger refuses every UPDATE and DELETE of their rows (``restrict_violation``, an
IntegrityError in Django). ``TRUNCATE`` (the test runner's flush) is not a row change and passes.
SQLite keeps the Python guard only: its migrations rebuild tables, which would drop triggers; the
row check (scoring/integrity.py) catches a change there. Used by migrations:
``migrations.RunPython(*append_only.operations("scoring_matchevent", ...))``.
"""
from __future__ import annotations

FUNCTION = """
CREATE OR REPLACE FUNCTION truco_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'rows of % are written once: never updated or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def operations(*tables: str):
    """``(forward, backward)`` for ``migrations.RunPython``: create or drop the triggers on PostgreSQL."""

    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(FUNCTION, params=None)
        for table in tables:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {table}_append_only ON "{table}"')
            schema_editor.execute(f'CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON "{table}" '
                                  f"FOR EACH ROW EXECUTE FUNCTION truco_append_only()")

    def backward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in tables:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {table}_append_only ON "{table}"')

    return forward, backward
