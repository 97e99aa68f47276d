"""benchmarks/web_load.py stays runnable: a tiny load against real ``tablier serve`` processes.

The figures themselves are not checked (speed is the benchmark's business): only that the
games are played the browser's way end to end — every move answered, every move seen on the
other seat's WebSocket — with no error.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import postgres_base_url

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "web_load.py"


def _module():
    spec = importlib.util.spec_from_file_location("web_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def run_load(tmp_path: Path, *flags: str, env: dict | None = None) -> dict:
    """Run the script; its JSON figures."""
    out = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--think", "0", "--json", str(out), *flags],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text())


def test_command_line_values():
    load = _module()
    assert load.think_range("1-3") == (1.0, 3.0)
    assert load.think_range("0") == (0.0, 0.0)
    assert load.clock_body("5+3") == {"kind": "live", "base": 300, "increment": 3}
    assert load.clock_body("0.5+0") == {"kind": "live", "base": 30, "increment": 0}
    assert load.clock_body(None) is None
    assert load.percentile([0.001, 0.002, 0.003, 0.004], 50) == pytest.approx(2.0)
    assert load.percentile([0.001, 0.002, 0.003, 0.004], 100) == pytest.approx(4.0)
    with pytest.raises(SystemExit):
        load.parse_args(["--spawn", "2"])  # several processes need PostgreSQL


def test_three_games_on_one_process(tmp_path):
    figures = run_load(tmp_path, "--games", "3", "--plies", "4")
    run = figures["runs"][0]
    assert run["errors"] == 0, run["first_errors"]
    assert run["moves"] == 12
    # each move: its legal moves fetched, sent by POST, seen on the other seat's WebSocket
    assert run["legal"]["n"] == run["move"]["n"] == run["ws"]["n"] == 12
    assert run["move"]["p50"] > 0
    assert run["server_cpu_ms_per_move"] > 0


def test_two_client_processes_one_listener(tmp_path):
    figures = run_load(
        tmp_path, "--games", "4", "--plies", "3", "--clients", "2", "--listeners", "1"
    )
    run = figures["runs"][0]
    assert run["errors"] == 0, run["first_errors"]
    assert run["moves"] == 12
    # only the second seat listens: it sees the first seat's moves
    assert 0 < run["ws"]["n"] < 12


def test_two_processes_on_postgresql_with_clocks(tmp_path):
    """Each game's seats on different processes: every move crosses the broker."""
    url = postgres_base_url()
    figures = run_load(
        tmp_path,
        "--games",
        "4",
        "--plies",
        "4",
        "--spawn",
        "2",
        "--database",
        url,
        "--clock",
        "5+3",
    )
    run = figures["runs"][0]
    assert run["errors"] == 0, run["first_errors"]
    assert run["moves"] == 16
    assert run["ws"]["n"] == 16
