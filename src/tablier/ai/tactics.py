"""Cheap tactical checks used before (and with) the search.

* :func:`winning_moves`: the decisions that win the game at once;
* :func:`losing_moves`: the decisions that lose at once, or after which the
  opponent, deciding next, has a move that wins at once;
* :class:`RuleGuard`: refuses the decisions after which the player loses
  whatever anyone decides, i.e. by a rule it could have obeyed (a deadline
  let pass, a last piece spent...), used by every player;
* :class:`TurnSafety`: whether the opponent forces a win within a few
  decisions once the mover's whole turn is over (``hard`` and ``expert``).

Both go through the protocol only and look at ``state.to_move`` of each
resulting state, so a turn of several decisions is handled: when a move
leaves the same player to decide again, the opponent cannot answer yet and
the move is not counted as handing over a win in one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..core.game import Move, State
from .knowledge import Danger, Defences, Prove

__all__ = [
    "LOST",
    "RULE_HORIZON",
    "SAFE",
    "UNKNOWN",
    "RuleGuard",
    "TurnSafety",
    "losing_moves",
    "safe_moves",
    "winning_moves",
]


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


# -- losses by a rule the player could have obeyed ------------------------------------------

#: What :meth:`RuleGuard.fate` says of a move.
SAFE, LOST, UNKNOWN = "safe", "lost", "unknown"

#: Turn boundaries (changes of the player to decide) the guard looks through after a
#: move: the rest of the mover's turn, the opponent's turn, the mover's next turn and
#: the opponent's next one.
RULE_HORIZON = 4

Order = Callable[[State[Any], list[Move]], list[Move]]


class RuleGuard:
    """Refuses moves after which the mover loses whatever anyone decides.

    Such a move loses by a rule the player could have obeyed: a deadline let
    pass (Voldétour's Lord must leave its tower by its third turn), a last
    cube spent (XoBo's exhaustion), a clearing that leaves the opponent one
    flock (Volo)...  The guard knows none of these rules.  It asks whether,
    after the move, there is **any** line of decisions, by the mover or by
    the opponent, in which the mover has not lost within the next
    ``horizon`` turn boundaries (changes of ``state.to_move``: the rest of a
    turn of several decisions is searched like any other decision, and
    nothing assumes that players alternate).  A line found makes the move
    :data:`SAFE`.  When every line ends in the mover's loss, the loss needs
    nothing from the opponent: the move is :data:`LOST`.  A search that runs
    out of nodes or time says :data:`UNKNOWN`.  Draws are not losses.

    A loss the opponent has to choose (a win in one handed over) is not the
    guard's business: :func:`losing_moves` and the search see those.

    The search is depth first, each position's moves in the order
    ``order(state, moves)`` gives (the players pass the game's move prior,
    best first, which finds the line that meets a deadline at once), with a
    table of the positions already decided.  ``move_nodes`` bounds the
    positions expanded for one move, ``nodes`` those for all the moves of one
    position (the table and the verdicts are kept while the guard is asked
    about the same position).

    On the mini Voldétour set, Black's third turn, its Lord still on its
    tower and its block action used: ending the turn loses, and so does
    taking a stair (no stair put lets the Lord step down).

    >>> from tablier.games import get
    >>> game = get("voldetour", pieces="mini")
    >>> spec = "voldetour:pieces=mini,repetition=False,max_turns=none"
    >>> state = game.parse_position(spec + " turn=5 lords=b2,e5 black=B111@f6:1x1x1 white=- do=b")
    >>> guard = RuleGuard()
    >>> [(str(m), guard.fate(state, m)) for m in state.legal_moves()]
    [('S', 'lost'), ('end', 'lost')]
    >>> start = game.parse_position(spec + " turn=5 lords=b2,e5 black=B111@f6:1x1x1 white=-")
    >>> guard.fate(start, game.parse_move(start, "B112"))  # then B112@c2:1x1x2, Lc2
    'safe'
    """

    def __init__(
        self,
        horizon: int = RULE_HORIZON,
        nodes: int = 3000,
        move_nodes: int = 400,
        order: Order | None = None,
    ) -> None:
        self.horizon = max(1, int(horizon))
        self.nodes = nodes
        self.move_nodes = move_nodes
        self.order = order
        self._root: State[Any] | None = None
        self._fates: dict[Move, str] = {}
        self._table: dict[tuple[State[Any], int], bool] = {}
        self._left = 0
        self._spent = 0
        self._deadline: float | None = None

    def _start(self, state: State[Any]) -> None:
        if state is not self._root and state != self._root:
            self._root = state
            self._fates = {}
            self._table = {}
            self._spent = 0

    def fate(self, state: State[Any], move: Move, deadline: float | None = None) -> str:
        """:data:`SAFE`, :data:`LOST` or :data:`UNKNOWN` for ``move`` in ``state``.

        ``deadline`` is a :func:`time.perf_counter` time after which the
        search gives up (:data:`UNKNOWN`).  Results are kept until the guard
        is asked about another position.
        """
        self._start(state)
        known = self._fates.get(move)
        if known is not None and known != UNKNOWN:
            return known
        self._deadline = deadline
        self._left = self.move_nodes
        child = state.apply_unchecked(move)
        turns = self.horizon - (child.to_move != state.to_move)
        if child.outcome is None and turns <= 0:
            result: bool | None = True
        else:
            result = self._judge(child, state.to_move, turns)
        self._spent += self.move_nodes - self._left
        verdict = SAFE if result else LOST if result is False else UNKNOWN
        self._fates[move] = verdict
        return verdict

    def pick(
        self,
        state: State[Any],
        preferred: Iterable[Move],
        deadline: float | None = None,
    ) -> Move:
        """The first move of ``preferred`` found :data:`SAFE`, else the best fallback.

        ``preferred`` lists moves best first (it may be lazy, and need not
        hold every legal move).  Its first move is checked first; when it is
        refused, the others are checked taking turns with the legal moves in
        ``order`` (the game's prior: in a position where most moves lose,
        the moves that meet the rule are rarely the search's favourites).
        When no move is found safe within the budgets, the first move not
        proven lost is played, and when every move is lost, the first one:
        the guard never leaves a player without a move.
        """
        self._start(state)
        moves: list[Move] = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        legal = set(moves)
        seen: set[Move] = set()
        first: Move | None = None
        fallback: Move | None = None

        def candidates() -> Iterator[Move]:
            mine = iter(preferred)
            yield next(mine, moves[0])
            ranked = iter(self.order(state, moves) if self.order is not None else moves)
            sources = [mine, ranked]
            while sources:
                for source in list(sources):
                    m = next(source, None)
                    if m is None:
                        sources.remove(source)
                    else:
                        yield m

        for move in candidates():
            if move in seen or move not in legal:
                continue
            seen.add(move)
            if first is None:
                first = move
            out_of_budget = self._spent >= self.nodes or (
                deadline is not None and time.perf_counter() > deadline
            )
            if out_of_budget:
                verdict = self._fates.get(move, UNKNOWN)
            else:
                verdict = self.fate(state, move, deadline)
            if verdict == SAFE:
                return move
            if verdict == UNKNOWN and fallback is None:
                fallback = move
            if out_of_budget and fallback is not None:
                break
        if fallback is not None:
            return fallback
        assert first is not None  # the state has legal moves
        return first

    def _judge(self, state: State[Any], player: int, turns: int) -> bool | None:
        """True: a line where ``player`` has not lost exists; False: none; None: unknown.

        ``turns`` is how many more turn boundaries the line may cross.
        """
        outcome = state.outcome
        if outcome is not None:
            return outcome.winner != 1 - player
        key = (state, turns)
        known = self._table.get(key)
        if known is not None:
            return known
        if self._left <= 0:
            return None
        if self._deadline is not None and time.perf_counter() > self._deadline:
            return None
        self._left -= 1
        moves = state.legal_moves()
        if self.order is not None and len(moves) > 1:
            moves = self.order(state, moves)
        mover = state.to_move
        unknown = False
        for m in moves:
            child = state.apply_unchecked(m)
            left = turns - (child.to_move != mover)
            if child.outcome is None and left <= 0:
                result: bool | None = True
            else:
                result = self._judge(child, player, left)
            if result:
                self._table[key] = True
                return True
            if result is None:
                unknown = True
                if self._left <= 0:
                    break
        if unknown:
            return None
        self._table[key] = False
        return False


# -- whole-turn safety: no forced loss of the opponent after the mover's turn ----------------

#: How many of the opponent's latest winning lines :class:`TurnSafety` keeps to try on later
#: turn ends before proving them anew.
THREATS_KEPT = 4


class TurnSafety:
    """Does a move leave the opponent a forced win within ``depth`` decisions of its own?

    The question is asked about the position after the mover's **whole turn**,
    not the position after the move: in a game whose turns have several
    decisions (Voldétour: take a piece, put it, move the Lord), a move that
    leaves the mover to decide again says nothing yet, and counting the
    mover's remaining decisions in the depth would hide the opponent's win
    behind them (lift the own bridge, put it elsewhere, end the turn: the
    opponent's three-decision win comes after three of the mover's own).

    So after ``move``, the mover's remaining decisions of the turn (every
    state where ``to_move`` is still the mover) are expanded depth first in
    the ``order`` given (the game's prior, best first); at each position
    where the turn has passed, a :class:`~tablier.ai.solver.Solver` asks
    whether the opponent forces a win within ``depth`` decisions (whoever
    decides them: nothing assumes that players alternate).  The move is
    :data:`SAFE` when some way of finishing the turn leaves no such win (or
    wins), :data:`LOST` when every way does (or loses), :data:`UNKNOWN` when
    the budgets ran out first.  In a game of one decision per turn this is
    exactly the solver's check of the position after the move.

    ``nodes`` bounds the solver's nodes over all the checks of one position
    (they share its table), ``turn_nodes`` the positions of the mover's turn
    expanded per move.  ``deadline``, a time of ``clock`` (:func:`time.perf_counter`
    by default; the players use :func:`time.process_time`, CPU time, which a
    loaded machine does not shrink), makes :meth:`fate` answer :data:`UNKNOWN`
    past it.  ``prove`` and ``prove_nodes`` go to the solver (a game's compiled
    proof search, :class:`~tablier.ai.solver.Solver`).

    With a game's ``defences`` (:attr:`Knowledge.defences
    <tablier.ai.knowledge.Knowledge.defences>`), the turn is searched against the
    threat first.  Once a way of ending the turn is found lost, the opponent's
    winning line is kept when every decision of it is the opponent's
    (:meth:`~tablier.ai.solver.Solver.own_line`; the ``THREATS_KEPT`` latest):
    later turn ends where such a line still wins are lost without a new proof,
    and a first, focused pass, with half of ``turn_nodes``, expands at each of
    the mover's positions only the decisions the game says may interfere with
    the latest line, the ones that end the turn, and the ``focus`` best of the
    rest (a defence is usually a piece put where the threat passes, after
    decisions that matter little).  Where that pass finds no safe ending, the
    plain search above runs with the positions left: a move is :data:`LOST`
    only when every ending was tried.

    ``danger`` (``(state, seconds, stop) -> line or None``: a game's
    :attr:`Knowledge.unstoppable <tablier.ai.knowledge.Knowledge.unstoppable>`
    with its positions bound) looks one turn further: at an ending where the
    opponent forces no win within ``depth``, a turn of the opponent's after which
    nothing stops its next one makes that ending lost too (with ``defences``, that
    turn is kept as the threat to aim at).  It is asked at most ``danger_calls``
    times per position checked (its moves together), so that a position where
    every ending is threatened costs a bounded time; where it runs out of time or
    positions, or past that number, the ending stays safe.  ``stop`` ends both
    questions, the solver's and ``danger``'s, as it comes (``clock`` and the
    deadline of :meth:`fate` count CPU time, which a starved process spends slowly:
    the caller's ``stop`` keeps the wall clock).

    >>> from tablier.games import get
    >>> game = get("volo", board="mini")
    >>> trap = game.position(["e8", "g8", "b2"], ["e5", "e6", "e9"], to_move=0)
    >>> safety = TurnSafety()
    >>> safety.fate(trap, game.parse_move(trap, "e8-f8"))
    'lost'
    >>> safety.fate(trap, game.parse_move(trap, "c1"))
    'safe'
    """

    def __init__(
        self,
        depth: int = 3,
        nodes: int = 20_000,
        turn_nodes: int = 200,
        order: Order | None = None,
        stop: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        prove: Prove | None = None,
        prove_nodes: int = 1_000_000,
        defences: Defences | None = None,
        focus: int = 2,
        danger: Danger | None = None,
        danger_calls: int = 32,
    ) -> None:
        from .solver import Solver

        self.clock = clock
        self.stop = stop
        self.danger = danger
        self.danger_calls = danger_calls
        self._dangers = 0
        self.depth = depth
        self.turn_nodes = turn_nodes
        self.order = order
        self.defences = defences
        self.focus = focus
        self.solver = Solver(
            max_nodes=nodes,
            order=order,
            stop=stop,
            clock=clock,
            prove=prove,
            prove_nodes=prove_nodes,
        )
        self._root: State[Any] | None = None
        self._fates: dict[Move, str] = {}
        self._ends: dict[State[Any], bool | None] = {}
        self._left = 0
        self._deadline: float | None = None
        # the opponent's latest winning lines, each with the turn end where it was proved
        self._threats: list[tuple[State[Any], tuple[Move, ...]]] = []
        self._focused = False

    @property
    def threat(self) -> tuple[State[Any], tuple[Move, ...]] | None:
        """The opponent's latest winning line, with the turn end where it was proved."""
        return self._threats[0] if self._threats else None

    def fate(self, state: State[Any], move: Move, deadline: float | None = None) -> str:
        """:data:`SAFE`, :data:`LOST` or :data:`UNKNOWN` for ``move`` in ``state``."""
        if state is not self._root and state != self._root:
            self._root = state
            self._fates = {}
            self._threats = []
            self._dangers = 0
        known = self._fates.get(move)
        if known is not None and known != UNKNOWN:
            return known
        self._deadline = deadline
        self._left = self.turn_nodes
        child = state.apply_unchecked(move)
        result: bool | None = None
        if self.defences is not None:
            # the focused pass gets half the positions, the plain one the rest
            half = max(1, self.turn_nodes // 2)
            self._left = half
            self._focused = True
            try:
                result = self._finish(child, state.to_move)
            finally:
                self._focused = False
                self._left = self.turn_nodes - half + self._left
        if not result and result is not False:
            result = self._finish(child, state.to_move)
        verdict = SAFE if result else LOST if result is False else UNKNOWN
        self._fates[move] = verdict
        return verdict

    def _end_safe(self, state: State[Any], me: int) -> bool | None:
        """The turn has passed: True when the opponent forces no win within ``depth``."""
        known = self._ends.get(state, False)
        if known is not False:
            return known
        if self._stopped():
            return None
        if self._deadline is not None:
            left = self._deadline - self.clock()
            if left <= 0:
                return None
            self.solver.max_seconds = left
        else:
            self.solver.max_seconds = None
        for i, (_, line) in enumerate(self._threats):
            if self._refutes(state, 1 - me, line):
                if i:  # the threat that holds here becomes the one aimed at
                    self._threats.insert(0, self._threats.pop(i))
                self._ends[state] = False
                return False
        wins = self.solver.forces_win(state, 1 - me, self.depth)
        if (
            wins is False
            and self.danger is not None
            and self._dangers < self.danger_calls
            and not self._stopped()
        ):
            self._dangers += 1
            budget = None if self._deadline is None else self._deadline - self.clock()
            danger = self.danger(state, budget, self.stop) if budget is None or budget > 0 else None
            if danger:
                self._ends[state] = False
                if self.defences is not None:
                    self._threats = [(state, tuple(danger)), *self._threats[: THREATS_KEPT - 1]]
                return False
        result = None if wins is None else not wins
        if result is not None:
            self._ends[state] = result
        if wins and self.defences is not None:
            own = self.solver.own_line(state, 1 - me, self.depth)
            if own:
                self._threats = [(state, tuple(own)), *self._threats[: THREATS_KEPT - 1]]
        return result

    def _stopped(self) -> bool:
        """True once ``stop`` (if any) has answered True."""
        return self.stop is not None and self.stop()

    def _refutes(self, state: State[Any], attacker: int, line: tuple[Move, ...]) -> bool:
        """True when ``line`` wins for ``attacker`` from ``state``, every decision of it the
        attacker's and legal: a forced win, whatever the defender does."""
        for m in line:
            if state.outcome is not None or state.to_move != attacker:
                return False
            if m not in state.legal_moves():
                return False
            state = state.apply_unchecked(m)
        outcome = state.outcome
        return outcome is not None and outcome.winner == attacker

    def _finish(self, state: State[Any], me: int) -> bool | None:
        """True when some way of ending ``me``'s turn from ``state`` is safe (None: unknown)."""
        outcome = state.outcome
        if outcome is not None:
            return outcome.winner != 1 - me
        if state.to_move != me:
            return self._end_safe(state, me)
        if self._left <= 0:
            return None
        self._left -= 1
        moves = state.legal_moves()
        if self.order is not None and len(moves) > 1:
            moves = self.order(state, moves)
        unknown = False
        # the focused pass: against the kept threat, only the decisions that may interfere
        # with it, those that end the turn, and the ``focus`` best others (the rest: unknown)
        threat: tuple[State[Any], tuple[Move, ...]] | None = None
        flags: list[bool] = []
        others = 0
        for i, m in enumerate(moves):
            child = state.apply_unchecked(m)
            kept = self.threat if self._focused else None
            if kept is not None and child.outcome is None and child.to_move == me:
                if kept is not threat:  # (a new threat: ask the game again)
                    assert self.defences is not None
                    threat = kept
                    flags = [False] * i + list(self.defences(state, moves[i:], *kept))
                if not flags[i]:
                    if others >= self.focus:
                        unknown = True
                        continue
                    others += 1
            result = self._finish(child, me)
            if result:
                return True
            if result is None:
                unknown = True
                if self._left <= 0 or (
                    self._deadline is not None and self.clock() > self._deadline
                ):
                    break
        return None if unknown else False
