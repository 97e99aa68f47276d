"""The search's compiled loops over children (``tablier.ai._native``) against the Python ones."""

from __future__ import annotations

import gc
import math
import os
import random

import pytest

from tablier.ai import mcts
from tablier.ai.mcts import MCTS, _best_child_py, _Node, _proof_py
from tablier.core.native import engine_status, using
from tablier.games import from_spec

from .aitoys import TreeGame, TreeMove

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
        )
        assert native.select(children, *args) is _best_child_py(children, *args)
        assert native.proof(children) == _proof_py(children)
    lost = _children(rng, 5)
    for child in lost:
        child.proven = 0.0
    assert native.select(lost, 0.5, 1.0, 0.7, 1.0, True, 300.0) is lost[0]
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


@needs_native
def test_nodes_are_left_to_reference_counting() -> None:
    nodes = _children(random.Random(3), 4)
    assert native is not None and all(gc.is_tracked(node) for node in nodes)
    native.untrack(nodes)
    assert not any(gc.is_tracked(node) for node in nodes)
    search = MCTS(from_spec("tree:seed=4,depth=9").initial_state(), seed=1)
    search.search(iterations=50)
    assert search.root.children is not None
    assert not any(gc.is_tracked(child) for child in search.root.children)


@needs_native
def test_using_switches_the_search_loops_too() -> None:
    with using(False):
        assert mcts._best_child is _best_child_py and mcts._proof is _proof_py
    assert native is not None
    assert mcts._best_child is native.select and mcts._proof is native.proof


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
        MCTS._amaf(node, 1, first, (0.25, 0.75))
        for child, (an, aw) in zip(node.children, before, strict=True):
            seen = first.get((0, child.move))  # the tree game's root: player 0 to move
            hit = seen is not None and seen >= 1
            assert (child.an, child.aw) == ((an + 1, aw + 0.25) if hit else (an, aw))


@needs_native
def test_bad_input_raises_instead_of_crashing() -> None:
    assert native is not None
    good = _children(random.Random(1), 3)
    args = (0.5, 1.0, 0.7, 1.0, True, 300.0)
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
        native.untrack([*good, "node"])
    good[1].w = "much"  # type: ignore[assignment]
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
