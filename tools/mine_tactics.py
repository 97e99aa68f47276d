"""Mine the tactical suite: positions where ``hard`` must win or must defend.

Each position is proved with the solver (no search, no guess):

* ``win``: the side to move forces a win within 3 decisions; ``good`` lists
  every first move that keeps a forced win within 3 (the player must play one);
* ``defend``: the side to move has no forced win within 3, and some of its
  moves are lost (after the mover's whole turn the opponent forces a win within
  3 decisions, :class:`tablier.ai.tactics.TurnSafety`) while others are not;
  ``good`` lists the safe moves, ``bad`` the lost ones.  A position where any
  move stays unknown within the limits is left out.

Sources: the shipped puzzles of depth 3 or less (``tablier/ai/puzzle_data``)
and the last decisions of seeded self-play games (``--player``, both sides).
The files go to ``tests/ai/data/tactics/<name>.json`` (the puzzle files'
names), read by ``tests/ai/test_tactical_suite.py``::

    .venv/bin/python tools/mine_tactics.py                 # every game
    .venv/bin/python tools/mine_tactics.py --game xobo --games 6 --target 70
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tablier.ai.players import _prior_order, make_player
from tablier.ai.puzzles import data_file_name, load_shipped
from tablier.ai.solver import Solver
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.core.game import Game, State
from tablier.games import from_spec

FORMAT = "tablier-tactics/1"
DEPTH = 3
GAMES = [
    "volo:board=standard",
    "volo:board=mini",
    "xobo",
    "voldetour",
]
OUT = Path(__file__).resolve().parent.parent / "tests" / "ai" / "data" / "tactics"


def classify(state: State[Any], seconds: float) -> dict[str, Any] | None:
    """The suite entry of ``state``, or None (no tactic, or not proved within ``seconds``)."""
    game = state.game
    moves = state.legal_moves()
    if state.outcome is not None or len(moves) < 2:
        return None
    order = _prior_order(state)
    me = state.to_move
    deadline = time.perf_counter() + seconds
    solver = Solver(max_nodes=2_000_000, max_seconds=seconds, order=order)
    wins = solver.forces_win(state, me, DEPTH)
    if wins is None:
        return None
    text = state.to_text()
    if wins:
        good = []
        for m in moves:
            child = state.apply_unchecked(m)
            solver.max_seconds = deadline - time.perf_counter()
            if solver.max_seconds <= 0:
                return None
            won = solver.forces_win(child, me, DEPTH - 1)
            if won is None:
                return None
            if won:
                good.append(game.move_text(state, m))
        if len(good) == len(moves):
            return None  # every move wins: nothing to get wrong
        return {"position": text, "kind": "win", "good": good, "bad": []}
    safety = TurnSafety(DEPTH, nodes=2_000_000, turn_nodes=20_000, order=order)
    good, bad = [], []
    for m in moves:
        verdict = safety.fate(state, m, deadline)
        if verdict == SAFE:
            good.append(game.move_text(state, m))
        elif verdict == LOST:
            bad.append(game.move_text(state, m))
        else:
            return None
    if not good or not bad:
        return None
    return {"position": text, "kind": "defend", "good": good, "bad": bad}


def mine(
    game: Game[Any, Any],
    games: int,
    target: int,
    player: str,
    seconds: float,
    puzzles: int,
    tail: int = 16,
) -> list[dict[str, Any]]:
    """Up to ``puzzles`` entries from the shipped puzzles, then self-play until ``target``.

    Each self-play game is played to its end, then the positions of its last
    ``tail`` decisions are classified from the end backwards.
    """
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(entry: dict[str, Any] | None, source: str) -> None:
        if entry is not None and entry["position"] not in seen:
            seen.add(entry["position"])
            entries.append({**entry, "source": source})

    shallow = [p for p in load_shipped(game) if p.depth <= DEPTH]
    shallow.sort(key=lambda p: (-p.rating, p.id))
    for p in shallow[:puzzles]:
        add(classify(p.state(), seconds), f"puzzle:{p.id}")
    print(f"{game.spec}: {len(entries)} from puzzles", file=sys.stderr)
    for seed in range(games):
        if len(entries) >= target:
            break
        players = [make_player(player, game, seed=2 * seed + k) for k in range(2)]
        state = game.initial_state()
        history = []
        while state.outcome is None and len(history) < 400:
            history.append(state)
            state = state.apply(players[state.to_move].choose(state))
        # the last decisions hold the tactics: the winner's finish, the loser's last chances
        for ply in range(len(history) - 1, max(-1, len(history) - 1 - tail), -1):
            if len(entries) >= target:
                break
            add(classify(history[ply], seconds), f"selfplay:{player}:{seed}:{ply}")
        print(f"{game.spec}: {len(entries)} after game {seed}", file=sys.stderr)
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="game spec (default: the four games)")
    parser.add_argument("--games", type=int, default=8, help="self-play games at most")
    parser.add_argument("--target", type=int, default=70, help="positions per game")
    parser.add_argument("--puzzles", type=int, default=30, help="positions from puzzles at most")
    parser.add_argument("--player", default="medium:iterations=100,seconds=none")
    parser.add_argument("--seconds", type=float, default=8.0, help="proof time per position")
    parser.add_argument("--tail", type=int, default=16, help="last decisions of a game looked at")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in args.game or GAMES:
        game = from_spec(spec)
        entries = mine(
            game, args.games, args.target, args.player, args.seconds, args.puzzles, args.tail
        )
        data = {"format": FORMAT, "game": game.spec, "depth": DEPTH, "positions": entries}
        path = args.out / data_file_name(game)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        kinds = {k: sum(e["kind"] == k for e in entries) for k in ("win", "defend")}
        print(f"{path}: {len(entries)} positions {kinds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
