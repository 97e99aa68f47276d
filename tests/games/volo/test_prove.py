"""Volo's compiled proof search (``ai.prove``) against the generic solver, and its use.

The generic :class:`~tablier.ai.solver.Solver` without the hook is the reference: the
compiled search must give its answers on every position, for either attacker, at every
depth.  Then the levels: ``expert`` checks five decisions deep with it, and the
five-decision walk-ins that decided its games against ``hard`` (docs/ai-strength.md) are
refused by its safety check but not by a depth-3 one.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tablier.games
from tablier.ai.knowledge import knowledge_for
from tablier.ai.mcts import MCTS
from tablier.ai.players import (
    LEVELS,
    MAX_PROOF_DEPTH,
    forced_win,
    make_player,
    safest_move,
    tactical_depth,
)
from tablier.ai.solver import Solver
from tablier.core.errors import TablierError
from tablier.core.native import using
from tablier.games.volo import ai, rules

from .conftest import need_native

#: Positions found by seeded play (the prior-weighted player) where the move walks into
#: a forced loss in exactly five decisions (none in three) and another move escapes it.
WALK_INS = [
    (
        "volo:board=mini,edition=current,setup=nests,supply=50 o3/1o3b1/boo1b3/boboo4/"
        "bo1o1b1b2/bbbobbbo/o1b1oo1obo/1b3oo2/2b5/3b2b/4 b 32 30 0",
        "c3-a3/f4",
    ),
    (
        "volo:board=standard,edition=current,setup=nests,supply=60 1o1o1/ooo1bbbb/1obo1o1b1/"
        "bob1obo2o/1bob1oo2b1/2bb3oo1bo/3b2bbbb/3bo2ob2b/3oo2b3/o1oboob1b1/2bo2b2/2oo1bo1/2o1o"
        " o 28 30 0",
        "c4:e6-e6/f2",
    ),
]


@pytest.fixture(autouse=True)
def _native() -> None:
    need_native()


def verdict(state: rules.VoloState, attacker: int, depth: int) -> bool | None:
    """The compiled search's answer, without limits."""
    answer = ai.prove(state, attacker, depth, 10**9, -1.0)
    assert answer is not None
    return answer[0]


def played(board: str, seed: int, plies: int) -> rules.VoloState:
    """The position after ``plies`` random decisions from the start (or the last one
    before the game ended)."""
    game = tablier.games.get("volo", board=board)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        after = state.apply(moves[rng.randrange(len(moves))])
        if after.outcome is not None:
            break
        state = after
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=st.sampled_from(["mini", "standard"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 70),
    depth=st.integers(0, 3),
    attacker=st.integers(0, 1),
)
def test_answers_are_the_generic_solvers(
    board: str, seed: int, plies: int, depth: int, attacker: int
) -> None:
    state = played(board, seed, plies)
    answer = ai.prove(state, attacker, depth, 10**9, -1.0)
    assert answer is not None
    assert answer[0] is Solver().wins(state, attacker, depth)
    assert answer[1] >= 0


def test_answers_agree_where_wins_exist() -> None:
    """Depths 1 to 5 around the walk-ins, where forced wins of every length are found."""
    wins = 0
    for text, bad in WALK_INS:
        game = tablier.games.from_spec(text.split()[0])
        root = game.parse_position(text)
        for move in [*root.legal_moves()[:12], game.parse_move(root, bad)]:
            after = root.apply(move)
            if after.outcome is not None:
                continue
            for depth in (1, 2, 3, 4, 5):
                answer = ai.prove(after, 1 - root.to_move, depth, 10**9, -1.0)
                assert answer is not None
                expected = Solver().wins(after, 1 - root.to_move, depth)
                assert answer[0] is expected, (text, str(move), depth)
                wins += expected
    assert wins >= len(WALK_INS)  # the walk-ins at depth 5 at least


def test_walk_ins_are_five_decisions_deep() -> None:
    for text, bad in WALK_INS:
        game = tablier.games.from_spec(text.split()[0])
        root = game.parse_position(text)
        after = root.apply(game.parse_move(root, bad))
        opponent = 1 - root.to_move
        assert verdict(after, opponent, 3) is False
        assert verdict(after, opponent, 4) is False
        assert verdict(after, opponent, 5) is True


