"""Why a Voldétour AI idles: the turns it could play, next to what its search sees.

For one position (``--position``, a position string; or ``--record FILE --index I --ply
N``, a game of the JSON lines that ``level_ladder.py`` and ``voldetour_stalls.py`` write,
replayed to decision N) it prints the two Lords' path distances
(:func:`tablier.games.voldetour.ai.path_distance`), the ``--top`` one-action turns of the
side to move that bring its Lord nearest (a Lord move, or a piece taken and put: every
pair), and the root of ``--level``'s search there (visits, score and prior of each
decision), then the decision it plays, and the whole turn it plays (with ``--seeds N``: with
each of N seeds from ``--seed``).  docs/ai.md, "Stalled games", reads a stalled
endgame with it::

    .venv/bin/python benchmarks/voldetour_turns.py \\
        --record ladder/voldetour-hard-medium.jsonl --index 0 --ply 900

With ``--playouts N`` it also plays N of the search's playouts (the compiled core's, weighted
by the move prior and cut off after ``PLAYOUT_DEPTH`` decisions, as the MCTS plays them) from
the position after ``--turn`` (the mover's decisions, in notation, separated by spaces; none:
from the position itself), and prints what they make of it: the evaluation there for the
mover, the playouts' mean reward for the mover, in how many the opponent's Lord, farther
than the evaluation's cap at the start, ends nearer, and in how many the mover takes one of
its pieces from the board (docs/ai-strength.md reads a blockade with it).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablier.ai.players import make_player
from tablier.core.errors import TablierError
from tablier.games import from_spec, parse_position
from tablier.games.voldetour import ai
from tablier.games.voldetour.ai import path_distance
from tablier.games.voldetour.rules import VState


def game_record(path: str, index: int) -> dict[str, Any]:
    """Game ``index`` of the JSON lines at ``path``."""
    with open(path, encoding="utf-8") as lines:
        games = [json.loads(line) for line in lines if line.strip()]
    record: dict[str, Any] | None = next((g for g in games if g.get("index") == index), None)
    if record is None:
        print(f"error: {path} holds no game {index}", file=sys.stderr)
        raise SystemExit(2)
    return record


def recorded_line(path: str, index: int, ply: int) -> list[VState]:
    """The positions of game ``index`` in the JSON lines at ``path`` (a Voldétour game),
    from its start to decision ``ply``."""
    record = game_record(path, index)
    game = from_spec(record["game"])
    states = [game.initial_state()]
    if not isinstance(states[0], VState):
        raise SystemExit("not a Voldétour game")
    for text in record["moves"][:ply]:
        states.append(states[-1].apply(game.parse_move(states[-1], text)))
    return states


def recorded(path: str, index: int, ply: int) -> VState:
    """Decision ``ply`` of game ``index`` in the JSON lines at ``path`` (a Voldétour game)."""
    return recorded_line(path, index, ply)[-1]


def _position(args: argparse.Namespace) -> VState:
    if args.record:
        return recorded(args.record, args.index, args.ply)
    state = parse_position(args.position)
    if not isinstance(state, VState):
        raise SystemExit("not a Voldétour position")
    return state


def one_action_turns(state: VState) -> list[tuple[int, int, str]]:
    """(own path distance, opponent's, decisions) after each one-action turn of the mover."""
    p = state.to_move
    out = []
    for move in state.legal_moves():
        after = state.apply(move)
        if after.to_move == p and after.hand is not None:  # a piece taken: every put
            for put in after.legal_moves():
                end = after.apply(put)
                out.append((path_distance(end, p), path_distance(end, 1 - p), f"{move} {put}"))
        else:
            out.append((path_distance(after, p), path_distance(after, 1 - p), str(move)))
    return sorted(out)


def playouts(state: VState, me: int, count: int, seed: int = 1) -> dict[str, float | int]:
    """What ``count`` of the search's playouts from ``state`` make of it for player ``me``.

    ``evaluation``: the evaluation there for ``me`` (-1 .. 1); ``reward``: the playouts'
    mean reward for ``me`` (0 .. 1); ``freed``: playouts after which the opponent's path
    distance is below the evaluation's cap (``ai._CAP``) where it was not at the start;
    ``takes``: playouts in which ``me`` takes one of its pieces from the board.  Needs the
    compiled core.
    """
    before = path_distance(state, 1 - me)
    total, freed, takes = 0.0, 0, 0
    for i in range(count):
        result = ai.playout(state, seed + i, ai.PLAYOUT_DEPTH, True, True)
        if result is None:
            raise SystemExit("the playouts need the compiled core")
        reward, line = result
        total += reward if me == 0 else 1.0 - reward
        end, took = state, False
        for mover, move in line:
            end = end.apply_unchecked(move)
            # the piece in hand keeps its place on the board (None: taken from the reserve)
            hand = end.hand
            took |= mover == me and move[0] == "T" and hand is not None and hand[-1] is not None
        takes += took
        freed += before >= ai._CAP > path_distance(end, 1 - me)
    return {
        "evaluation": ai.evaluate(state) * (1 if state.to_move == me else -1),
        "reward": total / max(1, count),
        "freed": freed,
        "takes": takes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--position", help="a Voldétour position string")
    parser.add_argument("--record", help="JSON lines of games (moves in notation)")
    parser.add_argument("--index", type=int, default=0, help="the game's index in --record")
    parser.add_argument("--ply", type=int, default=0, help="decisions to replay")
    parser.add_argument("--level", default="hard", help="the player spec to ask")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seeds", type=int, default=1, help="then play the whole turn with this many seeds"
    )
    parser.add_argument("--playouts", type=int, default=0, help="then play this many playouts")
    parser.add_argument("--turn", default="", help="the mover's decisions before the playouts")
    args = parser.parse_args(argv)
    if not args.position and not args.record:
        parser.error("give --position or --record")
    state = _position(args)
    p = state.to_move
    after = state  # where the playouts start: after --turn
    try:
        for text in args.turn.split():
            after = after.apply(state.game.parse_move(after, text))
    except TablierError as error:
        parser.error(f"--turn: {error}")
    if args.turn and after.to_move == p and after.outcome is None:
        parser.error("--turn must end the mover's turn")
    print(f"{state.to_text()}\n")
    print(
        f"to move: {p}; path distances: own {path_distance(state, p)}, "
        f"opponent {path_distance(state, 1 - p)}"
    )
    turns = one_action_turns(state)
    print(f"{len(turns)} one-action turns; the {args.top} nearest (own, opponent, decisions):")
    for own, other, text in turns[: args.top]:
        print(f"  {own:3d} {other:3d}  {text}")
    player = make_player(args.level, state.game, seed=args.seed)
    chosen = player.choose(state)
    print(f"\n{args.level}'s search (decision, visits, score, prior):")
    for stat in getattr(player, "last_analysis", []):
        print(f"  {stat.move!s:12s} {stat.visits:6d} {stat.score:.3f} {stat.prior:.2f}")
    print(f"{args.level} plays {chosen}")
    if args.seeds > 1 or state.apply(chosen).to_move == p:
        for seed in range(args.seed, args.seed + args.seeds):
            player = make_player(args.level, state.game, seed=seed)
            at, turn = state, []
            while at.to_move == p and at.outcome is None:
                move = player.choose(at)
                turn.append(str(move))
                at = at.apply(move)
            print(
                f"seed {seed}: the turn {' '.join(turn)}; path distances then own "
                f"{path_distance(at, p)}, opponent {path_distance(at, 1 - p)}"
            )
    if args.playouts:
        seen = playouts(after, p, args.playouts, args.seed)
        print(
            f"\n{args.playouts} playouts after {args.turn or 'the position'!r} (for {p}): "
            f"path distances own {path_distance(after, p)}, "
            f"opponent {path_distance(after, 1 - p)}; "
            f"evaluation {seen['evaluation']:+.2f}, mean reward {seen['reward']:.3f}; "
            f"the opponent nearer than {ai._CAP} at the end in {seen['freed']}, "
            f"a piece taken from the board in {seen['takes']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
