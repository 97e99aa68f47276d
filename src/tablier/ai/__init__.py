"""The AI players of Tablier: MCTS, an exact solver, levels and an arena.

Everything here works for every registered game through the core protocol;
per-game knowledge (evaluation, move prior, playout policy) is declared by
each game's class (``Game.knowledge()``, the built-in games' ``ai`` modules;
see :mod:`tablier.ai.knowledge` and ``docs/ai.md``).

>>> from tablier.games import get
>>> from tablier.ai import make_player
>>> game = get("volo", board="mini")
>>> player = make_player("medium:iterations=20,seconds=none", game, seed=1)
>>> move = player.choose(game.initial_state())
"""

from __future__ import annotations

from .knowledge import Knowledge, knowledge_for
from .mcts import MCTS, MCTSConfig, MoveStat, SearchProgress
from .players import (
    LEVELS,
    GreedyPlayer,
    Level,
    MCTSPlayer,
    Player,
    RandomPlayer,
    make_player,
    player_names,
)
from .solver import Solver, SolveResult, solve
from .tactics import losing_moves, safe_moves, winning_moves

__all__ = [
    "LEVELS",
    "MCTS",
    "GreedyPlayer",
    "Knowledge",
    "Level",
    "MCTSConfig",
    "MCTSPlayer",
    "MoveStat",
    "Player",
    "RandomPlayer",
    "SearchProgress",
    "SolveResult",
    "Solver",
    "knowledge_for",
    "losing_moves",
    "make_player",
    "player_names",
    "safe_moves",
    "solve",
    "winning_moves",
]
