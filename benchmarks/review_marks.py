"""How many decisions the computer review marks in a game between two ``medium`` players.

The review (``tablier.server.analysis.review_task``) compares, for each decision, the best
move and the move played inside one search tree at equal visits.  The simpler way, each
position's evaluation against the next position's (two separate searches), is measured
beside it on the same game: each search favours its own side to move, so nearly every
decision loses "win probability" that way.

    .venv/bin/python benchmarks/review_marks.py [--game xobo] [--plies 24]
"""

from __future__ import annotations

import argparse

from tablier import games
from tablier.ai.players import make_player
from tablier.server import analysis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="xobo")
    parser.add_argument("--plies", type=int, default=24)
    args = parser.parse_args()
    game = games.from_spec(args.game)
    players = [make_player("medium", game, seed=1), make_player("medium", game, seed=2)]
    state = game.initial_state()
    moves: list[str] = []
    while state.outcome is None and len(moves) < args.plies:
        move = players[state.to_move].choose(state)
        moves.append(game.move_text(state, move))
        state = state.apply(move)
    states = analysis._replay(game.spec, moves)
    values = []
    for i, s in enumerate(states):
        if s.outcome is not None:
            values.append(float(s.outcome.score(0)))
            continue
        tree, _ = analysis._search(
            s, analysis.REVIEW_SIMULATIONS, analysis.REVIEW_SECONDS, 3 + i, None, lambda: False
        )
        values.append(analysis._first_player_value(s, tree.analysis(1)[0].score))
    separate = 0
    for i in range(len(moves)):
        before, after = values[i], values[i + 1]
        if states[i].to_move == 1:
            before, after = 1 - before, 1 - after
        separate += analysis.judge(before - after) is not None
    review = analysis.review_task(
        {"spec": game.spec, "moves": moves, "seed": 3}, lambda *a: None, lambda: False
    )
    print(f"{args.game}: {len(moves)} decisions of medium against medium")
    print(f"  marked comparing separate searches: {separate}")
    print(f"  marked by the review (one tree, equal visits): {len(review['marks'])}")


if __name__ == "__main__":
    main()
