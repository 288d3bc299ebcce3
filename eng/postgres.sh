#!/usr/bin/env bash
# A private PostgreSQL cluster for tests and local comparisons, on its own port and folder. The
# default port, 25432, is below Linux's ephemeral range (32768-60999), so a test's outgoing
# connections never hold it when the cluster starts.
#
#   eng/postgres.sh start [PORT [DIR]]   starts it (initdb on first use), prints the connection string
#   eng/postgres.sh stop  [PORT [DIR]]   stops it
#   eng/postgres.sh status [PORT [DIR]]  exits 0 when it is running, 3 when it is not
#
# Installs PostgreSQL (Debian package 'postgresql') when no server binaries are found. As root the
# cluster runs as the 'postgres' user. It listens on 127.0.0.1 only and asks for a password
# (scram-sha-256, no trust): a random one made at initdb, kept in DIR/.benchmarks-password (mode
# 600). Connection string: Host=127.0.0.1;Port=PORT;Username=postgres;Password=…;Database=postgres
set -euo pipefail
action=${1:-start}
port=${2:-25432}
dir=${3:-/tmp/benchmarks-postgres-$port}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    password_file="$dir/.benchmarks-password"
    if [ -f "$dir/PG_VERSION" ] && [ ! -f "$password_file" ]; then
      echo "error: $dir is a cluster without a password (trust authentication, made by an earlier version of this script); remove it or give another folder" >&2
      exit 1
    fi
    if [ ! -f "$dir/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
      pwfile=$(mktemp)
      trap 'rm -f "$pwfile"' EXIT
      head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$pwfile"
      [ "$(id -u)" = 0 ] && chown postgres "$pwfile"
      as_owner "$bin/initdb" -D "$dir" -U postgres --auth=scram-sha-256 --pwfile="$pwfile" -E UTF8 --no-sync >/dev/null
      as_owner install -m 600 "$pwfile" "$password_file"
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    fi
    echo "Host=127.0.0.1;Port=$port;Username=postgres;Password=$(cat "$password_file");Database=postgres"
    ;;
  status)
    if [ -f "$dir/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      exit 0
    fi
    exit 3
    ;;
  stop)
    if [ -f "$dir/PG_VERSION" ]; then
      as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: eng/postgres.sh start|stop|status [PORT [DIR]]" >&2
    exit 2
    ;;
esac
