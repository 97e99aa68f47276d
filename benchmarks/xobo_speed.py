"""XoBo speed: the pure-Python engine against the compiled core, in one run.

Usage::

    .venv/bin/python benchmarks/xobo_speed.py [--runs 5] [--profile]

Three figures per option set (the default XoBo rules and the ten-point rules),
each for both engines, measured interleaved (pure, compiled, pure, ...) in CPU
time (``time.process_time``), the median of ``--runs`` runs, with the ratio:

- **legal-move generations/s** on a fixed set of 200 mid-game positions (taken
  from seeded random games between plies 12 and 40, not over, some under
  voyna, some with stacks on the board).  Each generation is done on a fresh
  copy of the position (made before the clock starts), so it includes working
  out the outcome and the voyna flag, which a state caches;
- **uniformly random playouts/s**: games from the empty board to their end,
  each move drawn uniformly among the legal ones.  Pure: the Python loop over
  ``legal_moves`` / ``apply_unchecked`` with ``random.Random``; compiled: the
  compiled core's playout with its own generator and no playout policy
  (``_native.playout(..., policy=False)``).  The two engines draw different
  random games (their generators differ), so the mean lengths are shown;
- **guided playouts/s**, what the search does at a leaf: from each mid-game
  position, ``PLAYOUT_DEPTH`` plies chosen by ``playout_policy`` or else
  weighted by ``move_prior``, then ``evaluate`` (the search's own Python loop
  with the Python knowledge, against ``ai.playout`` in the compiled core).

Targets (against the pure engine): at least 8x on generation and 10x on random
playouts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tablier.core.native import using
from tablier.games import get
from tablier.games.xobo import XoBo, XoBoState, ai, rules

GEN_RATIO = 8.0
PLAYOUT_RATIO = 10.0


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


def fresh(state: XoBoState) -> XoBoState:
    """A copy of ``state`` without its cached analysis."""
    return XoBoState(
        state.game,
        state.ones,
        state.stacks,
        state.heights,
        state.common,
        state.reserves,
        state.turn,
        state.silent,
    )


def generations_per_second(positions: list[XoBoState], repeat: int = 40) -> float:
    """Legal-move generations per second (CPU time), each on a fresh (uncached) copy."""
    copies = [fresh(s) for _ in range(repeat) for s in positions]
    start = time.process_time()
    for state in copies:
        state.legal_moves()
    return len(copies) / (time.process_time() - start)


def pure_playouts(game: XoBo, count: int, seed: int) -> tuple[float, float]:
    """Uniformly random games with the Python loop: (playouts/s, mean length)."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    start = time.process_time()
    for _ in range(count):
        state = game.initial_state()
        while True:
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(choice(moves))
            plies += 1
    return count / (time.process_time() - start), plies / count


def compiled_playouts(game: XoBo, count: int, seed: int) -> tuple[float, float]:
    """Uniformly random games in the compiled core: (playouts/s, mean length)."""
    core = rules._native
    assert core is not None
    state = game.initial_state()
    plies = 0
    start = time.process_time()
    for k in range(count):
        plies += len(core.playout(state, seed + k, 10_000, False, False, False)[1])
    return count / (time.process_time() - start), plies / count


def python_guided(state: XoBoState, rng: random.Random) -> float:
    """The search's playout loop (tablier/ai/mcts.py) with the Python knowledge, cut off."""
    plies = 0
    while state.outcome is None and plies < ai.PLAYOUT_DEPTH:
        move = ai.playout_policy(state, rng)
        if move is None:
            moves = state.legal_moves()
            weights = ai.move_prior(state, moves)
            if sum(weights) > 0:
                move = rng.choices(moves, weights=weights)[0]
            else:
                move = moves[rng.randrange(len(moves))]
        state = state.apply_unchecked(move)
        plies += 1
    outcome = state.outcome
    if outcome is not None:
        return outcome.score(0)
    v = max(-1.0, min(1.0, ai.evaluate(state)))
    return ((v if state.to_move == 0 else -v) + 1.0) / 2.0


def guided_per_second(positions: list[XoBoState], compiled: bool, repeat: int = 3) -> float:
    """Cut-off guided playouts per second (CPU time) from the mid-game positions."""
    copies = [fresh(s) for _ in range(repeat) for s in positions]
    rng = random.Random(7)
    start = time.process_time()
    if compiled:
        for k, state in enumerate(copies):
            ai.playout(state, k, ai.PLAYOUT_DEPTH, True, True)
    else:
        for state in copies:
            python_guided(state, rng)
    return len(copies) / (time.process_time() - start)


def interleaved(runs: int, measure: Callable[[bool], float]) -> tuple[list[float], list[float]]:
    """``runs`` measurements of each engine, alternating pure and compiled."""
    pure: list[float] = []
    compiled: list[float] = []
    for _ in range(runs):
        with using(False):
            pure.append(measure(False))
        with using(True):
            compiled.append(measure(True))
    return pure, compiled


def line(label: str, pure: list[float], compiled: list[float], extra: str = "") -> float:
    p, c = statistics.median(pure), statistics.median(compiled)
    print(f"  {label:<28} pure {p:>10,.0f}  compiled {c:>11,.0f}  ratio {c / p:5.1f}x{extra}")
    return c / p


def report(label: str, game: XoBo, runs: int) -> bool:
    """Print the three figures for ``game``; True when both targets are met."""
    positions = midgame_positions(game)
    voyna = sum(p.voyna for p in positions)
    stacked = sum(bool(p.stacks) for p in positions)
    mean_moves = statistics.mean(len(p.legal_moves()) for p in positions)
    print(f"{label} ({game.spec})")
    print(
        f"  positions: {len(positions)} mid-game, {voyna} under voyna, {stacked} with stacks, "
        f"{mean_moves:.1f} legal moves on average"
    )
    gen = line(
        "legal-move generations/s",
        *interleaved(runs, lambda compiled: generations_per_second(positions)),
    )
    lengths: dict[bool, float] = {}

    def playouts(compiled: bool) -> float:
        run = compiled_playouts(game, 10_000, 1) if compiled else pure_playouts(game, 500, 1)
        lengths[compiled] = run[1]
        return run[0]

    pure, compiled = interleaved(runs, playouts)
    play = line(
        "random playouts/s",
        pure,
        compiled,
        f"  (mean length {lengths[False]:.1f} / {lengths[True]:.1f} plies)",
    )
    line(
        f"guided playouts/s ({ai.PLAYOUT_DEPTH} plies)",
        *interleaved(runs, lambda compiled: guided_per_second(positions, compiled)),
    )
    return gen >= GEN_RATIO and play >= PLAYOUT_RATIO


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median reported)")
    parser.add_argument("--profile", action="store_true", help="profile the pure playouts")
    args = parser.parse_args()
    if rules._native is None:
        raise SystemExit("the compiled core is not built (or TABLIER_PURE=1): nothing to compare")

    option_sets = [("xobo (default)", {}), ("ten-point", {"stack": "three", "exhaustion": "cubes"})]
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        with using(False):
            profile.runcall(pure_playouts, get("xobo"), 300, 1)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)
        return

    ok = True
    for label, options in option_sets:
        ok = report(label, get("xobo", **options), args.runs) and ok
    print(
        f"targets (>= {GEN_RATIO:g}x generation, >= {PLAYOUT_RATIO:g}x random playouts): "
        + ("met" if ok else "MISSED")
    )


if __name__ == "__main__":
    main()
