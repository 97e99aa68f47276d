"""The search's compiled loops over children (``tablier.ai._native``) against the Python ones."""

from __future__ import annotations

import gc
import math
import os
import random

import pytest

from tablier.ai import knowledge, mcts
from tablier.ai.knowledge import _scaled_py
from tablier.ai.mcts import (
    MCTS,
    _amaf,
    _backup_py,
    _best_child_py,
    _children_py,
    _descend_py,
    _Node,
    _proof_py,
)
from tablier.core.native import engine_status, using
from tablier.games import from_spec

from .aitoys import TreeGame, TreeMove, TreeState

native = mcts._native
needs_native = pytest.mark.skipif(
    native is None and os.environ.get("TABLIER_REQUIRE_NATIVE") != "1",
    reason=f"tablier.ai._native not in use: {engine_status('tablier.ai._native')}",
)


def _children(rng: random.Random, count: int) -> list[_Node]:
    children = []
    for k in range(count):
        child = _Node(TreeMove(k), None, rng.randrange(2), rng.choice((1.0, rng.random())))
        child.n = rng.choice((0, rng.randrange(1, 50), rng.randrange(50, 5000)))
        child.w = rng.uniform(0, child.n)
        child.an = rng.choice((0, rng.randrange(1, 3000)))
        child.aw = rng.uniform(0, child.an)
        child.proven = rng.choice((None,) * 12 + (0.0, 0.5, 1.0))
        children.append(child)
    return children


@needs_native
def test_selection_and_proofs_are_the_python_ones() -> None:
    assert native is not None
    rng = random.Random(15)
    for _ in range(3000):
        children = _children(rng, rng.randint(1, 40))
        args = (
            rng.random(),
            math.log(rng.randrange(1, 10**6)),
            rng.choice((0.7, rng.uniform(0, 2))),
            rng.choice((0.0, 1.0, rng.uniform(0, 3))),
            rng.random() < 0.8,
            rng.choice((300.0, rng.uniform(1, 1000))),
            rng.random() < 0.5,
        )
        assert native.select(children, *args) is _best_child_py(children, *args)
        assert native.proof(children) == _proof_py(children)
    for _ in range(500):
        node = _Node(None, None, rng.choice((None, 0, 1)), 1.0)
        node.children = _children(rng, rng.randint(1, 20))
        for child in node.children:
            child.mover = node.children[0].mover
        node.n = rng.choice((0, rng.randrange(1, 10**5)))
        node.w = rng.uniform(0, node.n)
        some = rng.choice((None, node.children[: rng.randint(1, len(node.children))]))
        args = (1.0, rng.random(), rng.random() < 0.5, 300.0, rng.random() < 0.5)
        assert native.descend(node, some, *args) is _descend_py(node, some, *args)
    lost = _children(rng, 5)
    for child in lost:
        child.proven = 0.0
    assert native.select(lost, 0.5, 1.0, 0.7, 1.0, True, 300.0, True) is lost[0]
    assert native.proof(lost) == 0.0 and native.proof([]) is None


@needs_native
@pytest.mark.parametrize("spec", ["volo:board=mini", "voldetour", "tree:seed=4,depth=9"])
def test_a_search_builds_the_same_tree_with_either(spec: str) -> None:
    game = from_spec(spec)
    trees = []
    for compiled in (True, False):
        mcts._switch(compiled)  # the search's loops only: the game's engine stays as it is
        try:
            search = MCTS(game.initial_state(), seed=3)
            search.search(iterations=150)
        finally:
            mcts._switch(True)
        trees.append([(str(s.move), s.visits, s.score, s.proven) for s in search.analysis()])
    assert trees[0] == trees[1]


_SLOTS = ("move", "state", "mover", "prior", "n", "w", "an", "aw", "children", "index", "proven")


def _slots(node: _Node) -> tuple:
    return tuple(getattr(node, name) for name in _SLOTS)


