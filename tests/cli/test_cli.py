"""The `tablier` command, driven through click's CliRunner with lines on stdin."""

from __future__ import annotations

import contextlib
import random

import pytest
from click.testing import CliRunner

import tablier.games
from core.toygame import Toy
from tablier.cli.main import main
from tablier.core.perft import perft
from tablier.core.record import Record


def run(args, stdin=None):
    result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
    return result


def positions_printed(output, game_name="toy"):
    """The position strings printed by the `position` command, in order."""
    lines = [line.strip() for line in output.splitlines()]
    return [line for line in lines if line.startswith(game_name + ":")]


# -- games, position ------------------------------------------------------------


def test_games_lists_every_game_and_its_options():
    result = run(["games"])
    assert result.exit_code == 0
    for name in tablier.games.names():
        assert name in result.output
        for opt in tablier.games.game_class(name).OPTIONS:
            assert "--" + opt.name.replace("_", "-") in result.output
    assert "[normal|misere]" in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["toy"], "toy:pile=10,rule=normal 10/0/0 0 -"),
        (["toy", "--pile", "5"], "toy:pile=5,rule=normal 5/0/0 0 -"),
        (["toy", "--rule=MISERE", "--pile=7"], "toy:pile=7,rule=misere 7/0/0 0 -"),
        (["--pile", "4", "toy"], "toy:pile=4,rule=normal 4/0/0 0 -"),
        (["toy:pile=6", "--rule", "misere"], "toy:pile=6,rule=misere 6/0/0 0 -"),
    ],
)
def test_position_prints_the_initial_position(args, expected):
    result = run(["position", *args])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == expected


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["toy", "--colour", "red"], "toy has no option --colour (its options: --pile, --rule)"),
        (["toy", "--pile", "0"], "between 1 and 60"),
        (["toy", "--pile", "many"], "whole number written with the digits 0-9, not 'many'"),
        (["toy", "--rule"], "--rule needs a value"),
        (["chess"], "unknown game 'chess'"),
        (["toy", "volo"], "unexpected argument 'volo'"),
        ([], "name the game"),
    ],
)
def test_position_option_errors(args, words):
    result = run(["position", *args])
    assert result.exit_code == 2
    assert words in result.output


# -- perft ----------------------------------------------------------------------


def test_perft_from_a_spec_and_from_a_position_string():
    result = run(["perft", "toy:pile=6", "4"])
    assert result.exit_code == 0
    state = Toy(pile=6).initial_state()
    assert result.stdout.strip() == str(perft(state, 4))
    text = "toy:pile=6,rule=normal 4/2/0 1 p"
    result = run(["perft", text, "3"])
    assert result.stdout.strip() == str(perft(Toy(pile=6).parse_position(text), 3))


def test_perft_divide_adds_up():
    result = run(["perft", "toy", "3", "--divide"])
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    counts = {line.rsplit(None, 1)[0].strip(): int(line.rsplit(None, 1)[1]) for line in lines[:-1]}
    assert list(counts) == ["take 1", "take 2 (+)", "take 3", "pass"]
    assert lines[-1] == f"total: {sum(counts.values())}"
    assert sum(counts.values()) == perft(Toy().initial_state(), 3)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["toy:pile=99", "2"], "between 1 and 60"),
        (["toy:pile=6,rule=normal 9/9/9 0 -", "2"], "bad position"),
        (["nope", "2"], "unknown game"),
        (["--", "toy", "-1"], "DEPTH must be 0 or more"),
        (["toy", "two"], "must be a whole number written with the digits 0-9"),
        (["toy", "0", "--divide"], "at least 1"),
    ],
)
def test_perft_errors(args, words):
    result = run(["perft", *args])
    assert result.exit_code == 2
    assert words in result.output


# -- play -----------------------------------------------------------------------


