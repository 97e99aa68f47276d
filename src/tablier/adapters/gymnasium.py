"""A Gymnasium single-agent environment: one Tablier game against a Tablier player.

>>> from tablier.adapters.gymnasium import SingleAgentEnv
>>> env = SingleAgentEnv("xobo", opponent="random", agent_plays="second")
>>> obs, info = env.reset(seed=0)
>>> sorted(obs)
['action_mask', 'observation']

The agent plays one side; the opponent (any name :func:`tablier.ai.make_player`
accepts: ``"random"``, ``"greedy"``, a level such as ``"easy"`` or
``"medium:iterations=50,seconds=none"``) plays the other, its whole turn at
once, inside :meth:`SingleAgentEnv.step`.  Actions, observations and action
masks are those of the PettingZoo environment (the game's ``actions``
module); a move split into several steps takes several calls of ``step``.
The reward is +1 for a win, -1 for a loss, 0 for a draw, given at the end.
Importing this module also registers ``tablier/<name>-v0`` for every game, so
``gymnasium.make("tablier/volo-v0", board="mini")`` works too.

An action outside the mask ends the episode as a loss (reward -1,
``info["illegal_action"]`` set) with ``illegal_action="lose"`` (the default,
as RL libraries expect); ``illegal_action="raise"`` raises IllegalMoveError
instead and changes nothing.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..ai import make_player
from ..core.errors import IllegalMoveError, InvalidMoveError, TablierError
from ..core.game import Move
from ..games import get, names
from .stepper import Stepper, ansi_text, rgb_picture

__all__ = ["SingleAgentEnv", "env_id", "register_envs"]


class SingleAgentEnv(gym.Env):
    """One game of ``game_name`` (with ``options``) against ``opponent``; see the module docstring.

    ``agent_plays`` is ``"first"`` or ``"second"`` (or 0 / 1);
    ``max_steps`` truncates an episode after that many agent steps.
    """

    # gymnasium.Env declares metadata as an instance attribute with a class default.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        game_name: str = "volo",
        opponent: str = "random",
        agent_plays: str | int = "first",
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "lose",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TablierError(
                f"render_mode must be 'ansi', 'rgb_array' or None, not {render_mode!r}"
            )
        sides = {"first": 0, "second": 1, 0: 0, 1: 1}
        if agent_plays not in sides:
            raise TablierError(f"agent_plays must be 'first' or 'second', not {agent_plays!r}")
        if illegal_action not in ("lose", "raise"):
            raise TablierError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise TablierError(f"max_steps must be a positive whole number, not {max_steps!r}")
        self.game = get(game_name, **options)
        self.stepper = Stepper(self.game)
        self.opponent_spec = opponent
        make_player(opponent, self.game, seed=0)  # check the name now
        self.me = sides[agent_plays]
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal_action = illegal_action
        n = self.stepper.num_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-1.0, high=1.0, shape=self.stepper.observation_shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.state = self.game.initial_state()
        self.pending: tuple[int, ...] = ()
        self.last_move: Move | None = None
        self.steps = 0
        self.opponent = make_player(opponent, self.game, seed=0)

    def _obs(self) -> dict[str, np.ndarray]:
        mine = not self.state.is_terminal and self.state.to_move == self.me
        pending = self.pending if mine else ()
        mask = (
            self.stepper.mask(self.state, pending)
            if mine
            else np.zeros(self.stepper.num_actions, dtype=np.int8)
        )
        return {
            "observation": self.stepper.observation(self.state, self.me, pending),
            "action_mask": mask,
        }

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"to_move": self.state.to_move, "pending": list(self.pending)}
        if self.last_move is not None:
            info["last_move"] = str(self.last_move)
        outcome = self.state.outcome
        if outcome is not None:
            info["outcome"] = outcome.reason
            info["result"] = outcome.result
        info.update(extra)
        return info

    def _opponent_plays(self) -> None:
        while not self.state.is_terminal and self.state.to_move != self.me:
            move = self.opponent.choose(self.state)
            self.state = self.state.apply_unchecked(move)
            self.last_move = move

    def _reward(self) -> float:
        outcome = self.state.outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.me else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game; the opponent moves first when the agent plays second."""
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.opponent = make_player(self.opponent_spec, self.game, seed=opponent_seed)
        self.opponent.reset()
        self.action_space.seed(opponent_seed + 1)
        self.state = self.game.initial_state()
        self.pending = ()
        self.last_move = None
        self.steps = 0
        self._opponent_plays()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play one step of the agent's move, then the opponent's whole turn if it is its."""
        if self.state.is_terminal:
            raise IllegalMoveError("the episode is over: call reset()")
        try:
            state, pending, move = self.stepper.play(self.state, self.pending, action)
        except (IllegalMoveError, InvalidMoveError) as exc:
            if self.illegal_action == "raise":
                raise
            self.steps += 1
            return self._obs(), -1.0, True, False, self._info(illegal_action=str(exc))
        self.state, self.pending = state, pending
        if move is not None:
            self.last_move = move
        self.steps += 1
        if not self.pending:
            self._opponent_plays()
        terminated = self.state.is_terminal
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._obs(), self._reward(), terminated, truncated, self._info()

    def render(self) -> str | np.ndarray | None:
        """The game's text (``"ansi"``) or a numpy picture (``"rgb_array"``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return ansi_text(self.game, self.state, self.last_move)
        return rgb_picture(self.game, self.state)


def env_id(game_name: str) -> str:
    """The Gymnasium id of a game's environment: ``tablier/<name>-v0``."""
    return f"tablier/{game_name}-v0"


def register_envs() -> list[str]:
    """Register ``tablier/<name>-v0`` with Gymnasium for every game (done on import).

    ``gymnasium.make("tablier/volo-v0", opponent="greedy", board="mini")`` then
    builds a :class:`SingleAgentEnv`; keyword arguments go to its constructor.
    """
    ids = []
    for name in names():
        ident = env_id(name)
        ids.append(ident)
        if ident not in gym.registry:
            gym.register(
                id=ident,
                entry_point=f"{__name__}:SingleAgentEnv",
                kwargs={"game_name": name},
            )
    return ids


register_envs()
