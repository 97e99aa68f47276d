"""The compiled proof search against the generic solver: the same questions, CPU time each.

Usage::

    python benchmarks/proof_speed.py [--game volo] [--positions 12] [--depths 3,5]
        [--generic-depths 3,5] [--seed 1] [--suite FILE] [--checks]

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

``--suite FILE`` takes the first ``--positions`` positions of a tactical suite file
(``tests/ai/data/tactics/GAME.json``, mid-game positions the solver proved; the game
is the file's) instead.  ``--checks`` times what the levels do with the answers: the
whole-turn safety check (:class:`~tablier.ai.tactics.TurnSafety`, at the first of
``--depths``) of every decision of each position, with the compiled search under the
solver and without it, and prints the CPU time a position (the verdicts must agree).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tablier.ai.knowledge import knowledge_for
from tablier.ai.solver import Solver
from tablier.ai.tactics import TurnSafety
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


def suite_positions(path: str, count: int) -> tuple[Any, list[Any]]:
    """The game and the first ``count`` positions of a tactical suite file
    (``tests/ai/data/tactics/*.json``: mid-game positions proved by the solver)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    game = from_spec(data["game"])
    return game, [game.parse_position(e["position"]) for e in data["positions"][:count]]


def checks(states: list[Any], depth: int, prove: Any) -> int:
    """Print the CPU time of the levels' whole-turn safety checks of every decision of
    each position, with the compiled search under the solver and without it."""
    fast: list[float] = []
    slow: list[float] = []
    moves = 0
    for state in states:
        legal = state.legal_moves()
        moves += len(legal)
        t0 = time.process_time()
        hooked = TurnSafety(depth, nodes=1 << 40, turn_nodes=1 << 40, prove=prove)
        got = [hooked.fate(state, m) for m in legal]
        t1 = time.process_time()
        plain = TurnSafety(depth, nodes=1 << 40, turn_nodes=1 << 40)
        expected = [plain.fate(state, m) for m in legal]
        t2 = time.process_time()
        if got != expected:
            print(f"the checks disagree: {state.to_text()}")
            return 1
        fast.append(t1 - t0)
        slow.append(t2 - t1)
    ratios = [b / max(a, 1e-6) for a, b in zip(fast, slow, strict=True)]
    print(
        "| depth | positions | decisions checked | compiled: median / max CPU ms a position "
        "| generic: median / max CPU ms a position | generic / compiled (median) |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| {depth} | {len(states)} | {moves} | {_ms(statistics.median(fast))} / "
        f"{_ms(max(fast))} | {_ms(statistics.median(slow))} / {_ms(max(slow))} | "
        f"{statistics.median(ratios):.0f}× |"
    )
    return 0


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
    parser.add_argument("--suite", default=None, help="positions from this tactical suite file")
    parser.add_argument(
        "--checks", action="store_true", help="time whole-turn safety checks of every decision"
    )
    args = parser.parse_args(argv)
    if args.suite:
        game, states = suite_positions(args.suite, args.positions)
    else:
        game = from_spec(args.game)
        states = []
    prove = knowledge_for(game).prove
    depths = [int(d) for d in args.depths.split(",")]
    if prove is None or prove(game.initial_state(), 0, max(depths), 0, -1.0) is None:
        print(
            f"{game.spec}: no compiled proof search for depth {max(depths)} (none declared, "
            "the core is off, or the game's search does not go that deep)"
        )
        return 2
    generic = {int(d) for d in args.generic_depths.split(",") if d}
    if not args.suite:
        states = positions(game, args.positions, args.seed)
    where = f"from {args.suite}" if args.suite else f"seed {args.seed}"
    print(f"{game.spec}: {len(states)} positions, {where}")
    if args.checks:
        return checks(states, depths[0], prove)
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
