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
DECLARE
    changed text;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- the only change allowed: a column named in the trigger's arguments set to NULL
        -- (Django's on_delete=SET_NULL when the row it pointed to is deleted)
        FOR changed IN SELECT o.key FROM jsonb_each(to_jsonb(OLD)) AS o
                       WHERE o.value IS DISTINCT FROM (to_jsonb(NEW) -> o.key) LOOP
            IF NOT (changed = ANY(TG_ARGV) AND (to_jsonb(NEW) -> changed) = 'null'::jsonb) THEN
                RAISE EXCEPTION 'rows of % are written once: never updated or deleted (column %)',
                    TG_TABLE_NAME, changed USING ERRCODE = 'restrict_violation';
            END IF;
        END LOOP;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'rows of % are written once: never updated or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def operations(*tables: str, nullable: dict[str, tuple[str, ...]] | None = None):
    """``(forward, backward)`` for ``migrations.RunPython``: create or drop the triggers on PostgreSQL.
    ``nullable`` names, per table, the foreign-key columns Django may set to NULL (``SET_NULL``)."""
    nullable = nullable or {}

    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(FUNCTION, params=None)
        for table in tables:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {table}_append_only ON "{table}"')
            arguments = ", ".join(f"'{column}'" for column in nullable.get(table, ()))
            schema_editor.execute(f'CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON "{table}" '
                                  f"FOR EACH ROW EXECUTE FUNCTION truco_append_only({arguments})")

    def backward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in tables:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {table}_append_only ON "{table}"')

    return forward, backward
