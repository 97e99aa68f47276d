"""XoBo / Kholodnaya Voyna (Vincent Everaert): a connection game with neutral cubes.

See ``docs/rules/xobo.md`` for the rules, the options, the notation and the
position strings.

>>> import tablier.games
>>> game = tablier.games.get("xobo")
>>> state = game.initial_state()
>>> state = state.apply(game.parse_move(state, "e5"))
>>> str(state.legal_moves()[0])
'a1'
"""

from .game import XoBo
from .rules import XoBoMove, XoBoState

__all__ = ["XoBo", "XoBoMove", "XoBoState"]