@needs_native
@pytest.mark.parametrize("spec", ["volo:board=mini", "xobo", "tree:seed=7,depth=5"])
def test_children_are_the_python_ones(spec: str) -> None:
    assert native is not None
    game = from_spec(spec)
    rng = random.Random(spec)
    state = game.initial_state()
    for _ in range(40):
        if state.outcome is not None:
            state = game.initial_state()
        moves = state.legal_moves()
        priors = rng.choice((None, [rng.random() for _ in moves]))
        for decisive in (True, False):
            for solver in (True, False):
                args = (state, moves, priors, state.to_move, decisive, solver)
                made = native.children(*args)
                assert [_slots(c) for c in made] == [_slots(c) for c in _children_py(*args)]
                assert not any(gc.is_tracked(child) for child in made), "left to refcounting"
        state = state.apply_unchecked(moves[rng.randrange(len(moves))])


@needs_native
def test_backups_are_the_python_ones() -> None:
    assert native is not None
    rng = random.Random(9)
    game = TreeGame(seed=1, depth=12, branching=4)
    for _ in range(300):
        path, played = [], []
        node = _Node(None, game.initial_state(), None, 1.0)
        for depth in range(rng.randint(1, 6)):
            path.append(node)
            if rng.random() < 0.2 and depth:
                break  # a leaf without children
            node.children = _children(rng, rng.randint(1, 14))
            for child in node.children:
                child.mover = node.state.to_move
                child.state = TreeState(game, (), rng.randrange(2))  # either player next
            node = rng.choice(node.children)
            played.append((node.mover, node.move))
        played += [
            (rng.randrange(2), TreeMove(rng.randrange(16))) for _ in range(rng.randrange(30))
        ]
        twins = [_twin(n) for n in path]
        rave = rng.random() < 0.9
        reward0 = rng.choice((0.0, 0.5, 1.0, rng.random()))
        native.backup(path, played, reward0, rave)
        _backup_py(twins, played, reward0, rave)
        for a, b in zip(path, twins, strict=True):
            assert (a.n, a.w) == (b.n, b.w)
            assert [(c.an, c.aw) for c in a.children or ()] == [
                (c.an, c.aw) for c in b.children or ()
            ]


def _twin(node: _Node) -> _Node:
    """A copy of ``node`` with copies of its children (the path's other nodes shared)."""
    twin = _Node(node.move, node.state, node.mover, node.prior)
    twin.n, twin.w, twin.an, twin.aw = node.n, node.w, node.an, node.aw
    if node.children is not None:
        twin.children = [_twin_leaf(c) for c in node.children]
    return twin


def _twin_leaf(node: _Node) -> _Node:
    twin = _Node(node.move, node.state, node.mover, node.prior)
    twin.n, twin.w, twin.an, twin.aw = node.n, node.w, node.an, node.aw
    return twin


@needs_native
def test_scaled_priors_are_the_python_ones() -> None:
    assert native is not None
    rng = random.Random(5)
    odd = (0, 3, -2, 0.0, -0.0, -1.5, math.nan, math.inf, True, "2.5")
    for _ in range(2000):
        weights = [
            rng.choice((rng.random(), rng.uniform(-1, 1), rng.choice(odd)))
            for _ in range(rng.randint(1, 30))
        ]
        if math.inf in weights:
            continue  # inf / inf: NaN on both sides, which never compare equal
        assert native.scaled(weights) == _scaled_py(weights)
        assert native.scaled(tuple(weights)) == _scaled_py(weights)
    assert native.scaled([0, -1.0, math.nan]) is None
    for bad, error in (([], ValueError), ([1.0, object()], TypeError), (3, TypeError)):
        with pytest.raises(error):
            native.scaled(bad)
        with pytest.raises(error):
            _scaled_py(bad)


@needs_native
def test_using_switches_the_search_loops_too() -> None:
    with using(False):
        assert knowledge._scaled is _scaled_py
        assert mcts._descend is _descend_py and mcts._proof is _proof_py
        assert mcts._children is _children_py and mcts._backup is _backup_py
    assert native is not None
    assert mcts._descend is native.descend and mcts._proof is native.proof
    assert mcts._children is native.children and mcts._backup is native.backup
    assert knowledge._scaled is native.scaled


