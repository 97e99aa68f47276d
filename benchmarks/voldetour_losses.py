"""Where Voldétour games were lost: the loser's last turn starts, checked with large budgets.

Replays recorded matches (JSON lines as ``level_ladder.py``, ``tablier arena`` and
``voldetour_stalls.py --out`` write them) and, for each game that the player named by
``--player`` (its spec's name) lost at the tower, goes back over its last ``--turns`` turn
starts, latest first.  At each it checks the whole-turn safety
(:class:`tablier.ai.tactics.TurnSafety`, the check ``hard`` and ``expert`` run after their
search) with budgets ``--scale`` times theirs, ``--danger-nodes`` positions for each look
one turn further (the ``unstoppable`` hook's; the levels give it 1,000) and no time limit,
so the figures do not depend on the load: the turn the loser played there, whole
(*played*: the position after its last decision), and, in the game's prior order, the
legal first decisions until one is proved safe (*any*).  Each is
``safe`` (a way of ending the turn leaves the winner no win within three decisions and no
turn that nothing stops), ``lost`` (every way does) or ``unknown`` (the budgets ran out)::

    .venv/bin/python benchmarks/voldetour_losses.py --player expert \\
        benchmarks/records/2026-11-30-voldetour-expert-hard.jsonl

A turn where *played* is lost and *any* is safe is a defence the loser had within one
turn and did not play: the level's own checks, with its budgets and time, did not find
it or trusted a fallback.  Where *any* is lost at every turn start checked, the game was
lost earlier than the checks look, by plans of several turns.  The totals count, for each
game, the latest turn start whose *any* is safe (how many turns before the end the loser
last had a defence the check finds), the CPU time per check, and the winning turns by
their number of decisions (each game's line ends with the winner's last turn), with how
many stood a stair up and put a block on it (a low square raised for the Lord).

With ``--replay SPEC`` (repeatable), at each last turn start where the turn played is lost
and a defence was found, each player given plays that turn again, with its real time
budget (the players' order alternating from one position to the next), and the script
counts the turns after which the winner has a winning turn at once (found within
``--judge-nodes`` positions): how often a level would have walked into the same loss::

    .venv/bin/python benchmarks/voldetour_losses.py --player expert --turns 1 \
        --danger-nodes 20000 --replay expert --replay expert:unstoppable_nodes=20000 \
        benchmarks/records/2026-11-30-voldetour-expert-hard.jsonl

With ``--every-end SECONDS`` each last turn start is also asked exhaustively
(:func:`every_end`): every distinct way the loser could end that turn, and whether the
winner then has a winning turn.  Where each has one, the position was *proved lost* before
the loser's last turn, and the turn that lost the game was an earlier one, which the
safety check had called safe.  Millions of ends on the default board, minutes each::

    .venv/bin/python benchmarks/voldetour_losses.py --player expert --turns 1 \
        --danger-nodes 20000 --every-end 900 --judge-nodes 50000 --limit 3 \
        benchmarks/records/2026-12-01-voldetour-expert-hard-stopped.jsonl

With ``--lasting NODES`` the script does something else: in every game the player played,
won or lost, it asks the ``lasting_threat`` question (:func:`turnwin.lasting`, the look
``expert``'s checks take since 2026-12-02) of the opponent after each of the player's turns
but its last, and counts the turns after which it answers (the opponent has a threat that
none of the player's turns tried answers), in the games lost and in the games won::

    .venv/bin/python benchmarks/voldetour_losses.py --player expert --lasting 2000 \
        benchmarks/records/2026-12-01-voldetour-expert-hard-stopped.jsonl

With ``--sample-ends N`` it does something else again: at the start of the loser's turn
before last in each lost game (``--games``, ``--first``, ``--limit``), it draws N of the
distinct ways that turn could end (``--seed``) and asks each whether the winner then wins at
once (``--judge-nodes`` positions) or, if not, has a lasting threat (``--lasting`` positions,
2,000 by default): where every end drawn answers one of the two, the loser's turn before
last had no defence either, and the game was very likely lost a turn earlier still (a
sample, not a proof)::

    .venv/bin/python benchmarks/voldetour_losses.py --player expert --sample-ends 200 \\
        --judge-nodes 1000 --seed 1 --games 6,10,13 \\
        benchmarks/records/2026-12-02-voldetour-expert-hard-lasting.jsonl

A file that cannot be read, or a lost game that cannot be replayed, stops the script with
one line naming it (exit 2), as ``voldetour_stalls.py --summary`` does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from tablier.ai.players import LEVELS, _danger, _prior_order, make_player
from tablier.ai.tactics import LOST, SAFE, UNKNOWN, TurnSafety
from tablier.core.errors import TablierError
from tablier.games import from_spec
from tablier.games.voldetour import ai, turnwin
from tablier.games.voldetour.rules import VState

# a benchmark beside this one: the record files read as its --summary reads them
from voldetour_stalls import _Unreadable, read_records


def turns(record: dict[str, Any], side: int) -> list[list[tuple[VState, str]]]:
    """Each turn of ``side``, in game order: its decisions, each ``(state, decision)``."""
    game = from_spec(record["game"])
    state = game.initial_state()
    before: VState | None = None
    played: list[list[tuple[VState, str]]] = []
    for text in record["moves"]:
        if state.to_move == side:
            if before is None or before.to_move != side:
                played.append([])
            played[-1].append((state, text))
        before = state
        state = state.apply(game.parse_move(state, text))
    return played


def lost_games(path: str, player: str) -> Iterator[tuple[dict[str, Any], int]]:
    """The games of the record file ``path`` that ``player`` (a spec's name) lost at the
    tower, each with the loser's side; :class:`_Unreadable` naming the file or the game
    that cannot be read or replayed (each game is replayed once here)."""
    for record, side in played_games(path, player):
        winner = record.get("winner")
        if record.get("reason") != "move-limit" and winner is not None and winner != side:
            yield record, side


def played_games(path: str, player: str) -> Iterator[tuple[dict[str, Any], int]]:
    """Every game of the record file ``path`` that ``player`` (a spec's name) played, each
    with its side; :class:`_Unreadable` as :func:`lost_games`."""
    for record in read_records(path):
        index = record.get("index") if isinstance(record, dict) else None
        try:
            names = [spec.split(":")[0] for spec in (record["first"], record["second"])]
            if player not in names:
                continue
            side = names.index(player)
            turns(record, side)
            if not {"index", "plies"} <= record.keys():
                raise KeyError("index or plies")
        except (KeyError, TypeError, AttributeError, ValueError, TablierError) as error:
            raise _Unreadable(f"{path}: game {index}: {error!r}") from error
        yield record, side


def winning_turn(record: dict[str, Any]) -> list[str]:
    """The decisions of the winner's last turn."""
    return [text for _state, text in turns(record, record["winner"])[-1]]


def over_a_low_square(turn: list[str]) -> bool:
    """Whether ``turn`` stands a stair up (``:u``) and puts a block on a piece one level
    up (``+1``): a low square raised by two for the Lord to walk over."""
    return any(t.startswith("S@") and t.endswith(":u") for t in turn) and any(
        t.startswith("B") and "+1:" in t for t in turn
    )


def checker(state: VState, scale: int, danger_nodes: int) -> TurnSafety:
    """The safety check of ``hard``'s level with its budgets ``scale`` times larger, and
    ``danger_nodes`` positions for each question of the ``unstoppable`` hook."""
    level = LEVELS["hard"]
    danger = _danger(state, danger_nodes)
    return TurnSafety(
        level.solver_depth,
        level.safety_nodes * scale,
        turn_nodes=200 * scale,
        order=_prior_order(state),
        clock=time.process_time,
        prove=ai.prove,
        prove_nodes=level.proof_nodes * scale,
        defences=ai.defences,
        danger=danger,
        danger_calls=32 * scale,  # (TurnSafety's default is 32)
    )


def check(turn: list[tuple[VState, str]], scale: int, danger_nodes: int) -> tuple[str, str, float]:
    """The fate of the turn played (that of its last decision: the position after the whole
    turn), of the best first decision found at its start, and the CPU seconds both took."""
    start = time.process_time()
    last, played = turn[-1]
    fate_played = checker(last, scale, danger_nodes).fate(last, last.game.parse_move(last, played))
    state = turn[0][0]
    if fate_played == SAFE:
        return SAFE, SAFE, time.process_time() - start
    others = checker(state, scale, danger_nodes)
    order = _prior_order(state)
    moves = state.legal_moves()
    lost = 0
    for other in order(state, moves) if order is not None else moves:
        verdict = others.fate(state, other)
        if verdict == SAFE:
            return fate_played, SAFE, time.process_time() - start
        lost += verdict == LOST
    return fate_played, LOST if lost == len(moves) else UNKNOWN, time.process_time() - start


class Ends(NamedTuple):
    """What :func:`every_end` found: the distinct positions the turn can end at (``ends``),
    those after which no winning turn of the opponent's was found (``held``; a turn that
    wins the game holds), whether every end was reached (``complete``; False: stopped by
    the time) and the CPU seconds spent."""

    ends: int
    held: int
    complete: bool
    seconds: float


def distinct_ends(state: VState) -> Iterator[VState]:
    """Every position the mover can end its turn in from ``state`` (games won included),
    each once: positions reached twice within the turn are followed once."""
    me = state.to_move
    seen: set[VState] = set()
    stack = [state]
    while stack:
        here = stack.pop()
        for move in here.legal_moves():
            after = here.apply_unchecked(move)
            if after in seen:
                continue
            seen.add(after)
            if after.outcome is None and after.to_move == me:
                stack.append(after)
            else:
                yield after


def every_end(state: VState, judge_nodes: int, seconds: float | None = None) -> Ends:
    """Every way the mover can end its turn from ``state`` (:func:`distinct_ends`), each
    asked whether the opponent then has a winning turn (:func:`turnwin.search` within
    ``judge_nodes`` positions).

    A win found is a proof, so ``complete`` with ``held == 0`` proves ``state`` lost: every
    turn leaves the opponent a winning turn, and the game was lost before this turn.  A win
    not found within the positions counts as held, which can only make that claim rarer.
    At most ``seconds`` of CPU time (``None``: no limit).
    """
    me = state.to_move
    start = time.process_time()
    ends = held = 0
    for after in distinct_ends(state):
        if seconds is not None and time.process_time() - start > seconds:
            return Ends(ends, held, False, time.process_time() - start)
        ends += 1
        if after.outcome is not None:
            held += after.outcome.winner == me
        elif turnwin.search(after, judge_nodes).line is None:
            held += 1
    return Ends(ends, held, True, time.process_time() - start)


class Sampled(NamedTuple):
    """What :func:`sample_ends` found: the turn's distinct ``ends``, how many were
    ``sampled``, of those how many the mover ``won``, after how many the opponent wins
    ``at_once`` (a winning turn found) or has a ``lasting`` threat, and the CPU seconds."""

    ends: int
    sampled: int
    won: int
    at_once: int
    lasting: int
    seconds: float


def sample_ends(
    state: VState, count: int, seed: int, judge_nodes: int, lasting_nodes: int
) -> Sampled:
    """``count`` of the distinct ends of the mover's turn from ``state``, drawn at random
    (``seed``), each asked whether the opponent then has a winning turn (``judge_nodes``
    positions) and, where not, the ``lasting_threat`` question (``lasting_nodes`` positions
    a search, :data:`LASTING_SECONDS`): where every end drawn answers one of the two, the
    turn start was very likely lost already, a turn earlier than the lasting question looks.
    A sample, not a proof (:func:`every_end` proves, for the winning turns only)."""
    start = time.process_time()
    ends = list(distinct_ends(state))
    drawn = random.Random(seed).sample(ends, min(count, len(ends)))
    me = state.to_move
    won = at_once = lasting = 0
    for end in drawn:
        if end.outcome is not None:
            won += end.outcome.winner == me
            at_once += end.outcome.winner != me
        elif turnwin.search(end, judge_nodes).line is not None:
            at_once += 1
        elif turnwin.lasting(end, lasting_nodes, LASTING_SECONDS) is not None:
            lasting += 1
    return Sampled(len(ends), len(drawn), won, at_once, lasting, time.process_time() - start)


#: The CPU seconds each question of ``--lasting`` may take.
LASTING_SECONDS = 3.0


def lasting_survey(path: str, player: str, nodes: int) -> int:
    """Ask the ``lasting_threat`` question (:func:`turnwin.lasting`, ``nodes`` positions a
    search, :data:`LASTING_SECONDS` each) of the opponent after each turn ``player`` played
    but its last, in every game of ``path`` it played: a line for each answer, then the
    totals (turns asked and answered, games lost and won with an answer, CPU time)."""
    asked = answered = 0
    hit: dict[bool, set[int]] = {True: set(), False: set()}
    games: Counter[bool] = Counter()
    times: list[float] = []
    for record, side in played_games(path, player):
        won = record.get("winner") == side
        games[won] += 1
        played = turns(record, side)
        for k, turn in enumerate(played[:-1], 1):
            last, text = turn[-1]
            end = last.apply(last.game.parse_move(last, text))
            start = time.process_time()
            line = turnwin.lasting(end, nodes, LASTING_SECONDS)
            times.append(time.process_time() - start)
            asked += 1
            if line is not None:
                answered += 1
                hit[won].add(record["index"])
                print(
                    f"game {record['index']} ({'won' if won else 'lost'}), after turn {k} of"
                    f" {len(played)}: " + " ".join(str(move) for move in line)
                )
    times.sort()
    print(
        f"{answered} answers after {asked} turns of {player}'s; in {len(hit[False])} of the"
        f" {games[False]} games it did not win and {len(hit[True])} of the {games[True]} it won"
    )
    if times:
        print(
            f"CPU per question median {statistics.median(times):.2f} s, 90th percentile"
            f" {times[int(0.9 * len(times))]:.2f} s, longest {times[-1]:.2f} s"
        )
    return 0


def replay(state: VState, spec: str, seed: int, judge_nodes: int) -> tuple[bool, float, float]:
    """Play the turn starting at ``state`` with the player ``spec`` (its real time budget):
    whether the opponent then has a winning turn (:func:`turnwin.search` within
    ``judge_nodes`` positions), and the turn's wall and CPU seconds."""
    player = make_player(spec, state.game, seed)
    side = state.to_move
    wall, cpu = time.perf_counter(), time.process_time()
    while state.outcome is None and state.to_move == side:
        state = state.apply(player.choose(state))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if state.outcome is not None:
        return state.outcome.winner not in (None, side), wall, cpu
    return turnwin.search(state, judge_nodes).line is not None, wall, cpu


def _replays(args: argparse.Namespace, positions: list[tuple[str, VState]]) -> None:
    """Each ``--replay`` player's turns at ``positions``, in alternating order; the count of
    turns after which the opponent wins at once."""
    losses = {spec: 0 for spec in args.replay}
    cpus: dict[str, list[float]] = {spec: [] for spec in args.replay}
    for n, (name, state) in enumerate(positions):
        specs = args.replay if n % 2 == 0 else args.replay[::-1]
        cells = []
        for spec in specs:
            lost, wall, cpu = replay(state, spec, args.seed + n, args.judge_nodes)
            losses[spec] += lost
            cpus[spec].append(cpu)
            cells.append(f"{spec}: {'loses' if lost else 'holds'} ({wall:.1f} s, {cpu:.1f} s CPU)")
        print(f"{name}: " + "; ".join(cells), flush=True)
    for spec in args.replay:
        print(
            f"{spec}: the opponent wins at once after {losses[spec]} of {len(positions)} turns;"
            f" CPU per turn median {statistics.median(cpus[spec]):.1f} s"
        )


def _indices(text: str) -> str:
    """``--games``: indices separated by commas, checked (argparse reports the fault)."""
    if not all(part.strip().isdigit() for part in text.split(",")):
        raise argparse.ArgumentTypeError(f"not game indices separated by commas: {text!r}")
    return text


def _chosen(
    args: argparse.Namespace, games: str | None = None
) -> list[tuple[str, dict[str, Any], int]]:
    """The games of ``args.files`` that ``args.player`` lost, each ``(path, record, side)``:
    only those whose index is in ``games`` (``--games``), if given, then ``--first`` and
    ``--limit``; :class:`_Unreadable` as :func:`lost_games`."""
    losses = [(path, *game) for path in args.files for game in lost_games(path, args.player)]
    if games:
        wanted = {int(index) for index in games.split(",")}
        losses = [loss for loss in losses if loss[1]["index"] in wanted]
    return losses[args.first :][: args.limit or None]


def _sample_survey(args: argparse.Namespace) -> int:
    """``--sample-ends``: :func:`sample_ends` at the loser's turn start before last in each
    lost game chosen (``--games``, ``--first``, ``--limit``), a line each, then the
    totals."""
    try:
        chosen = _chosen(args, args.games)
    except _Unreadable as error:
        print(f"error: cannot read the records in {error}", file=sys.stderr)
        return 2
    lost_before = asked = 0
    for _path, record, side in chosen:
        played = turns(record, side)
        if len(played) < 2:
            continue
        found = sample_ends(
            played[-2][0][0], args.sample_ends, args.seed, args.judge_nodes, args.lasting or 2000
        )
        asked += 1
        neither = found.sampled - found.won - found.at_once - found.lasting
        lost_before += found.sampled > 0 and neither == 0
        print(
            f"game {record['index']}: the turn before last has {found.ends} ends; of"
            f" {found.sampled} drawn, {found.won} win, {found.at_once} lose at once,"
            f" {found.lasting} leave a lasting threat, {neither} neither"
            f" ({found.seconds:.0f} s)"
        )
    print(
        f"{asked} games lost by {args.player}: at the turn start before last, every end drawn"
        f" loses at once or leaves a lasting threat in {lost_before}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--player", required=True, help="the loser's spec name, e.g. expert")
    parser.add_argument("--turns", type=int, default=3, help="turn starts to check, latest first")
    parser.add_argument("--scale", type=int, default=2, help="budgets this many times hard's")
    parser.add_argument(
        "--danger-nodes",
        type=int,
        default=LEVELS["hard"].unstoppable_nodes,
        help="positions for each question of the unstoppable hook (hard's by default)",
    )
    parser.add_argument("--limit", type=int, default=0, help="at most this many games (0: all)")
    parser.add_argument(
        "--replay",
        action="append",
        default=[],
        metavar="SPEC",
        help="play the last turn again with this player where a defence was found (repeatable)",
    )
    parser.add_argument(
        "--judge-nodes", type=int, default=200_000, help="for --replay and --every-end"
    )
    parser.add_argument("--seed", type=int, default=0, help="for --replay")
    parser.add_argument("--first", type=int, default=0, help="skip this many lost games")
    parser.add_argument(
        "--every-end",
        type=float,
        default=None,
        metavar="SECONDS",
        help="at each last turn start, ask every way of ending the turn (at most SECONDS of"
        " CPU time; --judge-nodes positions each)",
    )
    parser.add_argument(
        "--lasting",
        type=int,
        default=None,
        metavar="NODES",
        help="instead: ask the lasting_threat question after each of the player's turns but"
        " its last, in every game it played (NODES positions a search)",
    )
    parser.add_argument(
        "--sample-ends",
        type=int,
        default=None,
        metavar="N",
        help="instead: at the loser's turn start before last, draw N of its ends and ask each"
        " (--judge-nodes, --lasting NODES or 2000, --seed)",
    )
    parser.add_argument(
        "--games",
        type=_indices,
        default=None,
        metavar="I,J,...",
        help="for --sample-ends: only the lost games with these indices",
    )
    args = parser.parse_args(argv)
    if args.sample_ends is not None:
        return _sample_survey(args)
    if args.lasting is not None:
        try:
            for path in args.files:
                print(path)
                lasting_survey(path, args.player, args.lasting)
        except _Unreadable as error:
            print(f"error: cannot read the records in {error}", file=sys.stderr)
            return 2
        return 0
    positions: list[tuple[str, VState]] = []
    last_defence: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    low = 0
    times: list[float] = []
    exhausted: Counter[str] = Counter()
    try:
        chosen = _chosen(args)
    except _Unreadable as error:
        print(f"error: cannot read the records in {error}", file=sys.stderr)
        return 2
    for path, record, side in chosen:
        starts = turns(record, side)[-args.turns :][::-1]
        cells = []
        found = "none"
        for back, turn in enumerate(starts, 1):
            fate_played, fate_any, cpu = check(turn, args.scale, args.danger_nodes)
            times.append(cpu)
            cells.append(f"-{back}: played {fate_played}, any {fate_any} ({cpu:.1f} s)")
            if fate_any == SAFE and found == "none":
                found = str(back)
            if back == 1 and fate_played == LOST and fate_any == SAFE:
                positions.append((f"{path} game {record['index']}", turn[0][0]))
            if back == 1 and args.every_end is not None:
                ends = every_end(turn[0][0], args.judge_nodes, args.every_end)
                verdict = "stopped" if not ends.complete else "held" if ends.held else "proved lost"
                exhausted[verdict] += 1
                cells.append(
                    f"every end: {ends.ends}, {ends.held} hold, {verdict} ({ends.seconds:.1f} s)"
                )
        last_defence[found] += 1
        won = winning_turn(record)
        lengths[len(won)] += 1
        low += over_a_low_square(won)
        cells.append("won by " + " ".join(won))
        print(f"game {record['index']} ({record['plies']} decisions): " + "; ".join(cells))
    if not chosen:
        print("no game lost by", args.player)
        return 0
    spread = ", ".join(f"{k}: {v}" for k, v in sorted(last_defence.items()))
    print(
        "winning turns by decisions: "
        + ", ".join(f"{length}: {count}" for length, count in sorted(lengths.items()))
        + f"; a stair stood up and a block put on it: {low}"
    )
    print(
        f"{len(chosen)} games lost by {args.player}; the latest turn start with a defence found,"
        f" turns before the end: {spread}; CPU per turn start median"
        f" {statistics.median(times):.1f} s, longest {max(times):.1f} s"
    )
    if args.every_end is not None:
        print(
            f"every end of the last turn asked at {sum(exhausted.values())} turn starts:"
            f" proved lost at {exhausted['proved lost']}, a turn that holds at"
            f" {exhausted['held']}, stopped by the time at {exhausted['stopped']}"
        )
    if args.replay:
        _replays(args, positions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
