"""Which seal key is in use is written by the tables' owner only (the deploy step: migrate,
rotate_signing_key): on PostgreSQL every other role, the app's included, keeps SELECT on
scoring_sealkeyinuse but loses INSERT, UPDATE, DELETE and TRUNCATE, whatever the default privileges
gave it (scripts/postgres-grants.sql revokes the same when it is run after the migrations). A row the
app's role could write would stop every start (scoring.E004)."""
from django.db import migrations

REVOKE = """
DO $$
DECLARE
    grantee_name text;
BEGIN
    REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON scoring_sealkeyinuse FROM PUBLIC;
    FOR grantee_name IN
        SELECT DISTINCT pg_get_userbyid(acl.grantee)
        FROM pg_class c, aclexplode(c.relacl) AS acl
        WHERE c.oid = 'scoring_sealkeyinuse'::regclass AND acl.grantee <> c.relowner AND acl.grantee <> 0
    LOOP
        EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON scoring_sealkeyinuse FROM %I', grantee_name);
    END LOOP;
END $$;
"""


def owner_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REVOKE, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0024_sumula_closed_event'),
    ]

    operations = [
        migrations.RunPython(owner_only, migrations.RunPython.noop),
    ]
