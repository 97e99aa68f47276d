"""``tablier puzzles generate`` and ``tablier puzzle``: a tiny generation, a puzzle solved
through standard input, and bad input refused with one line and exit status 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import tablier.games
from tablier.ai import puzzles as lib
from tablier.cli.main import main

MINI = "volo:board=mini"
FAST = ["--player", "easy", "--seed", "3", "--max-seconds", "1", "--max-nodes", "20000"]


def _invoke(args, stdin=""):
    return CliRunner().invoke(main, args, input=stdin)


def _puzzle(depth_at_least=3):
    puzzles = lib.load_shipped(tablier.games.from_spec(MINI))
    return next(p for p in puzzles if p.depth >= depth_at_least)


def test_generate_writes_a_file_and_adds_to_it(tmp_path):
    out = tmp_path / "mini.json"
    first = _invoke(["puzzles", "generate", MINI, "--count", "1", *FAST, "--out", str(out)])
    assert first.exit_code == 0, first.output
    kept = lib.load(out.read_text(encoding="utf-8"))
    assert len(kept) == 1
    again = _invoke(["puzzles", "generate", MINI, "--count", "2", *FAST, "--out", str(out)])
    assert again.exit_code == 0, again.output
    both = lib.load(out.read_text(encoding="utf-8"))
    assert len(both) == 2 and kept[0] in both, "the file's puzzles are kept"
    assert "2 puzzle(s)" in again.stderr


def test_generate_without_out_prints_the_file():
    result = _invoke(["puzzles", "generate", MINI, "--count", "1", *FAST])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["format"] == lib.FORMAT and len(data["puzzles"]) == 1


def test_a_puzzle_is_solved_through_standard_input():
    puzzle = _puzzle()
    state = puzzle.state()
    game = state.game
    wrong = next(
        game.move_text(state, m)
        for m in state.legal_moves()
        if game.move_text(state, m) != puzzle.solution[0]
    )
    mine = [t for i, t in enumerate(puzzle.solution) if i % 2 == 0]  # Volo alternates
    lines = ["help", "hint", "zz99", wrong, "solution", *mine, "quit"]
    result = _invoke(["puzzle", MINI, "--id", puzzle.id], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Puzzle {puzzle.id}" in out and f"win within {puzzle.depth}" in out
    assert "hint: the move starts with" in out
    assert "error: cannot read" in out
    assert "Not the winning move" in out
    assert "solution: " + " ".join(puzzle.solution) in out
    assert out.count("Correct.") == len(mine)
    for reply in puzzle.solution[1::2]:
        assert f"answers {reply}" in out, "the solver plays the solution's defence"
    assert "Solved!" in out and "Solved: 1." in out


def test_the_game_options_are_flags_as_for_play():
    result = _invoke(["puzzle", "volo", "--board", "mini", "--depth", "1", "--seed", "2"], "")
    assert result.exit_code == 0 and "win within 1 decision" in result.stdout


def test_the_end_of_input_ends_the_session():
    result = _invoke(["puzzle", MINI, "--depth", "1", "--seed", "1"], "")
    assert result.exit_code == 0 and "Solved: 0." in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["puzzle", "nosuchgame"],
        ["puzzle", "volo", "--bored", "mini"],
        ["puzzle"],
        ["puzzle", MINI, "--depth", "0"],
        ["puzzle", MINI, "--depth", "8"],
        ["puzzle", MINI, "--depth", "x"],
        ["puzzle", MINI, "--id", "nope"],
        ["puzzle", "volo:edition=2010"],
        ["puzzle", MINI, "--file", "/nonexistent/puzzles.json"],
        ["puzzle", MINI, "--file", "BADFILE"],
        ["puzzles", "generate", "nosuchgame", "--count", "1"],
        ["puzzles", "generate", MINI, "--count", "0"],
        ["puzzles", "generate", MINI, "--count", "٣"],
        ["puzzles", "generate", MINI, "--count", "1", "--max-depth", "9"],
        ["puzzles", "generate", MINI, "--count", "1", "--player", "nobody"],
        ["puzzles", "generate", MINI, "--count", "1", "--out", "BADFILE"],
        ["puzzles", "generate", MINI, "--count", "1", "--max-seconds", "nan"],
        ["puzzles", "generate", MINI],
    ],
)
def test_bad_input_is_one_line_and_status_2(args, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tablier-puzzles/1", "game": "volo", "puzzles": [1]}')
    args = [str(bad) if a == "BADFILE" else a for a in args]
    result = _invoke(args)
    assert result.exit_code == 2, (args, result.output[-300:])
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, (args, result.stderr)
