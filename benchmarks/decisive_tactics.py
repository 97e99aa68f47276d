"""Where recorded games were decided: the move that walked into a forced loss, and its length.

Usage::

    python benchmarks/decisive_tactics.py FILE... [--depth 5] [--max-nodes 200000]

Reads recorded matches (JSON lines as ``tablier arena --out`` and
``benchmarks/level_ladder.py`` write them: ``game``, ``moves``, ``winner``, and
``first``/``second`` for the players) and, for every game with a winner, walks
back from its end with the solver (:class:`tablier.ai.solver.Solver`, ``--depth``
decisions, at most ``--max-nodes`` nodes per position; through the game's compiled
proof search where it has one, Volo's or XoBo's, with the same answers and a hundred times as
many of its positions) while the winner holds a proved forced win.  The first
position where it does not is the **turning point**; the move played there is
where the game was decided within the depth:

* **walked in**: the eventual loser was to move, had a move that avoided any
  forced loss within the depth (proved: the solver's answer there is "no forced
  win for either side"), and played one after which the winner forces a win in N
  decisions (N is printed; 0 when the move itself ended the game, e.g. by
  completing the opponent's flock; beyond 3 it is deeper than the tactical
  checks of ``hard`` and ``expert``, docs/ai.md);
* **found**: the winner was to move and its move created the forced win (the
  loser's earlier moves lost more slowly than the depth sees);
* **unproved**: as "walked in", but the solver hit ``--max-nodes`` there, so
  the loser's escape is not proved.

The summary counts the turning points by kind and forced length, and by the
player who made the move, so that "the games are decided by tactics neither
level sees" is a figure with a command (docs/ai-strength.md).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from tablier.ai.knowledge import knowledge_for
from tablier.ai.solver import Solver
from tablier.games import from_spec


def turning_point(game: Any, moves: list[str], winner: int, depth: int, nodes: int) -> dict:
    """The decision where a won game was decided within ``depth`` (see the module docstring).

    Returns ``{"ply", "mover", "kind", "forced"}``: the index of that decision, the
    player who made it, ``walked in`` / ``found`` / ``unproved``, and the decisions of
    the winner's forced line right after it."""
    states = [game.initial_state()]
    for text in moves:
        states.append(states[-1].apply(game.parse_move(states[-1], text)))
    forced = 0  # the decisions of the winner's forced line after the move looked at
    for i in range(len(moves) - 1, -1, -1):
        state = states[i]
        prove = knowledge_for(game).prove
        solver = Solver(max_nodes=nodes, prove=prove, prove_nodes=100 * nodes)
        result = solver.solve(state, depth)
        if result.status in ("win", "loss") and result.winner == winner:
            forced = result.plies or 0
            continue
        if state.to_move == winner:
            kind = "found"
        elif result.aborted or result.status != "unknown":
            kind = "unproved"
        else:
            kind = "walked in"
        return {"ply": i, "mover": state.to_move, "kind": kind, "forced": forced}
    return {"ply": 0, "mover": states[0].to_move, "kind": "found", "forced": forced}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="JSON-lines records of matches")
    parser.add_argument("--depth", type=int, default=5, help="the solver's decisions")
    parser.add_argument("--max-nodes", type=int, default=200_000, help="per position")
    args = parser.parse_args(argv)
    kinds: Counter[tuple[str, int]] = Counter()
    movers: Counter[tuple[str, str]] = Counter()
    for path in args.files:
        with open(path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        for record in records:
            if record.get("winner") is None:
                continue
            game = from_spec(record["game"])
            found = turning_point(
                game, record["moves"], record["winner"], args.depth, args.max_nodes
            )
            names = (record.get("first", "first"), record.get("second", "second"))
            who = names[found["mover"]]
            kinds[(found["kind"], found["forced"])] += 1
            movers[(found["kind"], who)] += 1
            print(
                f"{path} game {record.get('index', '?')}: {len(record['moves'])} decisions, "
                f"won by {names[record['winner']]}; decision {found['ply']} by {who}: "
                f"{found['kind']}, forced in {found['forced']}",
                flush=True,
            )
    print(f"| turning point | forced line (decisions, depth {args.depth}) | games |")
    print("|---|---|---|")
    for (kind, forced), count in sorted(kinds.items(), key=lambda kv: kv[0]):
        print(f"| {kind} | {forced} | {count} |")
    print("| turning point | made by | games |")
    print("|---|---|---|")
    for (kind, who), count in sorted(movers.items()):
        print(f"| {kind} | {who} | {count} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
