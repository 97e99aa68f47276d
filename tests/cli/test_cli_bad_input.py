"""Bad input to any `tablier` command: one line `Error: ...` on stderr, exit status 2.

Each command that reads text (play, replay, analyse, solve, perft, arena,
position, games) is given game specs, positions, numbers, player specs and
files that it must refuse; none may end in a traceback or another exit status.
A few cases run as real processes, the rest through click's CliRunner.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import tablier.games
from tablier.cli.main import main
from tablier.cli.session import PlaySession, ReplaySession
from tablier.core.record import Record

ODD = "٣"  # ARABIC-INDIC DIGIT THREE: str.isdigit() is True, and int() reads it as 3
HUGE = "9" * 5000  # past int()'s 4,300-digit limit
MINI = "volo:board=mini"


def _files(tmp_path):
    """Record and results files that must be refused, by name."""
    files = {}
    deep = "[" * 100_000 + "]" * 100_000
    files["deep.json"] = deep
    files["huge.json"] = '{"format": ' + HUGE + "}"
    files["types.json"] = json.dumps(
        {"format": 1, "game": "volo", "options": [], "tags": 0, "moves": "e5"}
    )
    files["odd.txt"] = f'[Game "volo"]\n[Options "board=mini,supply={ODD}"]\n\n*\n'
    files["moves.txt"] = f'[Game "volo"]\n[Options "board=mini"]\n\n1. f{ODD} *\n'
    files["binary.txt"] = "\udcff"  # written as a lone byte 0xff below: not UTF-8
    out = {}
    for name, text in files.items():
        path = tmp_path / name
        if name == "binary.txt":
            path.write_bytes(b"\xff\xfe[Game")
        else:
            path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    out["missing"] = str(tmp_path / "missing.txt")
    out["folder"] = str(tmp_path)
    results = tmp_path / "results.jsonl"
    results.write_text(deep + "\n" + '{"index": 0}\n', encoding="utf-8")
    out["results"] = str(results)
    return out


def _cases(files):
    yield ["games", "extra"]
    yield ["position", f"volo:board={ODD}"]
    yield ["position", "volo", "--supply", ODD]
    yield ["position", "volo", "--supply", HUGE]
    yield ["position", "volo", "--supply", "１２"]
    yield ["position", "vo lo"]
    yield ["position", "volo:self=1"]
    yield ["position", "volo", "--" + "x" * 5000, "1"]
    yield ["play", "chess"]
    yield ["play", MINI, "--position", f"{MINI} 5/1o4b1 o 1 1 0"]
    yield ["play", "--position", HUGE]
    yield ["play", "--position", f"{MINI} " + "/".join(["9"] * 11) + f" o {HUGE} 1 0"]
    yield ["play", MINI, "--ai", f"hard:iterations={ODD}"]
    yield ["play", MINI, "--ai", "hard:seconds=nan"]
    yield ["play", MINI, "--ai", "grandmaster"]
    yield ["play", MINI, "--ai", "easy", "--seed", ODD]
    for name in (
        "deep.json",
        "huge.json",
        "types.json",
        "odd.txt",
        "moves.txt",
        "binary.txt",
        "missing",
        "folder",
    ):
        yield ["play", "--load", files[name]]
        yield ["replay", "--all", files[name]]
    yield ["replay", "--all", "nul\x00name.txt"]
    yield ["perft", "volo", ODD]
    yield ["perft", "volo", HUGE]
    yield ["perft", f"{MINI} x o 1 1 0", "1"]
    yield ["perft", "\u0000", "1"]
    yield ["analyse", f"volo:board={ODD}"]
    yield ["analyse", MINI, "garbage"]
    yield ["analyse", MINI, "--iterations", "١٠"]
    yield ["analyse", MINI, "--seconds", "nan"]
    yield ["analyse", MINI, "--top", HUGE]
    yield ["solve", "xobo", "-d", "²"]
    yield ["solve", "xobo:stack=x", "-d", "1"]
    yield ["solve", "xobo", "xobo", "-d", "1"]
    yield ["arena", "vo lo", "random", "random"]
    yield ["arena", MINI, f"hard:iterations={ODD}", "random"]
    yield ["arena", MINI, "random", "random:rule_nodes=" + HUGE]
    yield ["arena", MINI, "random", "random", "-n", ODD]
    yield ["arena", MINI, "random", "random", "-n", "1", "--out", files["results"]]
    yield ["arena", MINI, "random", "random", "-n", "1", "--out", "nul\x00name"]
    yield ["serve", "--port", "٣"]
    yield ["serve", "--port", "99999"]
    yield ["serve", "--ai-progress-interval", "nan"]
    yield ["serve", "--max-body", HUGE]


def _check(result, args):
    shown = [a if len(a) < 60 else a[:57] + "..." for a in args]
    assert result.exit_code == 2, (shown, result.exit_code, result.output[-500:])
    assert isinstance(result.exception, SystemExit), (shown, result.exception)
    assert "Traceback" not in result.output, shown
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, (shown, result.stderr[-500:])
    assert len(errors[0]) < 2000, (shown, len(errors[0]))


def test_every_command_refuses_bad_input_with_one_line_and_status_2(tmp_path):
    files = _files(tmp_path)
    runner = CliRunner()
    count = 0
    for args in _cases(files):
        _check(runner.invoke(main, args, input=""), args)
        count += 1
    assert count > 50


def test_real_processes_print_one_line_and_exit_2(tmp_path):
    files = _files(tmp_path)
    for args in (
        ["perft", "volo", ODD],
        ["position", "volo", "--supply", HUGE],
        ["replay", "--all", files["deep.json"]],
        ["analyse", MINI, "--iterations", "١٠"],
    ):
        proc = subprocess.run(
            [sys.executable, "-c", "from tablier.cli.main import main; main()", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2, (args[:2], proc.stderr[-500:])
        assert "Traceback" not in proc.stderr
        assert proc.stderr.strip().splitlines()[-1].startswith("Error:"), proc.stderr[-500:]
        assert proc.stdout == ""


def _session_console():
    return Console(file=io.StringIO(), width=100, color_system=None)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(
                [
                    "f6",
                    "f" + ODD,
                    "e5-e8",
                    "undo",
                    "moves",
                    "load",
                    "save",
                    HUGE,
                    "position",
                    "new",
                    "load /",
                    "load nul\x00",
                    "save /",
                ]
            ),
        ),
        max_size=6,
    )
)
def test_the_play_prompt_takes_any_line(lines):
    game = tablier.games.from_spec(MINI)
    session = PlaySession(_session_console(), lambda prompt: None, game)
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # 'save x' writes x
        for line in lines:
            line = line.strip()
            if line and line.split()[0].lower() not in ("quit", "exit", "q"):
                assert session.handle(line) is True


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.one_of(st.text(max_size=12), st.sampled_from(["²", ODD, "3", HUGE])), max_size=8
    )
)
def test_the_replay_prompt_takes_any_line(lines):
    game = tablier.games.from_spec(MINI)
    state = game.initial_state()
    record = Record.from_moves(game, [state.legal_moves()[0]])
    feed = iter([*lines, None])
    ReplaySession(_session_console(), lambda prompt: next(feed), record).run()


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_good_input_still_works(level):
    result = CliRunner().invoke(main, ["position", "volo", "--supply", "12", "--board", "mini"])
    assert result.exit_code == 0 and "supply=12" in result.output
    result = CliRunner().invoke(main, ["arena", MINI, level, "random", "-n", "1", "-q"])
    assert result.exit_code == 0, result.output


def test_a_tablier_error_escaping_a_command_is_one_line_and_status_2():
    from tablier.cli.errors import TablierGroup
    from tablier.core.errors import IllegalMoveError

    group = TablierGroup("demo")

    @group.command("fail")
    def fail():
        raise IllegalMoveError("e5 is occupied\nby a bird of Blue")

    result = CliRunner().invoke(group, ["fail"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.stderr == "Error: e5 is occupied by a bird of Blue\n"
