"""Forks in recorded Voldétour games, and what proving them costs the safety checks.

Replays recorded matches (JSON lines as ``level_ladder.py``, ``tablier arena`` and
``voldetour_stalls.py --out`` write them) and, at each turn start whose mover's Lord
stands at most ``turnwin.MAX_DISTANCE`` squares from the enemy tower, asks
``turnwin.unstoppable`` with the levels' node budget (``--nodes``, no time limit: the
figures do not depend on the load) twice, with forks and without (the order
alternating from one position to the next, so both meet the same machine).  Prints the
turn starts asked, the answers found each way, the forks (answers found with forks
only; each with its game, decision and line), and the CPU time per question each way
(median, 90th percentile, longest) with the ratio of the totals; ``--games N`` reads the
first N games of each file only::

    .venv/bin/python benchmarks/voldetour_forks.py \\
        benchmarks/records/2026-11-30-voldetour-hard-normalize-medium.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tablier.ai.players import LEVELS
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.ai import lord_distance
from voldetour_turnwins import _turn_starts


def _spread(times: list[float]) -> str:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return (
        f"median {1000 * statistics.median(times):.2f} ms, 90th percentile "
        f"{1000 * p90:.2f} ms, longest {1000 * times[-1]:.2f} ms, total {sum(times):.2f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument(
        "--nodes",
        type=int,
        default=LEVELS["hard"].unstoppable_nodes,
        help="positions per question (default: hard's unstoppable_nodes)",
    )
    parser.add_argument("--games", type=int, help="only the first GAMES games of each file")
    args = parser.parse_args(argv)
    times: dict[bool, list[float]] = {True: [], False: []}
    found = {True: 0, False: 0}
    forks: list[str] = []
    asked = 0
    for path in args.files:
        with open(path, encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()]
        if args.games is not None:
            records = records[: args.games]
        for number, record in enumerate(records):
            for index, state, _end in _turn_starts(record):
                if lord_distance(state, state.to_move) > turnwin.MAX_DISTANCE:
                    continue
                answers = {}
                order = (True, False) if asked % 2 == 0 else (False, True)
                asked += 1
                for forks_on in order:
                    start = time.process_time()
                    answer = turnwin.unstoppable(state, args.nodes, forks=forks_on)
                    times[forks_on].append(time.process_time() - start)
                    answers[forks_on] = answer.line
                    found[forks_on] += answer.line is not None
                if answers[True] is not None and answers[False] is None:
                    line = " ".join(str(move) for move in answers[True])
                    forks.append(f"{path} game {number} decision {index}: {line}")
    print(f"turn starts asked: {asked} (nodes {args.nodes})")
    print(f"answers: with forks {found[True]}, without {found[False]}")
    print(f"forks: {len(forks)}")
    for fork in forks:
        print(f"  {fork}")
    for forks_on in (True, False):
        if times[forks_on]:
            label = "with forks" if forks_on else "without"
            print(f"CPU time per question {label}: {_spread(times[forks_on])}")
    if times[False] and sum(times[False]) > 0:
        print(f"ratio of the totals (with / without): {sum(times[True]) / sum(times[False]):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
