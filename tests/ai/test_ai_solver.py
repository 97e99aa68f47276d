"""The exact solver against a brute-force reference on random trees, and its errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai.solver import Solver, solve
from tablier.core.errors import TablierError

from .aitoys import TreeGame, exact


def _replay(state, line):
    for move in line:
        assert move in state.legal_moves()
        state = state.apply(move)
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), depth=st.integers(0, 7))
def test_win_depth_matches_brute_force(seed, depth):
    game = TreeGame(seed=seed, depth=6, branching=3)
    state = game.initial_state()
    solver = Solver()
    for attacker in (0, 1):
        truth = exact(state, attacker)
        expected = truth is not None and truth <= depth
        assert solver.wins(state, attacker, depth) == expected
        got = solver.win_depth(state, attacker, depth)
        assert got == (truth if expected else None)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_solve_reports_quickest_forced_line(seed):
    game = TreeGame(seed=seed, depth=6, branching=3)
    state = game.initial_state()
    me = state.to_move
    result = solve(state, 6)
    mine, theirs = exact(state, me), exact(state, 1 - me)
    if mine is not None:
        assert (result.status, result.winner, result.plies) == ("win", me, mine)
    elif theirs is not None:
        assert (result.status, result.winner, result.plies) == ("loss", 1 - me, theirs)
    else:
        assert result.status == "unknown" and result.line == ()
        return
    end = _replay(state, result.line)
    assert end.outcome is not None and end.outcome.winner == result.winner
    assert len(result.line) == result.plies
    assert str(result.plies) in result.describe()


def test_subtrees_checked_against_brute_force():
    # Every position of a few trees, not only the root.
    for seed in range(5):
        game = TreeGame(seed=seed, depth=5, branching=3)
        solver = Solver()
        stack = [game.initial_state()]
        while stack:
            s = stack.pop()
            for attacker in (0, 1):
                assert solver.win_depth(s, attacker, 5) == exact(s, attacker)
            stack.extend(s.apply_unchecked(m) for m in s.legal_moves())


def _own_win(state, attacker, depth):
    """True when ``attacker`` wins within ``depth`` by its own decisions alone (brute force)."""
    if state.outcome is not None:
        return state.outcome.winner == attacker
    if depth <= 0 or state.to_move != attacker:
        return False
    return any(_own_win(state.apply_unchecked(m), attacker, depth - 1) for m in state.legal_moves())


def test_own_line_is_the_attackers_own_win():
    found = 0
    for seed in range(40):
        game = TreeGame(seed=seed, depth=6, branching=3)
        stack = [game.initial_state()]
        while stack:
            s = stack.pop()
            stack.extend(s.apply_unchecked(m) for m in s.legal_moves())
            for attacker in (0, 1):
                line = Solver().own_line(s, attacker, 4)
                if line is None:
                    # none where no win within the depth exists (the others: see its doc)
                    assert not _own_win(s, attacker, 4) or exact(s, attacker) is not None
                    continue
                found += 1
                end = s
                for move in line:
                    assert end.to_move == attacker
                    end = _replay(end, [move])
                assert end.outcome is not None and end.outcome.winner == attacker
                assert len(line) <= 4
    assert found > 50


def test_node_limit_gives_unknown():
    game = TreeGame(seed=3, depth=8, branching=4)
    result = Solver(max_nodes=3).solve(game.initial_state(), 8)
    assert result.status in ("unknown", "win", "loss")
    if result.status == "unknown":
        assert result.aborted and "limit" in result.describe()


def test_finished_game_and_bad_depth():
    game = TreeGame(seed=1)
    state = game.initial_state()
    while state.outcome is None:
        state = state.apply(state.legal_moves()[0])
    assert solve(state, 3).status == "over"
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(TablierError, match="depth"):
            solve(game.initial_state(), bad)
