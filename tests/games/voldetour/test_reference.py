"""The engine agrees with the voxel reference on random positions."""

from __future__ import annotations

import pytest

from .helpers import game, random_positions
from .reference import floating_or_too_high, reference_moves

pytestmark = pytest.mark.usefixtures("engine")

# (options, positions, seed): 150 + 150 = 300 positions (>= 200 asked)
CASES = [({}, 150, 11), ({"pieces": "mini"}, 150, 12)]


def _compare(state) -> None:
    moves = state.legal_moves()
    plain = {str(m) for m in moves if m.kind != "lord"}
    label = state.game.pieceset.grid.label
    lords = {"L" + label(m.key[1][-1]): str(m) for m in moves if m.kind == "lord"}
    ref, ref_lords = reference_moves(state)
    assert plain == ref, (sorted(plain - ref)[:10], sorted(ref - plain)[:10], state.to_text())
    assert set(lords) == set(ref_lords), state.to_text()
    for dest, text in lords.items():
        assert tuple(text[1:].split("-")) in ref_lords[dest], (text, state.to_text())


@pytest.mark.parametrize(("options", "count", "seed"), CASES, ids=["default", "mini"])
def test_engine_matches_reference(options, count, seed):
    g = game(**options)
    states = random_positions(g, count, seed)
    kinds = set()
    for state in states:
        assert floating_or_too_high(state) == []
        _compare(state)
        kinds.update(m.kind for m in state.legal_moves())
        if state.hand is not None:
            kinds.add("hand-" + state.hand[0])
    # the sample exercised every kind of decision
    assert {"take", "put", "lord", "end", "hand-B", "hand-S"} <= kinds
