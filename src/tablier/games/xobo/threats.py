"""Threat-space search for XoBo: forced wins made of voyna after voyna.

In XoBo a player who threatens to join their edges with the next cube (a
*voyna*, or a silent threat under ``voyna=placement``) forces the opponent to
break every such cell at once; a threat, its forced answer, another threat...
ends in a connection the opponent cannot stop.  Such wins run over 5 to 9
decisions, too deep for a full-width proof within a move's budget, but narrow:
the attacker only makes threats.

:func:`forced_win` proves them: an AND/OR search where the **attacker** only
plays moves after which it threatens to connect and the defender has no
connection of its own at once, and the **defender** plays every legal move
(each answer that leaves a threat is refuted at once by the connection, the
others are searched on).  The attacker's moves are tried in the order of the
move prior (:func:`tablier.games.xobo.ai.move_prior`).  A line found is a
proof: the defender's every reply was looked at.  Iterative deepening over
1, 3, 5, ... decisions, a table of the positions already settled, and a node
and time limit.

It is the XoBo answer to the optional knowledge hook ``forced_win`` (see
:mod:`tablier.ai.knowledge`), which ``hard`` and ``expert`` call before
searching.

>>> from tablier.games import get
>>> game = get("xobo")
>>> forced_win(game.initial_state(), 2000) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ...core.game import Move
from .ai import move_prior, winning_cells
from .rules import XoBoMove, XoBoState, place_move

__all__ = ["MAX_DEPTH", "ThreatSearch", "forced_win"]

#: The deepest line tried, in decisions (the attacker's last connection included).
MAX_DEPTH = 9


class _Limit(Exception):
    """The node or time limit was reached."""


def _threatens(state: XoBoState, player: int) -> bool:
    """``player`` (not to move in ``state``) would connect with its next cube."""
    return bool((state.common or state.reserves[player]) and state.threats(player))


class ThreatSearch:
    """The search of :func:`forced_win` (keeps its table across depths)."""

    def __init__(
        self, nodes: int, seconds: float | None = None, stop: Callable[[], bool] | None = None
    ) -> None:
        self.max_nodes = nodes
        self.nodes = 0
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.stop = stop
        # (state, depth) -> winning line or None
        self._table: dict[tuple[XoBoState, int], tuple[XoBoMove, ...] | None] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Limit
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Limit
        if self.stop is not None and not self.nodes & 63 and self.stop():
            raise _Limit

    def threats(self, state: XoBoState) -> tuple[XoBoMove | None, list[tuple[XoBoMove, XoBoState]]]:
        """A move that wins at once, else the attacker's moves that make a threat
        and leave the defender no win at once (best first by the prior)."""
        me = state.turn
        moves = state.legal_moves()
        weights = move_prior(state, moves)
        ranked = sorted(range(len(moves)), key=lambda i: -weights[i])
        out = []
        for i in ranked:
            after = state.apply_unchecked(moves[i])
            outcome = after.outcome
            if outcome is not None:
                if outcome.winner == me:
                    return moves[i], []
                continue
            if winning_cells(after) or not _threatens(after, me):
                continue
            out.append((moves[i], after))
        return None, out

    def attack(self, state: XoBoState, depth: int) -> tuple[XoBoMove, ...] | None:
        """A forced line of at most ``depth`` decisions for the side to move, or None."""
        win = winning_cells(state)
        if win:
            return (place_move((win & -win).bit_length() - 1),)
        key = (state, depth)
        if key in self._table:
            return self._table[key]
        self._tick()
        won, threats = self.threats(state)
        if won is not None:
            self._table[key] = (won,)
            return (won,)
        found = None
        for move, after in threats if depth >= 3 else ():
            line = self.defend(after, depth - 1)
            if line is not None:
                found = (move, *line)
                break
        self._table[key] = found
        return found

    def defend(self, state: XoBoState, depth: int) -> tuple[XoBoMove, ...] | None:
        """The attacker (not to move) wins against every reply within ``depth``: the line."""
        attacker = 1 - state.turn
        self._tick()
        longest: tuple[XoBoMove, ...] | None = None
        open_replies = []
        for move in state.legal_moves():
            after = state.apply_unchecked(move)
            outcome = after.outcome
            if outcome is not None:
                if outcome.winner != attacker:
                    return None
                if longest is None:
                    longest = (move,)
                continue
            win = winning_cells(after)
            if win:
                line: tuple[XoBoMove, ...] = (move, place_move((win & -win).bit_length() - 1))
                if longest is None or len(line) > len(longest):
                    longest = line
                continue
            open_replies.append((move, after))
        for move, after in open_replies:
            rest = self.attack(after, depth - 1)
            if rest is None:
                return None
            if longest is None or len(rest) + 1 > len(longest):
                longest = (move, *rest)
        return longest


def forced_win(
    state: XoBoState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[Move] | None:
    """A forced win by threats for the side to move, as a line of moves, or None.

    ``nodes`` bounds the positions searched, ``seconds`` the time (wall clock), ``stop``
    (asked every 64 positions) may end it early; None when no line of at most
    :data:`MAX_DEPTH` decisions was found within them.
    """
    if state.outcome is not None:
        return None
    search = ThreatSearch(nodes, seconds, stop)
    try:
        for depth in range(1, MAX_DEPTH + 1, 2):
            line = search.attack(state, depth)
            if line is not None:
                return list(line)
    except _Limit:
        return None
    return None
