"""MCTS speed: simulations per second at the ``hard`` level's settings, pure and compiled.

Usage::

    python benchmarks/ai_speed.py [--runs 5] [--iterations 1000] [--games volo,xobo]
        [--level hard] [--clock cpu] [--budget]

For each registered game (default options) and two kinds of start position,
the initial position and a mid-game position (seeded uniformly random play,
20 to 40 decisions from the start, made once and shared by both engines), it
runs fresh searches of ``--iterations`` simulations with the search settings
of ``--level`` (``hard`` by default: progressive bias, RAVE, solver backups,
decisive-move expansion, cut-off playouts when the game has an evaluation;
the level's time limit is replaced by the iteration budget, and its tactical
checks and solver are not included) and reports simulations per second.
With ``--budget`` each search has the level's time limit instead (wall clock,
as the players use it; 1.7 s for ``hard``), so the trees grow to the size the
level's searches reach with each engine, and the table also gives the median
number of simulations per search; the rate is still simulations per second
of the chosen clock:

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
    state,
    budget: dict[str, float],
    seed: int,
    config: MCTSConfig,
    clock: Callable[[], float],
) -> tuple[float, int]:
    """Simulations per second of one fresh search with ``budget``, and its simulations."""
    search = MCTS(state, seed=seed, config=config)
    start = clock()
    search.search(**budget)
    elapsed = clock() - start
    return search.iterations / elapsed, search.iterations


def compare(
    state, budget: dict[str, float], runs: int, config: MCTSConfig, clock: Callable[[], float]
) -> dict[bool, list[tuple[float, int]]]:
    """``runs`` searches with each engine, interleaved: rates and simulations per engine."""
    results: dict[bool, list[tuple[float, int]]] = {False: [], True: []}
    for seed in range(runs):
        for on in (False, True):
            with using(on):
                results[on].append(rate(state, budget, seed, config, clock))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--games", default=",".join(tablier.games.names()))
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument(
        "--budget", action="store_true", help="search for the level's time limit instead"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="cpu",
        help="cpu: this process's CPU time (the default; less sensitive to other load)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    level = LEVELS[args.level]
    config = level.config
    if args.budget:
        if level.seconds is None:
            parser.error(f"the {args.level} level has no time limit")
        budget: dict[str, float] = {"seconds": level.seconds}
        per_search = f"{level.seconds} s (wall clock) per search"
    else:
        budget = {"iterations": args.iterations}
        per_search = f"{args.iterations} simulations per search"
    print(
        f"{args.level} settings, {per_search}, median of {args.runs} runs, {args.clock} clock; "
        f"search loops: {engine_status('tablier.ai._native')}"
    )
    header = "| game | engine | position | evaluation | pure sims/s | compiled sims/s | ratio |"
    if args.budget:
        header += " pure sims/search | compiled sims/search |"
    print(header)
    print("|---" * header.count(" | ") + "|---|")
    for name in args.games.split(","):
        game = tablier.games.get(name)
        engine = game.engine()
        cutoff = "cut-off" if knowledge_for(game).evaluate is not None else "full playouts"
        for label, state in (("initial", game.initial_state()), ("mid-game", midgame(game))):
            results = compare(state, budget, args.runs, config, clock)
            p = statistics.median(r for r, _ in results[False])
            c = statistics.median(r for r, _ in results[True])
            line = f"| {game.spec} | {engine} | {label} | {cutoff} | {p:,.0f} | {c:,.0f} | "
            line += f"{c / p:.1f}× |"
            if args.budget:
                sims = [statistics.median(n for _, n in results[on]) for on in (False, True)]
                line += f" {sims[0]:,.0f} | {sims[1]:,.0f} |"
            print(line, flush=True)


if __name__ == "__main__":
    main()
