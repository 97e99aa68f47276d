"""``tablier arena --sprt``: the match stops on the test's verdict; bad parameters exit 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tablier.ai import arena
from tablier.cli.main import main


def _always(score):
    def play(game, task):
        index = task[2]
        a_first = index % 2 == 0
        return {
            "index": index,
            "game": game.spec,
            "first": task[0] if a_first else task[1],
            "second": task[1] if a_first else task[0],
            "a_first": a_first,
            "result": "x",
            "reason": None,
            "score_a": score,
            "plies": 1,
        }

    return play


def test_arena_sprt_stops_with_a_verdict(monkeypatch, tmp_path):
    monkeypatch.setattr(arena, "play_task", _always(1.0))
    out = tmp_path / "r.jsonl"
    args = ["arena", "xobo", "greedy", "random", "-n", "100", "-q", "--sprt", "0,10"]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    games = len(out.read_text().splitlines())
    assert 0 < games < 100
    assert f"{games} games" in result.output
    assert "SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: H1 accepted" in result.output
    assert f"after {games // 2} pairs" in result.output
    monkeypatch.setattr(arena, "play_task", _always(0.5))
    drawn = CliRunner().invoke(main, [*args[:-1], "0,5,0.01,0.2"])
    assert drawn.exit_code == 0 and "alpha=0.01 beta=0.2: H0 accepted" in drawn.output
    # Draws sit right between -5 and +5: the test cannot decide and every game is played.
    between = CliRunner().invoke(main, [*args[:-1], "-5,5"])
    assert "100 games" in between.output and "no decision yet" in between.output


@pytest.mark.parametrize(
    "value, message",
    [
        ("10", "expected ELO0,ELO1"),
        ("0,5,0.05", "expected ELO0,ELO1"),
        ("5,0", "elo0 must be less than elo1"),
        ("0,x", "decimal number"),
        ("0,inf", "decimal number"),
        ("0,5,0.6,0.5", "alpha and beta"),
        ("0,5000", "between -1000 and 1000"),
    ],
)
def test_arena_sprt_bad_parameters(value, message):
    result = CliRunner().invoke(main, ["arena", "xobo", "random", "random", "--sprt", value])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
