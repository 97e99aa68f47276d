"""Volo engine speed: legal-move generations and random playouts per second.

Usage::

    python benchmarks/volo_speed.py [--runs 5] [--positions 60] [--playouts 30]

For each board it reports, as the median of ``--runs`` runs in this single
process:

* legal-move generations per second over a fixed set of mid-game positions
  (reached by seeded uniformly random play, 30 to 100 plies from the start,
  keeping only positions where flights are possible); each generation builds
  the full list of legal moves, move objects included, from a fresh state;
* complete uniformly random playouts per second from the initial position,
  capped at 300 plies (``state.legal_moves()`` then ``apply_unchecked``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tablier.games
from tablier.games.volo.rules import generate


def midgame_positions(game, count: int, seed: int = 2026) -> list:
    """``count`` distinct mid-game positions, reproducible from ``seed``."""
    rng = random.Random(seed)
    found: list = []
    seen = set()
    while len(found) < count:
        state = game.initial_state()
        target = rng.randint(30, 100)
        for _ in range(target):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(rng.choice(moves))
        if state.outcome is not None or state in seen:
            continue
        if not any(m.kind == "fly" for m in state.legal_moves()):
            continue
        seen.add(state)
        found.append(state)
    return found


def fresh(state):
    """A copy of ``state`` without its cached move list."""
    return state.game.parse_position(state.to_text())


def bench_generation(positions, repeat: int) -> float:
    states = [fresh(s) for s in positions]
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            generate(s)
    elapsed = time.perf_counter() - start
    return repeat * len(states) / elapsed


def bench_playouts(game, count: int, seed: int, cap: int = 300) -> tuple[float, float]:
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(count):
        state = game.initial_state()
        for _ in range(cap):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(rng.choice(moves))
            plies += 1
    elapsed = time.perf_counter() - start
    return count / elapsed, plies / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=30)
    args = parser.parse_args()
    for board in ("standard", "mini"):
        game = tablier.games.get("volo", board=board)
        positions = midgame_positions(game, args.positions)
        avg_moves = statistics.mean(len(p.legal_moves()) for p in positions)
        gens = [bench_generation(positions, args.repeat) for _ in range(args.runs)]
        outs = [bench_playouts(game, args.playouts, seed=run) for run in range(args.runs)]
        print(
            f"volo {board:8s} generations/s: median {statistics.median(gens):8.0f} "
            f"(runs: {', '.join(f'{g:.0f}' for g in gens)}; "
            f"{len(positions)} positions, {avg_moves:.0f} legal moves on average)"
        )
        print(
            f"volo {board:8s} playouts/s:    median {statistics.median(o[0] for o in outs):8.1f} "
            f"(runs: {', '.join(f'{o[0]:.1f}' for o in outs)}; "
            f"{statistics.mean(o[1] for o in outs):.0f} plies per playout on average, cap 300)"
        )


if __name__ == "__main__":
    main()
