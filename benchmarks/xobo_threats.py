"""How many of the shipped XoBo puzzles the threat-space search solves, and how fast.

For each puzzle of ``tablier/ai/puzzle_data/xobo.json`` (depths 1 to 5: voyna
sequences found in self-play and proved by the solver), runs
:func:`tablier.games.xobo.threats.forced_win` with the node budget ``hard`` gives
it and counts the puzzles where it finds a forced line whose first move is the
solution's (the puzzle's only winning first move), by depth, with the CPU time
(``time.process_time``) per puzzle: median and longest::

    .venv/bin/python benchmarks/xobo_threats.py [--nodes 3000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from tablier.ai.puzzles import load_shipped
from tablier.games import get
from tablier.games.xobo.threats import forced_win


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args(argv)
    game = get("xobo")
    solved: dict[int, int] = defaultdict(int)
    total: dict[int, int] = defaultdict(int)
    times = []
    for puzzle in load_shipped(game):
        state = puzzle.state()
        t0 = time.process_time()
        line = forced_win(state, args.nodes, args.seconds)
        times.append(time.process_time() - t0)
        total[puzzle.depth] += 1
        if line and game.move_text(state, line[0]) == puzzle.solution[0]:
            solved[puzzle.depth] += 1
    for depth in sorted(total):
        print(f"depth {depth}: {solved[depth]} of {total[depth]}")
    print(
        f"solved {sum(solved.values())} of {sum(total.values())} puzzles with {args.nodes} nodes;"
        f" CPU per puzzle median {statistics.median(times) * 1000:.1f} ms,"
        f" max {max(times) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
