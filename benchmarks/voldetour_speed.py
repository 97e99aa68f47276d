"""Voldetour engine speed, pure Python against the compiled core, in one process.

Usage::

    python benchmarks/voldetour_speed.py [--runs 5] [--positions 200] [--playouts 40]
                                         [--pieces default]

Every measure runs once per engine in each of ``--runs`` rounds, the two
engines interleaved (``tablier.core.native.using``), on the same positions
and seeds; it reports CPU time (``time.process_time``) rates as the median
of the rounds, and the ratio compiled / pure of the medians:

* legal-decision generations per second over a fixed set of mid-game
  positions (see :func:`midgame_positions`); each generation starts from a
  fresh state (no cached board or move list), derives the bitboards from the
  pieces and builds the full list of decisions, move objects included;
* playouts per second from the initial position, capped at 200 turns, played
  by a Python loop over ``legal_moves`` and ``apply_unchecked`` with two
  policies: ``uniform`` (each legal decision equally likely; most such games
  end within six turns, a player forgetting to leave its tower) and
  ``builder`` (the opening described below, then puts preferred to
  everything, takes to Lord moves, Lord moves to ending the turn), whose
  games run long;
* uniform playouts per second from the initial position as the MCTS plays
  them: the pure engine's loop against the compiled core's playout hook
  (``ai.playout``, the whole playout in C), up to 400 decisions;
* evaluations (``ai.evaluate``) and move priors (``ai.move_prior``) per
  second on the mid-game positions;
* with ``--mcts``, the search's iterations per second at the ``hard`` level's
  settings (``hard:iterations=300,seconds=none``, one move from the start and
  from six mid-game positions).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tablier.games
from tablier.ai.players import make_player
from tablier.core.native import using
from tablier.games.voldetour import ai
from tablier.games.voldetour.rules import VState

OPENINGS = (("B113", "B113@b3:1x1x3", "Lb2-b3"), ("B113", "B113@i8:1x1x3", "Li9-i8"))


def opening(game):
    """Both players stand a block as tall as the tower next to it and step onto it.

    With the default set, a 1x1x3 block on b3 and on i8 (:data:`OPENINGS`); with
    another set, the first such block kind on the first square next to the tower.
    """
    state = game.initial_state()
    ps = game.pieceset
    if ps.name == "default":
        for texts in OPENINGS:
            for text in texts:
                state = state.apply(game.parse_move(state, text))
        return state
    height = ps.tower_height
    for p in (0, 1):
        near = ps.grid.neighbours[ps.towers[p]]
        take = next(
            m
            for m in state.legal_moves()
            if m.key[:2] == ("T", "B") and max(ps.blocks[m.key[2]].size) >= height
        )
        state = state.apply(take)
        put = next(
            m
            for m in state.legal_moves()
            if ps.orientations[m.key[3]].dz == height
            and m.key[5] == 0
            and ps.orientations[m.key[3]].base << m.key[4] & near
        )
        state = state.apply(put)
        state = state.apply(next(m for m in state.legal_moves() if m.kind == "lord"))
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
        found.append(fresh(state))
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
    start = time.process_time()
    for batch in batches:
        for s in batch:
            s.legal_moves()
    return repeat * len(positions) / (time.process_time() - start)


def bench_playouts(game, count: int, seed: int, policy: str, cap: int = 200) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(count):
        state = game.initial_state() if policy == "uniform" else opening(game)
        while state.outcome is None and state.turn <= cap:
            if policy == "uniform":
                move = rng.choice(state.legal_moves())
            else:
                move = builder_move(state, rng)
            state = state.apply_unchecked(move)
    return count / (time.process_time() - start)


def bench_mcts_playouts(game, count: int, seed: int, compiled: bool, limit: int = 400) -> float:
    """Uniform playouts from the start as the MCTS plays them (hook or Python loop)."""
    rng = random.Random(seed)
    start = time.process_time()
    for j in range(count):
        state = game.initial_state()
        if compiled:
            got = ai.playout(state, seed * 100_003 + j, limit, False, False)
            assert got is not None
            continue
        plies = 0
        while state.outcome is None and plies < limit:
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
            plies += 1
    return count / (time.process_time() - start)


def bench_knowledge(positions, which: str) -> float:
    states = [fresh(s) for s in positions]
    moves = [s.legal_moves() for s in states]
    states = [fresh(s) for s in positions]
    start = time.process_time()
    if which == "evaluate":
        for s in states:
            ai.evaluate(s)
    else:
        for s, ms in zip(states, moves, strict=True):
            ai.move_prior(s, ms)
    return len(states) / (time.process_time() - start)


def bench_mcts(game, positions, iterations: int = 300) -> float:
    """Iterations per second of the ``hard`` level choosing one move from each position."""
    start = time.process_time()
    for s in positions:
        make_player(f"hard:iterations={iterations},seconds=none", game, seed=1).choose(fresh(s))
    return len(positions) * iterations / (time.process_time() - start)


def compare(label: str, runs: int, measure: Callable[[bool, int], float], unit: str) -> None:
    """Run ``measure(compiled, run)`` for both engines, interleaved, and print the medians."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    for run in range(runs):
        for compiled in (False, True):
            with using(compiled):
                rates[compiled].append(measure(compiled, run))
    pure, comp = statistics.median(rates[False]), statistics.median(rates[True])
    print(
        f"  {label:<34} pure {pure:>11,.1f}  compiled {comp:>12,.1f} {unit}  "
        f"ratio {comp / pure:6.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=40)
    parser.add_argument("--pieces", default="default")
    parser.add_argument("--mcts", action="store_true", help="also time the hard level's search")
    args = parser.parse_args()
    game = tablier.games.get("voldetour", pieces=args.pieces)
    with using(False):
        positions = midgame_positions(game, args.positions)
        sizes = sorted(len(fresh(s).legal_moves()) for s in positions)
    print(
        f"voldetour pieces={args.pieces}: {len(positions)} mid-game positions, "
        f"decisions per position median {statistics.median(sizes)}, max {sizes[-1]}; "
        f"CPU time, medians of {args.runs} interleaved runs"
    )
    compare(
        "legal-decision generations",
        args.runs,
        lambda c, run: bench_generation(positions, args.repeat),
        "/s",
    )
    for policy in ("uniform", "builder"):
        count = args.playouts if policy == "uniform" else max(1, args.playouts // 10)
        compare(
            f"{policy} playouts (Python loop)",
            args.runs,
            lambda c, run, policy=policy, count=count: bench_playouts(
                game, count, 100 + run, policy
            ),
            "/s",
        )
    compare(
        "uniform playouts (MCTS: hook)",
        args.runs,
        lambda c, run: bench_mcts_playouts(game, args.playouts * 5, 100 + run, c),
        "/s",
    )
    for which in ("evaluate", "move_prior"):
        compare(which, args.runs, lambda c, run, w=which: bench_knowledge(positions, w), "/s")
    if args.mcts:
        with using(False):
            searched = [game.initial_state(), *midgame_positions(game, 6, seed=5)]
        compare("hard MCTS iterations", args.runs, lambda c, run: bench_mcts(game, searched), "/s")


if __name__ == "__main__":
    main()
