"""The compiled core's loading: required in CI, refused on request, missing said once, shown."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest
from click.testing import CliRunner

import tablier.games
from tablier.cli.main import main
from tablier.core import native

REQUIRED = os.environ.get("TABLIER_REQUIRE_NATIVE") == "1"
BUILT_IN = ("volo", "xobo", "voldetour")


@pytest.mark.skipif(not REQUIRED, reason="TABLIER_REQUIRE_NATIVE=1 not set (CI sets it)")
def test_every_built_in_game_runs_its_compiled_core_when_required() -> None:
    engines = {name: tablier.games.game_class(name).engine() for name in BUILT_IN}
    assert engines == dict.fromkeys(BUILT_IN, "compiled"), engines
    assert native.engine_status("tablier.ai._native") == "compiled"


def test_pure_forced_by_the_environment_is_silent() -> None:
    code = (
        "import tablier.games, tablier.ai.mcts\n"
        f"for name in {BUILT_IN!r}:\n"
        "    print(name, tablier.games.game_class(name).engine())\n"
        "from tablier.core.native import engine_status\n"
        "print('search', engine_status('tablier.ai._native'))\n"
    )
    env = {**os.environ, "TABLIER_PURE": "1"}
    env.pop("TABLIER_REQUIRE_NATIVE", None)
    result = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "no warning when the pure engines are asked for"
    lines = result.stdout.splitlines()
    assert lines == [f"{name} pure (TABLIER_PURE=1)" for name in (*BUILT_IN, "search")]


def test_a_missing_compiled_core_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setattr(native, "_warned", False)
    monkeypatch.setattr(native, "_STATUS", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert native.load("tablier.games.nowhere._native") is None
        assert native.load("tablier.games.elsewhere._native") is None
        assert native.load("tablier.games.nowhere._native") is None
    said = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert len(said) == 1, [str(w.message) for w in said]
    assert "tablier.games.nowhere._native" in str(said[0].message)
    assert "pure-Python engines" in str(said[0].message)
    status = native.engine_status("tablier.games.elsewhere._native")
    assert status == "pure (compiled core not built)"


def test_pure_forced_refuses_a_built_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "_STATUS", {})
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.load("tablier.games.volo._native") is None
    assert native.engine_status("tablier.games.volo._native") == "pure (TABLIER_PURE=1)"


def test_version_shows_each_games_engine() -> None:
    result = CliRunner().invoke(main, ["--version"], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("tablier ")
    for name in BUILT_IN:
        engine = tablier.games.game_class(name).engine()
        assert f"  {name}: {engine} engine" in lines


def test_games_lists_each_games_engine() -> None:
    result = CliRunner().invoke(main, ["games"], catch_exceptions=False, terminal_width=250)
    assert result.exit_code == 0
    header = next(line for line in result.output.splitlines() if " title " in line)
    assert header.rstrip(" ┃").endswith("engine"), header
    for name in BUILT_IN:
        engine = tablier.games.game_class(name).engine()
        row = next(line for line in result.output.splitlines() if f" {name} " in line)
        assert engine.split()[0] in row, (name, engine, row)