def test_play_moves_errors_and_undo():
    lines = [
        "take 2",  # Red, turn goes on
        "moves",
        "take 4",  # engine error
        "gibberish words",
        "take 1",
        "position",
        "undo",
        "position",
        "hint",
        "quit",
        "take 1",  # never read
    ]
    result = run(["play", "toy", "--pile", "5"], "\n".join(lines) + "\n")
    assert result.exit_code == 0
    out = result.output
    assert "Red to play again (same turn)" in out
    assert "error: cannot take 4 stones: take 1, 2 or 3" in out
    assert "error: cannot read 'gibberish words'" in out
    assert "4 legal moves:\ntake 1, take 2 (+), take 3, pass" in out
    assert positions_printed(out) == [
        "toy:pile=5,rule=normal 2/3/0 1 -",
        "toy:pile=5,rule=normal 3/2/0 0 -",
    ]
    assert "took back take 1" in out
    assert "Last move: 1. Red take 2 (+)" in out


def test_play_ends_at_end_of_input_and_shows_no_traceback():
    result = run(["play", "toy"], "take 1\n")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert "Green to play" in result.output


def test_play_to_the_end_with_a_banner_and_save_offer(tmp_path):
    path = tmp_path / "end.txt"
    lines = ["take 2", "pass", "take 1", f"{path}", "take 1", "undo", "position", "quit"]
    result = run(["play", "toy", "--pile", "3", "--rule", "misere"], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # Red took 2 and passed, Green took the last stone: under misere, Green (1) beats Red (2).
    assert "Game over: Green wins (lower-score: lower score wins)" in out
    assert "Save this game?" in out and f"saved 3 decisions to {path}" in out
    assert "error: the game is over" in out
    assert "took back take 1" in out
    assert positions_printed(out) == ["toy:pile=3,rule=misere 1/2/0 1 p"]
    record = Record.load(path)
    assert [d.move for d in record.moves] == ["take 2 (+)", "pass", "take 1"]
    assert record.result == "0-1" and record.reason == "lower-score"
    assert "Date" in record.tags


def test_save_offer_may_be_skipped():
    result = run(["play", "toy", "--pile", "1"], "take 1\n\nposition\n")
    assert result.exit_code == 0
    assert "saved" not in result.output
    assert positions_printed(result.output) == ["toy:pile=1,rule=normal 0/1/0 1 -"]


def test_save_and_load_in_both_formats(tmp_path):
    for name in ("mid.json", "mid.txt"):
        path = tmp_path / name
        lines = ["take 1", "take 2", "take 1", f"save {path}", "quit"]
        result = run(["play", "toy"], "\n".join(lines) + "\n")
        assert f"saved 3 decisions to {path}" in result.output
        assert path.read_text().lstrip()[0] == ("{" if name.endswith(".json") else "[")
        # load at the prompt, from another game entirely
        result = run(["play", "toy", "--pile", "3"], f"load {path}\nposition\nundo\nposition\n")
        assert f"loaded 3 decisions from {path} (toy:pile=10,rule=normal)" in result.output
        assert positions_printed(result.output) == [
            "toy:pile=10,rule=normal 6/1/3 0 -",
            "toy:pile=10,rule=normal 7/1/2 1 -",
        ]
        # --load on the command line
        result = run(["play", "--load", str(path)], "position\n")
        assert result.exit_code == 0
        assert positions_printed(result.output) == ["toy:pile=10,rule=normal 6/1/3 0 -"]


def test_save_and_load_errors_keep_the_position(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "toy"]\n1. take 3 ; take 9\n')
    lines = [
        "take 1",
        "save",
        "load",
        f"load {tmp_path / 'missing.txt'}",
        f"load {bad}",
        f"save {tmp_path / 'no' / 'dir' / 'x.txt'}",
        "position",
    ]
    result = run(["play", "toy"], "\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0
    assert "error: usage: save FILE" in out and "error: usage: load FILE" in out
    assert "error: cannot read" in out
    assert "move 1 (Green), decision 2, 'take 9'" in out
    assert "error: cannot write" in out
    assert positions_printed(out) == ["toy:pile=10,rule=normal 9/1/0 1 -"]


def test_play_from_a_position():
    text = "toy:pile=10,rule=normal 4/3/3 1 -"
    result = run(["play", "--position", text], "position\ntake 3\nposition\n")
    assert result.exit_code == 0
    assert positions_printed(result.output) == [text, "toy:pile=10,rule=normal 1/3/6 0 -"]
    result = run(["play", "toy", "--pile", "10", "--position", "4/3/3 1 -"], "position\n")
    assert positions_printed(result.output) == [text]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["play", "toy", "--pile", "5", "--position", "toy:pile=10,rule=normal 4/3/3 1 -"],
            "this position is for toy:pile=10",
        ),
        (["play", "--position", "toy:pile=10 4/3/3 7 -"], "bad position"),
        (["play", "--position", "x", "--load", "y"], "either --position or --load"),
        (["play", "toy", "--size", "3"], "toy has no option --size"),
        (["play"], "name the game"),
    ],
)
def test_play_startup_errors(args, words):
    result = run(args, "")
    assert result.exit_code == 2
    assert words in result.output


