"""The ``threat_turn`` step of a level, through the protocol alone (a random tree game)."""

from __future__ import annotations

import time
import types

from tablier.ai.knowledge import knowledge_for
from tablier.ai.players import make_player
from tablier.ai.tactics import losing_moves, winning_moves

from .aitoys import TreeGame

_SPEC = "mcts:iterations=3000,seconds=none,threat_turn_nodes=1"


def _threat_game(pick: int):
    """The tree game whose ``threat_turn`` hook answers the legal move ``pick`` (a stand-in
    for a game's threats: the step's part is only to play what the hook answers)."""
    asked = []

    def threat_turn(state, nodes, seconds, stop=None):
        asked.append(nodes)
        moves = state.legal_moves()
        return [moves[pick % len(moves)]]

    class Threats(TreeGame):
        name = "tree-threats"

        @classmethod
        def knowledge(cls) -> object:
            return types.SimpleNamespace(threat_turn=threat_turn)

    return Threats, asked


def test_the_hook_is_read_and_its_move_played():
    Threats, asked = _threat_game(pick=1)
    assert knowledge_for(Threats(seed=0)).threat_turn is not None
    played = 0
    for seed in range(30):
        state = Threats(seed=seed, depth=8).initial_state()
        moves = state.legal_moves()
        if len(moves) < 2 or winning_moves(state):
            continue
        player = make_player(_SPEC)
        move = player.choose(state)
        analysis = player.last_analysis
        proven = {stat.move: stat.proven for stat in analysis}
        if moves[1] in losing_moves(state):
            assert move != moves[1]  # the tactical filter comes first
        elif analysis[0].proven == "win":
            assert move == analysis[0].move  # a proved win beats a threat
        elif proven.get(moves[1]) == "loss" and analysis[0].proven != "loss":
            assert move != moves[1]  # so does a move the search did not prove lost
        else:
            assert move == moves[1]
            played += 1
    assert played >= 5 and asked and set(asked) == {1}


def test_a_proved_win_is_played_rather_than_the_threat():
    Threats, _ = _threat_game(pick=0)
    proved = 0
    for seed in range(200):
        state = Threats(seed=seed, depth=6).initial_state()
        if winning_moves(state):
            continue
        player = make_player(_SPEC)
        move = player.choose(state)
        best = player.last_analysis[0]
        if best.proven == "win" and best.move != state.legal_moves()[0]:
            assert move == best.move
            proved += 1
        if proved >= 3:
            break
    assert proved >= 3


def test_off_by_default_below_hard():
    Threats, asked = _threat_game(pick=1)
    state = Threats(seed=3, depth=8).initial_state()
    make_player("mcts:iterations=50,seconds=none").choose(state)
    assert asked == []


def test_the_deeper_proofs_and_the_threat_stop_by_the_wall_clock():
    """A timed level hands the ``forced_win`` and ``threat_turn`` hooks a ``stop`` that
    answers True from half and 60% of its budget on: CPU time alone would let a starved
    process run them for seconds."""
    stops = {}

    def forced_win(state, nodes, seconds, stop=None):
        stops["forced_win"] = (stop, stop())
        return None

    def threat_turn(state, nodes, seconds, stop=None):
        stops["threat_turn"] = (stop, stop())
        return None

    class Hooks(TreeGame):
        name = "tree-hooks"

        @classmethod
        def knowledge(cls) -> object:
            return types.SimpleNamespace(forced_win=forced_win, threat_turn=threat_turn)

    for seed in range(50):
        state = Hooks(seed=seed, depth=8).initial_state()
        if len(state.legal_moves()) > 1 and not winning_moves(state):
            break
    player = make_player("hard:seconds=1,solver_nodes=1", Hooks(seed=seed, depth=8))
    player.choose(state)
    time.sleep(0.6)  # past 60% of the budget since the decision began, whatever it took
    assert set(stops) == {"forced_win", "threat_turn"}
    for stop, early in stops.values():
        assert early is False and stop() is True
