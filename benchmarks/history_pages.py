"""Size and build time of full pages of a game's history (``GET /api/games/<id>/history``).

Usage::

    python benchmarks/history_pages.py [--page 50] [--plies 700] [--seeds 3] [--step 100]

For each game and seed, a long random game: each decision is a random legal move that
neither ends the game nor hands the opponent a win in one, checked by the players'
:class:`tablier.ai.tactics.RuleGuard` (so that Voldétour's Lord leaves its tower), up to
``--plies`` decisions or until no such move is left.  Then the body of the history page
of ``--page`` decisions is built (the server's own function) from every ``--step``-th
ply, and the largest is reported with its build time.
"""

from __future__ import annotations

import argparse
import random
import time

import tablier.games as registry
from tablier.ai.players import rule_guard
from tablier.ai.tactics import has_winning_move
from tablier.server.routers.games import history_page
from tablier.server.settings import HISTORY_PAGE_MAX


def long_game(game, plies: int, seed: int) -> list:
    """The moves of a random game of up to ``plies`` decisions that avoids ending."""
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while len(moves) < plies and state.outcome is None:
        legal = list(state.legal_moves())
        rng.shuffle(legal)
        mover = state.to_move
        going_on = [
            m
            for m in legal
            if (after := state.apply_unchecked(m)).outcome is None
            and not has_winning_move(after, 1 - mover)
        ]
        move = rule_guard(state).pick(state, going_on or legal)
        moves.append(move)
        state = state.apply(move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", type=int, default=HISTORY_PAGE_MAX)
    parser.add_argument("--plies", type=int, default=700)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--step", type=int, default=100)
    args = parser.parse_args()
    for name in registry.names():
        game = registry.get(name)
        for seed in range(args.seeds):
            moves = long_game(game, args.plies, seed)
            largest = (0, 0, 0.0)
            for start in range(0, max(1, len(moves) - args.page + 1), args.step):
                began = time.perf_counter()
                body = history_page(game, game.initial_state(), moves, start, args.page)
                largest = max(largest, (len(body), start, time.perf_counter() - began))
            size, start, seconds = largest
            per = size / min(args.page, len(moves)) / 1024
            print(
                f"{name} seed={seed} decisions={len(moves)}: largest {args.page}-decision page "
                f"{size / 1024:.0f} KiB ({per:.1f} KiB per decision, from={start}), "
                f"built in {seconds * 1000:.0f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
