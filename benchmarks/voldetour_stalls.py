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

With ``--summary FILE...`` it plays nothing and reads the capped games of recorded matches
(``level_ladder.py``'s, ``tablier arena``'s or ``--out``'s JSON lines): for each, the share of
the second half's decisions that each side's Lord spent next to its own tower and at the
towers' height, where it ended, its path distance and reserve then, what kind of stall it
is and how much of its second half is a cycle (turn starts that repeat an earlier one); and,
per player, the blockades where its Lord stayed at the top and ends with no stair left
(docs/ai.md, "Stalled games"); then, per pair of players, A's score (wins, draws, losses,
the Wilson 95% interval, Elo) and the sequential test on the complete game pairs (games
``2k`` and ``2k + 1``, one opening with each side first) with the bounds of ``--sprt``
(``0,108`` by default, those of docs/ai-strength.md)::

    .venv/bin/python benchmarks/voldetour_stalls.py --summary ladder/voldetour-*.jsonl

``--lord-weight W`` plays with the evaluation's Lord weight set to W for both players (the
weight before 2026-11-30 was 0; docs/ai.md, "The Lord's own squares").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablier.ai.arena import score_interval, sprt_result, summarise
from tablier.ai.match import play_game
from tablier.ai.players import MCTSPlayer, make_player
from tablier.core.errors import TablierError
from tablier.games import from_spec, get
from tablier.games.voldetour.ai import _set_lord_weight, lord_distance, path_distance, position_key
from tablier.games.voldetour.rules import VState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from voldetour_turns import recorded_line  # a benchmark beside this one


def play_on(
    start: VState, a: str, b: str, seed: int, max_plies: int, before: Sequence[VState] = ()
) -> dict[str, Any]:
    """Play on from ``start``, A as the side to move there; the record of the rest.

    ``before``: the positions of the game before ``start``, which the players remember as
    if they had played them (``MCTSPlayer.remember``: a level with ``repeat_draw`` scores
    their return as a draw).
    """
    mover = start.to_move
    specs = {mover: a, 1 - mover: b}
    players = {p: make_player(specs[p], start.game, seed=seed * 2 + p) for p in (0, 1)}
    for player in players.values():
        if isinstance(player, MCTSPlayer):
            for state in before:
                player.remember(state)
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


#: A Lord "idles at home" when it spends this share of the second half next to its own tower
#: while the enemy Lord keeps farther than ``NEAR`` squares from that tower (else it defends).
HOME_SHARE = 0.9
#: A Lord at most this many squares from the enemy tower at the end failed to finish.
NEAR = 3
#: A capped game is a *cycle* when this share of its second half's turn starts or more repeat
#: one met before in it.
CYCLE_SHARE = 0.5


def _squares(state: VState, a: int, b: int) -> int:
    (ca, ra), (cb, rb) = state.game.pieceset.grid.coord(a), state.game.pieceset.grid.coord(b)
    return abs(ca - cb) + abs(ra - rb)


