"""MCTS: forced wins found, losses in one avoided, proofs, determinism, tree reuse."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tablier.ai.mcts import MCTS, MCTSConfig, _best_child_py, _Node
from tablier.ai.solver import Solver
from tablier.core.errors import GameOverError, TablierError
from tablier.games import get

from .aitoys import TreeGame, exact


@pytest.fixture(scope="module")
def mini():
    return get("volo", board="mini")


def _winning_first_moves(state, depth):
    solver = Solver()
    me = state.to_move
    return {m for m in state.legal_moves() if solver.wins(state.apply_unchecked(m), me, depth - 1)}


def _tree_positions(min_plies, max_plies, count):
    """Roots of random trees where the side to move forces a win in exactly that range."""
    found = []
    seed = 0
    while len(found) < count:
        state = TreeGame(seed=seed, depth=7, branching=3).initial_state()
        d = exact(state, state.to_move)
        if d is not None and min_plies <= d <= max_plies and len(state.legal_moves()) > 1:
            winners = _winning_first_moves(state, d)
            if len(winners) < len(state.legal_moves()):
                found.append((state, d, winners))
        seed += 1
    return found


def test_forced_wins_in_one_and_two_decisions_are_found():
    for state, depth, winners in _tree_positions(1, 2, 6):
        search = MCTS(state, seed=1)
        move = search.search(iterations=300)
        assert move in winners, (state.to_text(), depth)


def test_deeper_forced_wins_are_proven_by_the_solver_backups():
    for state, _depth, winners in _tree_positions(3, 5, 5):
        search = MCTS(state, seed=2)
        move = search.search(iterations=3000)
        assert move in winners
        assert search.root.proven == 1.0
        assert search.analysis(1)[0].proven == "win"


def test_proven_loss_is_reported_and_search_stops():
    seed = 0
    while True:
        state = TreeGame(seed=seed, depth=5, branching=2).initial_state()
        if exact(state, 1 - state.to_move) is not None and len(state.legal_moves()) > 1:
            break
        seed += 1
    search = MCTS(state, seed=0)
    search.search(iterations=5000)
    assert search.root.proven == 0.0
    assert all(s.proven == "loss" for s in search.analysis())
    assert search.iterations < 5000


def test_volo_win_in_one_found_by_search_alone(mini):
    state = mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    search = MCTS(state, seed=0)
    move = search.search(iterations=5)
    assert str(move) in ("e9-e7", "e5:e6-e7")
    assert state.apply(move).outcome.winner == 0


def test_volo_handing_over_a_win_is_avoided_by_search(mini):
    state = mini.position(["e8", "g8", "b2"], ["e5", "e6", "e9"], to_move=0)
    search = MCTS(state, seed=0)
    search.search(iterations=400)
    stats = {str(s.move): s for s in search.analysis()}
    assert stats["e8-f8"].proven == "loss"
    assert str(search.best_move()) != "e8-f8"


def test_deterministic_for_seed_and_iterations(mini):
    state = mini.initial_state()
    runs = []
    for _ in range(2):
        search = MCTS(state, seed=7)
        move = search.search(iterations=60)
        runs.append((move, [(str(s.move), s.visits, s.score) for s in search.analysis()]))
    assert runs[0] == runs[1]
    other = MCTS(state, seed=8)
    other.search(iterations=60)
    assert [(str(s.move), s.visits) for s in other.analysis()] != [(m, v) for m, v, _ in runs[0][1]]


def test_tree_reuse_keeps_the_subtree(mini):
    state = mini.initial_state()
    search = MCTS(state, seed=3)
    move = search.search(iterations=120)
    child = next(c for c in search.root.children if c.move == move)
    visits = child.n
    after = state.apply(move)
    reply = after.legal_moves()[0]
    # One decision later the node is found; two decisions later too when it was expanded.
    assert search.advance(after)
    assert search.root.n == visits and search.state == after
    search.search(iterations=10)
    assert search.advance(after.apply(reply)) in (True, False)
    assert search.state == after.apply(reply)
    elsewhere = mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    assert not search.advance(elsewhere)
    assert search.state == elsewhere and search.root.n == 0


def test_multi_decision_turns_back_up_for_the_decider():
    # In the tree game the same player often decides twice; the reward of a node is
    # for the player who made its move, which the proofs check against the reference.
    for seed in range(30):
        state = TreeGame(seed=seed, depth=5, branching=3).initial_state()
        search = MCTS(state, seed=seed)
        search.search(iterations=4000)
        me = state.to_move
        if search.root.proven == 1.0:
            assert exact(state, me) is not None
        elif search.root.proven == 0.0:
            assert exact(state, 1 - me) is not None


def test_every_option_off_still_searches(mini):
    config = MCTSConfig(rave=False, solver=False, decisive=False, cutoff=False, prior_bias=0.0)
    state = mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    search = MCTS(state, seed=0, config=config)
    assert search.search(iterations=3) in state.legal_moves()


def test_bad_budgets_and_finished_games(mini):
    search = MCTS(mini.initial_state())
    with pytest.raises(TablierError, match="budget"):
        search.search()
    with pytest.raises(TablierError, match="iteration"):
        search.search(iterations=0)
    with pytest.raises(TablierError, match="time"):
        search.search(seconds=-1)
    state = mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    won = state.apply(mini.parse_move(state, "e9-e7"))
    with pytest.raises(GameOverError):
        MCTS(won).search(iterations=5)


def test_time_budget_and_progress(mini):
    seen = []
    search = MCTS(mini.initial_state(), seed=0)
    search.search(seconds=0.3, progress=seen.append, progress_every=0.05)
    assert seen and seen[-1].fraction == 1.0
    assert seen[-1].iterations == search.iterations > 0
    assert seen[-1].best is not None


def _ranked_knowledge():
    """Uniform priors and playouts, and a turn prior that prefers the higher move numbers."""
    from tablier.ai.knowledge import Knowledge

    return Knowledge(turn_prior=lambda state, moves: [1.0 + m.k for m in moves])


def _nodes(node):
    """Every expanded node below ``node`` (included), with its state."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.children is not None:
            yield n
            stack.extend(c for c in n.children if c.children is not None)


