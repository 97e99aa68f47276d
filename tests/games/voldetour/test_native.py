"""The compiled core (``_native.c``) against the pure-Python engine, its reference.

On ``TABLIER_DIFF_POSITIONS`` positions (default 10,000) per option set of
``Voldetour.example_options()``: the legal decisions (same order), the outcome,
the successor states (every decision on a share of the positions, the one
played on the others), equality and hashes across engines, the move priors,
evaluations and path distances; then the playout hook, and bad input.
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from tablier.core.native import using
from tablier.games.voldetour import ai, pieceset, rules
from tablier.games.voldetour.game import Voldetour
from tablier.games.voldetour.rules import VState, native_tables

from .helpers import built_position, eager_move, game

pytestmark = pytest.mark.skipif(
    rules._native is None and os.environ.get("TABLIER_REQUIRE_NATIVE") != "1",
    reason="the compiled core is not built",
)

POSITIONS = int(os.environ.get("TABLIER_DIFF_POSITIONS", "10000"))
OPTIONS = game().example_options()


def fresh(state: VState) -> VState:
    """A copy of ``state`` without its cached board, moves and outcome."""
    return VState(
        state.game,
        state.blocks,
        state.stairs,
        state.lords,
        state.turn,
        state.done,
        state.hand,
        state.passes,
        state.history,
    )


def _pick(state: VState, moves: list, rng: random.Random, style: int):
    """The next decision of a walk: uniform, prior-weighted or eager."""
    if style == 0:
        return rng.choice(moves)
    if style == 1:
        return rng.choices(moves, weights=ai._move_prior_pure(state, moves))[0]
    return eager_move(state, rng)


def positions(g, count: int, seed: int):
    """``count`` positions: walks from the start and from built (parsed back) positions.

    Walks play uniformly, weighted by the move prior, or eagerly (building and
    walking); terminal positions are kept.  A built position goes through its
    text and is read back (parsed positions).
    """
    rng = random.Random(seed)
    while count > 0:
        kind = rng.randrange(4)
        if kind == 0:
            state = g.initial_state()
        else:
            with using(False):
                state = built_position(g, rng)
            state = g.parse_position(state.to_text())
        style = rng.randrange(3)
        for _ in range(rng.randrange(20, 200)):
            yield state
            count -= 1
            if count <= 0:
                return
            moves = fresh(state)._generate() if state._compute_outcome() is None else []
            if not moves:
                break
            state = fresh(state)._apply_pure(_pick(state, moves, rng, style))


def _check(state: VState, rng: random.Random, every: bool) -> None:
    tables = native_tables(state.game.pieceset)
    native = rules._native
    pure_outcome = fresh(state)._compute_outcome()
    assert rules._outcome_native(fresh(state)) == pure_outcome, state.to_text()
    if pure_outcome is not None:
        with using(True):
            assert fresh(state).legal_moves() == []
        return
    expected = fresh(state)._generate()
    got = native.generate(tables, fresh(state))
    assert got == expected, state.to_text()
    assert [type(m) for m in got] == [type(m) for m in expected]
    with using(True):
        assert fresh(state).legal_moves() == expected
    chosen = expected if every else [rng.choice(expected)]
    for move in chosen:
        pure = fresh(state)._apply_pure(move)
        comp = native.apply(
            tables, fresh(state), move, state.game.repetition, state.game.max_turns or 0
        )
        assert comp == pure and pure == comp, (state.to_text(), str(move))
        assert comp.outcome == pure.outcome
        assert hash(comp) == hash(pure)
        assert comp.body() == pure.body()
        assert comp.history == pure.history
    priors = ai._move_prior_native(fresh(state), expected)
    assert priors == pytest.approx(ai._move_prior_pure(fresh(state), expected), abs=1e-9)
    if rng.random() < 0.3:
        assert ai._evaluate_native(fresh(state)) == pytest.approx(
            ai._evaluate_pure(fresh(state)), abs=1e-9
        ), state.to_text()
        for p in (0, 1):
            assert ai._path_distance_native(fresh(state), p) == ai._path_distance_pure(
                fresh(state), p
            )
        assert native.repetition_key(tables, state) == state.repetition_key()


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_compiled_core_matches_the_pure_engine(options):
    g = game(**options)
    assert native_tables(g.pieceset) is not None
    rng = random.Random(7)
    seen = {"hand-B": 0, "hand-S": 0, "over": 0, "lord": 0, "nested": 0}
    for n, state in enumerate(positions(g, POSITIONS, 2026)):
        _check(state, rng, every=n % 10 == 0)
        if state.hand is not None:
            seen["hand-" + state.hand[0]] += 1
        if state.outcome is not None:
            seen["over"] += 1
        if any(st[3] for side in state.stairs for st in side):
            seen["nested"] += 1
        if state.lords != state.game.pieceset.towers:
            seen["lord"] += 1
    # the sample is diverse: every kind of position came up
    assert all(seen.values()), seen


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_playout_hook_replays_legally(options):
    g = game(**options)
    rng = random.Random(3)
    starts = [g.initial_state(), *(built_position(g, rng) for _ in range(8))]
    for j, start in enumerate(starts * 3):
        weighted, cutoff = j % 2 == 0, j % 3 != 0
        limit = 8 if j % 4 else 400
        got = ai.playout(start, 1000 + j, limit, weighted, cutoff)
        assert got is not None
        assert got == ai.playout(start, 1000 + j, limit, weighted, cutoff)  # deterministic
        reward, played = got
        state = start
        with using(False):
            for mover, move in played:
                assert state.outcome is None
                assert mover == state.to_move
                assert move in state.legal_moves()
                state = state.apply_unchecked(move)
            assert len(played) <= limit
            outcome = state.outcome
            if outcome is not None:
                assert reward == outcome.score(0)
            else:
                assert len(played) == limit
                if cutoff:
                    v = ai.evaluate(state)
                    v = v if state.to_move == 0 else -v
                    assert reward == pytest.approx((v + 1) / 2, abs=1e-9)
                else:
                    assert reward == 0.5
    with using(False):
        assert ai.playout(g.initial_state(), 1, 10, True, True) is None


def test_weighted_playouts_follow_the_prior_to_its_power():
    """``PLAYOUT_POWER``: the higher it is, the more often a playout plays the move the
    prior weighs most (the leapfrog race); the power is set in the compiled core."""
    g = game()
    rng = random.Random(5)
    starts = [g.initial_state(), *(built_position(g, rng) for _ in range(6))]

    def favourite_share() -> float:
        best = total = 0
        for j, start in enumerate(starts):
            got = ai.playout(start, 77 + j, 16, True, True)
            assert got is not None
            state = start
            with using(False):
                for _, move in got[1]:
                    moves = state.legal_moves()
                    weights = ai.move_prior(state, moves)
                    best += weights[moves.index(move)] == max(weights)
                    total += 1
                    state = state.apply_unchecked(move)
        return best / total

    assert ai.PLAYOUT_POWER > 1
    previous = rules._native.set_playout_power(1.0)
    try:
        plain = favourite_share()
        rules._native.set_playout_power(ai.PLAYOUT_POWER)
        sharp = favourite_share()
    finally:
        rules._native.set_playout_power(previous)
    assert sharp > plain + 0.05, (plain, sharp)  # 0.60 and 0.74 when written
    # A whole power is a few multiplications, any other one a call to pow(): the two agree.
    for whole in (2.0, 3.0, 5.0):
        paths = []
        for power in (whole, whole + 1e-9):
            rules._native.set_playout_power(power)
            try:
                paths.append([ai.playout(s, 91 + j, 16, True, True) for j, s in enumerate(starts)])
            finally:
                rules._native.set_playout_power(previous)
        assert paths[0] == paths[1], whole
    for bad in (0.0, -1.0, 17.0, float("nan")):
        with pytest.raises(ValueError):
            rules._native.set_playout_power(bad)
    assert rules._native.set_playout_power(previous) == previous  # unchanged by the refusals


def test_bad_input_raises_instead_of_crashing():
    g = game()
    state = g.initial_state()
    tables = native_tables(g.pieceset)
    native = rules._native
    with pytest.raises(TypeError):
        native.generate(None, state)
    with pytest.raises(TypeError):
        native.generate(tables, "state")
    with pytest.raises(TypeError):
        native.apply(tables, state, 3, False, 0)
    for key in [("Q",), ("T", "B", 99), ("P", "B", 0, 0, 0, 0), ("L", ()), ("E", 1), ("T",)]:
        with pytest.raises(ValueError):
            native.apply(tables, state, key, False, 0)
    put = ("P", "S", state.game.pieceset.towers[0], 0, 0, 0)
    with pytest.raises(ValueError):  # nothing in hand
        native.apply(tables, state, put, False, 0)
    bad_states = [
        VState(g, (None,), ((), ()), state.lords, 1),
        VState(g, state.blocks, ((), ()), (0, 1), 1),
        VState(g, state.blocks, (((999, 0, 0, 0),), ()), state.lords, 1),
        VState(g, state.blocks, ((), ()), state.lords, 0),
        VState(g, state.blocks, ((), ()), state.lords, 1, hand=("Z", 1)),
        VState(g, state.blocks, ((), ()), state.lords, 1, history=(-1,)),
        VState(g, ((0, 0, 0), *state.blocks[1:]), ((), ()), state.lords, 1),
    ]
    for bad in bad_states:
        with pytest.raises((TypeError, ValueError)):
            native.generate(tables, bad)
            native.outcome(tables, bad, 0)
    with pytest.raises(ValueError):
        native.playout(tables, state, -1, 10, True, True, False, 0)
    with pytest.raises(TypeError):
        native.move_prior(tables, state, [1, 2])
    with pytest.raises(ValueError):
        native.path_distance(tables, state, 2)


def test_repetition_tower_and_pass_outcomes_agree():
    rng = random.Random(1)
    g = game(repetition=True, max_turns=200)
    state = g.position(lords=("e5", "f6"), turn=9)
    for text in ("Le6", "Lf7", "Le5", "Lf6") * 3:
        _check(state, rng, every=True)
        if state.outcome is not None:
            break
        state = state.apply(g.parse_move(state, text))
    _check(state, rng, every=True)
    assert state.outcome is not None and state.outcome.reason == "repetition"
    assert rules._outcome_native(fresh(state)) == state._compute_outcome()
    g = game()
    state = g.position(black=["B113@i8:1x1x3"], lords=("i8", "e5"), turn=9)
    _check(state, rng, every=True)
    state = state.apply(g.parse_move(state, "Li9"))
    _check(state, rng, every=True)
    assert state.outcome is not None and state.outcome.reason == "tower"
    lords = g.position(lords=("e5", "f6")).lords
    for passes in (1, 2):
        state = VState(g, g.initial_state().blocks, ((), ()), lords, 9, passes=passes)
        _check(state, rng, every=True)
        assert (state.outcome is not None) == (passes == 2)


def test_init_checks_its_tables_and_declines_what_it_cannot_hold():
    ps = game().pieceset
    native = rules._native
    mk = rules.move_class(ps)
    base = [VState, rules._UNSET, mk, ps.grid.stride, ps.grid.board, ps.towers, 3, 5]
    rest: list = [[], [], [], [], [], mk(("T", "S", None)), mk(("E",)), mk(("X",))]
    for board in (-1, 1 << 130):
        with pytest.raises(ValueError):
            native.init(*base[:4], board, *base[5:], *rest)
    with pytest.raises(TypeError):
        native.init(*base[:4], "board", *base[5:], *rest)
    with pytest.raises(TypeError):
        native.init(*base, "kinds", *rest[1:])
    assert native.init(*base, *rest) is None  # no block kind: the pure engine plays
    wide = [*base]
    wide[3] = 99  # a board wider than the compiled core holds
    assert native.init(*wide, *rest) is None


TINY = """title = "tiny"
width = 3
height = 3
towers = ["a1", "c3"]
tower_height = 2
stairs = 3
blocks = [{name = "111", size = [1, 1, 1]}, {name = "112", size = [1, 1, 2]}]
"""


def test_a_crowded_board_takes_the_rare_paths_alike(tmp_path, monkeypatch):
    """On a 3 x 3 board, a piece often fits only where it stands: both engines agree."""
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    monkeypatch.setattr(pieceset, "_DIR", tmp_path)
    ps = pieceset.load_set.__wrapped__("tiny")  # not cached: the shipped sets stay as they are
    g = Voldetour()
    monkeypatch.setattr(g, "pieceset", ps)
    rng = random.Random(1)
    rare = 0
    for _ in range(max(20, POSITIONS // 100)):
        with using(False):
            state = built_position(g, rng)
        for _ in range(30):
            _check(state, rng, every=True)
            if state.outcome is not None:
                break
            if state.hand is None and not state.done:
                b, p, nb = state.board, state.to_move, len(ps.blocks)
                for k in range(nb):
                    pl = state.blocks[p * nb + k]
                    if pl is not None and not state.block_blocked(b, pl):
                        fp = ps.orientations[pl[0]].base << pl[1]
                        rare += not state._block_fits(b, k, None, fp)
                for st in state.stairs[p]:
                    if not state.stair_blocked(b, st):
                        rare += not state._stair_fits(b, None, ~(1 << st[0]))
            with using(False):
                state = state.apply_unchecked(eager_move(state, rng))
    assert rare > 0


def test_huge_numbers_are_played_alike():
    """Turn numbers and limits beyond 64 bits: the compiled core defers or clamps."""
    g = game(max_turns=10**30)
    start = g.position(lords=("e5", "f6"))
    for turn in (10**20, 2**62 - 2, 2**62 - 1):
        state = dataclasses.replace(start, turn=turn)
        with using(False):
            moves = state.legal_moves()
            pure = (moves, state.outcome, ai.evaluate(state), ai.move_prior(state, moves))
            after = state.apply_unchecked(moves[0])
        with using(True):
            again = fresh(state)
            moves = again.legal_moves()
            assert (moves, again.outcome, ai.evaluate(again), ai.move_prior(again, moves)) == pure
            assert again.apply_unchecked(moves[0]) == after
    assert ai.playout(dataclasses.replace(start, turn=10**20), 1, 10, True, True) is None
    got = ai.playout(g.initial_state(), 2**64 - 1, 10**30, False, False)
    assert got is not None and got[1] and got[0] in (0.0, 0.5, 1.0)
    with pytest.raises(OverflowError):
        rules._native.generate(native_tables(g.pieceset), dataclasses.replace(start, turn=2**63))
