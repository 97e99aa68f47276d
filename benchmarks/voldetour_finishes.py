"""Why a Voldétour Lord near the enemy tower does not finish: the capped games of recorded matches.

For each game of the files that ended at the decision limit (reason ``move-limit``), and each
side whose Lord ended at most ``--near`` squares from the enemy tower, replays the game to that
side's last turn start and prints what its path distance
(:func:`~tablier.games.voldetour.ai.path_distance`, what the evaluation reads) says there:

* ``path``: the path distance, the other Lord crossed as though it would step aside;
* ``wall``: the same with the other Lord's square a wall (it stays where it is; a defender
  beside its own tower need never move), and whether that Lord stands beside its tower at the
  tower's height, where every way in may have to pass it;
* ``one piece``: the least of that second path distance (the other Lord a wall) after one
  turn that moves at most one piece (taken from the reserve or lifted from the board, then
  put) and ends with the Lord's move or ``end``, and how many such turns there are;
* with ``--full``, the same over every turn (each sequence of the side's decisions: six
  million in game 7 of the 2026-12-01 ``hard``–``random`` record, a minute of CPU; more
  where more pieces are free).

Where ``wall`` is above ``path`` the evaluation sees the Lord nearer than it is; where the
turns lower ``wall`` and the game still stalled, the search did not find them.
The JSON lines are those ``level_ladder.py``, ``tablier arena`` and
``voldetour_stalls.py --out`` write::

    .venv/bin/python benchmarks/voldetour_finishes.py \\
        benchmarks/records/2026-11-30-voldetour-hard-normalize-greedy.jsonl --full

With ``--progress`` it reads every game instead and asks, at each turn start of the player
named by ``--player`` (its spec's name; default both) whose Lord is within reach of the enemy
tower, what the levels' ``threat_turn`` step answers there (``turnwin.threat`` with
``hard``'s ``threat_turn_nodes``, no time limit: the figures do not depend on the load): a
threat, a progress turn (docs/ai.md "Progress turns": asked with ``progress``, an answer
where there is no threat) or nothing; how often each, and at which decisions the progress
turns. Without a time limit these counts are what the step finds, an upper bound on what the
level plays, which gives the step a tenth of its budget; ``--seconds`` gives each question
that much CPU time, as the level does (0.17 s for ``hard``), and ``--index`` reads only the
games of those indices::

    .venv/bin/python benchmarks/voldetour_finishes.py --progress --player hard \\
        benchmarks/records/2026-11-30-voldetour-hard-normalize-medium.jsonl
    .venv/bin/python benchmarks/voldetour_finishes.py --progress --player hard \\
        --seconds 0.17 --index 38 \\
        benchmarks/records/2026-12-01-voldetour-hard-medium-progress.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import Any

from tablier.ai.players import LEVELS
from tablier.core.errors import TablierError
from tablier.games import from_spec
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.ai import _distance, lord_distance, path_distance
from tablier.games.voldetour.rules import VState

# a benchmark beside this one; NEAR: the most squares from the enemy tower at which a Lord
# is asked about (a Lord that near failed to finish)
from voldetour_stalls import NEAR, _Unreadable, read_records


def turn_ends(state: VState, pieces: int | None) -> Iterator[VState]:
    """The positions after each way the mover can end its turn from ``state`` (games won
    included), moving at most ``pieces`` pieces (``None``: any)."""
    me = state.to_move
    for move in state.legal_moves():
        if move[0] == "T" and pieces is not None and pieces <= 0:
            continue
        after = state.apply_unchecked(move)
        if after.to_move != me or after.outcome is not None:
            yield after
        else:
            left = pieces - 1 if pieces is not None and move[0] == "T" else pieces
            yield from turn_ends(after, left)


def best_end(state: VState, pieces: int | None, walls: int = 0) -> tuple[int, int]:
    """The least path distance of the mover (with ``walls``) after one of its turns from
    ``state`` (0 for a turn that wins), and how many ways to end the turn there are."""
    me = state.to_move
    best, count = None, 0
    for after in turn_ends(state, pieces):
        count += 1
        won = after.outcome is not None and after.outcome.winner == me
        distance = 0 if won else path_distance(after, me, walls)
        best = distance if best is None else min(best, distance)
    return (-1 if best is None else best), count


def last_turn_starts(record: dict[str, Any]) -> dict[int, VState]:
    """Each player's last turn start in a recorded game."""
    game = from_spec(record["game"])
    state = game.initial_state()
    starts = {state.to_move: state}
    for text in record["moves"]:
        mover = state.to_move
        state = state.apply(game.parse_move(state, text))
        if state.outcome is None and state.to_move != mover:
            starts[state.to_move] = state
    return starts


def finishes(record: dict[str, Any], near: int, full: bool) -> list[dict[str, Any]]:
    """What the path distance says at the last turn start of each side of a capped game whose
    Lord ended at most ``near`` squares from the enemy tower (see the module docstring)."""
    rows = []
    names = [record["first"], record["second"]]
    for player, state in sorted(last_turn_starts(record).items()):
        if lord_distance(state, player) > near:
            continue
        ps = state.game.pieceset
        other = state.lords[1 - player]
        guard = _distance(ps.grid, other, ps.towers[1 - player]) == 1 and (
            state.board.height(other) == ps.tower_height
        )
        row: dict[str, Any] = {
            "player": player,
            "name": names[player],
            "squares": lord_distance(state, player),
            "path": path_distance(state, player),
            "wall": path_distance(state, player, 1 << other),
            "guard": guard,
        }
        row["one_piece"], row["one_piece_turns"] = best_end(state, 1, 1 << other)
        if full:
            began = time.process_time()
            row["any"], row["any_turns"] = best_end(state, None, 1 << other)
            row["any_seconds"] = round(time.process_time() - began, 1)
        rows.append(row)
    return rows


