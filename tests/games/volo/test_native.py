"""The compiled core against the pure-Python engine, position by position.

For every option set of ``Volo.example_options()``, at least 10,000 positions
(``TABLIER_DIFF_POSITIONS`` overrides the count, for a sanitizer build) reached
by seeded play from the start, uniformly random in some games and weighted by
the move prior in others, mid-game and terminal alike, a quarter of them read
back from their position strings; on each: the legal moves (same moves, same
order, equal and hash-equal), the successor positions (of every move on one
position in four, of a sample on the others) with their outcomes, the AI's
features, evaluation and move priors.  Hand-made and crowded positions of the
reference tests add divisions and passes.  The whole-playout hook is checked by
replaying its moves with the pure engine.
"""

from __future__ import annotations

import math
import os
import random

import pytest

import tablier.games
from tablier.core.native import using
from tablier.games.volo import ai, rules
from tablier.games.volo.rules import VoloMove, VoloState

from .conftest import need_native
from .test_reference import crowded_states, handmade_states

OPTION_SETS = tablier.games.get("volo").example_options()
POSITIONS = int(os.environ.get("TABLIER_DIFF_POSITIONS", "10000"))


@pytest.fixture(autouse=True)
def _native() -> None:
    need_native()


def native():  # the compiled module, once need_native() has passed
    assert rules._native is not None
    return rules._native


