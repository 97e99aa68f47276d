"""Cheap tactical checks used before (and with) the search.

* :func:`winning_moves`: the decisions that win the game at once;
* :func:`losing_moves`: the decisions that lose at once, or after which the
  opponent, deciding next, has a move that wins at once.

Both go through the protocol only and look at ``state.to_move`` of each
resulting state, so a turn of several decisions is handled: when a move
leaves the same player to decide again, the opponent cannot answer yet and
the move is not counted as handing over a win in one.
"""

from __future__ import annotations

from ..core.game import Move, State

__all__ = ["losing_moves", "safe_moves", "winning_moves"]


def _wins_now(state: State[Any], player: int) -> bool:
    outcome = state.outcome
    return outcome is not None and outcome.winner == player


def winning_moves(state: State[Any]) -> list[Move]:
    """Legal moves after which the side to move has won (in legal order)."""
    me = state.to_move
    return [m for m in state.legal_moves() if _wins_now(state.apply_unchecked(m), me)]


def has_winning_move(state: State[Any], player: int) -> bool:
    """True when ``player`` decides in ``state`` and has a move that wins at once."""
    if state.outcome is not None or state.to_move != player:
        return False
    return any(_wins_now(state.apply_unchecked(m), player) for m in state.legal_moves())


def losing_moves(state: State[Any]) -> list[Move]:
    """Moves that lose at once or hand the opponent a win in one (in legal order)."""
    me = state.to_move
    opp = 1 - me
    bad = []
    for m in state.legal_moves():
        after = state.apply_unchecked(m)
        if _wins_now(after, opp) or has_winning_move(after, opp):
            bad.append(m)
    return bad


def safe_moves(state: State[Any]) -> list[Move]:
    """The legal moves that are not in :func:`losing_moves` (all of them if none is safe)."""
    moves = state.legal_moves()
    bad = set(losing_moves(state))
    safe = [m for m in moves if m not in bad]
    return safe or moves
