"""AI strength: arena matches between levels, written as JSON lines and a summary table.

Usage::

    python benchmarks/ai_strength.py --game volo:board=mini --games 20 --jobs 2 \\
        --budget iter --out /tmp/tablier-ai-strength [--pairs hard-random,hard-greedy]

``--budget time`` uses the levels as they are (``hard``: 1.8 s per decision,
the issue's setting); ``--budget iter`` replaces every time budget by a fixed
number of simulations (see ``ITER_LEVELS``), which makes games reproducible
and cheaper, for machines where full-length matches are not feasible.

Each match is the same as ``tablier arena GAME A B -n GAMES --jobs JOBS
--seed SEED --out OUT/<game>-<a>-<b>.jsonl``: colours alternate, each random
two-decision opening is played with both colours, and rerunning resumes from
the files.  The table gives A's wins/draws/losses, score and Elo difference
with its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import tablier.games
from tablier.ai.arena import run_match, summarise

#: Fixed-simulation stand-ins for the levels (``--budget iter``).
ITER_LEVELS = {
    "random": "random",
    "greedy": "greedy",
    "easy": "easy",
    "medium": "medium:iterations=150,seconds=none",
    "hard": "hard:iterations=500,seconds=none,solver_nodes=400",
    "expert": "expert:iterations=1500,seconds=none,solver_nodes=1500",
}

DEFAULT_PAIRS = (
    "hard-random,hard-greedy,easy-random,greedy-easy,medium-easy,hard-medium,expert-hard"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volo:board=mini")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", choices=("iter", "time"), default="iter")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--out", default="/tmp/tablier-ai-strength")
    parser.add_argument(
        "--max-plies", type=int, default=1000, help="adjudicate a draw after this many decisions"
    )
    args = parser.parse_args()
    game = tablier.games.from_spec(args.game)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"{game.spec}, {args.games} games per match, budget {args.budget}, seed {args.seed}")
    print("| A | B | games | A +win =draw -loss | A score | Elo (95% CI) | s/game | A s/decision |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        a_name, b_name = pair.split("-")
        a = ITER_LEVELS[a_name] if args.budget == "iter" else a_name
        b = ITER_LEVELS[b_name] if args.budget == "iter" else b_name
        slug = re.sub(r"[^a-z0-9]+", "_", f"{game.spec}-{args.budget}-{a_name}-{b_name}")
        path = out / f"{slug}.jsonl"
        results = run_match(
            game,
            a,
            b,
            args.games,
            jobs=args.jobs,
            seed=args.seed,
            out=path,
            max_plies=args.max_plies,
        )
        s = summarise(results, a_name, b_name)
        per_game = sum(r["seconds"] for r in results) / len(results)
        text = s.describe().split("Elo ")[1]
        thinks = [r["think_a"] for r in results if "think_a" in r]
        think = "—"
        if thinks:
            mean = sum(t["mean"] for t in thinks) / len(thinks)
            think = f"mean {mean:.2f}, max {max(t['max'] for t in thinks):.2f}"
        print(
            f"| {a_name} | {b_name} | {s.games} | +{s.wins} ={s.draws} -{s.losses} | "
            f"{100 * s.score:.1f}% | {text} | {per_game:.1f} | {think} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
