"""The compiled core against the pure-Python engine, position by position.

For every option set of ``XoBo.example_options()``, at least 10,000 positions
(``TABLIER_DIFF_POSITIONS`` overrides the count, for a sanitizer build) reached
by seeded play from the start (uniformly random games, games weighted by the
move prior, games favouring stackings and distributions so that reserves run
dry), mid-game and terminal alike, a quarter of them read back from their
position strings, and random positions built from position strings (stacks,
empty common reserves, silent threats).  On each, with both engines working on
fresh copies: the outcome (winner, reason, message) and the voyna flag, the
legal moves (same moves, same order, the same shared objects), the threat
cells, the successor positions (of every move on one position in four, of a
sample on the others) with their outcomes and voyna flags, and the AI's
evaluation, move priors and playout policy.  The whole-playout hook is checked
by replaying its moves with the pure engine.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import tablier.games
from tablier.core.native import using
from tablier.games.xobo import ai, rules
from tablier.games.xobo.rules import XoBoMove, XoBoState

from .conftest import need_native
from .helpers import random_position

OPTION_SETS = tablier.games.get("xobo").example_options()
POSITIONS = int(os.environ.get("TABLIER_DIFF_POSITIONS", "10000"))


@pytest.fixture(autouse=True)
def _native() -> None:
    need_native()


def native():  # the compiled module, once need_native() has passed
    assert rules._native is not None
    return rules._native


@contextmanager
def pure() -> Iterator[None]:
    """XoBo's rules and knowledge on the pure engine for the block."""
    rules.switch(False)
    ai.switch(False)
    try:
        yield
    finally:
        rules.switch(True)
        ai.switch(True)


