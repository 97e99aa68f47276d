"""Volo engine speed, pure-Python against compiled: generations and random playouts per second.

Usage::

    python benchmarks/volo_speed.py [--runs 5] [--positions 60] [--repeat 5] [--playouts 20]

For each board (standard and mini) it reports, as the median of ``--runs`` runs in this
single process, CPU time (``time.process_time``), the pure engine and the compiled core
measured in turn within each run (interleaved) on the same work, and their ratio:

* legal-move generations per second over a fixed set of mid-game positions (reached by
  seeded uniformly random play, 30 to 100 plies from the start, keeping only positions
  where flights are possible): ``rules.generate`` against the compiled ``generate``, each
  building the full list of legal moves, move objects included, ``--repeat`` times over
  the positions;
* complete uniformly random playouts per second from the initial position, capped at 300
  plies, the same seeds for both engines:

  - "api": the loop a program writes, ``state.legal_moves()``, a uniform draw with
    ``random.Random``, ``state.apply_unchecked(move)``, run with the compiled core switched
    off, then on (``tablier.core.native.using``);
  - "hook": the knowledge's whole-playout hook ``ai.playout(state, seed, 300,
    weighted=False, cutoff=False)`` (its own generator; the moves played come back as
    move objects), against the pure "api" loop.

Without the compiled core built, only the pure figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tablier.games
from tablier.core.native import using
from tablier.games.volo import ai, rules
from tablier.games.volo.rules import VoloState

CAP = 300


def midgame_positions(game, count: int, seed: int = 2026) -> list[VoloState]:
    """``count`` distinct mid-game positions, reproducible from ``seed``."""
    rng = random.Random(seed)
    found: list[VoloState] = []
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
    return [game.parse_position(s.to_text()) for s in found]  # no cached move lists


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds taken by ``work()``."""
    start = time.process_time()
    work()
    return time.process_time() - start


def generations(generate, states: list[VoloState], repeat: int) -> None:
    for _ in range(repeat):
        for s in states:
            generate(s)


def api_playouts(game, count: int, seed: int) -> int:
    """``count`` uniformly random playouts through the public API; the plies played."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(count):
        state = game.initial_state()
        for _ in range(CAP):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
            plies += 1
    return plies


def hook_playouts(game, count: int, seed: int) -> int:
    plies = 0
    start = game.initial_state()
    for i in range(count):
        result = ai.playout(start, seed * 100_003 + i, CAP, False, False)
        assert result is not None
        plies += len(result[1])
    return plies


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def report(board: str, what: str, pure: list[float], compiled: list[float] | None, unit: str):
    text = f"volo {board:8s} {what:18s} pure {median(pure):9.1f} {unit}"
    if compiled is not None:
        ratios = [c / p for c, p in zip(compiled, pure, strict=True)]
        text += (
            f"   compiled {median(compiled):10.1f} {unit}   ratio {median(ratios):6.1f}x"
            f" (runs: {', '.join(f'{r:.1f}' for r in ratios)})"
        )
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=20)
    args = parser.parse_args()
    native = rules._native
    print(f"engine: {tablier.games.get('volo').engine()}")
    for board in ("standard", "mini"):
        game = tablier.games.get("volo", board=board)
        positions = midgame_positions(game, args.positions)
        avg_moves = statistics.mean(len(rules.generate(p)) for p in positions)
        gen_count = args.repeat * len(positions)
        gen_p: list[float] = []
        gen_c: list[float] = []
        api_p: list[float] = []
        api_c: list[float] = []
        hook: list[float] = []
        plies_p: list[int] = []
        plies_h: list[int] = []
        for run in range(args.runs):
            gen_p.append(
                gen_count / cpu(lambda ps=positions: generations(rules.generate, ps, args.repeat))
            )
            with using(False):
                t = time.process_time()
                plies_p.append(api_playouts(game, args.playouts, seed=run))
                api_p.append(args.playouts / (time.process_time() - t))
            if native is None:
                continue
            gen_c.append(
                gen_count / cpu(lambda ps=positions: generations(native.generate, ps, args.repeat))
            )
            api_c.append(
                args.playouts / cpu(lambda g=game, r=run: api_playouts(g, args.playouts, seed=r))
            )
            t = time.process_time()
            plies_h.append(hook_playouts(game, 10 * args.playouts, seed=run))
            hook.append(10 * args.playouts / (time.process_time() - t))
        print(
            f"volo {board}: {len(positions)} positions, {avg_moves:.0f} legal moves on average; "
            f"playouts of {statistics.mean(plies_p) / args.playouts:.0f} plies on average (api)"
            + (f", {statistics.mean(plies_h) / (10 * args.playouts):.0f} (hook)" if plies_h else "")
        )
        on = native is not None
        report(board, "generations/s", gen_p, gen_c if on else None, "/s")
        report(board, "playouts/s (api)", api_p, api_c if on else None, "/s")
        report(board, "playouts/s (hook)", api_p, hook if on else None, "/s")


if __name__ == "__main__":
    main()
