"""Research environments' speed: PettingZoo and Gymnasium steps per second, pure and compiled.

Usage::

    python benchmarks/env_speed.py [--runs 5] [--steps 2000] [--games volo,xobo]

Needs the ``rl`` extra.  For each registered game (default options) it plays
``--steps`` environment steps with uniformly random legal actions (drawn from
the observation's action mask with a seeded NumPy generator), starting a new
game whenever one ends, in

* the PettingZoo AEC environment (``tablier.adapters.pettingzoo.env``, the
  wrapped one users get): a step is ``last()`` (observation and mask) then
  ``step(action)``, for either agent;
* the Gymnasium environment (``tablier.adapters.gymnasium.SingleAgentEnv``
  against the ``random`` player): a step is the agent's ``step(action)``,
  which also plays the opponent's reply and builds the next observation.

Each of the ``--runs`` runs plays the same steps (same seeds) with every
compiled core switched off (``pure``, through ``tablier.core.native.using``)
and then on (``compiled``), so that both engines play the same games; the
table gives the medians of the process's CPU time rates and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import tablier.games
from tablier.adapters.gymnasium import SingleAgentEnv
from tablier.adapters.pettingzoo import env as pettingzoo_env
from tablier.core.native import using


def _action(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def pettingzoo_rate(name: str, steps: int, seed: int) -> float:
    """PettingZoo AEC steps per CPU second over ``steps`` random steps."""
    env: Any = pettingzoo_env(name)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=seed + done)
            continue
        env.step(_action(rng, observation["action_mask"]))
        done += 1
    return steps / (time.process_time() - start)


def gymnasium_rate(name: str, steps: int, seed: int) -> float:
    """Gymnasium steps (with the random opponent's replies) per CPU second."""
    env = SingleAgentEnv(name, opponent="random")
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        observation, _, terminated, truncated, _ = env.step(
            _action(rng, observation["action_mask"])
        )
        done += 1
        if terminated or truncated:
            observation, _ = env.reset(seed=seed + done)
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--games", default=",".join(tablier.games.names()))
    args = parser.parse_args()
    print(f"{args.steps} random steps per run, median of {args.runs} runs, CPU clock")
    print("| game | engine | environment | pure steps/s | compiled steps/s | ratio |")
    print("|---|---|---|---|---|---|")
    for name in args.games.split(","):
        game = tablier.games.get(name)
        for label, measure in (("PettingZoo", pettingzoo_rate), ("Gymnasium", gymnasium_rate)):
            rates: dict[bool, list[float]] = {False: [], True: []}
            for seed in range(args.runs):
                for compiled in (False, True):
                    with using(compiled):
                        rates[compiled].append(measure(name, args.steps, seed))
            pure, fast = statistics.median(rates[False]), statistics.median(rates[True])
            print(
                f"| {game.spec} | {game.engine()} | {label} | {pure:,.0f} | {fast:,.0f} | "
                f"{fast / pure:.1f}× |",
                flush=True,
            )


if __name__ == "__main__":
    main()