def _report(path: str, near: int, full: bool, counts: dict[str, int]) -> None:
    for number, record in enumerate(read_records(path)):
        if not isinstance(record, dict) or record.get("reason") != "move-limit":
            continue
        counts["capped"] += 1
        try:
            rows = finishes(record, near, full)
        except (KeyError, TypeError, AttributeError, TablierError) as error:
            raise _Unreadable(f"{path}: game {record.get('index')}: {error!r}") from error
        for row in rows:
            counts["asked"] += 1
            counts["walled"] += row["wall"] > row["path"]
            counts["lowered"] += row["one_piece"] < row["wall"]
            text = (
                f"{path} game {record.get('index', number)}: {row['name']} "
                f"{row['squares']} from the tower, path {row['path']}, wall {row['wall']}"
                f"{' (the other Lord on guard)' if row['guard'] else ''}, one piece "
                f"{row['one_piece']} ({row['one_piece_turns']} turns)"
            )
            if full:
                counts["lowered_any"] += row["any"] < row["wall"]
                text += f", any turn {row['any']} ({row['any_turns']} turns, "
                text += f"{row['any_seconds']} s)"
            print(text, flush=True)


def progress_turns(
    record: dict[str, Any], player: str | None, nodes: int, seconds: float | None = None
) -> tuple[int, int, list[int]]:
    """At the turn starts of ``player`` (a spec's name; None: both) whose Lord is within
    reach of the enemy tower: how many were asked, how many had a threat, and the decisions
    where the answer was a progress turn (each question within ``seconds`` of CPU time,
    ``None``: no limit)."""
    specs = [record["first"], record["second"]]
    game = from_spec(record["game"])
    state = game.initial_state()
    asked = threats = 0
    progress: list[int] = []
    for i, text in enumerate([*record["moves"], None]):
        me = state.to_move
        start = state.hand is None and state.done == 0 and state.outcome is None
        mine = player is None or specs[me].split(":")[0] == player
        if start and mine and lord_distance(state, me) <= turnwin.MAX_DISTANCE + 3:
            asked += 1
            if turnwin.threat(state, nodes, seconds) is not None:
                threats += 1
            elif turnwin.threat(state, nodes, seconds, progress=True) is not None:
                progress.append(i)
        if text is None:
            break
        state = state.apply(game.parse_move(state, text))
    return asked, threats, progress


def _progress(
    paths: list[str],
    player: str | None,
    nodes: int,
    seconds: float | None = None,
    indices: list[int] | None = None,
) -> int:
    asked = threats = offered = games = 0
    for path in paths:
        for number, record in enumerate(read_records(path)):
            if not isinstance(record, dict):
                raise _Unreadable(f"{path}: record {number + 1} is not a game's")
            if indices and record.get("index", number) not in indices:
                continue
            try:
                n, t, progress = progress_turns(record, player, nodes, seconds)
            except (KeyError, TypeError, AttributeError, TablierError) as error:
                raise _Unreadable(f"{path}: game {record.get('index')}: {error!r}") from error
            asked, threats, offered = asked + n, threats + t, offered + len(progress)
            games += bool(progress)
            print(
                f"{path} game {record.get('index', number)} ({record.get('reason')} after "
                f"{len(record['moves'])}): {n} asked, {t} threats, progress turns at "
                f"{progress or 'none'}",
                flush=True,
            )
    print(
        f"{asked} turn starts asked: {threats} threats, {offered} progress turns (in {games} games)"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--near", type=int, default=NEAR, help="squares from the enemy tower")
    parser.add_argument("--full", action="store_true", help="also every turn (slow)")
    parser.add_argument(
        "--progress", action="store_true", help="count the threat and progress turns instead"
    )
    parser.add_argument("--player", help="with --progress: only this player's turn starts")
    parser.add_argument(
        "--nodes",
        type=int,
        default=LEVELS["hard"].threat_turn_nodes,
        help="with --progress: positions per search (default: hard's threat_turn_nodes)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        help="with --progress: CPU seconds per question (default: no limit)",
    )
    parser.add_argument(
        "--index",
        type=int,
        action="append",
        help="with --progress: only the game of this index (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.progress:
        try:
            return _progress(args.files, args.player, args.nodes, args.seconds, args.index)
        except _Unreadable as error:
            print(f"error: cannot read the records in {error}", file=sys.stderr)
            return 2
    counts = dict.fromkeys(("capped", "asked", "walled", "lowered", "lowered_any"), 0)
    for path in args.files:
        try:
            _report(path, args.near, args.full, counts)
        except _Unreadable as error:
            print(f"error: cannot read the records in {error}", file=sys.stderr)
            return 2
    summary = (
        f"{counts['capped']} capped games, {counts['asked']} Lords near the enemy tower: the "
        f"other Lord a wall for {counts['walled']}, a one-piece turn lowering the path "
        f"distance with that wall for {counts['lowered']}"
    )
    if args.full:
        summary += f", any turn for {counts['lowered_any']}"
    print(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
