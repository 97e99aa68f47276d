"""The Gymnasium single-agent environment against Tablier players."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tablier.adapters.gymnasium import SingleAgentEnv
from tablier.core.errors import IllegalMoveError, TablierError

from .helpers import CASES

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_check_env(name, opts) -> None:
    check_env(SingleAgentEnv(name, opponent="random", **opts), skip_render_check=True)


@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_check_env_with_rendering(render_mode) -> None:
    check_env(SingleAgentEnv("xobo", agent_plays="second", render_mode=render_mode))


def _episode(env, seed: int) -> tuple[float, dict, int]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0 and info["to_move"] == env.me
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info, steps


@pytest.mark.parametrize(
    ("name", "opts", "opponent", "side"),
    [
        ("volo", {"board": "mini"}, "greedy", "first"),
        ("xobo", {}, "random", "second"),
        ("voldetour", {"pieces": "mini"}, "random", "second"),
        ("xobo", {}, "easy:iterations=10,seconds=none", "first"),
    ],
)
def test_episodes_against_players(name, opts, opponent, side) -> None:
    env = SingleAgentEnv(name, opponent=opponent, agent_plays=side, **opts)
    for seed in range(2):
        total, info, _ = _episode(env, seed)
        outcome = env.state.outcome
        assert outcome is not None and info["result"] == outcome.result
        expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == env.me else -1.0)
        assert total == expected


def test_same_seed_same_episode() -> None:
    env = SingleAgentEnv("volo", opponent="random", agent_plays="second", board="mini")
    first = _episode(env, 4)
    moves_a = env.state
    second = _episode(env, 4)
    assert first[0] == second[0] and first[2] == second[2] and env.state == moves_a


def test_agent_plays_second_starts_after_the_opponent() -> None:
    env = SingleAgentEnv("xobo", agent_plays="second")
    obs, info = env.reset(seed=0)
    assert info["to_move"] == 1 and "last_move" in info
    assert env.state.to_move == 1
    assert obs["observation"][0, 0, 9] == 0.0  # not the first player


def test_illegal_actions() -> None:
    env = SingleAgentEnv("xobo")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(81)  # no stack at the start
    assert reward == -1.0 and terminated and "not legal" in info["illegal_action"]
    strict = SingleAgentEnv("xobo", illegal_action="raise")
    strict.reset(seed=0)
    before = strict.state
    with pytest.raises(IllegalMoveError):
        strict.step(81)
    assert strict.state is before


def test_bad_arguments() -> None:
    with pytest.raises(TablierError):
        SingleAgentEnv("xobo", opponent="grandmaster")
    with pytest.raises(TablierError, match="agent_plays"):
        SingleAgentEnv("xobo", agent_plays="third")
    with pytest.raises(TablierError, match="illegal_action"):
        SingleAgentEnv("xobo", illegal_action="ignore")
    with pytest.raises(TablierError, match="max_steps"):
        SingleAgentEnv("xobo", max_steps=-3)


def test_truncation() -> None:
    env = SingleAgentEnv("volo", board="mini", max_steps=3)
    _, _, steps = _episode(env, 0)
    assert steps == 3 and not env.state.is_terminal


def test_gymnasium_make() -> None:
    import gymnasium

    from tablier.adapters.gymnasium import register_envs
    from tablier.games import names

    assert register_envs() == [f"tablier/{n}-v0" for n in names()]
    env = gymnasium.make("tablier/volo-v0", opponent="greedy", board="mini", render_mode="ansi")
    check_env(env.unwrapped)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (11, 11, 10)
    assert "Orange" in env.render()
    env.close()
