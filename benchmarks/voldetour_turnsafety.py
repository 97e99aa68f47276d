"""The whole-turn safety check on recorded Voldétour games, with and without the threat's aim.

Replays recorded matches (JSON lines as ``level_ladder.py``, ``tablier arena`` and
``voldetour_stalls.py --out`` write them) and, at each turn start of the players named by
``--player`` (all players without it; ``--every``: at each of their decisions) where the
enemy Lord stands at most ``--near`` squares from the mover's tower, checks the legal
decisions in the prior's order as ``hard``'s safety step does after its search
(:class:`tablier.ai.tactics.TurnSafety` with its budgets: 200 positions of the turn per
decision, 2 000 000 positions of the compiled proof search for the whole step; no time
limit, so the figures do not depend on the load) until one is proved safe.  Each position
is checked twice, with the game's ``defences`` hook (the check aimed at the opponent's
threat, docs/ai.md "Whole-turn safety") and without it, in alternating order.  For each
arm it prints how many positions had a decision proved safe, how many had every decision
proved lost, and how many ran out of budget first (*unknown*: there ``hard`` plays its
search's choice unproved), and the CPU time per position::

    .venv/bin/python benchmarks/voldetour_turnsafety.py --player hard \\
        ladder/voldetour-hard-medium.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any, cast

from tablier.ai.knowledge import Defences
from tablier.ai.players import LEVELS, _prior_order
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.games import from_spec
from tablier.games.voldetour import ai
from tablier.games.voldetour.rules import VState


def check(state: VState, defences: Defences | None) -> tuple[str, float]:
    """``safe``, ``lost`` or ``unknown`` for the position, as hard's step would find it,
    and the CPU time it took."""
    level = LEVELS["hard"]
    order = _prior_order(state)
    start = time.process_time()
    safety = TurnSafety(
        level.solver_depth,
        level.safety_nodes,
        order=order,
        clock=time.process_time,
        prove=ai.prove,
        prove_nodes=level.proof_nodes,
        defences=defences,
    )
    moves = state.legal_moves()
    lost = 0
    for move in order(state, moves) if order is not None else moves:
        if safety.solver.nodes > level.safety_nodes:
            break
        if safety.solver.proved_nodes >= level.proof_nodes:
            break
        verdict = safety.fate(state, move)
        if verdict == SAFE:
            return "safe", time.process_time() - start
        lost += verdict == LOST
    verdict = "lost" if lost == len(moves) else "unknown"
    return verdict, time.process_time() - start


def _positions(record: dict[str, Any], player: str | None, every: bool, near: int):
    game = from_spec(record["game"])
    specs = [record["first"], record["second"]]
    state = game.initial_state()
    before = None
    for text in record["moves"]:
        me = state.to_move
        start = before is None or before.to_move != me
        mine = player is None or specs[me].split(":")[0] == player
        # (the enemy Lord's squares from our tower)
        if (every or start) and mine and ai.lord_distance(state, 1 - me) <= near:
            yield state
        before = state
        state = state.apply(game.parse_move(state, text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--player", help="only this player's decisions (its spec's name)")
    parser.add_argument("--every", action="store_true", help="every decision, not turn starts")
    parser.add_argument(
        "--near", type=int, default=4, help="enemy Lord at most this far from the own tower"
    )
    args = parser.parse_args(argv)
    arms: dict[str, Defences | None] = {"aimed": cast(Defences, ai.defences), "plain": None}
    counts = {arm: {"safe": 0, "lost": 0, "unknown": 0} for arm in arms}
    times: dict[str, list[float]] = {arm: [] for arm in arms}
    differ = 0
    n = 0
    for path in args.files:
        with open(path, encoding="utf-8") as lines:
            records = [json.loads(line) for line in lines if line.strip()]
        for record in records:
            for state in _positions(record, args.player, args.every, args.near):
                names = list(arms) if n % 2 == 0 else list(reversed(arms))
                got = {}
                for arm in names:
                    got[arm], cpu = check(state, arms[arm])
                    counts[arm][got[arm]] += 1
                    times[arm].append(cpu)
                differ += got["aimed"] != got["plain"]
                n += 1
            print(f"{path} game {record['index']}: {n} positions so far", flush=True)
    if not n:
        print("no position checked")
        return 0
    for arm in arms:
        c, t = counts[arm], sorted(times[arm])
        print(
            f"{arm}: {n} positions: a safe decision in {c['safe']}, all lost in {c['lost']},"
            f" unknown in {c['unknown']}; CPU median {statistics.median(t) * 1000:.0f} ms,"
            f" 90% {t[int(0.9 * (len(t) - 1))] * 1000:.0f} ms, longest {t[-1]:.2f} s"
        )
    print(f"answers differ in {differ} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
