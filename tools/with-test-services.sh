#!/usr/bin/env bash
# Runs a command (the test suite) with the system services some tests need:
#  - Debian's Chromium, for the browser tests (tests/web/);
#  - a throwaway PostgreSQL cluster on loopback, for the storage tests (tests/server/).
# Missing Debian packages are installed when this runs as root or with password-less sudo;
# otherwise the tests that need them skip with a message (CI sets TABLIER_REQUIRE_BROWSER=1
# and TABLIER_REQUIRE_POSTGRES=1, which turn those skips into failures).
# A TABLIER_TEST_POSTGRES_URL already set is used as it is, and no cluster is started.
# On a fresh machine the package lists are fetched first (apt-get update). Where a service
# cannot be provided the script says so and goes on: the tests that need it skip, except in
# CI, where TABLIER_REQUIRE_* make the script stop at once with the reason.
set -euo pipefail

required() {  # is the service ($1: BROWSER or POSTGRES) required (CI)?
    local var="TABLIER_REQUIRE_$1"
    [ "${!var:-}" = 1 ]
}

unavailable() {  # $1: BROWSER or POSTGRES, $2: what is wrong
    if required "$1"; then
        echo "test services: $2, and TABLIER_REQUIRE_$1=1 requires it" >&2
        exit 1
    fi
    echo "test services: $2: the tests that need it will skip with a message" >&2
}

SUDO=""
CAN_INSTALL=1
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else CAN_INSTALL=0; fi
fi
command -v apt-get >/dev/null 2>&1 || CAN_INSTALL=0

have_postgres() { ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# A Japanese font, so the browser tests' screenshots of the Japanese pages show text, not boxes.
[ -e /usr/share/fonts/opentype/ipafont-gothic ] || need+=(fonts-ipafont-gothic)
if [ -z "${TABLIER_TEST_POSTGRES_URL:-}" ]; then
    have_postgres || need+=(postgresql)
fi
if [ "${#need[@]}" -gt 0 ] && [ "$CAN_INSTALL" = 1 ]; then
    echo "test services: installing ${need[*]} from Debian's packages"
    # env: sudo drops DEBIAN_FRONTEND, and a package's questions (tzdata) would wait forever.
    if ! { $SUDO apt-get update -qq &&
           $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
               --no-install-recommends "${need[@]}" >/dev/null; }; then
        echo "test services: apt-get could not install ${need[*]}" >&2
    fi
fi
why="not installed, and this user cannot install it (no root, password-less sudo or apt-get)"
[ "$CAN_INSTALL" = 1 ] && why="not installed, and apt-get could not install it"
command -v chromium >/dev/null 2>&1 || unavailable BROWSER "Chromium: $why"
if [ -z "${TABLIER_TEST_POSTGRES_URL:-}" ] && ! have_postgres; then
    unavailable POSTGRES "PostgreSQL: $why (or set TABLIER_TEST_POSTGRES_URL)"
fi

if [ -z "${TABLIER_TEST_POSTGRES_URL:-}" ] && have_postgres; then
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
    if as_pg "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U tablier >"$PGDIR/initdb.log" 2>&1 &&
       as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
           -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" start >/dev/null 2>&1; then
        export TABLIER_TEST_POSTGRES_URL="postgresql+psycopg://tablier@127.0.0.1:$PGPORT/postgres"
    else
        tail -n 5 "$PGDIR/initdb.log" "$PGDIR/log" 2>/dev/null >&2 || true
        unavailable POSTGRES "PostgreSQL: the throwaway cluster did not start"
    fi
fi

"$@"
