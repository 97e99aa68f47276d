"""Voldétour games between AIs that stall until the decision cap, and where their Lords idle.

Plays ``--games`` games of A against B (colours alternating, two random opening
decisions, :func:`tablier.ai.match.play_game`) at a fixed simulation budget and
counts the games adjudicated at ``--max-plies`` decisions (``move-limit``).  For
each capped game it prints, per side, the Lord's square and its Manhattan distance to
its own tower and to the enemy tower at the end: a Lord idling next to its own tower
is the defect this measures (docs/ai.md, "Stalled games")::

    .venv/bin/python benchmarks/voldetour_stalls.py --games 20 \\
        --a "hard:iterations=100,seconds=none" --b "medium:iterations=100,seconds=none"

With ``--record FILE --index I --ply N`` it plays on instead from decision N of a recorded
game (JSON lines as ``level_ladder.py`` and ``--out`` write them): A takes the side to move
there, each of the ``--games`` games with other seeds, at most ``--max-plies`` decisions
more; that is how a stalled endgame is checked (docs/ai.md, "Stalled games")::

    .venv/bin/python benchmarks/voldetour_stalls.py --games 4 --record ladder.jsonl \\
        --index 0 --ply 880 --a hard --b medium
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tablier.ai.match import play_game
from tablier.ai.players import make_player
from tablier.games import get
from tablier.games.voldetour.ai import lord_distance, path_distance
from tablier.games.voldetour.rules import VState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from voldetour_turns import recorded  # a benchmark beside this one


def play_on(start: VState, a: str, b: str, seed: int, max_plies: int) -> dict[str, Any]:
    """Play on from ``start``, A as the side to move there; the record of the rest."""
    mover = start.to_move
    specs = {mover: a, 1 - mover: b}
    players = {p: make_player(specs[p], start.game, seed=seed * 2 + p) for p in (0, 1)}
    state, moves = start, []
    while state.outcome is None and len(moves) < max_plies:
        move = players[state.to_move].choose(state)
        moves.append(str(move))
        state = state.apply(move)
    outcome = state.outcome
    winner = None if outcome is None else outcome.winner
    return {
        "moves": moves,
        "plies": len(moves),
        "reason": "move-limit" if outcome is None else outcome.reason,
        "score_a": 0.5 if winner is None else float(winner == mover),
        "distances": [path_distance(state, mover), path_distance(state, 1 - mover)],
    }


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
    parser.add_argument("--record", help="play on from a recorded game (JSON lines)")
    parser.add_argument("--index", type=int, default=0, help="the game's index in --record")
    parser.add_argument("--ply", type=int, default=0, help="decisions of it to replay")
    args = parser.parse_args(argv)
    if args.record:
        return _play_on(args)
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


def _play_on(args: argparse.Namespace) -> int:
    start = recorded(args.record, args.index, args.ply)
    d0, d1 = path_distance(start, start.to_move), path_distance(start, 1 - start.to_move)
    print(f"from decision {args.ply} of game {args.index}: path distances A {d0}, B {d1}")
    capped = wins_a = 0
    cpu = time.process_time()
    for i in range(args.first, args.first + args.games):
        record = play_on(start, args.a, args.b, args.seed * 1000 + i, args.max_plies)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps({"index": i, "from_ply": args.ply, **record}) + "\n")
        capped += record["reason"] == "move-limit"
        wins_a += record["score_a"] == 1.0
        a_end, b_end = record["distances"]
        print(
            f"game {i}: {record['reason']} after {record['plies']} more decisions,"
            f" A {record['score_a']}; path distances then A {a_end}, B {b_end}",
            flush=True,
        )
    print(
        f"{args.a} vs {args.b}: {capped} of {args.games} games capped at {args.max_plies}"
        f" more decisions, A won {wins_a}; {time.process_time() - cpu:.0f} s CPU"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
