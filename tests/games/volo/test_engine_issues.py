"""Regression tests for two engine issues found while writing the Volo tests (now fixed).

1. ``parse_move(state, "pass/c3")`` returns the pass and silently drops the region
   suffix.  A pass divides nothing, so the text names no legal move and must be
   refused (as ``e5-e6/a2`` is refused when the flight divides nothing).
2. For a move that wins *and* divides the opponent (R-10, I-16), a region suffix is
   refused with the message "... does not divide Blue's birds: there is no region to
   choose", which is false: the move does divide Blue's birds, but it wins, so no
   region is chosen.  The message should say that the move wins.

"""

from __future__ import annotations

import pytest

from tablier.core.errors import IllegalMoveError, InvalidMoveError

from .test_rules import BLUE_ABC, WALLS, build, refused, volo

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")


def test_pass_with_region_suffix_is_refused():
    state = volo(supply=3).initial_state()
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    before = state.to_text()
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        state.game.parse_move(state, "pass/c3")
    assert state.to_text() == before


def test_region_suffix_on_a_winning_move_says_it_wins():
    state = build(WALLS, BLUE_ABC)
    message = refused(state, "d1-d4/h8", match="win")
    assert "does not divide" not in message