def option_id(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def fresh(state: XoBoState) -> XoBoState:
    """A copy of ``state`` without its cached analysis."""
    return XoBoState(
        state.game,
        state.ones,
        state.stacks,
        state.heights,
        state.common,
        state.reserves,
        state.turn,
        state.silent,
    )


def same_info(a: tuple, b: tuple) -> None:
    assert a[1] is b[1]
    assert a[0] == b[0]
    if a[0] is not None:
        assert a[0].message == b[0].message


def same_state(a: XoBoState, b: XoBoState) -> None:
    assert type(a) is type(b) is XoBoState
    assert a._key() == b._key() and a.game is b.game and a.silent is b.silent
    assert a == b and hash(a) == hash(b)


def positions(game, count: int, seed: str) -> list[XoBoState]:
    """``count`` positions of seeded games, terminal ones included, and built ones."""
    rng = random.Random(seed)
    found: list[XoBoState] = []
    mode = 0
    while len(found) < count:
        mode = (mode + 1) % 4
        if mode == 0:  # positions built from strings: stacks, dry reserves, silent threats
            for _ in range(min(25, count - len(found))):
                found.append(random_position(game, rng, placed=rng.random() < 0.5))
            continue
        state = game.initial_state()
        while len(found) < count:
            if rng.random() < 0.25:
                state = game.parse_position(state.to_text())
            found.append(state)
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            if mode == 1:
                move = moves[rng.randrange(len(moves))]
            elif mode == 2:
                move = rng.choices(moves, weights=ai.move_prior(state, moves))[0]
            else:
                special = [m for m in moves if m[0] != rules.PLACE]
                pick = special if special and rng.random() < 0.6 else moves
                move = pick[rng.randrange(len(pick))]
            state = state.apply_unchecked(move)
    return found


def compare(state: XoBoState, rng: random.Random, every_move: bool) -> int:
    """Both engines on one position; returns the number of moves compared."""
    c = native()
    a, b = fresh(state), fresh(state)
    same_info(c.analyse(a), rules._analyse_pure(b))
    compiled = c.legal_moves(fresh(state))
    moves = rules._legal_moves_pure(b)
    assert compiled == moves, state.to_text()
    assert all(x is y for x, y in zip(compiled, moves, strict=True))
    for player in (0, 1):
        ones, stacks = state.ones, state.stacks
        assert c.threat_cells(ones, stacks, player) == rules._threat_cells_pure(
            ones, stacks, player
        )
    sample = moves if every_move else rng.sample(moves, min(len(moves), 4))
    for move in sample:
        x, y = c.apply(state, move), rules._apply_pure(state, move)
        same_state(x, y)
        same_info(c.analyse(x), rules._analyse_pure(y))
    if b._info is not None and b._info[0] is None:
        seed = rng.randrange(2**32)
        compiled_eval = ai.evaluate(fresh(state))
        compiled_prior = ai.move_prior(fresh(state), moves)
        compiled_policy = ai.playout_policy(fresh(state), random.Random(seed))
        with pure():
            pure_eval = ai.evaluate(fresh(state))
            pure_prior = ai.move_prior(fresh(state), moves)
            pure_policy = ai.playout_policy(fresh(state), random.Random(seed))
        assert math.isclose(compiled_eval, pure_eval, abs_tol=1e-9)
        assert len(compiled_prior) == len(pure_prior)
        for u, v in zip(compiled_prior, pure_prior, strict=True):
            assert math.isclose(u, v, abs_tol=1e-9)
        assert compiled_policy is pure_policy
    return len(moves)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_engines_agree_on_played_positions(options):
    game = tablier.games.get("xobo", **options)
    rng = random.Random(f"native-{option_id(options)}")
    states = positions(game, POSITIONS, f"positions-{option_id(options)}")
    assert len(states) >= POSITIONS
    ends = {s.outcome.reason for s in states if s.outcome is not None}
    assert "connection" in ends and "exhaustion" in ends  # games were played to their end
    assert any(s.voyna for s in states) and any(s.stacks for s in states)
    if game.voyna_placement:
        assert any(s.silent and s.outcome is None for s in states)
    for i, state in enumerate(states):
        compare(state, rng, every_move=i % 4 == 0)
        # the state the compiled engine reached is the one the pure engine reads back
        with pure():
            assert game.parse_position(state.to_text()) == state


def test_legal_moves_and_apply_switch_engines():
    game = tablier.games.get("xobo")
    state = game.initial_state()
    move = state.legal_moves()[40]
    with using(False):
        assert rules._legal_moves is rules._legal_moves_pure
        assert rules._apply is rules._apply_pure and rules._analyse is rules._analyse_pure
        assert ai.playout(state, 1, 10, False, False) is None
        pure_run = (game.initial_state().legal_moves(), state.apply_unchecked(move))
    assert rules._legal_moves is native().legal_moves and ai._prior_c is native().move_prior
    compiled_run = (game.initial_state().legal_moves(), state.apply_unchecked(move))
    assert pure_run[0] == compiled_run[0]
    same_state(pure_run[1], compiled_run[1])


def replay(start: XoBoState, played) -> XoBoState:
    """Replay the hook's moves with the pure engine, checking each is legal for its mover
    and is the playout policy's choice whenever the policy has one."""
    state = fresh(start)
    for mover, move in played:
        assert rules._analyse_pure(state)[0] is None
        assert mover == state.to_move
        assert type(move) is XoBoMove
        assert move in rules._legal_moves_pure(state)
        with pure():
            win = ai.winning_cells(state)
            under = state.voyna or state.silent
            answers = [
                m
                for m in state.legal_moves()
                if m[0] != rules.PLACE and not ai._threatened(state.apply_unchecked(m), 1 - mover)
            ]
        if win:
            assert move == rules.place_move((win & -win).bit_length() - 1)
        elif under and answers:
            assert move in answers
        state = rules._apply_pure(state, move)
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_playout_hook_plays_legal_games(options):
    game = tablier.games.get("xobo", **options)
    rng = random.Random(f"playout-{option_id(options)}")
    starts = positions(game, 80, f"starts-{option_id(options)}")
    ended = cut = 0
    for i, start in enumerate(starts):
        weighted, cutoff = bool(i & 1), bool(i & 2)
        limit = rng.choice([0, 1, 4, 400])
        seed = rng.randrange(2**64)
        result = ai.playout(start, seed, limit, weighted, cutoff)
        assert result is not None
        reward, played = result
        assert ai.playout(start, seed, limit, weighted, cutoff) == result  # deterministic
        assert len(played) <= limit
        final = replay(start, played)
        outcome = rules._analyse_pure(final)[0]
        if outcome is not None:
            assert reward == outcome.score(0)
            ended += 1
        else:
            assert len(played) == limit
            if cutoff:
                with pure():
                    v = max(-1.0, min(1.0, ai.evaluate(final)))
                v = v if final.to_move == 0 else -v
                assert math.isclose(reward, (v + 1) / 2, abs_tol=1e-9)
                cut += 1
            else:
                assert reward == 0.5
    assert ended and cut


def test_weighted_playouts_follow_the_prior():
    """Prior-weighted playouts place on shortest paths more than uniform ones do: their
    games are shorter."""
    game = tablier.games.get("xobo")
    start = game.initial_state()
    core = native()
    length = {}
    for weighted in (False, True):
        runs = [core.playout(start, seed, 400, weighted, False, False) for seed in range(60)]
        length[weighted] = sum(len(p) for _, p in runs) / len(runs)
    assert length[True] < length[False]


def test_uniform_playouts_without_policy_use_every_move_kind():
    game = tablier.games.get("xobo")
    kinds = set()
    for seed in range(40):
        _, played = native().playout(game.initial_state(), seed, 400, False, False, False)
        kinds |= {move.kind for _, move in played}
    assert kinds == {"place", "stack", "distribute"}


def test_bad_input_raises():
    c = native()
    game = tablier.games.get("xobo")
    state = game.initial_state()
    move = state.legal_moves()[0]
    volo = tablier.games.get("volo").initial_state()
    for fn in (c.analyse, c.legal_moves, c.evaluate, c.policy_answers):
        with pytest.raises(TypeError):
            fn(None)
        with pytest.raises(TypeError):
            fn(volo)
    with pytest.raises(TypeError):
        c.apply(state, "e5")
    with pytest.raises(TypeError):
        c.apply(state)
    with pytest.raises(TypeError):
        c.move_prior(state, [1])
    with pytest.raises(TypeError):
        c.move_prior(state, 5)
    for bad in (
        XoBoMove(0, 0, 0),
        XoBoMove(7, 12, 12),
        XoBoMove(1, 12, 14, 0, 3),
        XoBoMove(2, 12, 13, 9),
    ):
        with pytest.raises(ValueError):
            c.apply(state, bad)
        with pytest.raises(ValueError):
            c.move_prior(state, [bad])
    for seed, limit in ((-1, 10), (2**64, 10), (1, -1)):
        with pytest.raises(ValueError):
            c.playout(state, seed, limit, False, False)
    with pytest.raises(TypeError):
        c.playout(state, "1", 10, False, False)
    with pytest.raises(TypeError):
        c.playout(state, 1, 10)
    with pytest.raises(ValueError):
        c.threat_cells(-1, 0, 0)
    with pytest.raises(ValueError):
        c.threat_cells(0, 0, 2)
    with pytest.raises(TypeError):
        c.threat_cells(0.5, 0, 0)
    fields = (state.ones, state.stacks, state.heights, state.common, state.reserves, state.turn)
    broken = [
        (1 << 200, *fields[1:]),  # too many bits
        (1, *fields[1:]),  # a padding cell
        (*fields[:5], 5),  # no such player
        (*fields[:3], 10**30, *fields[4:]),  # a reserve beyond reason
    ]
    for values in broken:
        with pytest.raises(ValueError):
            c.legal_moves(XoBoState(game, *values))
    with pytest.raises(TypeError):
        c.legal_moves(XoBoState(game, *fields[:4], [0, 0], 0))
    with pytest.raises(TypeError):
        c.legal_moves(XoBoState(None, *fields))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        c.init_board(None)
    assert c.apply(state, move) == rules._apply_pure(state, move)  # still working
