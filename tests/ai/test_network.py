"""The numpy network, the PUCT search it guides, and the ``master`` level.

No PyTorch here but where a test says so (it is skipped without it): playing
with a network must work on an install without PyTorch.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tablier.ai import make_player
from tablier.ai.az import PUCT, PUCTConfig
from tablier.ai.network import (
    NETWORK_DIR_ENV,
    NetConfig,
    Network,
    describe,
    network_file_name,
    observe,
    save_npz,
    weight_shapes,
)
from tablier.ai.tactics import losing_moves, winning_moves
from tablier.core.errors import TablierError
from tablier.games import from_spec, get

from .aitoys import TreeGame, exact

SPECS = ["xobo", "volo:board=mini", "voldetour"]
SMALL = NetConfig(channels=8, blocks=1)


class TreeActions:
    """A minimal action encoding for the random tree game: move k is id k, no planes."""

    @staticmethod
    def num_actions(game):
        return game.options["branching"]

    @staticmethod
    def encode(state, move):
        return (move.k,)

    @staticmethod
    def decode(state, ids):  # pragma: no cover - not used by the search
        raise NotImplementedError

    @staticmethod
    def observation_shape(game):
        return (1, 1, 1)

    plane_names = ("nothing",)

    @staticmethod
    def observation_planes(state, player, pending):
        return np.zeros((1, 1, 1), dtype=np.float32)

    @staticmethod
    def cell_colours(state):  # pragma: no cover
        return np.zeros((1, 1, 3), dtype=np.uint8)


class EncodedTree(TreeGame):
    @classmethod
    def actions(cls):
        return TreeActions


def flat_network(game) -> Network:
    """Uniform priors and value 0 everywhere: the search alone decides."""
    meta = describe(game, SMALL)
    return Network({k: np.zeros(s, np.float32) for k, s in weight_shapes(meta).items()}, meta)


def test_puct_keeps_values_per_player_to_decide():
    """On random trees where a side decides several times in a row, a search long
    enough to see the whole tree plays a winning move whenever the side to decide
    has a forced win: values are never flipped on the assumption that sides alternate."""
    checked = 0
    for seed in range(16):
        game = EncodedTree(seed=seed, depth=5, branching=3)
        state = game.initial_state()
        me = state.to_move
        if exact(state, me) is None:
            continue
        search = PUCT(game, flat_network(game), PUCTConfig(simulations=4000, c_puct=1.0))
        root = search.root(state)
        search.run(root)
        action = search.pick(root, 0.0)
        after = search.child(root, action).state
        assert exact(after, me) is not None, f"tree {seed}: m{action} throws away a forced win"
        checked += 1
    assert checked >= 8


def test_some_trees_have_non_alternating_turns():
    """The trees of the test above really have turns of several decisions."""
    repeats = 0
    for seed in range(12):
        game = EncodedTree(seed=seed, depth=5, branching=3)
        state = game.initial_state()
        for move in state.legal_moves():
            repeats += state.apply_unchecked(move).to_move == state.to_move
    assert repeats > 0


@pytest.mark.parametrize("spec", SPECS)
def test_priors_cover_exactly_the_legal_ids(spec):
    game = from_spec(spec)
    net = Network.random(game, SMALL, seed=3)
    state = game.initial_state()
    ids = sorted({enc[0] for enc in (game.actions().encode(state, m) for m in state.legal_moves())})
    priors, value = net.evaluate(observe(game, state, ()), ids)
    assert priors.shape == (len(ids),)
    assert abs(float(priors.sum()) - 1) < 1e-5 and (priors > 0).all()
    assert -1 <= value <= 1


@pytest.mark.parametrize("spec", SPECS)
def test_search_completes_moves_of_several_ids(spec):
    """A self-play style walk through the step tree always lands on legal moves."""
    game = from_spec(spec)
    search = PUCT(game, Network.random(game, SMALL, seed=1), PUCTConfig(simulations=6))
    node = search.root(game.initial_state())
    for _ in range(40):
        if node.terminal:
            break
        search.run(node)
        child = search.child(node, search.pick(node, 1.0))
        if not child.pending:
            assert child.state in [node.state.apply_unchecked(m) for m in node.state.legal_moves()]
        node = child


def test_search_takes_a_win_in_one():
    """Whatever the network says, terminal values make the search find a win in one."""
    game = get("volo", board="mini")
    rng = np.random.default_rng(5)
    state = game.initial_state()
    while not winning_moves(state):
        moves = state.legal_moves()
        state = state.apply_unchecked(moves[int(rng.integers(len(moves)))])
        if state.is_terminal:
            state = game.initial_state()
    wins = winning_moves(state)
    search = PUCT(game, Network.random(game, SMALL, seed=2), PUCTConfig(simulations=400))
    node = search.root(state)
    while True:
        search.run(node)
        child = search.child(node, search.pick(node, 0.0))
        if not child.pending:
            break
        node = child
    assert child.state.outcome is not None and child.state.outcome.winner == state.to_move
    assert child.state in [state.apply_unchecked(m) for m in wins]


def test_saved_network_reads_back_identically():
    game = get("xobo")
    net = Network.random(game, SMALL, seed=4)
    buffer = io.BytesIO()
    save_npz(buffer, net.w, net.meta)
    buffer.seek(0)
    again = Network.load(buffer)
    obs = observe(game, game.initial_state(), ())
    a, va = net.forward(obs)
    b, vb = again.forward(obs)
    assert np.allclose(a, b, atol=2e-2) and abs(va - vb) < 2e-2  # float16 storage


def test_a_file_that_is_no_network_is_refused(tmp_path):
    path = tmp_path / "x.npz"
    np.savez(path, meta=np.frombuffer(b'{"format": "other"}', dtype=np.uint8))
    with pytest.raises(TablierError, match="not a Tablier network"):
        Network.load(path)
    (tmp_path / "y.npz").write_bytes(b"garbage")
    with pytest.raises(TablierError, match="cannot read"):
        Network.load(tmp_path / "y.npz")


def test_network_file_names():
    assert network_file_name(get("xobo")) == "xobo.npz"
    assert network_file_name(get("volo", board="mini")) == "volo-mini.npz"
    assert network_file_name(get("voldetour")) == "voldetour.npz"
    with pytest.raises(TablierError, match="no declared variant"):
        network_file_name(get("volo", board="mini", supply=20))


def test_master_without_a_network_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv(NETWORK_DIR_ENV, str(tmp_path))
    with pytest.raises(TablierError, match="no trained network is shipped for volo"):
        make_player("master", get("volo", edition="2010"))
    with pytest.raises(TablierError, match="needs to know its game"):
        make_player("master")
    with pytest.raises(TablierError, match="unknown master setting"):
        save_npz(
            tmp_path / "xobo.npz",
            Network.random(get("xobo"), SMALL).w,
            describe(get("xobo"), SMALL),
        )
        make_player("master:iterations=3", get("xobo"))


def test_master_plays_from_the_network_folder(monkeypatch, tmp_path):
    game = get("volo", board="mini")
    save_npz(tmp_path / "volo-mini.npz", Network.random(game, SMALL).w, describe(game, SMALL))
    monkeypatch.setenv(NETWORK_DIR_ENV, str(tmp_path))
    player = make_player("master:simulations=20,seconds=none", game, seed=1)
    state = game.initial_state()
    for _ in range(6):
        move = player.choose(state)
        assert move in state.legal_moves()
        state = state.apply(move)
    stats = player.analyse(state, top=3)
    assert 1 <= len(stats) <= 3 and all(0 <= s.score <= 1 for s in stats)


def test_a_network_for_another_variant_is_refused(monkeypatch, tmp_path):
    mini = get("volo", board="mini")
    save_npz(tmp_path / "volo.npz", Network.random(mini, SMALL).w, describe(mini, SMALL))
    monkeypatch.setenv(NETWORK_DIR_ENV, str(tmp_path))
    with pytest.raises(TablierError, match="was trained for volo:board=mini"):
        make_player("master", get("volo"))


# Runs in a fresh interpreter where `import torch` fails.
NO_TORCH = """
import sys
sys.modules["torch"] = None
from tablier.cli.main import main
try:
    main(["play", "xobo", "--ai", "master:simulations=8,seconds=none", "--side", "second"],
         standalone_mode=False)
