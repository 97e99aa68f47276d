"""The engine agrees with the slow reference implementation (reference.py).

For every position: the same outcome (winner and reason), the same voyna
flag, and the same set of resulting positions, move for move (no two legal
moves lead to the same position, so the counts must match too); after every
stacking and distribution, the same voyna flag again (the option ``voyna``
decides whether such a move announces it).  Whether the last move was a
placement is known from the moves played, never read from the engine.
"""

from __future__ import annotations

import random

import pytest

from tablier.games import get
from tablier.games.xobo import XoBoState
from tablier.games.xobo.board import GRID

from . import reference as ref
from .helpers import OPTION_IDS, OPTION_SETS, random_plays, random_position

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")


def as_ref(state: XoBoState, placed: bool) -> tuple:
    grid = tuple(tuple(state.height_of(GRID.index(c, r)) for r in range(9)) for c in range(9))
    return (grid, state.common, tuple(state.reserves), state.turn, placed)


def check(state: XoBoState, placed: bool, options: dict, seen: dict) -> str | None:
    rules = {
        "only_three": options["stack"] == "three",
        "cubes_rule": options["exhaustion"] == "cubes",
        "by_placement": options["voyna"] == "placement",
    }
    pos = as_ref(state, placed)
    outcome, voyna = ref.analyse(pos, **rules)
    got = state.outcome
    got_outcome = None if got is None else (got.winner, got.reason)
    if got_outcome != outcome:
        return f"outcome {got_outcome} != reference {outcome}"
    if state.voyna != voyna:
        return f"voyna {state.voyna} != reference {voyna}"
    expected = ref.successors(pos, **rules)
    moves = state.legal_moves()
    afters = [state.apply_unchecked(m) for m in moves]
    results = [as_ref(a, m.kind == "place") for m, a in zip(moves, afters, strict=True)]
    if len(set(results)) != len(results):
        return "two legal moves lead to the same position"
    if set(results) != set(expected) or len(expected) != len(results):
        extra = [str(m) for m, r in zip(moves, results, strict=True) if r not in set(expected)]
        return f"results differ: engine-only moves {extra}, counts {len(results)}/{len(expected)}"
    for move, after, result in zip(moves, afters, results, strict=True):
        if move.kind == "place":
            continue  # the same threat test as above, once that position is sampled
        want = ref.analyse(result, **rules)[1]
        if after.voyna != want:
            return f"after {move}: voyna {after.voyna} != reference {want}"
        if ref.threatens(result[0], result[1], result[2], 1 - result[3]):
            seen[move.kind] += 1  # a stacking or a distribution that makes a threat
    return None


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
def test_engine_matches_reference(options):
    game = get("xobo", **options)
    assert game.options == options
    plays = random_plays(game, seed=2024, count=220)
    rng = random.Random(7)
    plays += [(random_position(game, rng), True) for _ in range(80)]
    plays += [(random_position(game, rng, placed=False), False) for _ in range(40)]
    assert len(plays) >= 300
    kinds = {"stack": 0, "distribute": 0}
    threats = {"stack": 0, "distribute": 0}
    for state, placed in plays:
        problem = check(state, placed, options, threats)
        assert problem is None, f"{state.to_text()}: {problem}"
        for m in state.legal_moves():
            if m.kind in kinds:
                kinds[m.kind] += 1
    # the sample must exercise every kind of move, not only placements
    assert kinds["stack"] > 50 and kinds["distribute"] > 50, kinds
    # and moves other than placements that make a threat, where the readings differ
    assert threats["stack"] > 10 and threats["distribute"] > 10, threats
    reasons = {s.outcome.reason for s, _ in plays if s.outcome is not None}
    assert {"connection", "blocus", "exhaustion"} <= reasons, reasons
