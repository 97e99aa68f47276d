#!/usr/bin/env bash
# The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# Usage: tools/native_sanitize.sh [python]      (default: .venv/bin/python, else python3)
#
# Builds every C extension of the package (setup.py: the games' cores and the search's loops)
# with -fsanitize=address,undefined into a temporary copy of the project, so the compiled
# modules of src/ are never touched, then runs the games' differential tests
# (tests/games/<game>/test_native.py, on TABLIER_DIFF_POSITIONS positions per option set,
# 1500 unless set; and test_prove.py beside it, for a compiled proof search) and the search's (tests/ai/test_ai_native.py) against that build, with
# gcc's libasan preloaded into Python.  Fails on the first sanitizer report (UBSan does not
# recover; ASan stops at its first error) or any failing test.  A game without a
# test_native.py is skipped, and said.  Leak detection is off: CPython keeps memory for the
# process's lifetime by design.  TABLIER_SANITIZE_KEEP=1 keeps the temporary copy (its
# build.log and tests.log) for a look.  tests/core/test_native_sanitize.py runs this once per CI.
set -euo pipefail
# The point is the compiled build: a TABLIER_PURE=1 from the caller would switch it off.
unset TABLIER_PURE
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${1:-}"
if [[ -z "$PYTHON" ]]; then
    if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
CC="${CC:-gcc}"
LIBASAN="$("$CC" -print-file-name=libasan.so)"
if [[ "$LIBASAN" != /* || ! -e "$LIBASAN" ]]; then
    echo "native_sanitize: $CC has no libasan.so; cannot build with the sanitizers" >&2
    exit 2
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/tablier-sanitize.XXXXXX")"
trap '[[ -n "${TABLIER_SANITIZE_KEEP:-}" ]] || rm -rf "$WORK"' EXIT
# The sources and tests only: no compiled module, cache or build folder comes along.
for item in pyproject.toml setup.py README.md src tests; do
    cp -r "$ROOT/$item" "$WORK/"
done
find "$WORK" \( -name '*.so' -o -name '__pycache__' -o -name '*.egg-info' \) -prune \
    -exec rm -rf {} +

SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
echo "native_sanitize: building with $SAN in $WORK"
(
    cd "$WORK"
    CC="$CC" CFLAGS="$SAN -g -O1" LDFLAGS="$SAN" \
        "$PYTHON" setup.py -q build_ext --inplace --build-temp "$WORK/build" >"$WORK/build.log" 2>&1 \
        || { cat "$WORK/build.log" >&2; exit 1; }
)
built="$(cd "$WORK/src" && find tablier -name '_native*.so' | sort)"
echo "native_sanitize: built:"
echo "$built" | sed 's/^/  /'

tests=()
for dir in "$WORK"/tests/games/*/; do
    game="$(basename "$dir")"
    [[ "$game" == __* ]] && continue
    if [[ -f "$dir/test_native.py" ]]; then
        if ! grep -q "tablier/games/$game/_native" <<<"$built"; then
            echo "native_sanitize: $game's compiled core did not build" >&2
            cat "$WORK/build.log" >&2
            exit 1
        fi
        tests+=("tests/games/$game/test_native.py")
        # a game's compiled proof search, where it has one
        [[ -f "$dir/test_prove.py" ]] && tests+=("tests/games/$game/test_prove.py")
    else
        echo "native_sanitize: $game skipped (no tests/games/$game/test_native.py)"
    fi
done
tests+=("tests/ai/test_ai_native.py")

cd "$WORK"
export PYTHONPATH="$WORK/src" LD_PRELOAD="$LIBASAN" TABLIER_REQUIRE_NATIVE=1
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TABLIER_DIFF_POSITIONS="${TABLIER_DIFF_POSITIONS:-1500}"
# the tests must import this build, not the project's own
where="$("$PYTHON" -c 'import tablier.ai._native as m; print(m.__file__)')"
if [[ "$where" != "$WORK"/* ]]; then
    echo "native_sanitize: the tests would import $where, not the sanitized build" >&2
    exit 1
fi
echo "native_sanitize: running ${tests[*]} (TABLIER_DIFF_POSITIONS=$TABLIER_DIFF_POSITIONS)"
status=0
# --capture=sys: what the sanitizers write to the stderr file descriptor reaches the log
"$PYTHON" -m pytest -q -p no:cacheprovider -p no:xdist -o addopts="" --capture=sys "${tests[@]}" \
    >"$WORK/tests.log" 2>&1 || status=$?
cat "$WORK/tests.log"
if grep -q -E "ERROR: AddressSanitizer|runtime error:" "$WORK/tests.log"; then
    echo "native_sanitize: FAILED: sanitizer report above" >&2
    exit 1
fi
if [[ $status -ne 0 ]]; then
    echo "native_sanitize: FAILED: the tests exited with status $status" >&2
    exit 1
fi
echo "native_sanitize: OK, no sanitizer report"
