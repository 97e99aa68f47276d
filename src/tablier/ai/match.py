"""One game of a match between two player specs, and the record it gives.

The arena (:mod:`tablier.ai.arena`) plans a match and keeps its results; its
backends (worker processes here, Ray tasks in :mod:`tablier.ai.ray_backend`)
play each game with :func:`play_game` (or :func:`play_task`, the same with one
:class:`GameTask`), so a game with a given index and seed is the same
wherever it runs.  Neither backend imports the other.

Game ``index`` gives the first move to ``a`` when ``index`` is even and to
``b`` when it is odd, and starts after ``opening_plies`` random decisions
drawn from a generator seeded by ``(seed, index // 2)``, so each opening is
played once with each colour.  The record of a game (one JSON line of a
results file)::

    {"index": 0, "game": "volo:board=mini,...", "first": "hard", "second": "random",
     "a_first": true, "opening": 2, "moves": ["e5", "d4", ...], "result": "1-0",
     "winner": 0, "reason": "flock", "score_a": 1.0, "plies": 41, "seconds": 3.2,
     "think_a": {"mean": 0.9, "max": 1.8}, "think_b": {"mean": 0.0, "max": 0.0}}

(``think_a``/``think_b``: seconds per decision of each player, opening
excluded; a game stopped at ``max_plies`` is a draw with reason ``move-limit``.)

>>> from tablier.games import get
>>> record = play_game(get("volo", board="mini"), "random", "greedy", 1, seed=3)
>>> record["first"], record["a_first"], record["opening"]
('greedy', False, 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ..core.game import Game
from .players import Player, make_player

__all__ = ["GameTask", "play_game", "play_task"]


class GameTask(NamedTuple):
    """What a backend needs to play one game of a match (besides the game)."""

    a: str
    b: str
    number: int  # the game's index in the match (``index`` would hide tuple.index)
    seed: int = 0
    opening_plies: int = 2
    max_plies: int = 1000


def play_game(
    game: Game[Any, Any],
    a: str,
    b: str,
    index: int,
    seed: int = 0,
    opening_plies: int = 2,
    max_plies: int = 1000,
    *,
    make: Callable[..., Player] = make_player,
) -> dict[str, Any]:
    """Play game number ``index`` of a match between specs ``a`` and ``b``; its record.

    ``make(spec, game, seed=...)`` makes each player (:func:`make_player` by default;
    a benchmark that plays variants of one level passes its own).
    """
    start = time.perf_counter()
    a_first = index % 2 == 0
    specs = (a, b) if a_first else (b, a)
    players = [
        make(spec, game, seed=seed * 1_000_003 + index * 2 + k) for k, spec in enumerate(specs)
    ]
    opening_rng = random.Random(f"{seed}:{index // 2}")
    state = game.initial_state()
    moves: list[str] = []
    for _ in range(opening_plies):
        if state.outcome is not None:
            break
        legal = state.legal_moves()
        move = legal[opening_rng.randrange(len(legal))]
        moves.append(str(move))
        state = state.apply_unchecked(move)
    think: tuple[list[float], list[float]] = ([], [])  # seconds per decision, by player
    # the steps of each player's longest decision, for a player that times them
    steps: list[dict[str, tuple[float, float]]] = [{}, {}]
    longest = [-1.0, -1.0]
    while state.outcome is None and len(moves) < max_plies:
        mover = state.to_move
        t0 = time.perf_counter()
        move = players[mover].choose(state)
        took = time.perf_counter() - t0
        if took > longest[mover]:
            longest[mover] = took
            steps[mover] = dict(getattr(players[mover], "last_timing", {}))
        think[mover].append(took)
        moves.append(str(move))
        state = state.apply(move)
    outcome = state.outcome
    if outcome is None:
        winner, result, reason = None, "1/2-1/2", "move-limit"
    else:
        winner, result, reason = outcome.winner, outcome.result, outcome.reason
    a_player = 0 if a_first else 1
    score_a = 0.5 if winner is None else (1.0 if winner == a_player else 0.0)
    return {
        "index": index,
        "game": game.spec,
        "first": specs[0],
        "second": specs[1],
        "a_first": a_first,
        "opening": min(opening_plies, len(moves)),
        "moves": moves,
        "result": result,
        "winner": winner,
        "reason": reason,
        "score_a": score_a,
        "plies": len(moves),
        "seconds": round(time.perf_counter() - start, 3),
        "think_a": _think(think[a_player], steps[a_player]),
        "think_b": _think(think[1 - a_player], steps[1 - a_player]),
    }


def play_task(game: Game[Any, Any], task: GameTask | tuple[Any, ...]) -> dict[str, Any]:
    """:func:`play_game` for one task (a :class:`GameTask` or a plain tuple of its fields)."""
    return play_game(game, *task)


def _think(times: list[float], steps: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """Mean and longest thinking time per decision, in seconds, and the longest decision's
    ``steps`` (``[wall, CPU]`` seconds each) where the player times them
    (:attr:`MCTSPlayer.last_timing <tablier.ai.players.MCTSPlayer.last_timing>`)."""
    if not times:
        return {"mean": 0.0, "max": 0.0}
    out: dict[str, Any] = {"mean": round(sum(times) / len(times), 4), "max": round(max(times), 4)}
    if steps:
        out["steps"] = {k: [round(wall, 4), round(cpu, 4)] for k, (wall, cpu) in steps.items()}
    return out