def _wide_root(branching=8):
    """A tree game root with ``branching`` moves, none of them ending the game."""
    for seed in range(200):
        state = TreeGame(seed=seed, depth=6, branching=branching).initial_state()
        moves = state.legal_moves()
        if len(moves) == branching and all(state.apply(m).outcome is None for m in moves):
            return state
    raise AssertionError("no such tree")


def test_a_turn_prior_ranks_and_widens_the_turn_searched_for():
    state = _wide_root()
    turn = state.to_move
    search = MCTS(state, seed=1, knowledge=_ranked_knowledge())
    search.search(iterations=30)
    root = search.root
    # ranked best first; with few visits only the first widen_first children are searched
    assert root.ranked
    assert [c.move.k for c in root.children] == list(range(7, -1, -1))
    assert root.children[0].prior == 1.0
    visited = {c.move.k for c in root.children if c.n}
    assert visited <= {7, 6, 5, 4, 3}
    search.search(iterations=3000)
    own = [n for n in _nodes(root) if n.ranked]
    # ranked: the nodes where the searched player decides, reached by their decisions alone
    for node in _nodes(root):
        if node is root:
            continue
        if node.state.to_move != turn:
            assert not node.ranked
    assert len(own) >= 2  # the root, and a node of the same turn (the player decides again)
    for node in own:
        # best prior first (a child proven a win at once comes before; one proven later
        # by the search stays where it was: it was reached, so it was within the width)
        priors = [c.prior for c in node.children if c.proven != 1.0]
        assert priors == sorted(priors, reverse=True)


def test_ranked_children_are_searched_more_widely_as_visits_grow(mini):
    import dataclasses

    from tablier.ai.knowledge import knowledge_for

    def turn_prior(state, moves):
        """The legal order: the first legal moves are best."""
        order = {move: i for i, move in enumerate(state.legal_moves())}
        return [float(len(order) - order[move]) for move in moves]

    knowledge = dataclasses.replace(knowledge_for(mini), turn_prior=turn_prior)
    state = mini.initial_state()
    search = MCTS(state, seed=1, knowledge=knowledge)
    assert search._width(40) == 5 and search._width(53) == 6 and search._width(2000) >= 18
    for budget in (40, 400, 2000):
        search.search(iterations=budget)
        root = search.root
        assert [c.move for c in root.children] == state.legal_moves()
        width = search._width(root.n)
        visited = [i for i, c in enumerate(root.children) if c.n]
        assert visited and max(visited) < width  # never beyond the width
        assert len(visited) >= min(width, len(root.children)) - 1
    assert len(visited) > 15


def test_without_the_turn_prior_nothing_is_ranked():
    state = _wide_root()
    search = MCTS(state, seed=1, knowledge=_ranked_knowledge(), config=MCTSConfig(turn_prior=False))
    search.search(iterations=30)
    assert not any(n.ranked for n in _nodes(search.root))
    assert [c.move.k for c in search.root.children] == list(range(8))
    assert len([c for c in search.root.children if c.n]) == 8  # all tried at once


def test_a_kept_tree_is_ranked_when_its_turn_comes():
    # The opponent's nodes searched while it was not their turn get ranked once the
    # tree is re-rooted on them (their children were made with the cheap prior).
    state = _wide_root()
    search = MCTS(state, seed=2, knowledge=_ranked_knowledge())
    search.search(iterations=2000)
    turn = state.to_move
    target = next(
        n for n in _nodes(search.root) if n.state.to_move != turn and n.children and not n.ranked
    )
    assert search.advance(target.state)
    assert not search.root.ranked
    search.search(iterations=1)
    assert search.root.ranked
    keys = [c.prior for c in search.root.children]
    assert keys == sorted(keys, reverse=True)


