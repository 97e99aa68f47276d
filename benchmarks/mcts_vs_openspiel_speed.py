"""XoBo's MCTS beside OpenSpiel's C++ MCTSBot on Hex 9×9: simulations per second in one run.

Usage::

    python benchmarks/mcts_vs_openspiel_speed.py [--runs 5] [--simulations 2000]
        [--xobo stack=any]

Needs the ``openspiel`` extra.  Issue 15's stretch target: Tablier's search on
XoBo at no less than half the simulations per second of OpenSpiel's compiled
``MCTSBot`` on Hex 9×9 (the closest game OpenSpiel has: a connection game on a
board of the same order of size).  Each of the ``--runs`` runs times, one after
the other (CPU time of this process):

* OpenSpiel: ``pyspiel.MCTSBot`` (C++; UCT constant 2, one random rollout to
  the end of the game per simulation, no solver) doing ``--simulations``
  simulations from Hex's initial position (one ``step``);
* Tablier: a fresh :class:`~tablier.ai.mcts.MCTS` with the ``hard`` level's
  search settings (progressive bias, RAVE, solver backups, decisive-move
  expansion, cut-off playouts scored by XoBo's evaluation) doing the same
  number of simulations on XoBo (``--xobo`` options), from the initial
  position and from a mid-game position, with the compiled cores in use.

The table gives the medians and XoBo's rate as a fraction of OpenSpiel's.  The
two searches do different work per simulation (a full Hex rollout against a
cut-off XoBo playout with richer tree handling): the comparison is of what each
search achieves per second, as a researcher would meet them.
"""

from __future__ import annotations

import argparse
import statistics
import time

import pyspiel

import tablier.games
from ai_speed import midgame
from tablier.ai.mcts import MCTS
from tablier.ai.players import LEVELS


def openspiel_rate(simulations: int, seed: int) -> float:
    """OpenSpiel's C++ MCTS simulations per CPU second on Hex 9×9, from the start."""
    game = pyspiel.load_game("hex", {"board_size": 9})
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, False, seed, False)
    state = game.new_initial_state()
    start = time.process_time()
    bot.step(state)
    return simulations / (time.process_time() - start)


def tablier_rate(state, simulations: int, seed: int) -> float:
    """Tablier's MCTS simulations per CPU second (hard settings) from ``state``."""
    search = MCTS(state, seed=seed, config=LEVELS["hard"].config)
    start = time.process_time()
    search.search(iterations=simulations)
    return search.iterations / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--xobo", default="", help="XoBo options, e.g. stack=any")
    args = parser.parse_args()
    game = tablier.games.from_spec("xobo" + (f":{args.xobo}" if args.xobo else ""))
    positions = {"initial": game.initial_state(), "mid-game": midgame(game)}
    rates: dict[str, list[float]] = {"openspiel": [], **{k: [] for k in positions}}
    for seed in range(args.runs):
        rates["openspiel"].append(openspiel_rate(args.simulations, seed))
        for label, state in positions.items():
            rates[label].append(tablier_rate(state, args.simulations, seed))
    medians = {k: statistics.median(v) for k, v in rates.items()}
    reference = medians["openspiel"]
    print(
        f"{args.simulations} simulations per search, median of {args.runs} runs, CPU clock; "
        f"XoBo engine: {game.engine()}"
    )
    print("| search | game | position | simulations/s | fraction of OpenSpiel's |")
    print("|---|---|---|---|---|")
    print(f"| OpenSpiel MCTSBot (C++) | hex(board_size=9) | initial | {reference:,.0f} | 1.00 |")
    for label in positions:
        rate = medians[label]
        print(
            f"| Tablier MCTS (hard settings) | {game.spec} | {label} | {rate:,.0f} | "
            f"{rate / reference:.2f} |"
        )


if __name__ == "__main__":
    main()
