#!/bin/sh
# compose.yaml's database, on its first start (the postgres image runs /docker-entrypoint-initdb.d/*):
# the app's role truco_app, which does not own the tables; the migrations run as POSTGRES_USER (the
# owner). The grants are scripts/postgres-grants.sql's, with the owner's name (README).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_password="$TRUCO_APP_PASSWORD" <<'SQL'
CREATE ROLE truco_app LOGIN PASSWORD :'app_password';
SQL
sed "s/truco_owner/\"$POSTGRES_USER\"/g" /truco/postgres-grants.sql |
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB"
