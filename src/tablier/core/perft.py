"""perft: count the move paths of a given length, for any game (a debugging aid).

``perft(state, depth)`` is the number of sequences of ``depth`` legal
decisions starting from ``state``.  A game that ends before ``depth``
decisions contributes nothing (as in chess perft), and ``perft(state, 0)``
is 1.  Each decision counts as one step, whoever makes it: in games whose
turns hold several decisions, depth counts decisions, not turns.

``divide(state, depth)`` splits the count by first move, which helps to
find where two implementations disagree.
"""

from __future__ import annotations

from typing import Any

from .errors import TablierError
from .game import State

__all__ = ["divide", "perft"]


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise TablierError(f"perft depth must be a whole number >= 0, not {depth!r}")


def perft(state: State[Any], depth: int) -> int:
    """The number of paths of ``depth`` legal decisions from ``state``."""
    _check_depth(depth)
    return _perft(state, depth)


def _perft(state: State[Any], depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        total += _perft(state.apply_unchecked(move), depth - 1)
    return total


def divide(state: State[Any], depth: int) -> dict[str, int]:
    """perft split by first move: ``{str(move): count}`` in legal-move order.

    ``depth`` must be at least 1; the counts add up to ``perft(state, depth)``.
    """
    _check_depth(depth)
    if depth < 1:
        raise TablierError("divide needs a depth of at least 1")
    out: dict[str, int] = {}
    for move in state.legal_moves():
        out[str(move)] = _perft(state.apply_unchecked(move), depth - 1)
    return out