def test_play_load_errors(tmp_path):
    path = tmp_path / "g.txt"
    Record.from_moves(Toy(), ["take 1"]).save(path)
    result = run(["play", "toy", "--pile", "4", "--load", str(path)], "")
    assert result.exit_code == 2 and "is a record of toy:pile=10" in result.output
    result = run(["play", "--load", str(tmp_path / "nope.json")], "")
    assert result.exit_code == 2 and "cannot read" in result.output


def test_garbage_at_the_prompt_never_crashes():
    rng = random.Random(7)
    alphabet = "abcxyz0123456789 -+()/:;{}[]\"'\\.,*?!é\t"
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20))) for _ in range(60)]
    lines = [line for line in lines if line.split()[:1] not in (["q"], ["quit"], ["exit"])]
    result = run(["play", "toy"], "\n".join([*lines, "position"]) + "\n")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    # the position may have moved only through lines that were legal moves
    printed = positions_printed(result.output)[-1]
    state = Toy().initial_state()
    for line in lines:
        with contextlib.suppress(tablier.TablierError):
            state = state.apply(state.game.parse_move(state, line))
    assert printed == state.to_text()


def test_play_every_registered_game_with_its_option_flags():
    for name in tablier.games.names():
        cls = tablier.games.game_class(name)
        for options in cls.example_options():
            game = cls(**options)
            flags = []
            for key, value in options.items():
                flags += ["--" + key.replace("_", "-"), str(value)]
            state = game.initial_state()
            move = state.legal_moves()[0]
            result = run(["play", name, *flags], f"{move}\nposition\nquit\n")
            assert result.exit_code == 0, result.output
            assert positions_printed(result.output, name) == [state.apply(move).to_text()]


# -- replay ---------------------------------------------------------------------


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.txt"
    record = Record.from_moves(
        Toy(pile=5),
        ["take 2", "take 1", "take 1", "take 1"],
        comments=[None, "greedy", None, None],
        tags={"First": "Ann", "Second": "Bob"},
    )
    record.save(path)
    return path


def test_replay_all(game_file):
    result = run(["replay", str(game_file), "--all"])
    assert result.exit_code == 0
    out = result.output
    for i in range(5):
        assert f"Position {i}/4" in out
    assert "First: Ann" in out and "Result: 1-0 (higher-score)" in out
    assert "1. Red take 1  {greedy}" in out
    assert "1... Green take 1" in out and "2. Red take 1" in out
    assert "Game over: Red wins" in out


def test_replay_steps_back_and_jumps(game_file):
    result = run(["replay", str(game_file)], "\nn\nb\n4\nn\n9\nzz\nb\n0\nb\nq\nn\n")
    assert result.exit_code == 0
    shown = [line for line in result.output.splitlines() if line.startswith("Position ")]
    assert shown == [f"Position {i}/4" for i in (0, 1, 2, 1, 4, 3, 0)]
    assert "already at the end" in result.output
    assert "error: no position 9 (0 to 4)" in result.output
    assert "error: unknown command 'zz'" in result.output
    assert "already at the start" in result.output


