"""Winning turns in recorded Voldétour games: which the players took, which they missed,
and what the search for them (``tablier.games.voldetour.turnwin``) costs.

Replays recorded matches (JSON lines as ``level_ladder.py``, ``tablier arena`` and
``voldetour_stalls.py --out`` write them) and, at each turn start of the players
named by ``--player`` (all players without it) whose Lord stands at most
``turnwin.MAX_DISTANCE`` squares from the enemy tower, asks the search with the
levels' node budget (``--nodes``; no time limit, so the figures do not depend on
the load).  A turn start where it finds a win and the game did not end in that
turn is a *missed* win.  Prints one line per game and the totals: turn starts
searched, wins found (taken, missed), searches out of nodes, CPU time per search
(median, 90th percentile, longest)::

    .venv/bin/python benchmarks/voldetour_turnwins.py --player hard \\
        ladder/voldetour-hard-greedy.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from tablier.ai.players import LEVELS
from tablier.games import from_spec
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.ai import lord_distance
from tablier.games.voldetour.rules import VState


def _turn_starts(record: dict[str, Any]) -> list[tuple[int, VState, int]]:
    """``(decision index, state, index of the turn's last decision + 1)`` for each turn."""
    game = from_spec(record["game"])
    state = game.initial_state()
    states = [state]
    for text in record["moves"]:
        state = state.apply(game.parse_move(state, text))
        states.append(state)
    starts = []
    for i in range(len(states) - 1):
        if i == 0 or states[i - 1].to_move != states[i].to_move:
            j = i
            while j < len(states) - 1 and states[j].to_move == states[i].to_move:
                j += 1
            starts.append((i, states[i], j))
    return starts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--player", help="only this player's turns (its spec's name)")
    parser.add_argument(
        "--nodes", type=int, default=LEVELS["hard"].threat_nodes, help="hard's threat_nodes"
    )
    args = parser.parse_args(argv)
    times: list[float] = []
    searched = taken = missed = out = 0
    for path in args.files:
        with open(path, encoding="utf-8") as lines:
            records = [json.loads(line) for line in lines if line.strip()]
        for record in records:
            specs = [record["first"], record["second"]]
            game_missed: list[int] = []
            for i, state, end in _turn_starts(record):
                me = state.to_move
                if args.player and specs[me].split(":")[0] != args.player:
                    continue
                if state.outcome is not None or lord_distance(state, me) > turnwin.MAX_DISTANCE:
                    continue
                start = time.process_time()
                found = turnwin.search(state, args.nodes)
                times.append(time.process_time() - start)
                searched += 1
                out += found.limited
                if found.line is None:
                    continue
                won = end == len(record["moves"]) and record["reason"] == "tower"
                if won:
                    taken += 1
                else:
                    missed += 1
                    game_missed.append(i)
            print(
                f"{path} game {record['index']} ({specs[0]} – {specs[1]}, {record['reason']}"
                f" after {len(record['moves'])}): winning turns missed at decisions"
                f" {game_missed or 'none'}",
                flush=True,
            )
    if not times:
        print("no turn start searched")
        return 0
    times.sort()
    print(
        f"{searched} turn starts searched: {taken + missed} with a winning turn"
        f" ({taken} taken, {missed} missed), {out} out of nodes ({args.nodes});"
        f" CPU per search median {statistics.median(times) * 1000:.0f} ms,"
        f" 90% {times[int(0.9 * (len(times) - 1))] * 1000:.0f} ms, longest {times[-1]:.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