def test_all_moves_as_first_looks_up_either_way() -> None:
    rng = random.Random(2)
    for played_count in (3, 30):  # fewer played moves than children, then more
        node = _Node(None, TreeGame().initial_state(), None, 1.0)
        node.children = _children(rng, 12)
        played = [(rng.randrange(2), TreeMove(rng.randrange(15))) for _ in range(played_count)]
        first: dict = {}
        for i in range(len(played) - 1, -1, -1):
            first[played[i]] = i
        before = [(c.an, c.aw) for c in node.children]
        _amaf(node, 1, first, (0.25, 0.75))
        for child, (an, aw) in zip(node.children, before, strict=True):
            seen = first.get((0, child.move))  # the tree game's root: player 0 to move
            hit = seen is not None and seen >= 1
            assert (child.an, child.aw) == ((an + 1, aw + 0.25) if hit else (an, aw))


@needs_native
def test_bad_input_raises_instead_of_crashing() -> None:
    assert native is not None
    good = _children(random.Random(1), 3)
    args = (0.5, 1.0, 0.7, 1.0, True, 300.0, False)
    with pytest.raises(TypeError):
        native.select(tuple(good), *args)
    with pytest.raises(TypeError):
        native.select([*good, object()], *args)
    with pytest.raises(TypeError):
        native.select(good, *args[:-1])
    with pytest.raises(TypeError):
        native.select(good, "half", *args[1:])
    with pytest.raises(ValueError):
        native.select([], *args)
    with pytest.raises(TypeError):
        native.proof(None)
    with pytest.raises(TypeError):
        native.descend(good[0], None, 1.0, 1.0, True, 300.0, False)  # no children yet
    with pytest.raises(TypeError):
        native.descend("node", None, 1.0, 1.0, True, 300.0, False)
    bare = _Node(None, None, None, 1.0)
    bare.children = []
    with pytest.raises(ValueError):
        native.descend(bare, None, 1.0, 1.0, True, 300.0, False)
    state = TreeGame().initial_state()
    moves = state.legal_moves()
    with pytest.raises(TypeError):
        native.children(state, tuple(moves), None, 0, True, True)
    with pytest.raises(ValueError):
        native.children(state, moves, [1.0], 0, True, True)
    with pytest.raises(TypeError):
        native.children(state, moves, None, 0, True)
    with pytest.raises(AttributeError):
        native.children(object(), moves, None, 0, True, True)  # no apply_unchecked
    with pytest.raises(TypeError):
        native.backup([*good, "node"], [], 0.5, True)
    with pytest.raises(TypeError):
        native.backup(good, [(0, TreeMove(1), "extra")], 0.5, True)
    with pytest.raises(ValueError):
        native.backup(good, [(2, TreeMove(1))], 0.5, True)
    with pytest.raises(TypeError):
        native.backup(good, [], "half", True)
    good[1].w = "much"  # type: ignore[assignment]
    good[1].n = 5  # a visited child: its w is read
    good[1].proven = None
    with pytest.raises(TypeError):
        native.select(good, *args)
    with pytest.raises(TypeError):
        native.bind(42)

    class Slotless:
        pass

    with pytest.raises(TypeError):
        native.bind(Slotless)
    assert native.select(_children(random.Random(1), 2), *args) is not None  # still bound


def test_a_tree_let_go_is_freed_without_the_garbage_collector() -> None:
    # the compiled expansion keeps nodes out of the collector's watch, which is only
    # sound while a tree holds no reference cycle: checked here on Python-made nodes
    def nodes() -> int:
        return sum(isinstance(o, _Node) for o in gc.get_objects())

    gc.collect()
    before = nodes()
    enabled = gc.isenabled()
    gc.disable()
    try:
        with using(False):
            search = MCTS(from_spec("volo:board=mini").initial_state(), seed=2)
            search.search(iterations=100)
            assert nodes() > before + 100
            del search
        assert nodes() == before, "every node freed by reference counting"
    finally:
        if enabled:
            gc.enable()
