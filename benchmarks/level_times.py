"""Wall and CPU time per decision of a level, on a machine loaded by copies of itself.

Usage::

    python benchmarks/level_times.py --level hard --moves 40 --copies 2 \\
        [--game-specs volo,xobo,voldetour] [--opponent greedy] [--seed 1] [--json FILE]

Each copy (a separate process; ``--copies 2`` runs two at once, which loads a
machine as a second game would) plays games of LEVEL against OPPONENT from
random two-decision openings and times each of LEVEL's decisions with
:func:`time.perf_counter` (wall) and :func:`time.process_time` (CPU of the
process), until it has ``--moves`` decisions per game.  The report gives, per
game, the decisions timed, the median, p99 and max of both clocks, and the
decisions over the level's promise (``--promise``, 2 s for ``hard``) in wall time
and in CPU time (docs/ai.md, "Time budgets": where the process gets too small a share
of a core, the safety checks' floor in CPU time can pass the promise in wall time, not
in CPU time), with the load average of the machine before and after; then, per
game, each step of the decision
(:attr:`MCTSPlayer.last_timing <tablier.ai.players.MCTSPlayer.last_timing>`:
tactics, threat turn, search, checks) with its median and max of both clocks, and,
for the decisions over the promise, which step took the most wall time.  The figures depend on the
machine and its load: say both when quoting them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import tablier.games
from tablier.ai.players import make_player

GAMES = "volo,xobo,voldetour"


def time_moves(spec: str, level: str, opponent: str, moves: int, seed: int) -> list[list[Any]]:
    """``[wall, cpu, steps]`` of each of ``level``'s decisions over games of ``spec``
    (``steps``: the player's ``last_timing``, step -> ``[wall, cpu]``; empty for a
    player without one)."""
    game = tablier.games.from_spec(spec)
    rng = random.Random(seed)
    out: list[list[Any]] = []
    index = 0
    while len(out) < moves:
        players = [make_player(level, game, seed=seed + index), make_player(opponent, game, seed)]
        if index % 2:
            players.reverse()
        me = index % 2
        state = game.initial_state()
        for _ in range(2):
            legal = state.legal_moves()
            state = state.apply_unchecked(legal[rng.randrange(len(legal))])
        while state.outcome is None and len(out) < moves:
            t0, c0 = time.perf_counter(), time.process_time()
            move = players[state.to_move].choose(state)
            if state.to_move == me and len(state.legal_moves()) > 1:
                steps = getattr(players[me], "last_timing", {})
                out.append([time.perf_counter() - t0, time.process_time() - c0, dict(steps)])
            state = state.apply(move)
        index += 1
    return out


def _steps(times: list[list[Any]]) -> dict[str, list[list[float]]]:
    """Step -> ``[[wall median, max], [CPU median, max]]`` over the decisions that took it."""
    out: dict[str, list[list[float]]] = {}
    names = dict.fromkeys(step for t in times for step in t[2])
    for step in names:
        wall = [t[2][step][0] for t in times if step in t[2]]
        cpu = [t[2][step][1] for t in times if step in t[2]]
        out[step] = [[statistics.median(wall), max(wall)], [statistics.median(cpu), max(cpu)]]
    return out


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--moves", type=int, default=40, help="timed decisions per game and copy")
    parser.add_argument("--copies", type=int, default=2, help="processes running at once")
    parser.add_argument(
        "--game-specs", default=GAMES, help="comma-separated (';' if specs have commas)"
    )
    parser.add_argument("--promise", type=float, default=2.0, help="seconds per move promised")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="write the figures there too")
    args = parser.parse_args(argv)
    sep = ";" if ";" in args.game_specs else ","
    specs = [s for s in args.game_specs.split(sep) if s]
    load0 = os.getloadavg()[0]
    report: dict[str, Any] = {"level": args.level, "copies": args.copies, "games": {}}
    print(f"{args.level} against {args.opponent}, {args.copies} copies at once, load {load0:.1f}")
    print(
        "| game | decisions | wall median / p99 / max | CPU median / p99 / max | over "
        f"{args.promise:g} s: wall, CPU |"
    )
    print("|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.copies) as pool:
        for spec in specs:
            futures = [
                pool.submit(
                    time_moves, spec, args.level, args.opponent, args.moves, args.seed + 1000 * k
                )
                for k in range(args.copies)
            ]
            times = [t for f in futures for t in f.result()]
            wall = [t[0] for t in times]
            cpu = [t[1] for t in times]
            over = sum(1 for w in wall if w > args.promise)
            over_cpu = sum(1 for c in cpu if c > args.promise)
            row = {
                "decisions": len(times),
                "wall": [statistics.median(wall), _quantile(wall, 0.99), max(wall)],
                "cpu": [statistics.median(cpu), _quantile(cpu, 0.99), max(cpu)],
                "over": over,
                "over_cpu": over_cpu,
                "steps": _steps(times),
                "over_steps": [t[2] for t in times if t[0] > args.promise],
            }
            report["games"][spec] = row
            w, c = row["wall"], row["cpu"]
            print(
                f"| {spec} | {len(times)} | {w[0]:.2f} / {w[1]:.2f} / {w[2]:.2f} s | "
                f"{c[0]:.2f} / {c[1]:.2f} / {c[2]:.2f} s | {over}, {over_cpu} |",
                flush=True,
            )
    print()
    print("| game | step | wall median / max | CPU median / max | longest in decisions over |")
    print("|---|---|---|---|---|")
    for spec, row in report["games"].items():
        longest = [max(steps, key=lambda k: steps[k][0]) for steps in row["over_steps"] if steps]
        for step, (w, c) in row["steps"].items():
            print(
                f"| {spec} | {step} | {w[0]:.2f} / {w[1]:.2f} s | {c[0]:.2f} / {c[1]:.2f} s "
                f"| {longest.count(step)} |"
            )
    report["load"] = [load0, os.getloadavg()[0]]
    print(f"load average {load0:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
