"""The per-game action encodings (declared by ``Game.actions()``) and the Stepper."""

from __future__ import annotations

import re
import types

import numpy as np
import pytest

from tablier.adapters import Stepper, actions_for
from tablier.core.errors import IllegalMoveError, InvalidMoveError, TablierError
from tablier.games import get, names

from .helpers import CASES, OPTION_SETS, random_states


def test_every_game_covered() -> None:
    assert {name for name, _ in OPTION_SETS} == set(names())
    for name in names():
        assert sum(1 for n, _ in OPTION_SETS if n == name) >= 2


# -- independent, slow reference encoders, read from the notation --------------------


def _volo_reference(game, state, move) -> tuple[int, ...]:
    cells = list(game.cells)
    n = len(cells)
    text = str(move)
    if text == "pass":
        return (2 * n,)
    found = re.fullmatch(r"([a-m]\d+)(?::([a-m]\d+))?-([a-m]\d+)(?:/([a-m]\d+))?", text)
    if found is None:
        return (cells.index(text),)
    low, high, to, keep = found.groups()
    steps = (n + cells.index(low), cells.index(high or low), cells.index(to))
    return steps + ((cells.index(keep),) if keep else ())


_XOBO_DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def _xobo_cell(label: str) -> tuple[int, int]:
    return ord(label[0]) - ord("a"), int(label[1:]) - 1


def _xobo_reference(game, state, move) -> tuple[int, ...]:
    text = str(move)
    if "->" in text:
        far, onto = (_xobo_cell(t) for t in text.split("->"))
        dc, dr = far[0] - onto[0], far[1] - onto[1]
        length = max(abs(dc), abs(dr)) + 1
        d = _XOBO_DIRS.index(((dc > 0) - (dc < 0), (dr > 0) - (dr < 0)))
        return (81 + ((onto[1] * 9 + onto[0]) * 8 + d) * 7 + length - 3,)
    if "x" in text:
        a, b = (_xobo_cell(t) for t in text.split("x"))
        d = _XOBO_DIRS.index((b[0] - a[0], b[1] - a[1]))
        return (81 + 81 * 56 + (a[1] * 9 + a[0]) * 8 + d,)
    c, r = _xobo_cell(text)
    return (r * 9 + c,)


def _voldetour_reference(game, state, move) -> tuple[int, ...]:
    ps = game.pieceset
    sq = {bit: ps.grid.coord(bit)[1] * ps.width + ps.grid.coord(bit)[0] for bit in ps.grid.indices}
    n, h, o, k = ps.width * ps.height, ps.tower_height, len(ps.orientations), len(ps.blocks)
    x = n + h + o + 5
    key = tuple(move)
    if key[0] == "T" and key[1] == "B":
        return (x + key[2],)
    if key[0] == "T":
        if key[2] is None:
            return (x + k,)
        a, z, d, inv = key[2]
        return (x + k + 1, sq[a], n + z, n + h + o + (4 if inv else d))
    if key[0] == "P" and key[1] == "B":
        return (x + k + 2, n + h + key[3], sq[key[4]], n + key[5])
    if key[0] == "P":
        _, _, a, z, d, inv = key
        return (x + k + 3, sq[a], n + z, n + h + o + (4 if inv else d))
    if key[0] == "L":
        return (x + k + 4, *(sq[a] for a in key[1]), x + k + 5)
    return (x + k + 6,) if key[0] == "E" else (x + k + 7,)


REFERENCE = {"volo": _volo_reference, "xobo": _xobo_reference, "voldetour": _voldetour_reference}


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_encoding_round_trip_and_reference(name, opts) -> None:
    game = get(name, **opts)
    codec = actions_for(game)
    size = codec.num_actions(game)
    reference = REFERENCE[name]
    for state in random_states(game, seed=7, games=2, limit=80):
        encoded = []
        for move in state.legal_moves():
            steps = codec.encode(state, move)
            assert steps == reference(game, state, move), str(move)
            assert all(0 <= s < size for s in steps)
            assert codec.decode(state, steps) == move
            encoded.append(steps)
        assert len(set(encoded)) == len(encoded)  # distinct ids
        full = set(encoded)
        for steps in encoded:  # no legal sequence is a prefix of another
            assert not any(steps[:i] in full for i in range(1, len(steps)))


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_encoding_is_fixed_for_the_game(name, opts) -> None:
    # The same move (same notation) gets the same ids in any position.
    game = get(name, **opts)
    codec = actions_for(game)
    seen: dict[str, tuple[int, ...]] = {}
    ids: dict[tuple[int, ...], str] = {}
    for state in random_states(game, seed=3, games=3, limit=60):
        for move in state.legal_moves():
            steps = codec.encode(state, move)
            text = str(move)
            if name != "voldetour":  # Voldetour's notation omits levels the position implies
                assert seen.setdefault(text, steps) == steps
                assert ids.setdefault(steps, text) == text


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_observation_planes(name, opts) -> None:
    game = get(name, **opts)
    codec = actions_for(game)
    shape = codec.observation_shape(game)
    assert len(codec.plane_names(game)) == shape[-1]
    for state in random_states(game, seed=5, games=1, limit=40):
        for player in (0, 1):
            obs = codec.observation_planes(state, player, ())
            assert obs.shape == shape and obs.dtype == np.float32
            assert np.all(obs >= -1.0) and np.all(obs <= 1.0)
        # the two sides see the same position with their own and the opponent's planes swapped
        a, b = codec.observation_planes(state, 0, ()), codec.observation_planes(state, 1, ())
        assert not np.array_equal(a, b)
        picture = codec.cell_colours(state)
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_volo_planes_hand_built() -> None:
    game = get("volo", board="mini")
    state = game.position(["b2", "c2", "f10"], ["j6", "e5"], to_move=1)
    codec = actions_for(game)
    obs = codec.observation_planes(state, 1, ())
    assert obs[:, :, 0].sum() == 2 and obs[:, :, 1].sum() == 3  # mine (Blue), then Orange's
    assert obs[4, 4, 0] == 1.0  # e5 is (q=4, r=4)
    assert obs[1, 2, 1] == 1.0  # c2
    assert obs[:, :, 2].sum() == 84
    assert obs[0, 0, 3] == pytest.approx(48 / 50) and obs[0, 0, 4] == pytest.approx(47 / 50)
    assert obs[0, 0, 6] == 0.0  # Blue is not the first player


