"""The AI commands (analyse, solve, arena) and the play-loop API, through CliRunner."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from rich.console import Console

from tablier.cli.ai_commands import choose_player_move, hint_lines, make_ai, register
from tablier.games import get

WIN = "volo:board=mini 4/7/1o4b1/9/10/3o4/4o5/9/8/1b5/4 o 47 48 0"


@pytest.fixture(scope="module")
def cli():
    @click.group()
    def group() -> None:
        """Test group."""

    register(group)
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(group, list(args))

    return invoke


def test_position_constant_is_the_win_in_one():
    state = get("volo", board="mini").parse_position(WIN)
    assert state.to_move == 0
    assert sorted(map(str, state.birds(0))) == ["e5", "e6", "e9"]


def test_analyse_lists_top_moves(cli):
    result = cli("analyse", "volo:board=mini", "-i", "60", "-n", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("Orange to move; 60 simulations")
    assert len(lines) == 4 and all("visits" in x and "win" in x for x in lines[1:])
    again = cli("analyse", "volo:board=mini", "-i", "60", "-n", "3")
    assert again.output.splitlines()[1:] == lines[1:]  # deterministic for the seed


def test_analyse_json_and_proofs(cli):
    result = cli("analyse", WIN, "-i", "30", "--json")
    data = json.loads(result.output)
    assert data["to_move"] == 0
    best = data["moves"][0]
    assert best["proven"] == "win" and best["move"] in ("e9-e7", "e5:e6-e7")


def test_solve_prints_line_or_no_forced_win(cli):
    result = cli("solve", WIN, "--depth", "2")
    assert result.exit_code == 0
    assert "Orange wins by force in 1" in result.output
    none = cli("solve", "volo:board=mini", "--depth", "1")
    assert none.stdout.strip() == "no forced win within 1"


#: Blue to move; after c3-a3/f4 Orange forces a win in five decisions (tests/games/volo).
DEEP = (
    "volo:board=mini,edition=current,setup=nests,supply=50 o3/1o3b1/boo1b3/boboo4/bo1o1b1b2/"
    "bbbobbbo/o1b1oo1obo/1b3oo2/2b5/3b2b/4 b 32 30 0"
)


def test_solve_goes_through_the_compiled_proof_search(cli):
    from tablier.games.volo import rules

    if rules._native is None:
        pytest.skip("Volo's compiled core is not in use")
    game = get("volo", board="mini")
    root = game.parse_position(DEEP)
    after = root.apply(game.parse_move(root, "c3-a3/f4")).to_text()
    result = cli("solve", after, "--depth", "5")
    assert result.exit_code == 0, result.output
    assert "wins by force in 5 decision(s)" in result.stdout
    assert " compiled in " in result.stderr
    starved = cli("solve", after, "--depth", "5", "--max-nodes", "1")
    assert starved.stdout.strip() == "no forced win found within 5 (search limit reached)"


def test_game_then_position_form(cli):
    spec, body = WIN.split(" ", 1)
    for args in ((spec, body), (spec, WIN)):
        result = cli("solve", *args, "--depth", "2")
        assert result.exit_code == 0, result.output
        assert "Orange wins by force in 1" in result.output
    analysed = cli("analyse", spec, body, "-i", "30", "--json")
    expected = get("volo", board="mini").parse_position(WIN).to_text()
    assert json.loads(analysed.output)["position"] == expected
    wrong = cli("solve", "xobo", WIN, "--depth", "1")
    assert wrong.exit_code == 2 and "not 'xobo'" in wrong.output
    extra = cli("solve", spec, body, "more", "--depth", "1")
    assert extra.exit_code == 2 and "GAME and a POSITION" in extra.output


def test_arena_runs_and_writes_json_lines(cli, tmp_path):
    out = tmp_path / "r.jsonl"
    result = cli(
        "arena",
        "volo:board=mini,supply=12",
        "greedy",
        "random",
        "-n",
        "2",
        "--out",
        str(out),
        "--seed",
        "3",
    )
    assert result.exit_code == 0, result.output
    assert "greedy vs random: 2 games" in result.output
    assert len(out.read_text().splitlines()) == 2
    resumed = cli(
        "arena",
        "volo:board=mini,supply=12",
        "greedy",
        "random",
        "-n",
        "2",
        "--out",
        str(out),
        "--seed",
        "3",
    )
    assert "game " not in resumed.output and "2 games" in resumed.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("analyse", "chess"), "unknown game"),
        (("analyse", "volo", "--top", "0"), "--top"),
        (("analyse", "volo", "-i", "0"), "iteration"),
        (("solve", "volo", "--depth", "-1"), "--depth"),
        (("solve", "volo:board=mini 4/7/1o4b1/9 o", "--depth", "1"), "bad position"),
        (("arena", "volo", "wizard", "random"), "unknown player"),
        (("arena", "volo", "random", "random", "-n", "0"), "games"),
        (("arena", "nope", "random", "random"), "unknown game"),
    ],
)
def test_bad_input_gives_usage_errors(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_play_loop_api():
    game = get("volo", board="mini")
    state = game.parse_position(WIN)
    ai = make_ai("medium:iterations=20,seconds=none", game, seed=1)
    seen = []
    console = Console(file=open("/dev/null", "w"), force_terminal=False)  # noqa: SIM115
    move = choose_player_move(ai, state, console, progress=seen.append)
    assert state.apply(move).outcome.winner == 0
    quiet = choose_player_move(make_ai("easy", game, seed=2), game.initial_state())
    assert quiet in game.initial_state().legal_moves()
    with pytest.raises(click.UsageError, match="--ai"):
        make_ai("grandmaster", game)
    lines = hint_lines(game.initial_state(), console, seconds=0.2, top=3)
    assert len(lines) == 4 and "visits" in lines[1]
    assert hint_lines(state.apply(move)) == ["the game is over"]
