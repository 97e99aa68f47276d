"""Whole-turn safety (:class:`tablier.ai.tactics.TurnSafety`) against a full-tree reference."""

from __future__ import annotations

import zlib

from tablier.ai.players import make_player
from tablier.ai.solver import Solver
from tablier.ai.tactics import LOST, SAFE, UNKNOWN, TurnSafety

from .aitoys import TreeGame, exact


def _reference(state, me, depth=3):
    """True when some way of finishing ``me``'s turn leaves the opponent no win within depth."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.winner != 1 - me
    if state.to_move != me:
        d = exact(state, 1 - me)
        return d is None or d > depth
    return any(_reference(state.apply_unchecked(m), me, depth) for m in state.legal_moves())


def _positions(game, limit=40):
    out, todo = [], [game.initial_state()]
    while todo and len(out) < limit:
        s = todo.pop()
        if s.outcome is None:
            out.append(s)
            todo.extend(s.apply_unchecked(m) for m in s.legal_moves())
    return out


def _cases(seeds, limit=40):
    """``(seed, state, move, verdict)`` for each move of the first positions of random trees,
    the verdict the full tree's."""
    for seed in seeds:
        game = TreeGame(seed=seed, depth=8, branching=3)
        for state in _positions(game, limit):
            me = state.to_move
            for m in state.legal_moves():
                yield seed, state, m, SAFE if _reference(state.apply_unchecked(m), me) else LOST


def test_verdicts_match_the_full_tree():
    hidden = 0
    for _seed, state, m, want in _cases(range(25)):
        safety = TurnSafety(nodes=100_000, turn_nodes=10_000)
        assert safety.fate(state, m) == want, (state.to_text(), str(m))
        after, me = state.apply_unchecked(m), state.to_move
        if want == LOST and after.outcome is None and after.to_move == me:
            # the loss lies behind the mover's own decisions: a depth-3 check of
            # the position after the move does not always see it
            hidden += not Solver().forces_win(after, 1 - me, 3)
    assert hidden > 0


def test_a_tiny_budget_says_unknown_never_wrong():
    for _seed, state, m, want in _cases(range(10), 15):
        got = TurnSafety(nodes=3, turn_nodes=2).fate(state, m)
        assert got in (UNKNOWN, want)


def test_hard_avoids_losses_behind_its_own_decisions():
    """Where some move is safe, hard at a tiny budget never plays a lost one."""
    played = 0
    for seed in range(30):
        game = TreeGame(seed=seed, depth=8, branching=3)
        for state in _positions(game, 12):
            me = state.to_move
            if exact(state, me) is not None and exact(state, me) <= 3:
                continue  # a win to take: not this test's business
            safe = {m for m in state.legal_moves() if _reference(state.apply_unchecked(m), me)}
            if not safe or len(safe) == len(state.legal_moves()):
                continue
            player = make_player("hard:iterations=5,seconds=none", game, seed=seed)
            assert player.choose(state) in safe, state.to_text()
            played += 1
    assert played >= 20


def _hook(salt):
    """A ``defences`` hook that flags moves at random (the same answer for the same
    question): whatever it says, the verdicts must stay right."""

    def defences(state, moves, threat, line):
        key = f"{salt} {state.to_text()} {threat.to_text()}"
        return [zlib.crc32(f"{key} {m}".encode()) % 3 == 0 for m in moves]

    return defences


def test_verdicts_with_a_defences_hook_match_the_full_tree():
    focused = 0
    for seed, state, m, want in _cases(range(25)):
        safety = TurnSafety(nodes=100_000, turn_nodes=10_000, defences=_hook(seed), focus=0)
        assert safety.fate(state, m) == want, (state.to_text(), str(m))
        focused += safety.threat is not None
    assert focused > 0  # threats were kept, and the focused pass ran


def test_a_tiny_budget_with_a_defences_hook_is_never_wrong():
    for seed, state, m, want in _cases(range(10), 15):
        for turn_nodes in (2, 5):
            safety = TurnSafety(nodes=50, turn_nodes=turn_nodes, defences=_hook(seed))
            assert safety.fate(state, m) in (UNKNOWN, want)
