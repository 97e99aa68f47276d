"""The tactical suite: ``hard`` and ``master`` never miss a forced win within 3 decisions
and never play into a forced loss within 3 when another move avoids it, in every game.

The positions (``tests/ai/data/tactics/*.json``, made by ``tools/mine_tactics.py``)
were proved by the solver: ``win`` positions list every first move that keeps a
forced win within 3 decisions, ``defend`` positions the moves after which the
opponent forces no win within 3 decisions once the mover's whole turn is over
(:class:`tablier.ai.tactics.TurnSafety`).  The player must play one of them, at a
fixed small simulation budget (what a loaded machine leaves; the timed levels are not
tested here, see below).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablier.ai.players import make_player
from tablier.ai.solver import Solver
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.games import from_spec

DATA = Path(__file__).parent / "data" / "tactics"
FILES = sorted(DATA.glob("*.json"))
# The guarantee is promised at a fixed small budget: a wall-clock level on an overloaded
# machine (the shared CI runners) may run out of time before its proof, so it is not tested
# here (benchmarks/level_times.py measures the timed level).
SPECS = {
    "hard": "hard:iterations=100,seconds=none",
    "master": "master:simulations=100,seconds=none",
}


def _load(path: Path) -> tuple[Any, list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "tablier-tactics/1"
    return from_spec(data["game"]), data["positions"]


def test_every_game_has_its_fifty_positions():
    names = {p.name for p in FILES}
    assert names == {"volo.json", "volo-board-mini.json", "xobo.json", "voldetour.json"}
    for path in FILES:
        _game, positions = _load(path)
        assert len(positions) >= 50, f"{path.name}: {len(positions)} positions"
        assert len({p["position"] for p in positions}) == len(positions)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_entries_prove_again(path):
    """A sample of each file is proved again from the position alone."""
    game, positions = _load(path)
    for entry in positions[:: max(1, len(positions) // 6)]:
        state = game.parse_position(entry["position"])
        me = state.to_move
        moves = {game.move_text(state, m): m for m in state.legal_moves()}
        assert set(entry["good"]) <= set(moves) and entry["good"]
        solver = Solver(max_nodes=500_000)
        if entry["kind"] == "win":
            assert solver.forces_win(state, me, 3)
            for text in entry["good"][:3]:
                assert solver.forces_win(state.apply_unchecked(moves[text]), me, 2)
        else:
            assert not solver.forces_win(state, me, 3)
            safety = TurnSafety(nodes=500_000, turn_nodes=20_000)
            assert safety.fate(state, moves[entry["good"][0]]) == SAFE
            assert safety.fate(state, moves[entry["bad"][0]]) == LOST


@pytest.mark.slow
@pytest.mark.parametrize("level", sorted(SPECS))
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_level_keeps_the_guarantee(path, level):
    game, positions = _load(path)
    failures = []
    for i, entry in enumerate(positions):
        state = game.parse_position(entry["position"])
        player = make_player(SPECS[level], game, seed=i)
        move = game.move_text(state, player.choose(state))
        if move not in entry["good"]:
            failures.append(f"{entry['kind']} {entry['source']}: played {move}")
    assert not failures, f"{len(failures)} of {len(positions)}:\n" + "\n".join(failures)
