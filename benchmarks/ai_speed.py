"""MCTS speed: simulations (iterations) per second for every registered game.

Usage::

    python benchmarks/ai_speed.py [--runs 5] [--iterations 400] [--games volo,xobo]

For each registered game (default options) and two kinds of start position,
the initial position and a mid-game position (seeded uniformly random play,
20 to 40 decisions from the start), it runs a fresh search of
``--iterations`` simulations with the default configuration (the one the
levels use: progressive bias, RAVE, solver backups, decisive-move expansion,
cut-off playouts when the game has an evaluation) and reports the median
rate of ``--runs`` runs in this single process, with the slowest and fastest
run.  ``--clock cpu`` times with the process's CPU time instead of the wall
clock, for a machine shared with other work.  Tactical checks and the solver
of the levels are not included.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tablier.games
from tablier.ai.knowledge import knowledge_for
from tablier.ai.mcts import MCTS


def midgame(game, seed: int = 2026):
    """A reproducible position 20-40 decisions into a random game (not over)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        for _ in range(rng.randint(20, 40)):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
        if state.outcome is None:
            return state


def rate(state, iterations: int, seed: int, clock=time.perf_counter) -> float:
    """Simulations per second of one fresh search of ``iterations`` simulations."""
    search = MCTS(state, seed=seed)
    start = clock()
    search.search(iterations=iterations)
    elapsed = clock() - start
    return search.iterations / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--games", default=",".join(tablier.games.names()))
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: elapsed time; cpu: this process's CPU time (less sensitive to other load)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(
        f"{args.iterations} simulations per search, median of {args.runs} runs, {args.clock} clock"
    )
    print("| game | position | evaluation | simulations/s (median) | runs |")
    print("|---|---|---|---|---|")
    for name in args.games.split(","):
        game = tablier.games.get(name)
        cutoff = "cut-off" if knowledge_for(game).evaluate is not None else "full playouts"
        for label, state in (("initial", game.initial_state()), ("mid-game", midgame(game))):
            rates = [rate(state, args.iterations, seed, clock) for seed in range(args.runs)]
            print(
                f"| {game.spec} | {label} | {cutoff} | {statistics.median(rates):,.0f} | "
                f"{min(rates):,.0f}–{max(rates):,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
