"""PettingZoo AEC environments for every Tablier game.

>>> from tablier.adapters.pettingzoo import env
>>> e = env("volo", board="mini")
>>> e.reset(seed=0)
>>> obs, reward, termination, truncation, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``"player_0"`` (the game's first player) and ``"player_1"``.  The
agent to act is always the player whose decision it is, so a player with
several decisions in a turn (Voldetour), or a move split into several steps
(see the game's ``actions`` module), acts several times in a row.
Observations are ``{"observation": planes, "action_mask": mask}`` from the
observing agent's side; the mask is all zeros except for the agent to act.
Rewards come only at the end: +1 for the winner, -1 for the loser, 0 each
for a draw.  An action outside the mask raises IllegalMoveError (or
InvalidMoveError outside the action space) and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import TablierError
from ..core.game import Move
from ..games import get
from .stepper import Stepper, ansi_text, rgb_picture

__all__ = ["env", "raw_env"]

AGENTS = ("player_0", "player_1")


def env(game_name: str = "volo", **kwargs: Any) -> AECEnv:
    """The environment of ``game_name`` wrapped in PettingZoo's order checks.

    ``kwargs`` are ``render_mode`` (``"ansi"`` or ``"rgb_array"``),
    ``max_steps`` (truncate both agents after that many steps; off by default)
    and the game's options (e.g. ``board="mini"``).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game_name, **kwargs))


class raw_env(AECEnv):
    """The unwrapped AEC environment of one game with its options (see the module docstring)."""

    # An instance attribute (each environment adds its game's name), so no ClassVar.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "rgb_array"],
        "name": "tablier_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game_name: str = "volo",
        render_mode: str | None = None,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TablierError(
                f"render_mode must be one of {', '.join(self.metadata['render_modes'])} "
                f"or None, not {render_mode!r}"
            )
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise TablierError(f"max_steps must be a positive whole number, not {max_steps!r}")
        self.game = get(game_name, **options)
        self.stepper = Stepper(self.game)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"tablier_{self.game.name}_v0"}
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.stepper.num_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-1.0, high=1.0, shape=self.stepper.observation_shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.state = self.game.initial_state()
        self.pending: tuple[int, ...] = ()
        self.last_move: Move | None = None
        self.steps = 0
        self._reset_dicts()

    def _reset_dicts(self) -> None:
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.state.to_move]

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(num_actions)`` of the game's encoding."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game.  The games are deterministic; ``seed`` seeds the action spaces."""
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self.agents = list(AGENTS)
        self.state = self.game.initial_state()
        self.pending = ()
        self.last_move = None
        self.steps = 0
        self._reset_dicts()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Planes from ``agent``'s side and its action mask."""
        player = AGENTS.index(agent)
        acting = agent == self.agent_selection and not self.state.is_terminal
        pending = self.pending if acting else ()
        if acting and player == self.state.to_move:
            mask = self.stepper.mask(self.state, pending)
        else:
            mask = np.zeros(self.stepper.num_actions, dtype=np.int8)
        return {
            "observation": self.stepper.observation(self.state, player, pending),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Play one step of the selected agent's move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state, pending, move = self.stepper.play(self.state, self.pending, action)  # may raise
        self.state, self.pending = state, pending
        if move is not None:
            self.last_move = move
        self.steps += 1
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        outcome = self.state.outcome
        if outcome is not None:
            for i, a in enumerate(AGENTS):
                won = outcome.winner == i
                self.rewards[a] = 0 if outcome.winner is None else (1 if won else -1)
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome.reason, "result": outcome.result}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in AGENTS:
                self.truncations[a] = True
        self.agent_selection = AGENTS[self.state.to_move]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """The game's text (``"ansi"``) or a numpy picture (``"rgb_array"``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return ansi_text(self.game, self.state, self.last_move)
        return rgb_picture(self.game, self.state)

    def close(self) -> None:
        """Nothing to release."""
        return None
