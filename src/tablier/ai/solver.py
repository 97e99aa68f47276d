"""An exact solver: does a player have a forced win within N decisions?

The search is an AND/OR depth-first search over decisions (plies), which is
negamax on the values "win" / "not proven" that respects multi-decision
turns: at a state where the attacker decides, *some* move must win; where
the defender decides, *every* move must still lose.  Whose decision it is
comes from ``state.to_move`` after each move, never from alternation.

A transposition table keyed on the (hashable) state and the attacker keeps,
per entry, the smallest depth at which a win was proven and the largest
depth at which none exists, so iterative deepening re-uses earlier work.

A game's compiled proof search (its knowledge's ``prove``: Volo's, XoBo's) gives the
same answers faster; a :class:`Solver` built with it hands each question it
is asked to it, and keeps the answers in its table.

>>> from tablier.games import get
>>> game = get("volo", board="mini")
>>> result = solve(game.initial_state(), 1)
>>> result.status
'unknown'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import TablierError
from ..core.game import Move, State
from .knowledge import Prove

__all__ = ["SearchLimitReached", "SolveResult", "Solver", "solve"]

_INF = 1 << 30


class SearchLimitReached(Exception):
    """The solver ran past its node or time limit (the answer is unknown)."""


@dataclass(frozen=True)
class SolveResult:
    """The answer of :func:`solve`.

    ``status`` is ``"win"`` (the side to move forces a win), ``"loss"`` (the
    opponent forces a win whatever the side to move does), ``"over"`` (the
    game is already over) or ``"unknown"`` (no forced win within ``depth``
    decisions for either side, or the limit was hit: see ``aborted``).
    ``winner`` is the winning player (or ``None``), ``plies`` the number of
    decisions of the forced line, ``line`` that line (the winner's moves and
    the defender's most stubborn replies).
    """

    status: str
    winner: int | None
    depth: int
    plies: int | None = None
    line: tuple[Move, ...] = ()
    nodes: int = 0
    aborted: bool = False
    seconds: float = 0.0
    player_names: tuple[str, str] = field(default=("first player", "second player"), repr=False)

    def describe(self) -> str:
        """A one-line summary in words, with the line in the game's notation."""
        moves = " ".join(str(m) for m in self.line)
        if self.status == "over":
            return "the game is already over"
        if self.status in ("win", "loss"):
            who = self.player_names[self.winner] if self.winner is not None else "?"
            return f"{who} wins by force in {self.plies} decision(s): {moves}"
        if self.aborted:
            return f"no forced win found within {self.depth} (search limit reached)"
        return f"no forced win within {self.depth}"


class Solver:
    """Depth-limited proof search with a transposition table.

    ``max_nodes`` and ``max_seconds`` bound the work; past them the search
    raises :class:`SearchLimitReached` internally and :meth:`solve` answers
    ``"unknown"`` with ``aborted=True``.  ``order`` may sort the moves of a
    state (best first) to speed up proofs; it never changes the answer.  ``stop``, when
    given, is asked at every node: once it answers True the search ends as at a limit.
    ``clock`` measures ``max_seconds`` (:func:`time.perf_counter` by default;
    :func:`time.process_time` counts the CPU time of the process, which a loaded
    machine does not shrink).

    ``prove``, a game's compiled proof search (:attr:`Knowledge.prove
    <tablier.ai.knowledge.Knowledge.prove>`), answers each question in its place,
    within ``prove_nodes`` of its own positions in all (they are far cheaper than
    this search's nodes) and the time left; ``stop`` is asked before each call, not
    during it.  Its positions are counted in ``proved_nodes``.
    """

    def __init__(
        self,
        *,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        order: Callable[[State[Any], list[Move]], list[Move]] | None = None,
        stop: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        prove: Prove | None = None,
        prove_nodes: int = 1_000_000,
    ) -> None:
        self.clock = clock
        self.prove = prove
        self.prove_nodes = prove_nodes
        self.proved_nodes = 0
        self.max_nodes = max_nodes
        self.stop = stop
        self.max_seconds = max_seconds
        self.order = order
        self.nodes = 0
        self._deadline: float | None = None
        # (state, attacker) -> [smallest depth proven winning, largest depth proven not]
        self._table: dict[tuple[State[Any], int], list[int]] = {}
        self._children: dict[State[Any], list[tuple[Move, State[Any]]]] = {}

    # -- the search --------------------------------------------------------------------

    def _expand(self, state: State[Any]) -> list[tuple[Move, State[Any]]]:
        children = self._children.get(state)
        if children is None:
            moves = state.legal_moves()
            if self.order is not None:
                moves = self.order(state, moves)
            children = [(m, state.apply_unchecked(m)) for m in moves]
            if len(self._children) < 200_000:
                self._children[state] = children
        return children

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimitReached
        deadline = self._deadline
        if deadline is not None and self.clock() > deadline:
            raise SearchLimitReached
        if self.stop is not None and self.stop():
            raise SearchLimitReached

    def wins(self, state: State[Any], attacker: int, depth: int) -> bool:
        """True when ``attacker`` can force a win within ``depth`` decisions."""
        outcome = state.outcome
        if outcome is not None:
            return outcome.winner == attacker
        if depth <= 0:
            return False
        key = (state, attacker)
        entry = self._table.get(key)
        if entry is not None:
            if depth >= entry[0]:
                return True
            if depth <= entry[1]:
                return False
        result = self._prove(state, attacker, depth) if self.prove is not None else None
        if result is None:
            result = self._search(state, attacker, depth)
        if entry is None:
            entry = self._table[key] = [_INF, -1]
        if result:
            entry[0] = min(entry[0], depth)
        else:
            entry[1] = max(entry[1], depth)
        return result

    def _search(self, state: State[Any], attacker: int, depth: int) -> bool:
        """:meth:`wins` by expanding ``state`` (a node of this search, counted)."""
        self._tick()
        children = self._expand(state)
        if state.to_move == attacker:
            # Cheap pass first: an immediate win.
            result = any(
                c.outcome is not None and c.outcome.winner == attacker for _, c in children
            )
            if not result and depth > 1:
                result = any(self.wins(c, attacker, depth - 1) for _, c in children)
        else:
            result = all(
                c.outcome is not None and c.outcome.winner == attacker for _, c in children
            )
            if not result and depth > 1:
                result = all(self.wins(c, attacker, depth - 1) for _, c in children)
        return result

    def _prove(self, state: State[Any], attacker: int, depth: int) -> bool | None:
        """The compiled search's answer; None when it is not available for ``state``."""
        assert self.prove is not None
        if self.stop is not None and self.stop():
            raise SearchLimitReached
        seconds = -1.0
        if self._deadline is not None:
            seconds = self._deadline - self.clock()
            if seconds <= 0:
                raise SearchLimitReached
        left = self.prove_nodes - self.proved_nodes
        if left <= 0:
            raise SearchLimitReached
        answer = self.prove(state, attacker, depth, left, seconds)
        if answer is None:
            return None
        result, nodes = answer
        self.proved_nodes += nodes
        if result is None:
            raise SearchLimitReached
        return result

    def win_depth(self, state: State[Any], attacker: int, depth: int) -> int | None:
        """The fewest decisions (at most ``depth``) in which ``attacker`` forces a win."""
        for d in range(0, depth + 1):
            if self.wins(state, attacker, d):
                return d
        return None

    def line(self, state: State[Any], attacker: int, depth: int) -> list[Move]:
        """A forced winning line: quickest wins for the attacker, longest defence."""
        moves: list[Move] = []
        d = self.win_depth(state, attacker, depth)
        while d is not None and state.outcome is None and d > 0:
            children = self._expand(state)
            if state.to_move == attacker:
                best = None
                for m, c in children:
                    cd = self.win_depth(c, attacker, d - 1)
                    if cd is not None and (best is None or cd < best[0]):
                        best = (cd, m, c)
            else:
                best = None
                for m, c in children:
                    cd = self.win_depth(c, attacker, d - 1)
                    if cd is not None and (best is None or cd > best[0]):
                        best = (cd, m, c)
            if best is None:  # pragma: no cover - impossible after a proof
                break
            d, move, state = best
            moves.append(move)
        return moves

    def own_line(self, state: State[Any], attacker: int, depth: int) -> list[Move] | None:
        """A win of ``attacker`` within ``depth`` decisions made of its own decisions alone.

        At each step the first decision (in the solver's ``order``) that keeps a win
        within the decisions left; ``None`` where there is no win within ``depth``, where
        the decisions it follows lead to one of the other side's (a win may then exist
        along other decisions), or past the limits (as :meth:`forces_win`).  With no
        decision of the defender in it, the line wins whatever the defender did before.
        """
        start = self.clock()
        self._deadline = start + self.max_seconds if self.max_seconds is not None else None
        line: list[Move] = []
        try:
            while state.outcome is None:
                if state.to_move != attacker or depth <= 0:
                    return None
                children = self._expand(state)
                found = next((mc for mc in children if self.wins(mc[1], attacker, depth - 1)), None)
                if found is None:
                    return None
                line.append(found[0])
                state, depth = found[1], depth - 1
        except SearchLimitReached:
            return None
        finally:
            self._deadline = None
        return line if state.outcome.winner == attacker else None

    def forces_win(self, state: State[Any], attacker: int, depth: int) -> bool | None:
        """Whether ``attacker`` forces a win within ``depth`` decisions; None past the limits.

        The node and time limits of the solver apply (the time limit counts
        from this call).
        """
        start = self.clock()
        self._deadline = start + self.max_seconds if self.max_seconds is not None else None
        try:
            return self.wins(state, attacker, depth)
        except SearchLimitReached:
            return None
        finally:
            self._deadline = None

    def solve(self, state: State[Any], depth: int, *, mover_only: bool = False) -> SolveResult:
        """Prove a forced win for either side within ``depth`` decisions, if one exists.

        ``mover_only``: look for the side to move's win only (a ``"loss"`` is not
        searched for).
        """
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
            raise TablierError(f"the depth must be a whole number from 0 up, not {depth!r}")
        first, second = state.game.player_names
        names = (first, second)
        start = self.clock()
        self._deadline = start + self.max_seconds if self.max_seconds is not None else None
        outcome = state.outcome
        if outcome is not None:
            return SolveResult("over", outcome.winner, depth, 0, (), 0, player_names=names)
        me = state.to_move
        try:
            sides = ((me, "win"),) if mover_only else ((me, "win"), (1 - me, "loss"))
            for attacker, status in sides:
                d = self.win_depth(state, attacker, depth)
                if d is not None:
                    line = tuple(self.line(state, attacker, d))
                    return SolveResult(
                        status,
                        attacker,
                        depth,
                        d,
                        line,
                        self.nodes,
                        seconds=self.clock() - start,
                        player_names=names,
                    )
        except SearchLimitReached:
            return SolveResult(
                "unknown",
                None,
                depth,
                nodes=self.nodes,
                aborted=True,
                seconds=self.clock() - start,
                player_names=names,
            )
        finally:
            self._deadline = None
        return SolveResult(
            "unknown",
            None,
            depth,
            nodes=self.nodes,
            seconds=self.clock() - start,
            player_names=names,
        )


def solve(
    state: State[Any],
    depth: int,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> SolveResult:
    """Prove a forced win within ``depth`` decisions for the side to move or the opponent."""
    return Solver(max_nodes=max_nodes, max_seconds=max_seconds).solve(state, depth)
