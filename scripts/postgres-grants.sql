-- The production database's privileges (README, "A database role that does not own the tables"):
-- truco_owner owns the schema and every table and runs the migrations; truco_app, the role of the
-- site and the Celery workers, reads and writes rows and nothing else. Only an owner (or a superuser)
-- can ALTER TABLE ... DISABLE TRIGGER, DROP FUNCTION truco_append_only() or TRUNCATE (no grant here),
-- so the app's credentials cannot switch off the append-only triggers (config/append_only.py).
-- Run in the database, as a superuser, after CREATE DATABASE truco OWNER truco_owner:
--   runuser -u postgres -- psql -v ON_ERROR_STOP=1 -d truco -f scripts/postgres-grants.sql
-- (tests/ops/test_database_roles.py runs this file, with its own role names, on the test database.)
ALTER SCHEMA public OWNER TO truco_owner;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO truco_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO truco_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO truco_app;
-- which seal key is in use is the deploy step's to write (migrate and rotate_signing_key, as truco_owner): a row
-- written by truco_app would stop every start (scoring.E004). The migration scoring 0023 revokes the same on a
-- database migrated after this file ran; this line covers running it again afterwards.
DO $$ BEGIN
    IF to_regclass('scoring_sealkeyinuse') IS NOT NULL THEN
        REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON scoring_sealkeyinuse FROM truco_app;
    END IF;
END $$;
-- tables and sequences the owner's later migrations create get the same grants
ALTER DEFAULT PRIVILEGES FOR ROLE truco_owner IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO truco_app;
ALTER DEFAULT PRIVILEGES FOR ROLE truco_owner IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO truco_app;
