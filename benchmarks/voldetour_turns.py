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
"""

from __future__ import annotations

import argparse
import json

from tablier.ai.players import make_player
from tablier.games import from_spec, parse_position
from tablier.games.voldetour.ai import path_distance
from tablier.games.voldetour.rules import VState


def recorded(path: str, index: int, ply: int) -> VState:
    """Decision ``ply`` of game ``index`` in the JSON lines at ``path`` (a Voldétour game)."""
    with open(path, encoding="utf-8") as lines:
        games = [json.loads(line) for line in lines if line.strip()]
    record = next(g for g in games if g["index"] == index)
    game = from_spec(record["game"])
    state = game.initial_state()
    for text in record["moves"][:ply]:
        state = state.apply(game.parse_move(state, text))
    if not isinstance(state, VState):
        raise SystemExit("not a Voldétour game")
    return state


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
    args = parser.parse_args(argv)
    if not args.position and not args.record:
        parser.error("give --position or --record")
    state = _position(args)
    p = state.to_move
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
