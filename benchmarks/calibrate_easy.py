"""Calibrate ``easy`` against a beginner: the beginner's score on every game, with 95% intervals.

Usage::

    python benchmarks/calibrate_easy.py --games 100 [--jobs 1] [--seed 1] \\
        [--opponents easy,medium] [--games-list xobo,volo:board=mini,volo,voldetour] \\
        [--out DIR] [--sprt medium=-400,-200]

For each game and each opponent, an arena match (:func:`tablier.ai.arena.run_match`,
colours alternating, each random two-decision opening played with both colours)
between ``beginner`` (:mod:`beginner`: greedy over its own turn, 30% random turns) and the
opponent. The target of issue 16: the beginner scores 30–70% against ``easy`` on
every game, and ``medium`` is clearly stronger than the beginner. ``--sprt
OPP=ELO0,ELO1`` plays the matches against OPP as sequential tests instead (the
Elo bounds are those of the beginner), stopping when the test decides (``--games``
is then the most games). With ``--out``, results go to JSON-lines files that a
rerun resumes. A table (Markdown) is printed at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tablier.games
from beginner import register  # the ``beginner`` player spec
from tablier.ai.arena import run_match, sprt_result, summarise

GAMES = "volo,volo:board=mini,xobo,voldetour"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="easy,medium")
    parser.add_argument(
        "--game-specs", default=GAMES, help="comma-separated; ';' if specs have commas"
    )
    parser.add_argument("--beginner", default="beginner")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--out", default=None, help="folder for the JSON-lines results")
    parser.add_argument(
        "--sprt",
        action="append",
        default=[],
        metavar="OPP=ELO0,ELO1",
        help="a sequential test for the matches against OPP (beginner's Elo)",
    )
    args = parser.parse_args(argv)
    register()
    tests = {}
    for item in args.sprt:
        opp, _, bounds = item.partition("=")
        tests[opp] = [float(x) for x in bounds.split(",")]
    sep = ";" if ";" in args.game_specs else ","
    specs = [s for s in args.game_specs.split(sep) if s]
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    rows = []
    for spec in specs:
        game = tablier.games.from_spec(spec)
        for opp in args.opponents.split(";" if ";" in args.opponents else ","):
            path = None
            if out is not None:
                name = f"{spec}-{args.beginner}-{opp}".replace(":", "_").replace("=", "")
                path = out / (name.replace(",", "_") + ".jsonl")
            t0 = time.process_time()
            w0 = time.perf_counter()
            results = run_match(
                game,
                args.beginner,
                opp,
                args.games,
                jobs=args.jobs,
                seed=args.seed,
                max_plies=args.max_plies,
                out=path,
                sprt=tests.get(opp),
            )
            s = summarise(results, args.beginner, opp)
            low, high = _interval(s.score, s.games)
            reasons = Counter(r["reason"] for r in results)
            verdict = ""
            if opp in tests:
                v = sprt_result(results, tests[opp])
                bounds = ",".join(f"{x:g}" for x in tests[opp])
                verdict = f"SPRT {bounds}: {v.verdict} after {v.pairs} pairs"
                print(v.describe())
            line = (
                f"| {spec} | {opp} | {s.games} | +{s.wins} ={s.draws} -{s.losses} | "
                f"{100 * s.score:.1f}% | {100 * low:.1f}–{100 * high:.1f}% | "
                f"{', '.join(f'{k} {v}' for k, v in reasons.most_common())} | {verdict} |"
            )
            rows.append(line)
            print(
                line,
                f"({time.process_time() - t0:.1f} s CPU here, "
                f"{time.perf_counter() - w0:.1f} s wall)",
                flush=True,
            )
    print()
    print(
        "| game | opponent | games | beginner +W =D −L | beginner's score | 95% interval"
        " | endings | sequential test |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for line in rows:
        print(line)
    return 0


def _interval(score: float, games: int) -> tuple[float, float]:
    from tablier.ai.arena import score_interval

    return score_interval(score, games)


if __name__ == "__main__":
    sys.exit(main())