def option_id(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def same_state(a: VoloState, b: VoloState) -> None:
    assert type(a) is type(b) is VoloState
    assert a._key() == b._key() and a.game is b.game
    assert a == b and hash(a) == hash(b)
    assert a.outcome == b.outcome
    if a.outcome is not None:
        assert b.outcome is not None and a.outcome.message == b.outcome.message


def positions(game, count: int, seed: str) -> list[VoloState]:
    """``count`` positions of seeded games (uniform or prior-weighted), terminal ones included."""
    rng = random.Random(seed)
    found: list[VoloState] = []
    weighted = False
    while len(found) < count:
        state = game.initial_state()
        weighted = not weighted
        while len(found) < count:
            if rng.random() < 0.25:
                state = game.parse_position(state.to_text())
            found.append(state)
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            if weighted:
                move = rng.choices(moves, weights=ai.move_prior(state, moves))[0]
            else:
                move = moves[rng.randrange(len(moves))]
            state = state.apply_unchecked(move)
    return found


def compare(state: VoloState, rng: random.Random, every_move: bool) -> int:
    """Both engines on one position; returns the number of moves compared."""
    c = native()
    pure = rules.generate(state)
    compiled = c.generate(state)
    assert compiled == pure, state.to_text()
    assert all(type(m) is VoloMove for m in compiled)
    assert [hash(m) for m in compiled] == [hash(m) for m in pure]
    moves = pure if every_move else rng.sample(pure, min(len(pure), 4))
    for move in moves:
        same_state(c.apply(state, move), rules.apply_move(state, move))
    for player in (0, 1):
        f_pure, f_comp = ai.features_pure(state, player), c.features(state, player)
        assert f_pure[:2] == f_comp[:2] and math.isclose(f_pure[2], f_comp[2], abs_tol=1e-9)
    assert math.isclose(ai.evaluate_pure(state), c.evaluate(state), abs_tol=1e-9)
    priors = c.move_prior(state, pure)
    assert len(priors) == len(pure)
    for a, b in zip(ai.move_prior_pure(state, pure), priors, strict=True):
        assert math.isclose(a, b, abs_tol=1e-9)
    return len(pure)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_engines_agree_on_played_positions(options):
    game = tablier.games.get("volo", **options)
    rng = random.Random(f"native-{option_id(options)}")
    states = positions(game, POSITIONS, f"positions-{option_id(options)}")
    assert len(states) >= POSITIONS
    terminal = sum(s.outcome is not None for s in states)
    assert terminal > 0  # games were played to their end
    for i, state in enumerate(states):
        compare(state, rng, every_move=i % 4 == 0)
        # the state the compiled engine reached is the one the pure engine reaches
        assert game.parse_position(state.to_text()) == state


@pytest.mark.parametrize(("board", "edition"), [("standard", "current"), ("mini", "2010")])
def test_engines_agree_on_handmade_and_crowded_positions(board, edition):
    rng = random.Random(f"handmade-{board}-{edition}")
    count = max(20, POSITIONS // 40)
    states = handmade_states(board, edition, rng, count) + crowded_states(
        board, edition, rng, count
    )
    divisions = 0
    for state in states:
        compare(state, rng, every_move=True)
        divisions += sum(m.keep_index >= 0 for m in rules.generate(state))
    assert divisions > 0


def test_legal_moves_and_apply_switch_engines():
    game = tablier.games.get("volo", board="mini")
    state = game.initial_state()
    move = state.legal_moves()[0]
    with using(False):
        assert rules._generate is rules.generate and rules._apply is rules.apply_move
        assert ai.playout(state, 1, 10, False, False) is None
        pure = (game.initial_state().legal_moves(), state.apply_unchecked(move))
    assert rules._generate is native().generate
    compiled = (game.initial_state().legal_moves(), state.apply_unchecked(move))
    assert pure[0] == compiled[0]
    same_state(pure[1], compiled[1])


def replay(start: VoloState, played) -> VoloState:
    """Replay the hook's moves with the pure engine, checking each is legal for its mover."""
    state = start
    for mover, move in played:
        assert state.outcome is None
        assert mover == state.to_move
        assert type(move) is VoloMove
        assert move in rules.generate(state)
        state = rules.apply_move(state, move)
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_playout_hook_plays_legal_games(options):
    game = tablier.games.get("volo", **options)
    rng = random.Random(f"playout-{option_id(options)}")
    starts = positions(game, 60, f"starts-{option_id(options)}")
    ended = cut = 0
    for i, start in enumerate(starts):
        weighted, cutoff = bool(i & 1), bool(i & 2)
        limit = rng.choice([0, 1, 4, 300])
        seed = rng.randrange(2**64)
        result = ai.playout(start, seed, limit, weighted, cutoff)
        assert result is not None
        reward, played = result
        assert ai.playout(start, seed, limit, weighted, cutoff) == result  # deterministic
        assert len(played) <= limit
        final = replay(start, played)
        if final.outcome is not None:
            assert start.outcome is not None or len(played) >= 1
            assert reward == final.outcome.score(0)
            ended += 1
        else:
            assert len(played) == limit
            if cutoff:
                v = max(-1.0, min(1.0, ai.evaluate_pure(final)))
                v = v if final.to_move == 0 else -v
                assert math.isclose(reward, (v + 1) / 2, abs_tol=1e-9)
                cut += 1
            else:
                assert reward == 0.5
    assert ended and cut


def test_weighted_playouts_follow_the_prior():
    """Prior-weighted playouts fly more often than uniform ones (flights weigh most)."""
    game = tablier.games.get("volo")
    start = positions(game, 40, "weighted")[-1]
    share = {}
    for weighted in (False, True):
        kinds = [
            move.kind
            for seed in range(40)
            for _, move in ai.playout(start, seed, 30, weighted, False)[1]  # type: ignore[index]
        ]
        share[weighted] = kinds.count("fly") / max(1, len(kinds))
    assert share[True] > share[False]


def test_bad_input_raises():
    c = native()
    game = tablier.games.get("volo")
    state = game.initial_state()
    move = state.legal_moves()[0]
    for call in (
        lambda: c.generate(None),
        lambda: c.generate(42),
        lambda: c.apply(state, None),
        lambda: c.apply(state, (1, 2)),
        lambda: c.apply(state, ("a", 2, -1, None)),
        lambda: c.apply(move, state),
        lambda: c.features(state, "0"),
        lambda: c.move_prior(state, 5),
        lambda: c.move_prior(state, [None]),
        lambda: c.playout(state, "seed", 10, False, False),
        lambda: c.evaluate([]),
    ):
        with pytest.raises(TypeError):
            call()
    for call in (
        lambda: c.apply(state, VoloMove((0, 1 << 300, -1, game.board))),
        lambda: c.apply(state, VoloMove((0, -4, -1, game.board))),
        lambda: c.apply(state, VoloMove((0, 1 << 20, 999, game.board))),
        lambda: c.features(state, 2),
        lambda: c.playout(state, -1, 10, False, False),
        lambda: c.playout(state, 2**64, 10, False, False),
        lambda: c.playout(state, 1, -1, False, False),
        lambda: c.may_divide(state, 0, 1 << 200),
    ):
        with pytest.raises(ValueError):
            call()
    not_volo = VoloState(object(), 1, 2, 0, 1, 1, 0, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        c.generate(not_volo)
    # A state whose birds lie outside the board (not reachable, built by hand) is refused.
    bad = VoloState(game, 1, state.bitboard(1), 0, 57, 57, 0, None)
    with pytest.raises(ValueError):
        c.generate(bad)
    with pytest.raises(ValueError):
        bad.legal_moves()


def test_may_divide_agrees():
    """The local cut test, on every flight of a sample of positions."""
    c = native()
    game = tablier.games.get("volo")
    board = game.board
    rng = random.Random(7)
    for state in positions(game, 300, "may-divide")[::3]:
        mine, theirs = state.bitboard(state.to_move), state.bitboard(1 - state.to_move)
        open_theirs = board.all & ~mine
        for move in rules.generate(state):
            if move.kind != "fly":
                continue
            args = (open_theirs | move[0], move[1])
            assert c.may_divide(state, *args) == rules._may_divide(board, *args)
            landed = move[1] | (1 << rng.choice(board.cells))
            args = (board.all & ~theirs, landed)
            assert c.may_divide(state, *args) == rules._may_divide(board, *args)
