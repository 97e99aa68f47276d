"""Voldétour games between AIs that stall until the decision cap, and where their Lords idle.

Plays ``--games`` games of A against B (colours alternating, two random opening
decisions, :func:`tablier.ai.match.play_game`) at a fixed simulation budget and
counts the games adjudicated at ``--max-plies`` decisions (``move-limit``).  For
each capped game it prints, per side, the Lord's square and its Manhattan distance to
its own tower and to the enemy tower at the end: a Lord idling next to its own tower
is the defect this measures (docs/ai.md, "Stalled games")::

    .venv/bin/python benchmarks/voldetour_stalls.py --games 20 \\
        --a "hard:iterations=100,seconds=none" --b "medium:iterations=100,seconds=none"
"""

from __future__ import annotations

import argparse
import json
import time

from tablier.ai.match import play_game
from tablier.games import get
from tablier.games.voldetour.ai import lord_distance


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--a", default="hard:iterations=100,seconds=none")
    parser.add_argument("--b", default="medium:iterations=100,seconds=none")
    parser.add_argument("--pieces", default="default")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--out", help="append each game's record here (JSON lines)")
    args = parser.parse_args(argv)
    game = get("voldetour", pieces=args.pieces)
    towers = game.pieceset.towers
    grid = game.pieceset.grid
    capped = wins_a = 0
    start = time.process_time()
    for i in range(args.first, args.first + args.games):
        record = play_game(game, args.a, args.b, i, seed=args.seed, max_plies=args.max_plies)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
        line = (
            f"game {i}: {record['reason']} after {record['plies']} decisions, A {record['score_a']}"
        )
        wins_a += record["score_a"] == 1.0
        if record["reason"] == "move-limit":
            capped += 1
            state = game.initial_state()
            for text in record["moves"]:
                state = state.apply(game.parse_move(state, text))
            sides = []
            for p in (0, 1):
                (c0, r0), (c1, r1) = grid.coord(state.lords[p]), grid.coord(towers[p])
                own = abs(c0 - c1) + abs(r0 - r1)
                sides.append(
                    f"Lord {p}: {own} from own tower, {lord_distance(state, p)} from enemy"
                )
            line += "; " + "; ".join(sides)
        print(line, flush=True)
    print(
        f"{args.a} vs {args.b}: {capped} of {args.games} games capped at {args.max_plies}"
        f" decisions, A won {wins_a}; {time.process_time() - start:.0f} s CPU"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
