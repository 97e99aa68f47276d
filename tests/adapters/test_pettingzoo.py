"""The PettingZoo AEC environments: PettingZoo's own tests, rewards, steps, rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tablier.adapters import actions_for
from tablier.adapters.pettingzoo import env, raw_env
from tablier.core.errors import IllegalMoveError, InvalidMoveError, TablierError
from tablier.games import get

from .helpers import CASES

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_pettingzoo_api_test(name, opts) -> None:
    api_test(env(name, **opts), num_cycles=150)


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_pettingzoo_seed_test(name, opts) -> None:
    seed_test(lambda render_mode=None: env(name, render_mode=render_mode, **opts), num_cycles=60)


def _play_random(e, seed: int, limit: int = 4000, finals: dict | None = None) -> list[str]:
    """Play masked random actions to the end; the agents who acted, in order.

    ``finals`` receives each agent's reward as it sees it once the game is over.
    """
    rng = np.random.default_rng(seed)
    acted = []
    for agent in e.agent_iter(limit):
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            if finals is not None:
                finals[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        acted.append(agent)
        e.step(int(rng.choice(legal)))
    return acted


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_random_games_end_with_outcome_rewards(name, opts) -> None:
    e = env(name, **opts)
    for seed in range(2):
        e.reset(seed=seed)
        finals: dict[str, float] = {}
        _play_random(e, seed, finals=finals)
        inner = e.unwrapped
        outcome = inner.state.outcome
        assert outcome is not None
        expected = {"player_0": 0, "player_1": 0}
        if outcome.winner is not None:
            expected[f"player_{outcome.winner}"] = 1
            expected[f"player_{1 - outcome.winner}"] = -1
        assert finals == expected
        assert inner.agents == []  # both agents are done


def test_agent_to_act_is_the_player_to_move_and_repeats() -> None:
    # Voldetour turns are several decisions of the same player; Volo flights several steps.
    for name, opts in (("voldetour", {"pieces": "mini"}), ("volo", {"board": "mini"})):
        e = raw_env(name, **opts)
        e.reset(seed=0)
        rng = np.random.default_rng(1)
        repeats = 0
        previous = None
        while not e.state.is_terminal:
            agent = e.agent_selection
            assert agent == f"player_{e.state.to_move}"
            obs = e.observe(agent)
            other = e.observe("player_1" if agent == "player_0" else "player_0")
            assert other["action_mask"].sum() == 0
            repeats += agent == previous
            previous = agent
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert repeats > 0


def test_pending_steps_show_in_the_observation() -> None:
    e = raw_env("volo", board="mini")
    game = e.game
    e.state = game.position(["b2", "c2", "f2"], ["j6", "f10", "h9"], to_move=0)
    move = game.parse_move(e.state, "b2:c2-d2")
    steps = actions_for(game).encode(e.state, move)
    e.agent_selection = "player_0"
    before = e.observe("player_0")["observation"]
    e.step(steps[0])
    assert e.agent_selection == "player_0" and e.pending == steps[:1]
    during = e.observe("player_0")
    assert not np.array_equal(before, during["observation"])
    assert during["action_mask"][steps[1]] == 1
    e.step(steps[1])
    e.step(steps[2])
    assert e.pending == () and e.agent_selection == "player_1"
    assert e.state == game.position(["b2", "c2", "f2"], ["j6", "f10", "h9"]).apply(move)
    assert str(e.last_move) == "b2:c2-d2"


def test_illegal_and_invalid_actions_raise_and_change_nothing() -> None:
    e = raw_env("xobo")
    e.reset()
    before = e.state
    with pytest.raises(IllegalMoveError):
        e.step(81)  # a stacking, impossible at the start
    with pytest.raises(InvalidMoveError):
        e.step(-1)
    with pytest.raises(InvalidMoveError):
        e.step(e.stepper.num_actions)
    assert e.state is before and e.agent_selection == "player_0"


def test_render_modes() -> None:
    e = raw_env("volo", board="mini", render_mode="ansi")
    e.reset()
    text = e.render()
    assert isinstance(text, str) and "Orange" in text and "Blue" in text
    e = raw_env("xobo", render_mode="rgb_array")
    e.reset()
    e.step(40)  # e5
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.shape == (144, 144, 3)
    centre = picture[4 * 16 + 8, 4 * 16 + 8]
    corner = picture[8, 8]
    assert tuple(centre) != tuple(corner)  # the cube on e5 is drawn
    assert raw_env("xobo").render() is None


def test_truncation_and_bad_arguments() -> None:
    e = env("volo", board="mini", max_steps=5)
    e.reset(seed=0)
    finals: dict[str, float] = {}
    acted = _play_random(e, 0, finals=finals)
    assert len(acted) == 5
    assert finals == {"player_0": 0, "player_1": 0}
    with pytest.raises(TablierError, match="render_mode"):
        raw_env("xobo", render_mode="human")
    with pytest.raises(TablierError, match="max_steps"):
        raw_env("xobo", max_steps=0)
    with pytest.raises(TablierError):
        raw_env("chess")
    with pytest.raises(TablierError):
        raw_env("volo", board="huge")


def test_observation_is_from_the_observer_side() -> None:
    e = raw_env("xobo")
    e.reset()
    e.step(40)
    mine = e.observe("player_0")["observation"]
    theirs = e.observe("player_1")["observation"]
    codec = actions_for(get("xobo"))
    assert np.array_equal(mine, codec.observation_planes(e.state, 0, ()))
    assert np.array_equal(mine[:, :, 3], theirs[:, :, 4])
