"""Installing without a C compiler: the package still builds, with the pure engines only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("TABLIER_REQUIRE_NATIVE") == "1"


def _setuptools_major() -> int:
    try:
        return int(version("setuptools").split(".")[0])
    except Exception:
        return 0


@pytest.mark.slow
def test_a_wheel_builds_offline_without_a_compiler(tmp_path: Path) -> None:
    if _setuptools_major() < 77:
        message = "setuptools>=77 (pyproject.toml's build requirement) is not installed here"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src",
        project / "src",
        ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info", "build"),
    )
    wheels = tmp_path / "wheels"
    env = {**os.environ, "CC": "/bin/false", "PIP_NO_INDEX": "1"}
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*command, "--no-index", "--wheel-dir", str(wheels), str(project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = wheels.glob("tablier-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))], "nothing compiled"
    for needed in ("tablier/games/volo/rules.py", "tablier/games/volo/_native.c"):
        assert needed in names
