"""Voldetour engine speed: legal-decision generations and random playouts per second.

Usage::

    python benchmarks/voldetour_speed.py [--runs 5] [--positions 200] [--playouts 20]

It reports, as medians of ``--runs`` runs in this single process, for the
default piece set:

* legal-decision generations per second over a fixed set of mid-game
  positions (see :func:`midgame_positions`); each generation starts from a
  fresh state (no cached board or move list), derives the bitboards from the
  pieces and builds the full list of decisions, move objects included;
* random playouts per second from the initial position, capped at 200 turns,
  with two policies: ``uniform`` (each legal decision equally likely; most
  such games end within six turns, a player forgetting to leave its tower)
  and ``builder`` (the opening described below, then puts preferred to
  everything, takes to Lord moves, Lord moves to ending the turn), whose
  games run long.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tablier.games
from tablier.games.voldetour.rules import VState

OPENINGS = (("B113", "B113@b3:1x1x3", "Lb2-b3"), ("B113", "B113@i8:1x1x3", "Li9-i8"))


def opening(game):
    """Both players stand a 1x1x3 block next to their tower and step onto it."""
    state = game.initial_state()
    for texts in OPENINGS:
        for text in texts:
            state = state.apply(game.parse_move(state, text))
    return state


def builder_move(state, rng):
    """Puts first, then takes (80%), then Lord moves (90%), else any decision."""
    moves = state.legal_moves()
    if state.hand is not None:  # every decision is a put
        return rng.choice(moves)
    takes = [m for m in moves if m.kind == "take"]
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    lords = [m for m in moves if m.kind == "lord"]
    if lords and rng.random() < 0.9:
        return rng.choice(lords)
    return rng.choice(moves)


def midgame_positions(game, count: int, seed: int = 2026) -> list:
    """``count`` distinct positions of builder games, turns 8 to 40, not over.

    Every decision point counts (turn starts, pieces in hand, after an action),
    so the sample mixes small lists (takes, Lord moves, end) with large ones
    (every placement of the piece in hand).
    """
    rng = random.Random(seed)
    found: list = []
    seen = set()
    while len(found) < count:
        state = opening(game)
        target = rng.randint(8, 40)
        while state.outcome is None and state.turn < target:
            state = state.apply_unchecked(builder_move(state, rng))
        for _ in range(rng.randint(0, 3)):  # stop anywhere in the turn
            if state.outcome is None and state.turn == target:
                state = state.apply_unchecked(builder_move(state, rng))
        if state.outcome is not None or state in seen:
            continue
        seen.add(state)
        found.append(state)
    return found


def fresh(state: VState) -> VState:
    """A copy of ``state`` without its cached board and move list."""
    return VState(
        state.game,
        state.blocks,
        state.stairs,
        state.lords,
        state.turn,
        state.done,
        state.hand,
        state.passes,
        state.history,
    )


def bench_generation(positions, repeat: int) -> float:
    batches = [[fresh(s) for s in positions] for _ in range(repeat)]
    start = time.perf_counter()
    for batch in batches:
        for s in batch:
            s.legal_moves()
    elapsed = time.perf_counter() - start
    return repeat * len(positions) / elapsed


def bench_playouts(game, count: int, seed: int, policy: str, cap: int = 200):
    rng = random.Random(seed)
    turns = 0
    start = time.perf_counter()
    for _ in range(count):
        state = game.initial_state() if policy == "uniform" else opening(game)
        while state.outcome is None and state.turn <= cap:
            if policy == "uniform":
                move = rng.choice(state.legal_moves())
            else:
                move = builder_move(state, rng)
            state = state.apply_unchecked(move)
        turns += state.turn - 1
    elapsed = time.perf_counter() - start
    return count / elapsed, turns / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--pieces", default="default")
    args = parser.parse_args()
    game = tablier.games.get("voldetour", pieces=args.pieces)
    positions = midgame_positions(game, args.positions)
    sizes = sorted(len(s.legal_moves()) for s in positions)
    print(
        f"voldetour pieces={args.pieces}: {len(positions)} mid-game positions, "
        f"decisions per position median {statistics.median(sizes)}, max {sizes[-1]}"
    )
    gens = [bench_generation(positions, args.repeat) for _ in range(args.runs)]
    print(
        f"  legal-decision generations/s: median {statistics.median(gens):,.0f} "
        f"(runs: {', '.join(f'{g:,.0f}' for g in gens)})"
    )
    for policy in ("uniform", "builder"):
        results = [
            bench_playouts(game, args.playouts, 100 + run, policy) for run in range(args.runs)
        ]
        rates = [r[0] for r in results]
        mean_turns = statistics.mean(r[1] for r in results)
        print(
            f"  {policy} playouts/s (cap 200 turns): median {statistics.median(rates):,.1f} "
            f"(runs: {', '.join(f'{r:,.1f}' for r in rates)}; {mean_turns:.0f} turns per game)"
        )


if __name__ == "__main__":
    main()
