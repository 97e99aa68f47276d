"""Tablier's AI against OpenSpiel's MCTS bot, at equal thinking time per move.

Usage::

    python benchmarks/openspiel_vs_tablier.py [--game volo:board=mini]
        [--level medium] [--seconds 0.5] [--games 4] [--rollouts 1] [--seed 1]

Needs the ``openspiel`` extra.  Both players get ``--seconds`` per move
(one Tablier decision).  Tablier's player is ``--level`` with its time limit
set to ``--seconds`` and no iteration cap.  OpenSpiel's ``MCTSBot`` (UCT
constant 2, random-rollout evaluator, played through :mod:`tablier.adapters.openspiel`)
has no time limit, only a number of simulations: the script times a search on
the start position to set a first number of simulations per step, then after
every OpenSpiel move scales it by the ratio of ``--seconds`` to the time the
move took (at most by 2 either way), so that a move, with all its steps (a
Volo flight is 3 or 4 OpenSpiel actions), takes about ``--seconds``.  The
measured mean time per move of both sides is reported.  Colours alternate; the score is Tablier's
(win 1, draw 1/2), with both sides' mean seconds per move.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from open_spiel.python.algorithms import mcts

import tablier.adapters
from tablier.adapters.openspiel import load
from tablier.ai import make_player
from tablier.games import from_spec


def calibrate(game, seconds: float, rollouts: int, seed: int) -> int:
    """Simulations of OpenSpiel's MCTS that take about ``seconds`` on the start position."""
    rng = np.random.RandomState(seed)
    probe = 20
    bot = mcts.MCTSBot(
        game, 2.0, probe, mcts.RandomRolloutEvaluator(rollouts, rng), random_state=rng
    )
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.mcts_search(state)
    per_sim = (time.perf_counter() - start) / probe
    return max(2, int(seconds / per_sim))


def play(
    tgame, level: str, seconds: float, tablier_first: bool, sims: int, rollouts: int, seed: int
) -> tuple[float, list[float], list[float]]:
    """One game; Tablier's score and the seconds per move of each side."""
    sgame = load(tgame)
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        sgame, 2.0, sims, mcts.RandomRolloutEvaluator(rollouts, rng), random_state=rng
    )
    player = make_player(f"{level}:seconds={seconds},iterations=none", tgame, seed=seed)
    tablier_side = 0 if tablier_first else 1
    state = sgame.new_initial_state()
    codec = tablier.adapters.actions_for(tgame)
    t_times: list[float] = []
    s_times: list[float] = []
    while not state.is_terminal():
        current = state.tablier_state
        start = time.perf_counter()
        if current.to_move == tablier_side:
            move = player.choose(current)
            for step in codec.encode(current, move):
                state.apply_action(step)
            t_times.append(time.perf_counter() - start)
        else:
            while not state.is_terminal() and state.tablier_state is current:
                state.apply_action(bot.step(state))
            took = time.perf_counter() - start
            s_times.append(took)
            factor = min(2.0, max(0.5, seconds / max(took, 1e-6)))
            bot.max_simulations = max(2, int(bot.max_simulations * factor))
    outcome = state.tablier_state.outcome
    return outcome.score(tablier_side), t_times, s_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="xobo", help="a game spec, e.g. volo:board=mini")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tgame = from_spec(args.game)
    sims = calibrate(load(tgame), args.seconds, args.rollouts, args.seed)
    print(
        f"{tgame.spec}: Tablier {args.level} vs OpenSpiel MCTS "
        f"(from {sims} simulations, {args.rollouts} rollout(s)), {args.seconds}s per move"
    )
    total = 0.0
    t_all: list[float] = []
    s_all: list[float] = []
    for i in range(args.games):
        first = i % 2 == 0
        score, t_times, s_times = play(
            tgame, args.level, args.seconds, first, sims, args.rollouts, args.seed + i
        )
        total += score
        t_all += t_times
        s_all += s_times
        print(
            f"game {i + 1}: Tablier plays {'first' if first else 'second'}, scores {score} "
            f"({len(t_times) + len(s_times)} moves)",
            flush=True,
        )
    print(f"score: Tablier {total} - {args.games - total} OpenSpiel MCTS over {args.games} games")
    print(
        f"mean seconds per move: Tablier {statistics.mean(t_all):.3f}, "
        f"OpenSpiel {statistics.mean(s_all):.3f}"
    )


if __name__ == "__main__":
    main()