finally:
    assert sys.modules.get("torch") is None, "torch was imported"
print("NO-TORCH-OK")
"""


def test_play_against_master_without_torch(tmp_path):
    game = get("xobo")
    save_npz(tmp_path / "xobo.npz", Network.random(game, SMALL).w, describe(game, SMALL))
    env = dict(os.environ, **{NETWORK_DIR_ENV: str(tmp_path)})
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(NO_TORCH)],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NO-TORCH-OK" in proc.stdout


def test_master_never_hands_a_win_in_one_when_it_can_avoid_it(monkeypatch, tmp_path):
    game = get("xobo")
    save_npz(tmp_path / "xobo.npz", Network.random(game, SMALL).w, describe(game, SMALL))
    monkeypatch.setenv(NETWORK_DIR_ENV, str(tmp_path))
    player = make_player("master:simulations=2,seconds=none", game, seed=3)
    rng = np.random.default_rng(11)
    checked = 0
    state = game.initial_state()
    while checked < 3:
        moves = state.legal_moves()
        bad = set(losing_moves(state))
        if bad and len(bad) < len(moves) and not winning_moves(state):
            assert player.choose(state) not in bad
            checked += 1
        state = state.apply_unchecked(moves[int(rng.integers(len(moves)))])
        if state.is_terminal:
            state = game.initial_state()


def shipped_files():
    from importlib import resources

    folder = resources.files("tablier.ai") / "networks"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".npz"))


def test_every_game_has_a_shipped_network():
    """XoBo, Volo (both boards) and Voldetour: master plays each of them out of the box."""
    assert {"xobo.npz", "volo.npz", "volo-mini.npz", "voldetour.npz"} <= set(shipped_files())


@pytest.mark.parametrize("name", shipped_files())
def test_shipped_networks_load_and_fit_their_game(name, monkeypatch):
    """Each shipped network is under 10 MB, names its game's variant and plays a move."""
    from importlib import resources

    monkeypatch.delenv(NETWORK_DIR_ENV, raising=False)
    path = resources.files("tablier.ai") / "networks" / name
    assert path.stat().st_size < 10 * 2**20
    net = Network.load(path)
    game = from_spec(net.meta["spec"])
    assert network_file_name(game) == name
    assert net.meta["training"]["games"] > 0
    player = make_player("master:simulations=16,seconds=none", game, seed=0)
    state = game.initial_state()
    assert player.choose(state) in state.legal_moves()
