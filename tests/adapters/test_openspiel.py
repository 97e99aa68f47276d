"""The OpenSpiel games: registration, parameters, OpenSpiel's random-simulation test, MCTS."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from tablier.adapters import actions_for  # noqa: E402
from tablier.adapters.openspiel import game_parameters, register_all  # noqa: E402
from tablier.games import get, names  # noqa: E402

from .helpers import CASES  # noqa: E402


def test_every_game_is_registered() -> None:
    shorts = register_all()
    assert shorts == [f"tablier_{n}" for n in names()]
    registered = set(pyspiel.registered_names())
    assert set(shorts) <= registered
    assert game_parameters("volo") == {
        "board": "standard",
        "edition": "current",
        "setup": "nests",
        "supply": 0,
    }


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_random_simulation(name, opts) -> None:
    game = pyspiel.load_game(f"tablier_{name}", dict(opts))
    tablier = get(name, **opts)
    assert game.num_distinct_actions() == actions_for(tablier).num_actions(tablier)
    assert tuple(game.observation_tensor_shape()) == actions_for(tablier).observation_shape(tablier)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_load_game_by_string_and_options() -> None:
    game = pyspiel.load_game("tablier_volo(board=mini,supply=12)")
    state = game.new_initial_state()
    assert state.tablier_state.game == get("volo", board="mini", supply=12)
    assert game.num_distinct_actions() == 2 * 84 + 1
    default = pyspiel.load_game("tablier_voldetour")
    assert default.new_initial_state().tablier_state.game == get("voldetour")
    with pytest.raises(Exception, match="board"):
        pyspiel.load_game("tablier_volo(board=huge)")


def test_steps_play_the_same_moves_as_tablier() -> None:
    game = pyspiel.load_game("tablier_volo", {"board": "mini"})
    tablier = get("volo", board="mini")
    codec = actions_for(tablier)
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    reference = tablier.initial_state()
    while not state.is_terminal():
        moves = reference.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        for i, step in enumerate(codec.encode(reference, move)):
            assert state.current_player() == reference.to_move
            assert step in state.legal_actions()
            text = state.action_to_string(state.current_player(), step)
            state.apply_action(step)
            if i + 1 == len(codec.encode(reference, move)):
                assert text == str(move)
        reference = reference.apply(move)
        assert state.tablier_state == reference and state.pending == ()
    outcome = reference.outcome
    assert state.returns() == (
        [0.0, 0.0]
        if outcome.winner is None
        else ([1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0])
    )


def test_observation_tensor_is_the_planes() -> None:
    game = pyspiel.load_game("tablier_xobo")
    state = game.new_initial_state()
    state.apply_action(40)  # e5
    tablier = state.tablier_state
    codec = actions_for(tablier.game)
    for player in (0, 1):
        got = np.asarray(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(got, codec.observation_planes(tablier, player, ()).ravel())
    assert "xobo:" in state.observation_string(0)


def test_clone_is_independent() -> None:
    game = pyspiel.load_game("tablier_voldetour", {"pieces": "mini"})
    state = game.new_initial_state()
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy.history() == [] and state.history() != []
    assert copy.tablier_state == get("voldetour", pieces="mini").initial_state()


@pytest.mark.parametrize(
    ("name", "params", "limit"),
    [
        ("xobo", {}, None),
        ("voldetour", {"pieces": "mini", "max_turns": 12}, None),
        ("volo", {"board": "mini"}, 12),
    ],
)
def test_mcts_bot_plays(name, params, limit) -> None:
    game = pyspiel.load_game(f"tablier_{name}", params)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and (limit is None or played < limit):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1
    if limit is None:
        assert state.is_terminal() and sum(state.returns()) == 0.0
    else:
        assert played == limit


def test_parameters_for_and_load() -> None:
    from tablier.adapters.openspiel import load, parameters_for

    tablier = get("voldetour", pieces="mini", repetition=True, max_turns=30)
    assert parameters_for(tablier) == {"pieces": "mini", "repetition": True, "max_turns": 30}
    assert parameters_for(get("volo")) == {
        "board": "standard",
        "edition": "current",
        "setup": "nests",
        "supply": 60,
    }
    game = load(tablier)
    assert game.new_initial_state().tablier_state.game == tablier
