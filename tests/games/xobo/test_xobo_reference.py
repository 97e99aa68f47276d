"""The engine agrees with the slow reference implementation (reference.py).

For every position: the same outcome (winner and reason), the same voyna
flag, and the same set of resulting positions, move for move (no two legal
moves lead to the same position, so the counts must match too).
"""

from __future__ import annotations

import random

import pytest

from tablier.games import get
from tablier.games.xobo import XoBoState
from tablier.games.xobo.board import GRID

from . import reference as ref
from .helpers import OPTION_SETS, random_position, random_states


def as_ref(state: XoBoState) -> tuple:
    grid = tuple(tuple(state.height_of(GRID.index(c, r)) for r in range(9)) for c in range(9))
    return (grid, state.common, tuple(state.reserves), state.turn)


def check(state: XoBoState, options: dict) -> str | None:
    only_three = options["stack"] == "three"
    cubes = options["exhaustion"] == "cubes"
    pos = as_ref(state)
    outcome, voyna = ref.analyse(pos, only_three, cubes)
    got = state.outcome
    got_outcome = None if got is None else (got.winner, got.reason)
    if got_outcome != outcome:
        return f"outcome {got_outcome} != reference {outcome}"
    if state.voyna != voyna:
        return f"voyna {state.voyna} != reference {voyna}"
    expected = ref.successors(pos, only_three, cubes)
    moves = state.legal_moves()
    results = [as_ref(state.apply_unchecked(m)) for m in moves]
    if len(set(results)) != len(results):
        return "two legal moves lead to the same position"
    if set(results) != set(expected) or len(expected) != len(results):
        extra = [str(m) for m, r in zip(moves, results, strict=True) if r not in set(expected)]
        return f"results differ: engine-only moves {extra}, counts {len(results)}/{len(expected)}"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=["xobo", "ten-point"])
def test_engine_matches_reference(options):
    game = get("xobo", **options)
    states = random_states(game, seed=2024, count=220)
    rng = random.Random(7)
    states += [random_position(game, rng) for _ in range(110)]
    assert len(states) >= 300
    kinds = {"stack": 0, "distribute": 0}
    for state in states:
        problem = check(state, options)
        assert problem is None, f"{state.to_text()}: {problem}"
        for m in state.legal_moves():
            if m.kind in kinds:
                kinds[m.kind] += 1
    # the sample must exercise every kind of move, not only placements
    assert kinds["stack"] > 50 and kinds["distribute"] > 50, kinds
    reasons = {s.outcome.reason for s in states if s.outcome is not None}
    assert {"connection", "blocus", "exhaustion"} <= reasons, reasons
