"""The compiled core under AddressSanitizer and UBSan (tools/native_sanitize.sh), once per run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("TABLIER_REQUIRE_NATIVE") == "1"


def _missing_tool() -> str | None:
    gcc = shutil.which(os.environ.get("CC", "gcc"))
    if gcc is None:
        return "no C compiler"
    found = subprocess.run(
        [gcc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        return "the C compiler has no libasan"
    return None


@pytest.mark.slow
def test_the_differential_tests_pass_under_the_sanitizers() -> None:
    missing = _missing_tool()
    if missing is not None:
        if REQUIRED:
            pytest.fail(f"{missing}: the sanitizer run is required (TABLIER_REQUIRE_NATIVE=1)")
        pytest.skip(missing)
    env = {**os.environ, "TABLIER_DIFF_POSITIONS": os.environ.get("TABLIER_DIFF_POSITIONS", "1500")}
    result = subprocess.run(
        ["bash", str(ROOT / "tools" / "native_sanitize.sh"), sys.executable],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "native_sanitize: OK, no sanitizer report" in output
