#!/usr/bin/env bash
# Run a command beside a throwaway PostgreSQL server of our own: a cluster in a temporary
# folder, listening only on a unix socket in it, stopped and removed when the command ends.
# The command gets TEST_DATABASE_URL naming an empty database there.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed (Debian: apt-get install postgresql)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/companion-pg.XXXXXX)
as_owner() {
  # postgres refuses to run as root; the Debian package's postgres user runs it then
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
# durability is not under test here, so the server skips flushing to disk
as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
cleanup() {
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
as_owner "$bindir/createdb" -h "$dir" -U postgres companion
export TEST_DATABASE_URL="postgresql+psycopg://postgres@/companion?host=$dir"
"$@"
