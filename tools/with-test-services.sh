#!/usr/bin/env bash
# Runs a command (the test suite) with the system services some tests need:
#  - Debian's Chromium, for the browser tests (tests/web/);
#  - a throwaway PostgreSQL cluster on loopback, for the storage tests (tests/server/).
# Missing Debian packages are installed when this runs as root or with password-less sudo;
# otherwise the tests that need them skip with a message (CI sets TABLIER_REQUIRE_BROWSER=1
# and TABLIER_REQUIRE_POSTGRES=1, which turn those skips into failures).
# A TABLIER_TEST_POSTGRES_URL already set is used as it is, and no cluster is started.
set -euo pipefail

SUDO=""
CAN_INSTALL=1
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else CAN_INSTALL=0; fi
fi

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ -z "${TABLIER_TEST_POSTGRES_URL:-}" ]; then
    ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
fi
if [ "${#need[@]}" -gt 0 ]; then
    if [ "$CAN_INSTALL" = 1 ] && command -v apt-get >/dev/null 2>&1; then
        echo "test services: installing ${need[*]} from Debian's packages"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
            "${need[@]}" >/dev/null
    else
        echo "test services: ${need[*]} missing and cannot be installed here (no root, sudo or" \
             "apt-get): the tests that need them will skip"
    fi
fi

if [ -z "${TABLIER_TEST_POSTGRES_URL:-}" ] && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    PGBIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")"
    PGPORT="${TABLIER_TEST_PGPORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    PGDIR="$(mktemp -d /tmp/tablier-test-pg.XXXXXX)"
    if [ "$(id -u)" = 0 ]; then
        # PostgreSQL refuses to run as root: an unprivileged system user runs it.
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        chown postgres "$PGDIR"
        as_pg() { runuser -u postgres -- "$@"; }
    else
        as_pg() { "$@"; }
    fi
    cleanup() {
        as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$PGDIR"
    }
    trap cleanup EXIT
    as_pg "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U tablier >/dev/null
    as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
        -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" start >/dev/null
    export TABLIER_TEST_POSTGRES_URL="postgresql+psycopg://tablier@127.0.0.1:$PGPORT/postgres"
fi

"$@"
