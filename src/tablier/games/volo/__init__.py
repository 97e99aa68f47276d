"""Volo (Dieter Stein): birds placed and flown on a hexagonal sky.

See ``docs/rules/volo.md`` for the rules, the coordinates and the notation.

>>> import tablier.games
>>> game = tablier.games.get("volo")
>>> state = game.initial_state()
>>> state = state.apply(game.parse_move(state, "d4"))
>>> str(state.legal_moves()[0])
'b1'
"""

from .board import VoloBoard
from .game import Volo
from .rules import VoloMove, VoloState

__all__ = ["Volo", "VoloBoard", "VoloMove", "VoloState"]
