"""The knowledge's ``playout`` hook: used by the search, read by RAVE, None falls back."""

from __future__ import annotations

from tablier.ai.knowledge import Knowledge
from tablier.ai.mcts import MCTS, MCTSConfig

from .aitoys import TreeGame, TreeMove, TreePlayouts

ROOT = TreeGame(seed=3, depth=9, branching=3).initial_state()


def _visits(search: MCTS) -> list[tuple[str, int, float]]:
    return [(str(s.move), s.visits, s.score) for s in search.analysis()]


def test_the_hook_plays_the_playouts() -> None:
    hooks = TreePlayouts()
    search = MCTS(ROOT, seed=5, knowledge=Knowledge.from_module(hooks))
    search.search(iterations=60)
    probe, *calls = hooks.calls
    assert probe[1:] == (0, 0, False, False)  # asked once, zero plies, before searching
    assert len(calls) > 20, "the playouts went through the hook"
    for state, seed, limit, weighted, cutoff in calls:
        assert 0 <= seed < 2**64
        assert (limit, weighted, cutoff) == (MCTSConfig().max_playout, True, False)
        assert state.outcome is None
    assert len({seed for _, seed, *_ in calls}) == len(calls), "a fresh seed per playout"
    again = TreePlayouts()
    repeat = MCTS(ROOT, seed=5, knowledge=Knowledge.from_module(again))
    repeat.search(iterations=60)
    assert _visits(repeat) == _visits(search), "deterministic for a seed"
    assert [c[1] for c in again.calls] == [c[1] for c in hooks.calls]


def test_what_the_hook_played_feeds_rave() -> None:
    everything = [(ROOT.to_move, TreeMove(k)) for k in range(len(ROOT.legal_moves()))]
    hooks = TreePlayouts(report=everything)
    search = MCTS(ROOT, seed=1, knowledge=Knowledge.from_module(hooks))
    search.search(iterations=40)
    playouts = len(hooks.calls) - 1
    assert playouts > 10
    children = search.root.children
    assert children is not None
    for child in children:
        # every playout said it played this move for the root's player: all-moves-as-first
        assert child.an >= playouts, (child.move, child.an, playouts)
    silent = TreePlayouts(report=[])
    plain = MCTS(ROOT, seed=1, knowledge=Knowledge.from_module(silent))
    plain.search(iterations=40)
    assert plain.root.children is not None
    assert sum(c.an for c in plain.root.children) < sum(c.an for c in children)


def test_a_hook_answering_none_falls_back_to_the_search_playouts() -> None:
    off = TreePlayouts(on=False)
    search = MCTS(ROOT, seed=7, knowledge=Knowledge.from_module(off))
    search.search(iterations=60)
    assert len(off.calls) == 1, "asked once; then the search plays its own playouts"
    plain = MCTS(ROOT, seed=7, knowledge=Knowledge())
    plain.search(iterations=60)
    assert _visits(search) == _visits(plain), "the fallback draws nothing more"


def test_a_hook_switched_off_during_the_search_falls_back_each_time() -> None:
    hooks = TreePlayouts()
    search = MCTS(ROOT, seed=2, knowledge=Knowledge.from_module(hooks))
    hooks.on = False
    search.search(iterations=30)
    assert search.root.n >= 30
    assert len(hooks.calls) > 10


def test_the_playout_power_sharpens_the_search_playouts_draws() -> None:
    """``PLAYOUT_POWER``: the search's own weighted playouts draw by the prior to it."""
    from tablier.core.game import Move, State

    def move_prior(state: State, moves: list[Move]) -> list[float]:
        return [2.0 if i == 0 else 1.0 for i in range(len(moves))]  # the first move favoured

    def first_share(power: float) -> float:
        knowledge = Knowledge(move_prior=move_prior, playout_power=power)
        search = MCTS(ROOT, seed=4, knowledge=knowledge)
        played: list = []
        for _ in range(200):
            search._playout(ROOT, played)
        firsts = sum(1 for mover, move in played if move == TreeMove(0))
        return firsts / len(played)

    # two or three moves a node: the favourite gets 2/4 to 2/3 of the draws at power 1,
    # 64/66 to 64/65 at power 6
    assert 0.45 < first_share(1.0) < 0.72
    assert first_share(6.0) > 0.95


def test_a_module_declares_its_playout_power() -> None:
    class Module:
        PLAYOUT_POWER = 3

    assert Knowledge.from_module(Module()).playout_power == 3.0
    assert Knowledge.from_module(object()).playout_power == 1.0
