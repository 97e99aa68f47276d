"""How much a search's root separates its moves, as its budget grows.

Usage::

    python benchmarks/root_spread.py [--game volo] [--positions 6] [--plies 20,40]
        [--budgets 2500,10000,40000] [--player hard] [--settings ",exploration=0.3"]
        [--seed 1]

A search that gets more simulations is only stronger where its values tell the
moves apart.  For ``--positions`` start seeds and each number of ``--plies``,
this reaches a position by ``greedy`` with a fifth of its decisions random
(seeded), then searches it with ``PLAYER:iterations=B,seconds=none`` for every
budget ``B`` (the tactical steps before and after the search off, so that the
figures are the search's own; ``--settings`` adds player settings, e.g.
``,exploration=0.3``).  For each search it notes:

* **share**: the most visited root move's share of the root's visits (1/number
  of moves when the visits are spread evenly, near 1 when the search has made
  up its mind);
* **spread**: the best root move's score minus the tenth best's (or the last's
  when there are fewer), in points of the 0–100% win estimate;
* **same**: whether the search chose the move that the largest budget chose.

The table gives, per budget, the medians of share and spread and how often the
choice was the largest budget's.  Flat values (a small spread that does not grow
with the budget) mean that more search buys little: its choice among the best
moves is close to a draw of lots.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import tablier.games
from tablier.ai.players import MCTSPlayer, make_player

#: The tenth best move's score is the spread's floor (fewer moves: the last one's).
RANK = 10


def position(game: Any, seed: int, plies: int) -> Any:
    """The position after ``plies`` decisions of greedy play with 20% random ones."""
    rng = random.Random(seed)
    greedy = make_player("greedy", game, seed=seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.is_terminal:
            break
        legal = state.legal_moves()
        state = state.apply(greedy.choose(state) if rng.random() < 0.8 else rng.choice(legal))
    return state


def measure(state: Any, game: Any, spec: str) -> tuple[str, float, float]:
    """``(chosen move, share, spread)`` of one search of ``spec`` on ``state``."""
    player = make_player(spec, game, seed=1)
    assert isinstance(player, MCTSPlayer)
    move = player.choose(state)
    stats = player.last_analysis
    visits = sum(s.visits for s in stats)
    share = stats[0].visits / visits if visits else 1.0
    scores = sorted((s.score for s in stats), reverse=True)
    spread = 100 * (scores[0] - scores[min(RANK, len(scores)) - 1]) if scores else 0.0
    return str(move), share, spread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="volo", help="a game spec, e.g. volo:board=mini")
    parser.add_argument("--positions", type=int, default=6, help="start seeds")
    parser.add_argument("--plies", default="20,40", help="decisions before each position")
    parser.add_argument("--budgets", default="2500,10000,40000", help="simulations per search")
    parser.add_argument("--player", default="hard", help="the level searched with")
    parser.add_argument("--settings", default="", help="extra settings, e.g. ,exploration=0.3")
    parser.add_argument("--seed", type=int, default=1, help="the first start seed")
    args = parser.parse_args()
    game = tablier.games.from_spec(args.game)
    budgets = [int(b) for b in args.budgets.split(",")]
    plies = [int(p) for p in args.plies.split(",")]
    rows: dict[int, list[tuple[float, float, bool]]] = {b: [] for b in budgets}
    print(f"{game.spec}: {args.player}{args.settings}, budgets {budgets}")
    for seed in range(args.seed, args.seed + args.positions):
        for n in plies:
            state = position(game, seed, n)
            if state.is_terminal or len(state.legal_moves()) < 2:
                continue
            found = {
                b: measure(
                    state,
                    game,
                    f"{args.player}:iterations={b},seconds=none,safety_checks=0,"
                    f"solver_depth=0{args.settings}",
                )
                for b in budgets
            }
            final = found[budgets[-1]][0]
            cells = []
            for b, (move, share, spread) in found.items():
                rows[b].append((share, spread, move == final))
                cells.append(f"{b}: {move} {share:.2f} {spread:.1f}")
            print(
                f"  seed {seed}, {n} plies, {len(state.legal_moves())} moves: " + " | ".join(cells),
                flush=True,
            )
    print("| simulations | positions | share (median) | spread, points (median) | same move |")
    print("|---|---|---|---|---|")
    for b in budgets:
        got = rows[b]
        if not got:
            continue
        share = statistics.median(r[0] for r in got)
        spread = statistics.median(r[1] for r in got)
        same = sum(r[2] for r in got)
        print(f"| {b} | {len(got)} | {share:.3f} | {spread:.1f} | {same} of {len(got)} |")


if __name__ == "__main__":
    main()