def _keyed(path_key):
    """The tree game's knowledge with a ``position_key`` (the path, as it names positions)."""
    from tablier.ai.knowledge import Knowledge

    return Knowledge(position_key=path_key)


def test_a_position_already_played_scores_a_draw_with_repeat_draw():
    state = _wide_root()
    first = state.legal_moves()[0]
    seen = (first.k,)
    config = MCTSConfig(repeat_draw=True)
    search = MCTS(state, seed=1, config=config, knowledge=_keyed(lambda s: s.path))
    search.history = {seen}
    search.search(iterations=400)
    stats = {s.move: s for s in search.analysis()}
    # every simulation through it stops there with a draw, whatever lies below
    assert stats[first].visits > 0
    assert stats[first].score == 0.5
    assert search.root.children is not None
    node = next(c for c in search.root.children if c.move == first)
    assert node.children is None
    assert any(s.score != 0.5 for m, s in stats.items() if m != first)
    # off, or with no key from the game, the same move is searched as any other
    for plain_config, knowledge in (
        (MCTSConfig(), _keyed(lambda s: s.path)),
        (config, _keyed(None)),
    ):
        plain = MCTS(state, seed=1, config=plain_config, knowledge=knowledge)
        plain.history = {seen}
        plain.search(iterations=400)
        node = next(c for c in plain.root.children if c.move == first)
        assert node.n == 0 or node.children is not None


def test_the_root_and_positions_without_a_key_are_never_repetitions():
    state = _wide_root()
    config = MCTSConfig(repeat_draw=True)
    for key in (lambda s: s.path, lambda s: None):
        # the root is in the history (its player adds it); a position keyed None is no key
        search = MCTS(state, seed=1, config=config, knowledge=_keyed(key))
        search.history = {(), None}
        search.search(iterations=300)
        assert any(c.children for c in search.root.children or ())


def test_a_contempt_makes_a_repetition_worse_than_a_draw_for_the_player_searching():
    state = _wide_root()
    first = state.legal_moves()[0]
    config = MCTSConfig(repeat_draw=True, repeat_contempt=0.2)
    search = MCTS(state, seed=1, config=config, knowledge=_keyed(lambda s: s.path))
    search.history = {(first.k,)}
    search.search(iterations=400)
    stats = {s.move: s for s in search.analysis()}
    assert stats[first].visits > 0
    assert stats[first].score == pytest.approx(0.3)  # the searcher's view: 0.5 - 0.2
    for bad in (-0.1, 0.6, float("nan")):
        with pytest.raises(TablierError, match="repeat_contempt"):
            MCTSConfig(repeat_contempt=bad)


def _child(mean: float, visits: int) -> _Node:
    child = _Node(object(), None, 0, 0.0)
    child.n, child.w = visits, mean * visits
    return child


def test_stretched_means_follow_the_better_child_where_values_bunch():
    # a won race: both means near 1, the better one visited more; exploration 0.7 would
    # follow the other (its bonus outweighs 0.03 of mean), stretched it follows the better
    better, other = _child(0.97, 600), _child(0.94, 200)
    args = (0.5, math.log(801), 0.7, 0.0, False, 300.0)
    assert _best_child_py([better, other], *args) is other
    assert _best_child_py([better, other], *args, True) is better
    # means all alike are left as they are; a proven loss is neither followed nor counted
    same = [_child(0.9, 10), _child(0.9, 5)]
    assert _best_child_py(same, *args, True) is _best_child_py(same, *args)
    lost = _child(0.0, 50)
    lost.proven = 0.0
    assert _best_child_py([lost, better, other], *args, True) is better


def test_stretched_means_are_the_games_choice_where_the_config_leaves_it(mini):
    from tablier.ai.knowledge import Knowledge, knowledge_for

    # Voldétour says yes, Volo and XoBo no; an explicit True or False wins over the game
    assert knowledge_for(get("voldetour")).normalize is True
    assert knowledge_for(mini).normalize is False and knowledge_for(get("xobo")).normalize is False
    start = mini.initial_state()
    says_yes = replace(knowledge_for(mini), normalize=True)
    for config, knowledge, stretched in [
        (MCTSConfig(normalize=None), None, False),
        (MCTSConfig(normalize=None), says_yes, True),
        (MCTSConfig(normalize=False), says_yes, False),
        (MCTSConfig(normalize=True), Knowledge(), True),
    ]:
        assert MCTS(start, config=config, knowledge=knowledge)._normalize is stretched


def test_stretched_means_search_to_the_same_wins(mini):
    config = MCTSConfig(normalize=True)
    for state, _depth, winners in _tree_positions(1, 3, 4):
        assert MCTS(state, seed=1, config=config).search(iterations=1000) in winners
    start = mini.initial_state()
    assert MCTS(start, seed=1, config=config).search(iterations=200) in start.legal_moves()