def test_the_limits_stop_the_search() -> None:
    state = played("standard", 3, 40)
    assert ai.prove(state, 0, 7, 500, -1.0) == (None, 501)
    answer = ai.prove(state, 0, 7, 10**9, 0.0)
    assert answer is not None and answer[0] is None and answer[1] <= 256


def test_bad_input_is_refused() -> None:
    native = rules._native
    assert native is not None
    state = played("mini", 1, 10)
    with pytest.raises(ValueError, match="attacker"):
        native.prove(state, 2, 3, 100, -1.0)
    with pytest.raises(ValueError, match="depth"):
        native.prove(state, 0, 16, 100, -1.0)
    with pytest.raises(ValueError, match="depth"):
        native.prove(state, 0, -1, 100, -1.0)
    with pytest.raises(TypeError):
        native.prove("not a state", 0, 3, 100, -1.0)
    over = next(s for s in _finished("mini"))
    with pytest.raises(ValueError, match="over"):
        native.prove(over, 0, 3, 100, -1.0)
    assert ai.prove(over, 0, 3, 100, -1.0) is None  # the hook leaves it to the solver
    assert ai.prove(state, 0, ai.PROOF_MAX_DEPTH + 1, 100, -1.0) is None  # too deep: as well
    # the solver searches the first decisions of a deeper question itself
    deep = Solver(max_nodes=3, prove=ai.prove, prove_nodes=10**4).solve(
        state, ai.PROOF_MAX_DEPTH + 2
    )
    assert deep.status == "unknown" and deep.aborted
    assert native.prove(state, 0, 3, -5, -1.0)[0] is None  # no nodes at all


def _finished(board: str):
    game = tablier.games.get("volo", board=board)
    rng = random.Random(2)
    while True:
        state = game.initial_state()
        while state.outcome is None:
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
        yield state


def test_the_hook_is_off_with_the_compiled_core() -> None:
    state = played("standard", 5, 30)
    with using(False):
        assert ai.prove(state, 0, 3, 100, -1.0) is None
        assert tactical_depth(state, 3, 5) == (3, None)
    assert tactical_depth(state, 3, 5) == (5, ai.prove)
    assert knowledge_for(state.game).prove is ai.prove


def test_tactical_depth_follows_the_level() -> None:
    state = played("mini", 5, 30)
    assert tactical_depth(state, 3, 0) == (3, None)  # no proof depth: the generic solver
    assert tactical_depth(state, 0, 5) == (0, None)  # no solver steps: none
    assert tactical_depth(state, 3, 2) == (3, ai.prove)  # never shallower than the solver
    # Voldétour's takes three decisions at most (with its repetition option too)
    voldetour = tablier.games.get("voldetour").initial_state()
    assert tactical_depth(voldetour, 3, 5) == (3, knowledge_for(voldetour.game).prove)
    repeating = tablier.games.get("voldetour", repetition=True).initial_state()
    assert tactical_depth(repeating, 3, 5) == (3, knowledge_for(repeating.game).prove)
    assert LEVELS["expert"].proof_depth == 5 and LEVELS["hard"].proof_depth == 3


