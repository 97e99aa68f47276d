"""XoBo speed: legal-move generations per second and random playouts per second.

Usage::

    .venv/bin/python benchmarks/xobo_speed.py [--runs 7] [--profile]

Generations are measured on a fixed set of mid-game positions (taken from
seeded random games between plies 12 and 40, not over, some under voyna,
some with stacks on the board).  Each generation is done on a fresh copy of
the position, so it includes working out the outcome and the voyna flag
(the engine caches them on a state; a fresh copy has no cache).  Playouts
are uniformly random games from the empty board to their end.  Each figure
is the median of ``--runs`` runs, for both option sets.  Targets: at least
10,000 generations/s and 150 playouts/s in a single process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tablier.games import get
from tablier.games.xobo import XoBo, XoBoState

GEN_TARGET = 10_000
PLAYOUT_TARGET = 150


def midgame_positions(game: XoBo, count: int = 200, seed: int = 12345) -> list[XoBoState]:
    """A fixed set of non-terminal positions between plies 12 and 40 of random games."""
    rng = random.Random(seed)
    out: list[XoBoState] = []
    while len(out) < count:
        state = game.initial_state()
        pick = rng.randint(12, 40)
        for _ in range(pick):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(rng.choice(moves))
        if state.outcome is None:
            out.append(state)
    return out


def generations_per_second(positions: list[XoBoState], repeat: int = 10) -> float:
    """Legal-move generations per second, each on a fresh (uncached) copy."""
    fields = [
        (s.game, s.ones, s.stacks, s.heights, s.common, s.reserves, s.turn, s.silent)
        for s in positions
    ]
    start = time.perf_counter()
    for _ in range(repeat):
        for f in fields:
            XoBoState(*f).legal_moves()
    return repeat * len(fields) / (time.perf_counter() - start)


def playouts_per_second(game: XoBo, count: int = 200, seed: int = 1) -> tuple[float, float]:
    """Random playouts per second, and their mean length in moves."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    start = time.perf_counter()
    for _ in range(count):
        state = game.initial_state()
        while True:
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(choice(moves))
            plies += 1
    return count / (time.perf_counter() - start), plies / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median reported)")
    parser.add_argument("--profile", action="store_true", help="profile the playouts instead")
    args = parser.parse_args()

    option_sets = [("xobo (default)", {}), ("ten-point", {"stack": "three", "exhaustion": "cubes"})]
    if args.profile:
        import cProfile
        import pstats

        game = get("xobo")
        profile = cProfile.Profile()
        profile.runcall(playouts_per_second, game, 300)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)
        return

    ok = True
    for label, options in option_sets:
        game = get("xobo", **options)
        positions = midgame_positions(game)
        voyna = sum(p.voyna for p in positions)
        stacked = sum(bool(p.stacks) for p in positions)
        mean_moves = statistics.mean(len(p.legal_moves()) for p in positions)
        gens = [generations_per_second(positions) for _ in range(args.runs)]
        outs = [playouts_per_second(game) for _ in range(args.runs)]
        gen = statistics.median(gens)
        play = statistics.median(o[0] for o in outs)
        length = outs[0][1]
        print(f"{label} ({game.spec})")
        print(
            f"  positions: {len(positions)} mid-game, {voyna} under voyna, {stacked} with stacks, "
            f"{mean_moves:.1f} legal moves on average"
        )
        print(
            f"  legal-move generations/s: median {gen:,.0f} "
            f"(runs: {', '.join(f'{g:,.0f}' for g in gens)}; target {GEN_TARGET:,})"
        )
        print(
            f"  random playouts/s:        median {play:,.0f} "
            f"(runs: {', '.join(f'{o[0]:,.0f}' for o in outs)}; "
            f"mean length {length:.1f} moves; target {PLAYOUT_TARGET})"
        )
        ok = ok and gen >= GEN_TARGET and play >= PLAYOUT_TARGET
    print("targets met" if ok else "TARGETS MISSED")


if __name__ == "__main__":
    main()