def test_xobo_planes_hand_built() -> None:
    game = get("xobo")
    state = game.initial_state()
    for text in ("e5", "a1", "b1", "c1"):
        state = state.apply(game.parse_move(state, text))
    codec = actions_for(game)
    obs = codec.observation_planes(state, 0, ())
    assert obs[:, :, 0].sum() == 4 and obs[4, 4, 0] == 1.0 and obs[0, 2, 0] == 1.0
    assert obs[0, :, 3].all() and obs[8, :, 3].all() and obs[:, 0, 4].all()
    assert obs[0, 0, 5] == pytest.approx(32 / 36)


def test_decode_refuses_unknown_steps() -> None:
    game = get("volo", board="mini")
    state = game.initial_state()
    codec = actions_for(game)
    with pytest.raises(IllegalMoveError, match="no legal move"):
        codec.decode(state, (10_000,))


# -- the Stepper ------------------------------------------------------------------------


def test_stepper_volo_flight_is_several_steps() -> None:
    game = get("volo", board="mini")
    stepper = Stepper(game)
    state = game.position(["b2", "c2", "f2"], ["j6", "f10", "h9"], to_move=0)
    move = game.parse_move(state, "b2:c2-d2")
    steps = actions_for(game).encode(state, move)
    assert len(steps) == 3
    pending: tuple[int, ...] = ()
    current = state
    for i, a in enumerate(steps):
        assert a in stepper.next_ids(current, pending)
        mask = stepper.mask(current, pending)
        assert mask.sum() == len(stepper.next_ids(current, pending))
        current, pending = stepper.advance(current, pending, a)
        if i < len(steps) - 1:
            assert current is state and pending == steps[: i + 1]
    assert pending == () and current == state.apply(move)


def test_stepper_keep_step_lists_the_regions() -> None:
    # Find a flight dividing the opponent: after its first three steps, the mask names
    # exactly the cells of the regions that can be kept.
    game = get("volo", board="mini")
    stepper = Stepper(game)
    codec = actions_for(game)
    for state in random_states(game, seed=11, games=6, limit=150):
        dividing = [m for m in state.legal_moves() if m.keep is not None]
        if not dividing:
            continue
        move = dividing[0]
        steps = codec.encode(state, move)
        assert len(steps) == 4
        cells = list(game.cells)
        same = {
            cells.index(m.keep)
            for m in state.legal_moves()
            if m.keep is not None and codec.encode(state, m)[:3] == steps[:3]
        }
        assert set(stepper.next_ids(state, steps[:3])) == same
        return
    pytest.fail("no dividing flight found in the random games")


def test_stepper_refuses_bad_actions_and_changes_nothing() -> None:
    game = get("xobo")
    stepper = Stepper(game)
    state = game.initial_state()
    before = state.to_text()
    with pytest.raises(InvalidMoveError, match="outside the action space"):
        stepper.advance(state, (), stepper.num_actions)
    with pytest.raises(InvalidMoveError, match="whole number"):
        stepper.advance(state, (), "e5")
    with pytest.raises(InvalidMoveError):
        stepper.advance(state, (), 1.5)
    stack_id = 81  # no stack can be formed at the start
    with pytest.raises(IllegalMoveError, match="not legal"):
        stepper.advance(state, (), stack_id)
    assert state.to_text() == before


def test_actions_for_reads_the_declared_hook_only() -> None:
    # The encoding is what the class declares, never found by the module's name.
    from tablier.games.xobo import XoBo

    class Lonely(XoBo):
        name = "lonely"

        @classmethod
        def actions(cls) -> object | None:
            return None

    class Partial(XoBo):
        name = "partial"

        @classmethod
        def actions(cls) -> object:
            return types.SimpleNamespace(num_actions=lambda game: 1)

    class Elsewhere(XoBo):
        name = "elsewhere"

    Lonely.__module__ = "tablier.games.xobo.game"  # a sibling actions module exists, unused
    Elsewhere.__module__ = "somewhere.else.game"  # no sibling module: the declaration counts
    with pytest.raises(TablierError, match=r"lonely declares no action encoding"):
        actions_for(Lonely())
    with pytest.raises(TablierError, match=r"lacks encode, decode"):
        actions_for(Partial())
    import tablier.games.xobo.actions as xobo_actions

    assert actions_for(Elsewhere()) is xobo_actions


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_observation_planes_with_every_pending_prefix(name, opts) -> None:
    # Every proper prefix of every legal move's steps gives planes within [-1, 1].
    game = get(name, **opts)
    codec = actions_for(game)
    for state in random_states(game, seed=9, games=1, limit=30)[::3]:
        prefixes = {
            steps[:i]
            for steps in (codec.encode(state, m) for m in state.legal_moves())
            for i in range(1, len(steps))
        }
        for pending in sorted(prefixes)[:200]:
            obs = codec.observation_planes(state, state.to_move, pending)
            assert np.all(obs >= -1.0) and np.all(obs <= 1.0), pending
            if name != "xobo":
                assert not np.array_equal(obs, codec.observation_planes(state, state.to_move, ()))