def lords(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Where each side's Lord spent the second half of a recorded Voldétour game.

    Per player (0 = Black): ``home``, the share of the second half's positions with its
    Lord next to its own tower; ``enemy_near``, the share with the enemy Lord at most
    ``NEAR`` squares from that tower; ``own`` and ``enemy``, its squares from its own and
    from the enemy tower at the end; ``high``, the share of the second half with its Lord
    at the towers' height; ``walks``, the share of its turns ended in the second half that
    moved its Lord; and at the end ``height`` (its Lord's), ``path`` (its path distance),
    ``stairs`` and ``blocks`` (left in its reserve).
    """
    game = from_spec(record["game"])
    towers = game.pieceset.towers
    state = game.initial_state()
    moves = record["moves"]
    half = len(moves) // 2
    top = game.pieceset.tower_height
    home, near, high, counted = [0, 0], [0, 0], [0, 0], 0
    turns, walks, walked = [0, 0], [0, 0], False
    for i, text in enumerate(moves):
        mover = state.to_move
        move = game.parse_move(state, text)
        walked = walked or move.kind == "lord"
        state = state.apply(move)
        if state.to_move != mover:  # the mover's turn ended
            if i >= half:
                turns[mover] += 1
                walks[mover] += walked
            walked = False
        if i >= half:
            counted += 1
            for p in (0, 1):
                home[p] += _squares(state, state.lords[p], towers[p]) <= 1
                near[p] += _squares(state, state.lords[1 - p], towers[p]) <= NEAR
                high[p] += state.board.height(state.lords[p]) == top
    assert isinstance(state, VState)
    return [
        {
            "home": home[p] / max(1, counted),
            "enemy_near": near[p] / max(1, counted),
            "own": _squares(state, state.lords[p], towers[p]),
            "enemy": lord_distance(state, p),
            "high": high[p] / max(1, counted),
            "walks": walks[p] / max(1, turns[p]),
            "height": state.board.height(state.lords[p]),
            "path": path_distance(state, p),
            "stairs": state.reserve_stairs(p),
            "blocks": len(state.reserve_blocks(p)),
        }
        for p in (0, 1)
    ]


def repeats(record: dict[str, Any]) -> float:
    """The share of a recorded game's turn starts in its second half that repeat a turn start
    met before in it (the same pieces, Lords and player to move: a cycle)."""
    game = from_spec(record["game"])
    state = game.initial_state()
    moves = record["moves"]
    half = len(moves) // 2
    seen: set[int] = set()
    again = starts = 0
    for i, text in enumerate(moves):
        key = position_key(state)
        if key is not None:
            if i >= half:
                starts += 1
                again += key in seen
            seen.add(key)
        state = state.apply(game.parse_move(state, text))
    return again / max(1, starts)


def stranded(side: dict[str, Any]) -> bool:
    """A Lord that spent ``HOME_SHARE`` or more of the second half at the towers' height and
    ends with no stair left in its reserve: it can come down only by lifting one it has put."""
    return bool(side["high"] >= HOME_SHARE and side["stairs"] == 0)


def _idles(side: dict[str, Any]) -> bool:
    return bool(side["home"] >= HOME_SHARE and side["enemy_near"] < 0.5)


def kind(sides: list[dict[str, Any]]) -> str:
    """``home`` (a Lord idled next to its own tower, nobody near it), ``finish`` (a Lord
    ended within ``NEAR`` squares of the enemy tower) or ``blockade`` (neither)."""
    if any(_idles(s) for s in sides):
        return "home"
    if any(s["enemy"] <= NEAR for s in sides):
        return "finish"
    return "blockade"


class _Unreadable(Exception):
    """A record file ``--summary`` (or ``voldetour_finishes.py``) cannot read (named in the
    message)."""


def read_records(path: str) -> list[Any]:
    """The records of a JSON lines file; :class:`_Unreadable` naming the fault."""
    try:
        with open(path, encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]
    except (OSError, ValueError) as error:  # unreadable, or not JSON lines
        raise _Unreadable(f"{path}: {error}") from error


def _summary(paths: list[str], sprt: Sequence[float] = (0.0, 108.0)) -> int:
    kinds: dict[str, int] = {"home": 0, "finish": 0, "blockade": 0}
    matches: dict[tuple[str, str], list[dict[str, Any]]] = {}
    idlers: dict[str, int] = {}
    strandings: dict[str, int] = {}
    games = cycles = 0
    for path in paths:
        for record in read_records(path):
            games += 1
            if isinstance(record, dict) and "score_a" in record:
                try:
                    specs = [record["first"], record["second"]]
                    pair = (specs[0], specs[1]) if record["a_first"] else (specs[1], specs[0])
                except (KeyError, TypeError) as error:
                    raise _Unreadable(f"{path}: game {record.get('index')}: {error!r}") from error
                matches.setdefault(pair, []).append(record)
            if not isinstance(record, dict) or record.get("reason") != "move-limit":
                continue
            try:
                sides = lords(record)
                cycle = repeats(record)
                specs = [record["first"], record["second"]]
            except (KeyError, TypeError, AttributeError, TablierError) as error:
                # not a Voldétour game's record
                raise _Unreadable(f"{path}: game {record.get('index')}: {error!r}") from error
            what = kind(sides)
            kinds[what] += 1
            cycles += cycle >= CYCLE_SHARE
            for p, side in enumerate(sides):
                if _idles(side):
                    idlers[specs[p]] = idlers.get(specs[p], 0) + 1
                if what == "blockade" and stranded(side):
                    strandings[specs[p]] = strandings.get(specs[p], 0) + 1
            described = "; ".join(
                f"{specs[p]}: {100 * s['home']:.0f}% at home, ends {s['enemy']} from the"
                f" enemy tower"
                + (", defending" if s["enemy_near"] >= 0.5 else "")
                + f", {100 * s['high']:.0f}% at the top, walks in {100 * s['walks']:.0f}% of"
                f" its turns, ends at height {s['height']}, path distance {s['path']},"
                f" reserve {s['stairs']} stairs {s['blocks']} blocks"
                for p, s in enumerate(sides)
            )
            print(
                f"{Path(path).name} game {record['index']}: {what} ({described};"
                f" {100 * cycle:.0f}% of the second half's turn starts repeat one before)"
            )
    capped = sum(kinds.values())
    print(
        f"{capped} of {games} games capped: {kinds['home']} with a Lord idling at home,"
        f" {kinds['finish']} with a Lord near the enemy tower, {kinds['blockade']} blockades"
    )
    print(
        f"  cycles (a share of {CYCLE_SHARE:.0%} or more of the second half's turn starts"
        f" repeat one before): {cycles}"
    )
    for spec, count in sorted(idlers.items()):
        print(f"  idling at home: {spec} in {count}")
    for spec, count in sorted(strandings.items()):
        print(f"  blockades with {spec}'s Lord at the top, no stair left (stranded): {count}")
    for (a, b), rows in matches.items():
        try:
            summary = summarise(rows, a, b)
            test = sprt_result(rows, sprt)
        except (KeyError, TypeError, ValueError, TablierError) as error:
            raise _Unreadable(f"the games of {a} against {b}: {error!r}") from error
        low, high = score_interval(summary.score, summary.games)
        print(f"{summary.describe()}; score interval {100 * low:.1f}-{100 * high:.1f}%")
        print(f"  {test.describe()}")
    return 0


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
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="read recorded matches")
    parser.add_argument(
        "--sprt",
        default="0,108",
        metavar="ELO0,ELO1",
        help="the sequential test's bounds for --summary (default: 0,108)",
    )
    parser.add_argument(
        "--lord-weight",
        type=float,
        help="the evaluation's Lord weight for both players (default: its own, _LORD)",
    )
    args = parser.parse_args(argv)
    if args.lord_weight is not None:
        _set_lord_weight(args.lord_weight)
    if args.summary:
        try:
            bounds = [float(x) for x in args.sprt.split(",")]
            sprt_result([], bounds)  # (bounds it cannot take: an error now)
        except (ValueError, TablierError) as error:
            print(f"error: --sprt: {args.sprt!r}: {error}", file=sys.stderr)
            return 2
        try:
            return _summary(args.summary, bounds)
        except _Unreadable as error:
            print(f"error: cannot read the records in {error}", file=sys.stderr)
            return 2
    if args.record:
        return _play_on(args)
    game = get("voldetour", pieces=args.pieces)
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
            line += "; " + "; ".join(
                f"Lord {p}: {side['own']} from own tower, {side['enemy']} from enemy"
                for p, side in enumerate(lords(record))
            )
        print(line, flush=True)
    print(
        f"{args.a} vs {args.b}: {capped} of {args.games} games capped at {args.max_plies}"
        f" decisions, A won {wins_a}; {time.process_time() - start:.0f} s CPU"
    )
    return 0


def _play_on(args: argparse.Namespace) -> int:
    before = recorded_line(args.record, args.index, args.ply)
    start = before.pop()
    d0, d1 = path_distance(start, start.to_move), path_distance(start, 1 - start.to_move)
    print(f"from decision {args.ply} of game {args.index}: path distances A {d0}, B {d1}")
    capped = wins_a = 0
    cpu = time.process_time()
    for i in range(args.first, args.first + args.games):
        record = play_on(start, args.a, args.b, args.seed * 1000 + i, args.max_plies, before)
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