def test_replay_of_a_bad_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": 1, "game": "toy", "moves": ["take 1", "pass", "pass"]}')
    result = run(["replay", str(path)])
    assert result.exit_code == 2
    assert "decision 3" in result.output and "no pass straight after a pass" in result.output


# -- playing against the AI -----------------------------------------------------


def test_play_against_the_ai_and_undo_to_the_human_decision():
    lines = "take 1\nposition\nundo\nposition\n"
    result = run(["play", "toy", "--ai", "random", "--seed", "3"], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Green (AI) plays" in out
    first, second = positions_printed(out)
    state = Toy().parse_position(first)
    assert state.to_move == 0 or state.is_terminal  # the AI finished its turn
    assert state.scores[0] == 1
    assert second == Toy().initial_state().to_text()  # undo took back the AI's decisions too


def test_ai_plays_both_sides_to_the_end():
    result = run(["play", "toy", "--pile", "6", "--ai", "greedy", "--ai-plays", "both"], "\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Red (AI) plays" in result.output and "Game over:" in result.output


def test_ai_plays_first():
    args = ["play", "toy", "--ai", "random", "--ai-plays", "first", "--seed", "1"]
    result = run(args, "position\n")
    assert result.output.index("Red (AI) plays") < result.output.index("Green> ")
    assert Toy().parse_position(positions_printed(result.output)[0]).to_move == 1


def test_side_second_lets_the_ai_open():
    args = ["play", "toy", "--ai", "random", "--side", "second", "--seed", "1"]
    result = run(args, "position\n")
    assert result.output.index("Red (AI) plays") < result.output.index("Green> ")
    args = ["play", "toy", "--ai", "random", "--side", "first", "--seed", "1"]
    result = run(args, "position\n")
    assert "(AI) plays" not in result.output.split("Red> ")[0]


def test_side_needs_ai():
    result = run(["play", "toy", "--side", "second"], "")
    assert result.exit_code == 2 and "--ai" in result.output


def test_bad_ai_level():
    result = run(["play", "toy", "--ai", "grandmaster"], "")
    assert result.exit_code == 2 and "--ai" in result.output


def test_hint_asks_the_ai_and_moves_lists_the_legal_moves():
    result = run(["play", "toy", "--pile", "4"], "hint\nmoves\n")
    assert result.exit_code == 0
    out = result.output
    assert "best moves" in out and "4 legal moves:\ntake 1, take 2 (+), take 3, pass" in out


def test_perft_of_every_registered_game():
    for name in tablier.games.names():
        state = tablier.games.get(name).initial_state()
        result = run(["perft", name, "2"])
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == str(perft(state, 2))
        result = run(["perft", state.to_text(), "1"])
        assert result.stdout.strip() == str(len(state.legal_moves()))


def test_the_ai_learns_the_line_again_after_undo_new_and_load(tmp_path):
    import io

    from rich.console import Console

    from tablier.cli.session import PlaySession

    game = Toy()
    told: list[list[str]] = []
    feed = iter(["take 1", "take 2", "undo", f"save {tmp_path / 'g.txt'}", "new", "take 3"])
    session = PlaySession(
        Console(file=io.StringIO(), width=100, color_system=None),
        lambda prompt: next(feed, None),
        game,
        ai_restart=lambda states: told.append([s.to_text() for s in states]),
    )
    start = game.initial_state()
    assert told == [[start.to_text()]]  # the line it starts from
    for _ in range(3):
        session.handle(session.read(""))
    # undo: the line as it stands now, not the positions taken back
    assert told[-1] == [s.to_text() for s in session.states]
    assert len(told) == 2 and len(told[-1]) == 2
    session.handle(session.read(""))  # save: the line does not change
    assert len(told) == 2
    session.handle(session.read(""))  # new
    assert told[-1] == [start.to_text()]
    session.handle(session.read(""))  # a move: the AI sees it when asked, nothing to tell
    session.handle(f"load {tmp_path / 'g.txt'}")
    assert told[-1] == [s.to_text() for s in session.states] and len(told[-1]) == 2
