"""The compiled proof search against the generic solver: the same questions, CPU time each.

Usage::

    python benchmarks/proof_speed.py [--game volo] [--positions 12] [--depths 3,5]
        [--generic-depths 3,5] [--seed 1]

Positions come from seeded games of a player that follows the game's move prior,
with a fifth of its moves at random, after 20 to 70 decisions.  On each, for
each player as the attacker and each depth, the question "does the attacker
force a win within N decisions?" is asked of the game's compiled proof search
(its knowledge's ``prove``) and of the generic
:class:`~tablier.ai.solver.Solver` without it (the pure search over the game's
moves, with the compiled engine), one after the other, so both see the same
load; each time is CPU time.  The answers must agree (the script stops
otherwise).  It prints, per depth, the median and largest CPU time of each and
the median of the per-question ratio, then the medians over the questions without
a forced win (those of a safety check that passes): what ``expert``'s five-decision
checks cost (docs/performance.md).  ``--generic-depths`` limits the slow side to the
depths it can afford.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from tablier.ai.knowledge import knowledge_for
from tablier.ai.solver import Solver
from tablier.games import from_spec


def positions(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions of seeded prior-following games, 20 to 70 decisions in."""
    rng = random.Random(seed)
    knowledge = knowledge_for(game)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(20, 71)):
            moves = state.legal_moves()
            if rng.random() < 0.2:
                move = moves[rng.randrange(len(moves))]
            else:
                move = rng.choices(moves, weights=knowledge.priors(state, moves))[0]
            after = state.apply(move)
            if after.outcome is not None:
                break
            state = after
        found.append(state)
    return found


def _ms(seconds: float) -> str:
    """CPU seconds as milliseconds, three significant digits at least."""
    ms = seconds * 1000
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="volo", help="a game spec with a compiled proof search")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--depths", default="3,5")
    parser.add_argument("--generic-depths", default="3,5", help="depths the generic solver runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = from_spec(args.game)
    prove = knowledge_for(game).prove
    if prove is None or prove(game.initial_state(), 0, 0, 1, -1.0) is None:
        print(f"{args.game}: no compiled proof search (none declared, or the core is off)")
        return 2
    depths = [int(d) for d in args.depths.split(",")]
    generic = {int(d) for d in args.generic_depths.split(",") if d}
    states = positions(game, args.positions, args.seed)
    print(f"{args.game}: {len(states)} positions, seed {args.seed}")
    print(
        "| depth | questions | forced wins | compiled: median / max CPU ms | "
        "generic: median / max CPU ms | generic / compiled (median) | "
        "no forced win: compiled / generic median ms |"
    )
    print("|---|---|---|---|---|---|---|")
    for depth in depths:
        fast: list[float] = []
        slow: list[float] = []
        ratios: list[float] = []
        wins = 0
        quiet_fast: list[float] = []
        quiet_slow: list[float] = []
        for state in states:
            for attacker in (0, 1):
                t0 = time.process_time()
                answer = prove(state, attacker, depth, 1 << 62, -1.0)
                t1 = time.process_time()
                assert answer is not None
                fast.append(t1 - t0)
                wins += bool(answer[0])
                if not answer[0]:
                    quiet_fast.append(t1 - t0)
                if depth in generic:
                    t2 = time.process_time()
                    expected = Solver().wins(state, attacker, depth)
                    t3 = time.process_time()
                    slow.append(t3 - t2)
                    ratios.append((t3 - t2) / max(t1 - t0, 1e-6))
                    if not answer[0]:
                        quiet_slow.append(t3 - t2)
                    if expected is not answer[0]:
                        print(f"disagreement at depth {depth}: {state.to_text()}")
                        return 1
        generic_cell = f"{_ms(statistics.median(slow))} / {_ms(max(slow))}" if slow else "not run"
        ratio_cell = f"{statistics.median(ratios):.0f}×" if ratios else "—"
        quiet_cell = _ms(statistics.median(quiet_fast)) if quiet_fast else "—"
        quiet_cell += f" / {_ms(statistics.median(quiet_slow))}" if quiet_slow else " / —"
        print(
            f"| {depth} | {len(fast)} | {wins} | {_ms(statistics.median(fast))} / {_ms(max(fast))} "
            f"| {generic_cell} | {ratio_cell} | {quiet_cell} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
