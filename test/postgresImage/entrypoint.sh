#!/bin/sh
# The official postgres image's start-up, in short: on an empty PGDATA, initdb with POSTGRES_USER
# and POSTGRES_PASSWORD (scram-sha-256 over TCP) and create POSTGRES_DB; then PostgreSQL as the
# `postgres` user in the foreground, with the container's arguments (a leading `postgres` dropped).
set -eu
bin=/usr/lib/postgresql/15/bin
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
[ "${1:-}" = postgres ] && shift
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is needed to initialise the database}"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  as_postgres "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$db" != postgres ]; then
    as_postgres "$bin/psql" -v ON_ERROR_STOP=1 -h /run/postgresql -U "$user" -d postgres \
      -c "CREATE DATABASE \"$db\""
  fi
  as_postgres "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" -D "$PGDATA" "$@"
