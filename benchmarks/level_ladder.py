"""The whole level ladder of issue 16: every level pair, on every game, with the real levels.

Usage::

    python benchmarks/level_ladder.py --games 100 --jobs 2 --out DIR \\
        [--pairs hard-random,hard-greedy,...] [--game-specs volo,volo:board=mini,xobo,voldetour] \\
        [--backend ray [--address auto]] [--sprt ELO0,ELO1] [--plan]

Each pair is an arena match (:func:`tablier.ai.arena.run_match`, the same games as
``tablier arena GAME A B -n GAMES --seed SEED --out DIR/<game>-<a>-<b>.jsonl``) between
the levels as they are (time-limited: ``hard`` 1.7 s per decision, ``expert`` 6 s),
run in local worker processes or as Ray tasks (``--backend ray``, on a cluster with
``--address``). Results go to JSON-lines files, so a rerun resumes where it
stopped. ``beginner`` (``benchmarks/beginner.py``) is a player too (local backend only).

The targets (printed with each row): ``hard``–``random`` ≥ 98%, ``hard``–``greedy`` ≥ 90%,
each level against the one below ≥ 65%, ``easy``–``beginner`` within 30–70%.
``--plan`` prints, instead of playing, each match's estimated CPU time from the
levels' time per decision and a typical game length (``PLIES``), to size a run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tablier.games
from beginner import register  # the ``beginner`` player spec
from tablier.ai.arena import run_match, score_interval, sprt_result, summarise

PAIRS = (
    "hard-random,hard-greedy,easy-random,medium-easy,hard-medium,expert-hard,"
    "medium-greedy,medium-beginner,easy-beginner"
)
GAMES = "volo,volo:board=mini,xobo,voldetour"

#: The lowest score of A each pair aims at (issue 16), and the highest for a calibration.
TARGETS = {
    "hard-random": (0.98, 1.0),
    "hard-greedy": (0.90, 1.0),
    "easy-beginner": (0.30, 0.70),
}
LEVEL_TARGET = (0.65, 1.0)

#: Seconds per decision of each player at most (the levels' budgets), for ``--plan``.
SECONDS = {
    "random": 0.001,
    "greedy": 0.005,
    "beginner": 0.04,  # planning whole Voldétour turns (at most 4,000 positions)
    "easy": 0.01,
    "medium": 0.5,
    "hard": 1.7,
    "expert": 6.0,
    "master": 1.7,
}
#: Decisions per game, roughly (both players), for ``--plan``.
PLIES = {"volo": 60, "volo:board=mini": 50, "xobo": 40, "voldetour": 200}


def plan(pairs: list[str], specs: list[str], games: int) -> None:
    """Print each match's estimated CPU time (both players) and the total."""
    total = 0.0
    print("| game | pair | games | estimated CPU hours |")
    print("|---|---|---|---|")
    for spec in specs:
        for pair in pairs:
            a, b = pair.split("-")
            plies = PLIES.get(spec, 100)
            hours = games * plies / 2 * (SECONDS.get(a, 1.0) + SECONDS.get(b, 1.0)) / 3600
            total += hours
            print(f"| {spec} | {pair} | {games} | {hours:.1f} |")
    print(f"total: {total:.1f} CPU hours (one core per game)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default=PAIRS)
    parser.add_argument("--game-specs", default=GAMES, help="comma-separated (';' if needed)")
    parser.add_argument("--out", default="/tmp/tablier-ladder")
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--address", default=None)
    parser.add_argument("--sprt", default=None, help="ELO0,ELO1[,ALPHA,BETA] for every match")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--plan", action="store_true", help="estimate the cost, play nothing")
    args = parser.parse_args(argv)
    register()
    pairs = [p for p in args.pairs.split(",") if p]
    sep = ";" if ";" in args.game_specs else ","
    specs = [s for s in args.game_specs.split(sep) if s]
    if args.plan:
        plan(pairs, specs, args.games)
        return 0
    sprt = [float(x) for x in args.sprt.split(",")] if args.sprt else None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for spec in specs:
        game = tablier.games.from_spec(spec)
        for pair in pairs:
            a, b = pair.split("-")
            name = f"{spec}-{a}-{b}".replace(":", "_").replace("=", "").replace(",", "_")
            t0 = time.perf_counter()
            results = run_match(
                game,
                a,
                b,
                args.games,
                jobs=args.jobs,
                seed=args.seed,
                max_plies=args.max_plies,
                out=out / f"{name}.jsonl",
                backend=args.backend,
                address=args.address,
                sprt=sprt,
            )
            s = summarise(results, a, b)
            low, high = score_interval(s.score, s.games)
            lo, hi = TARGETS.get(pair, LEVEL_TARGET)
            met = "met" if lo <= s.score <= hi else "not met"
            verdict = sprt_result(results, sprt).verdict if sprt else ""
            think = max(r["think_a"]["max"] for r in results)
            row = (
                f"| {spec} | {a} | {b} | {s.games} | +{s.wins} ={s.draws} -{s.losses} | "
                f"{100 * s.score:.1f}% ({100 * low:.1f}–{100 * high:.1f}%) | "
                f"{100 * lo:.0f}–{100 * hi:.0f}%: {met} | {verdict} | {think:.2f} s |"
            )
            rows.append(row)
            print(row, f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print()
    print(
        "| game | A | B | games | A +W =D −L | A's score (95%) | target | SPRT | A's longest move |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
