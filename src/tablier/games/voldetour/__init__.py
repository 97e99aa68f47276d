"""Voldetour: a 3D building race (seed 004), with its piece set as data.

See ``docs/rules/voldetour.md`` for the rules, the project's reading of the
piece set and every interpretation.
"""

from .game import Voldetour
from .pieceset import PieceSet, available_sets, load_set
from .rules import VMove, VState

__all__ = ["PieceSet", "VMove", "VState", "Voldetour", "available_sets", "load_set"]