def test_hard_checks_three_decisions_through_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``hard`` asks the compiled proof search its three-decision questions (the same
    answers, cheaper), keeps ``CHECKS_SHARE`` for its checks and no second, shallower
    pass; with ``proof_depth=0`` it goes back to the generic solver."""
    from tablier.ai import players

    calls: list[tuple[int, object, object]] = []
    real = players.safest_move

    def spy(*args: object) -> object:
        calls.append((args[2], args[8], args[10]))  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(players, "safest_move", spy)
    state = played("mini", 5, 20)
    for extra in ("", ",proof_depth=0"):
        make_player("hard:iterations=60,seconds=none" + extra, state.game, 1).choose(state)
    assert calls == [(3, ai.prove, None), (3, None, None)]


def test_a_solver_with_the_hook_solves_alike() -> None:
    for text, bad in WALK_INS:
        game = tablier.games.from_spec(text.split()[0])
        root = game.parse_position(text)
        after = root.apply(game.parse_move(root, bad))
        plain = Solver().solve(after, 5)
        hooked = Solver(prove=ai.prove)
        fast = hooked.solve(after, 5)
        assert (fast.status, fast.winner, fast.plies, fast.line) == (
            plain.status,
            plain.winner,
            plain.plies,
            plain.line,
        )
        assert fast.status == "win" and fast.plies == 5
        assert hooked.proved_nodes > 0 and hooked.nodes == 0
        # out of its nodes, the hooked solver answers "unknown", as at its own limit
        starved = Solver(prove=ai.prove, prove_nodes=10).solve(after, 5)
        assert starved.status == "unknown" and starved.aborted


def test_the_five_decision_check_refuses_the_walk_ins() -> None:
    for text, bad in WALK_INS:
        game = tablier.games.from_spec(text.split()[0])
        root = game.parse_position(text)
        move = game.parse_move(root, bad)
        shallow = safest_move(root, [move], 3, 20_000, None, None)
        assert shallow == move  # depth 3 sees nothing wrong with it
        deep = safest_move(root, [move], 5, 20_000, None, None, prove=ai.prove)
        assert deep != move
        assert verdict(root.apply(deep), 1 - root.to_move, 5) is False


def test_the_mover_s_deep_win_is_found_before_the_search() -> None:
    text, bad = WALK_INS[0]
    game = tablier.games.from_spec(text.split()[0])
    root = game.parse_position(text)
    after = root.apply(game.parse_move(root, bad))  # the opponent wins in 5 from here
    win = forced_win(after, 5, 2000, 0, None, prove=ai.prove)
    assert win is not None
    assert verdict(after.apply(win), after.to_move, 4) is True
    assert forced_win(after, 3, 2000, 0, None, prove=ai.prove) is None


@pytest.mark.parametrize("index", range(len(WALK_INS)))
def test_expert_refuses_a_walk_in_its_search_prefers(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With its search made to prefer the walk-in, ``expert``'s five-decision check
    plays another move, a safe one; with ``proof_depth=0`` (the depth-3 check of
    ``hard``) the walk-in is played."""
    text, bad = WALK_INS[index]
    game = tablier.games.from_spec(text.split()[0])
    root = game.parse_position(text)
    move = game.parse_move(root, bad)
    monkeypatch.setattr(MCTS, "best_move", lambda self: move)
    chosen = make_player("expert:iterations=50,seconds=none", game, 1).choose(root)
    assert chosen != move
    assert verdict(root.apply(chosen), 1 - root.to_move, 5) is False
    shallow = make_player("expert:iterations=50,seconds=none,proof_depth=0", game, 1)
    assert shallow.choose(root) == move


def test_proof_settings_in_a_player_spec() -> None:
    player = make_player("expert:proof_depth=3,proof_nodes=5000")
    assert player.level.proof_depth == 3 and player.level.proof_nodes == 5000
    with pytest.raises(TablierError, match="proof depth"):
        make_player(f"expert:proof_depth={MAX_PROOF_DEPTH + 1}")
    with pytest.raises(TablierError, match="negative"):
        make_player("expert:proof_nodes=-1")


def test_expert_keeps_more_of_its_budget_for_deep_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level whose checks go through the compiled proof search keeps
    ``DEEP_CHECKS_SHARE`` of its budget for them; without it, ``CHECKS_SHARE``."""
    from tablier.ai import players

    shares: list[float] = []
    real = players.search_seconds

    def spy(*args: object) -> float:
        shares.append(float(args[5]))  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(players, "search_seconds", spy)
    state = played("mini", 5, 20)
    for spec in ("expert:seconds=0.4", "expert:seconds=0.4,proof_depth=0", "hard:seconds=0.4"):
        make_player(spec, state.game, 1).choose(state)
    assert shares == [players.DEEP_CHECKS_SHARE, players.CHECKS_SHARE, players.CHECKS_SHARE]
    # a decision that had its core so far (its CPU time at least its wall time): the
    # checks keep their share of the budget
    deep = real(6.0, True, True, time.perf_counter(), time.process_time() - 10, 0.3)
    plain = real(6.0, True, True, time.perf_counter(), time.process_time() - 10, 0.15)
    assert 0.8 < plain - deep < 1.0  # 15% of 6 s more for the checks
