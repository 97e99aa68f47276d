"""MCTS speed: simulations per second at the ``hard`` level's settings, pure and compiled.

Usage::

    python benchmarks/ai_speed.py [--runs 5] [--iterations 1000] [--games volo,xobo]
        [--level hard] [--clock cpu]

For each registered game (default options) and two kinds of start position,
the initial position and a mid-game position (seeded uniformly random play,
20 to 40 decisions from the start, made once and shared by both engines), it
runs fresh searches of ``--iterations`` simulations with the search settings
of ``--level`` (``hard`` by default: progressive bias, RAVE, solver backups,
decisive-move expansion, cut-off playouts when the game has an evaluation;
the level's time limit is replaced by the iteration budget, and its tactical
checks and solver are not included) and reports simulations per second:

* ``pure``: every compiled core switched off (``tablier.core.native.using``),
  the search's own loops included: the Python reference;
* ``compiled``: the compiled cores that are built (the games' engines and
  playouts, the search's loops over children);
* their ratio.

Each of the ``--runs`` runs searches with both engines, one after the other
(pure first, seeds 0, 1, ...), so that a change in the machine's load affects
both alike; the table gives the medians, timed with the process's CPU time
(``--clock wall`` for the elapsed time).  The two engines' searches differ
once a game has a ``playout`` hook (its own generator), so the trees, and so
the work per simulation, are not identical: the rate is what the AI gets.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tablier.games
from tablier.ai.knowledge import knowledge_for
from tablier.ai.mcts import MCTS, MCTSConfig
from tablier.ai.players import LEVELS
from tablier.core.native import engine_status, using


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


def rate(
    state, iterations: int, seed: int, config: MCTSConfig, clock: Callable[[], float]
) -> float:
    """Simulations per second of one fresh search of ``iterations`` simulations."""
    search = MCTS(state, seed=seed, config=config)
    start = clock()
    search.search(iterations=iterations)
    elapsed = clock() - start
    return search.iterations / elapsed


def compare(
    state, iterations: int, runs: int, config: MCTSConfig, clock: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Rates of ``runs`` searches with each engine, interleaved: (pure, compiled)."""
    pure: list[float] = []
    compiled: list[float] = []
    for seed in range(runs):
        for on, rates in ((False, pure), (True, compiled)):
            with using(on):
                rates.append(rate(state, iterations, seed, config, clock))
    return pure, compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--games", default=",".join(tablier.games.names()))
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="cpu",
        help="cpu: this process's CPU time (the default; less sensitive to other load)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    config = LEVELS[args.level].config
    print(
        f"{args.level} settings, {args.iterations} simulations per search, "
        f"median of {args.runs} runs, {args.clock} clock; search loops: "
        f"{engine_status('tablier.ai._native')}"
    )
    print("| game | engine | position | evaluation | pure sims/s | compiled sims/s | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        game = tablier.games.get(name)
        engine = game.engine()
        cutoff = "cut-off" if knowledge_for(game).evaluate is not None else "full playouts"
        for label, state in (("initial", game.initial_state()), ("mid-game", midgame(game))):
            pure, compiled = compare(state, args.iterations, args.runs, config, clock)
            p, c = statistics.median(pure), statistics.median(compiled)
            print(
                f"| {game.spec} | {engine} | {label} | {cutoff} | {p:,.0f} | {c:,.0f} | "
                f"{c / p:.1f}× |",
                flush=True,
            )


if __name__ == "__main__":
    main()
