"""Players: one interface for the terminal client, the arena and later the web server.

Every player has a ``name`` and a method ``choose(state, progress=None) ->
Move``.  Build them by name with :func:`make_player`:

``random``
    a uniformly random legal move;
``greedy``
    one ply: wins at once if it can, avoids moves that lose at once or hand
    the opponent a win in one, else the move whose resulting position the
    game's static evaluation likes best (random among equals);
``easy``, ``medium``, ``hard``, ``expert``
    MCTS levels with the budgets of :data:`LEVELS` (documented in ``docs/ai.md``);
``master``
    PUCT guided by the game's shipped network (:mod:`tablier.ai.network_player`;
    numpy, no PyTorch), an error for a game or variant without one;
``mcts``
    MCTS with the settings given after a colon.

A spec may override settings after a colon, e.g. ``hard:iterations=300`` or
``mcts:iterations=200,seconds=0.5,tactics=no``; the keys are the fields of
:class:`Level` and of :class:`~tablier.ai.mcts.MCTSConfig`; ``normalize`` takes
``yes``, ``no`` or ``auto`` (the game's choice, as ``hard`` and ``expert`` have it).

Every player, ``random`` and ``easy`` included, passes its choice through a
:class:`~tablier.ai.tactics.RuleGuard`: a move after which the player loses
whatever anyone decides (a rule it could have obeyed, such as Voldétour's
tower deadline) is replaced by one that is not, whenever one is found.  The
settings ``rule_guard=no`` and ``rule_nodes=N`` (also for ``random`` and
``greedy``) turn it off or change its budget.
"""

from __future__ import annotations

import dataclasses
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameOverError, TablierError, quote
from ..core.game import Game, Move, State
from ..core.position import parse_float, parse_int, parse_spec
from .knowledge import Danger, Defences, Prove, knowledge_for
from .mcts import MCTS, MCTSConfig, MoveStat, SearchProgress
from .solver import Solver
from .tactics import (
    LOST,
    RULE_HORIZON,
    SAFE,
    UNKNOWN,
    RuleGuard,
    TurnSafety,
    losing_moves,
    winning_moves,
)

__all__ = [
    "LEVELS",
    "MAX_PROOF_DEPTH",
    "GreedyPlayer",
    "Level",
    "MCTSPlayer",
    "Player",
    "RandomPlayer",
    "Steps",
    "avoidable_rule_loss",
    "checks_deadline",
    "forced_win",
    "make_player",
    "player_names",
    "register_player",
    "safest_move",
    "search_seconds",
    "tactical_depth",
    "threat_turn",
    "wall_stop",
]

Progress = Callable[[SearchProgress], None]


class Player(ABC):
    """Something that picks a move for the side to decide.

    ``stop``: when set, a searching player asks it while it thinks and, once it answers
    True, ends the search at once and answers with the best move found so far (the web
    server sets it to abandon searches nobody waits for any more).
    """

    name: str = "player"
    stop: Callable[[], bool] | None = None

    @abstractmethod
    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """Return a legal move of ``state`` (which must not be over)."""

    def reset(self) -> None:
        """Forget anything kept from earlier moves (a new game starts)."""
        return None

    def remember(self, state: State[Any]) -> None:
        """Note a position of the game being played that the player was not asked about (a
        game resumed, a line taken back and replayed); a player that keeps no positions
        ignores it."""
        return None

    @property
    def remembers(self) -> bool:
        """Whether :meth:`remember` keeps anything: a caller may skip replaying a game's
        earlier positions for a player that ignores them."""
        return False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _check_state(state: State[Any]) -> list[Move]:
    if state.outcome is not None:
        raise GameOverError("the game is over: there is no move to choose")
    moves = state.legal_moves()
    if not moves:  # pragma: no cover - the protocol forbids it
        raise GameOverError("no legal move in this position")
    return moves


#: Positions the rule guard may expand for one decision (``rule_nodes``).
RULE_NODES = 3000


def rule_guard(state: State[Any], nodes: int = RULE_NODES) -> RuleGuard:
    """The :class:`~tablier.ai.tactics.RuleGuard` the players use for ``state``'s game.

    It orders moves by the game's move prior (best first) when the game has one.
    """
    return RuleGuard(nodes=nodes, move_nodes=max(1, nodes // 6), order=_prior_order(state))


def avoidable_rule_loss(
    history: Sequence[tuple[State[Any], Move]],
    loser: int,
    turns: int = RULE_HORIZON,
    nodes: int = 30_000,
) -> tuple[Move, State[Any]] | None:
    """A decision of ``loser`` lost by the rules while another move was safe, or ``None``.

    ``history`` holds every (state, move) of a game ``loser`` lost; the
    decisions looked at are ``loser``'s within the last ``turns`` turn
    boundaries before the end, each judged by a :func:`rule_guard` of
    ``nodes`` positions.  Used to check that no player lost by a rule it could
    have obeyed (tests and ``benchmarks/ai_rule_losses.py``).
    """
    boundaries = 0
    for i in range(len(history) - 1, -1, -1):
        state, move = history[i]
        if i + 1 < len(history) and history[i + 1][0].to_move != state.to_move:
            boundaries += 1
        if boundaries > turns:
            break
        if state.to_move != loser or len(state.legal_moves()) < 2:
            continue
        guard = rule_guard(state, nodes)
        if guard.fate(state, move) == SAFE:
            continue
        other = guard.pick(state, [m for m in state.legal_moves() if m != move])
        if other != move and guard.fate(state, other) == SAFE:
            return move, state
    return None


class RandomPlayer(Player):
    """A uniformly random legal move (seeded).

    With ``guard`` (the default), a move that loses by a rule the player could
    have obeyed is refused (:class:`~tablier.ai.tactics.RuleGuard`): the other
    moves are then tried in the order of the game's move prior.
    """

    def __init__(
        self, seed: int | None = None, guard: bool = True, rule_nodes: int = RULE_NODES
    ) -> None:
        self.name = "random"
        self.rng = random.Random(seed)
        self.guard = guard
        self.rule_nodes = rule_nodes

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """A random legal move."""
        moves = _check_state(state)
        move = moves[self.rng.randrange(len(moves))]
        if self.guard and len(moves) > 1:
            move = rule_guard(state, self.rule_nodes).pick(state, [move])
        return move


class GreedyPlayer(Player):
    """One ply: take a win, avoid losing in one, else the best static evaluation.

    Moves that lose by a rule the player could have obeyed are refused as by
    :class:`RandomPlayer` (the next best by the evaluation is tried first).
    """

    def __init__(
        self, seed: int | None = None, guard: bool = True, rule_nodes: int = RULE_NODES
    ) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)
        self.guard = guard
        self.rule_nodes = rule_nodes

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """The greedy move (see the class docstring)."""
        moves = _check_state(state)
        wins = winning_moves(state)
        if wins:
            return wins[0]
        bad = set(losing_moves(state))
        candidates = [m for m in moves if m not in bad] or moves
        knowledge = knowledge_for(state.game)
        if knowledge.evaluate is None:
            ranked = [candidates[self.rng.randrange(len(candidates))], *candidates]
        else:
            me = state.to_move
            values = {
                m: round(knowledge.value(state.apply_unchecked(m), me), 9) for m in candidates
            }
            top = max(values.values())
            best = [m for m in candidates if values[m] == top]
            ranked = [best[self.rng.randrange(len(best))]]
            ranked += sorted(candidates, key=lambda m: -values[m])
        if not self.guard or len(moves) == 1:
            return ranked[0]
        return rule_guard(state, self.rule_nodes).pick(state, ranked)


@dataclass(frozen=True)
class Level:
    """The budget and habits of an MCTS player.

    ``iterations`` and ``seconds`` bound each search (whichever comes first;
    ``None`` means no bound of that kind).  ``tactics``: take a win in one
    and avoid handing the opponent a win in one.  ``solver_depth``: before
    searching, try to prove a forced win within that many decisions (0: off)
    with at most ``solver_nodes`` nodes.  ``temperature``: 0 plays the most
    visited move, above 0 draws moves in proportion to visits (weaker).
    ``reuse``: keep the tree between moves.  ``safety_checks``: after the
    search, verify up to that many of the best root moves with the solver
    (the opponent must not force a win within ``solver_depth`` decisions
    after the move) and play the first that passes (0: off; needs
    ``solver_depth``).  ``rule_guard``: refuse a move that loses by a rule
    the player could have obeyed (:class:`~tablier.ai.tactics.RuleGuard`,
    at most ``rule_nodes`` positions per decision); on at every level.
    ``mistakes``: the share of the player's turns played at random, without search,
    each decision among the moves the tactical filter keeps (after a win in one is
    taken); drawn once a turn, so that in a game whose turn is several decisions
    (Voldétour) a turn is played whole at random or whole searched, as in a game of one
    decision a turn; ``easy`` uses it to stay beatable while its other moves are sound.
    ``proof_depth``: where the game has a compiled proof search
    (:attr:`Knowledge.prove <tablier.ai.knowledge.Knowledge.prove>`: Volo's, XoBo's,
    Voldétour's to three decisions) and
    the compiled core is on, the solver steps before and after the search ask it their
    questions (at most ``proof_nodes`` of its positions per step) and look this many
    decisions deep, or ``solver_depth`` where that is more (0: off, the generic solver
    answers at ``solver_depth``; see :func:`tactical_depth`).  ``hard`` has 3, its own
    depth (the same answers, cheaper), ``expert`` 5.  ``threat_turn_nodes``: where the
    game has the ``threat_turn`` hook (:attr:`Knowledge.threat_turn
    <tablier.ai.knowledge.Knowledge.threat_turn>`: Voldétour's), look for a turn that
    threatens a win at the next one, each of its searches at most this many positions, and
    play it, if the safety checks pass it, instead of the search's choice (0: off;
    ``hard`` and ``expert`` 2,000).  ``unstoppable_nodes``: where the game has the
    ``unstoppable`` hook (:attr:`Knowledge.unstoppable
    <tablier.ai.knowledge.Knowledge.unstoppable>`: Voldétour's), the safety checks
    also count as lost a way of ending the turn after which the opponent has a turn
    that nothing stops from winning at the next one, found within this many positions
    (0: off; ``hard`` 1,000, ``expert`` 20,000), asked at most ``danger_calls`` times per
    decision checked (32; ``expert`` 128).  ``lasting_nodes``: where the game has the
    ``lasting_threat`` hook (:attr:`Knowledge.lasting_threat
    <tablier.ai.knowledge.Knowledge.lasting_threat>`: Voldétour's), where the
    ``unstoppable`` question finds nothing the checks also ask it, each search this many
    positions, at most :data:`LASTING_CALLS` times per decision checked, and count as lost
    an ending after which the opponent has a threat no turn was found to answer (0: off;
    ``expert`` 2,000).  ``checks_share``: the share of a timed budget
    kept for the safety checks after the search (None: :data:`CHECKS_SHARE`, or
    :data:`DEEP_CHECKS_SHARE` where they look deeper than ``solver_depth``);
    ``danger_share``: the same where the checks also ask the ``unstoppable`` question (a
    look one turn further; None: as elsewhere; ``expert`` 0.5), unless ``checks_share``
    is given.  ``knobs``: the profile of the game's own knowledge settings the level plays
    with (the game's ``LEVEL_KNOBS``, set around each decision: :meth:`Knowledge.knobs
    <tablier.ai.knowledge.Knowledge.knobs>`; None: the game's defaults; ``expert``:
    ``"expert"``; in a spec ``knobs=none`` or ``knobs=NAME``).
    """

    iterations: int | None = None
    seconds: float | None = None
    tactics: bool = True
    solver_depth: int = 0
    solver_nodes: int = 2000
    temperature: float = 0.0
    reuse: bool = True
    safety_checks: int = 0
    rule_guard: bool = True
    rule_nodes: int = RULE_NODES
    safety_nodes: int = 20_000
    mistakes: float = 0.0
    threat_nodes: int = 20_000
    threat_turn_nodes: int = 0
    unstoppable_nodes: int = 0
    danger_calls: int = 32
    lasting_nodes: int = 0
    checks_share: float | None = None
    danger_share: float | None = None
    proof_depth: int = 0
    proof_nodes: int = 2_000_000
    knobs: str | None = None
    config: MCTSConfig = field(default_factory=MCTSConfig)


#: The least time the tactical checks of a level get, before and after the search, however
#: short its budget: the guarantees of ``hard`` (docs/ai.md) must hold on a loaded machine.
TACTICS_SECONDS = 0.3

#: What a timed level may take beyond its ``seconds``, whatever the load (wall clock): the
#: checks after the search stop there, so ``hard`` (1.7 s) answers within 2 s.
TIME_MARGIN = 0.25

#: The share of a timed level's budget kept for its safety checks after the search.
CHECKS_SHARE = 0.15

#: The same where the checks look deeper than ``solver_depth`` through a compiled proof
#: search (``expert`` on Volo, XoBo): they check many moves five decisions deep where the
#: best ones all lose, and on Volo four times the search gained little at these budgets
#: while those lines decided the games (docs/ai-strength.md).
DEEP_CHECKS_SHARE = 0.3

#: The deepest ``proof_depth`` a level may ask for (each two decisions more cost the compiled
#: proof search about fifty times as much on Volo's standard board).
MAX_PROOF_DEPTH = 9

#: The named levels.  Time budgets cover the whole decision (tactics and solver
#: included), so ``hard`` stays within 2 s per move.
LEVELS: dict[str, Level] = {
    "easy": Level(
        iterations=30,
        tactics=False,
        mistakes=0.3,
        reuse=False,
        config=MCTSConfig(decisive=False, solver=False, turn_prior=False),
    ),
    # medium looks each action to its end with the game's turn prior, as calibrated since
    # Voldétour's playouts run the race (docs/ai.md, "The levels")
    "medium": Level(iterations=300, seconds=0.5),
    # hard's three-decision steps go through the compiled proof search where the game has
    # one (the same answers, ten to fifty times cheaper: its checks fit its time on a
    # starved machine, docs/ai-strength.md); hard and expert stretch the children's means
    # where the game says so (Voldétour's NORMALIZE, docs/ai.md "Stretched means")
    "hard": Level(
        iterations=None,
        seconds=1.7,
        solver_depth=3,
        solver_nodes=6000,
        safety_checks=4,
        proof_depth=3,
        threat_turn_nodes=2000,
        unstoppable_nodes=1000,
        config=MCTSConfig(repeat_draw=True, normalize=None),
    ),
    # expert looks five decisions deep where the game's compiled proof search goes that deep
    # (Volo, XoBo): the lines that decide its games against hard (docs/ai-strength.md); where
    # its checks look a turn further (Voldétour), it gives that look twenty times hard's
    # positions and half its time: the winning turns of five decisions that decided its games
    # against hard need about 9,000 (docs/ai-strength.md, "Voldétour: where `expert` and
    # `hard` lose")
    "expert": Level(
        iterations=None,
        seconds=6.0,
        solver_depth=3,
        solver_nodes=20000,
        safety_checks=6,
        proof_depth=5,
        threat_turn_nodes=2000,
        unstoppable_nodes=20_000,
        lasting_nodes=2000,
        danger_calls=128,
        danger_share=0.5,
        # the game's own settings for this level, where it has some (Voldétour: a pillar is
        # one put in the path distance, docs/ai.md "A pillar is one put")
        knobs="expert",
        config=MCTSConfig(repeat_draw=True, normalize=None),
    ),
}


class Steps:
    """The wall-clock and CPU seconds of a decision's steps, in the order taken.

    :meth:`enter` ends the step under way (if any) and starts the named one; time spent
    again in a step adds to it; :meth:`close` ends the last.

    >>> steps = Steps()
    >>> steps.enter("search"); steps.enter("checks"); steps.close()
    >>> list(steps.times)
    ['search', 'checks']
    >>> all(wall >= 0 and cpu >= 0 for wall, cpu in steps.times.values())
    True
    """

    def __init__(self) -> None:
        #: step -> (wall seconds, CPU seconds of the process)
        self.times: dict[str, tuple[float, float]] = {}
        self._step: str | None = None
        self._wall = self._cpu = 0.0

    def enter(self, step: str) -> None:
        self.close()
        self._step = step
        self._wall, self._cpu = time.perf_counter(), time.process_time()

    def close(self) -> None:
        if self._step is None:
            return
        wall, cpu = self.times.get(self._step, (0.0, 0.0))
        self.times[self._step] = (
            wall + time.perf_counter() - self._wall,
            cpu + time.process_time() - self._cpu,
        )
        self._step = None


class MCTSPlayer(Player):
    """Monte Carlo tree search with optional tactical filter and solver."""

    def __init__(self, level: Level | None = None, seed: int | None = 0, name: str = "mcts"):
        self.level = level or Level(iterations=500)
        if self.level.iterations is None and self.level.seconds is None:
            raise TablierError("an MCTS player needs an iteration or a time budget")
        self.seed = seed
        self.name = name
        self._tree: MCTS | None = None
        self._rng = random.Random(seed)
        self.last_analysis: list[MoveStat] = []
        #: Simulations already at the root when the last search started (kept tree).
        self.reused_visits = 0
        #: The positions this player's game has been in at its decisions and after them
        #: (keys of the game's ``position_key``), for ``repeat_draw``.
        self._seen: set[Hashable] = set()
        #: The position after this player's last decision where its turn went on (else
        #: None), and whether that turn is one of its ``mistakes`` (None: not drawn yet).
        self._after: State[Any] | None = None
        self._mistaken: bool | None = None
        #: The wall-clock and CPU seconds of the last decision's steps (:attr:`Steps.times`):
        #: ``tactics`` (the winning and losing moves, the solver, the game's deeper proofs),
        #: ``threat`` (the game's threat turn), ``search``, ``checks`` (the rule guard and
        #: the safety checks); the steps not taken are absent.
        self.last_timing: dict[str, tuple[float, float]] = {}
        self._steps = Steps()

    def reset(self) -> None:
        """Drop the search tree and the positions seen (a new game)."""
        self._tree = None
        self._seen = set()
        self._after = None
        self._mistaken = None

    def remember(self, state: State[Any]) -> None:
        """Add ``state`` to the positions seen, with ``repeat_draw`` and a game that keys
        its positions (see :meth:`Player.remember`)."""
        if not self.level.config.repeat_draw:
            return
        hook = knowledge_for(state.game).position_key
        key = hook(state) if hook is not None else None
        if key is not None:
            self._seen.add(key)

    @property
    def remembers(self) -> bool:
        """True with ``repeat_draw``: the positions seen count as draws in the search."""
        return self.level.config.repeat_draw

    def _tree_for(self, state: State[Any]) -> MCTS:
        tree = self._tree
        if tree is not None and self.level.reuse and tree.state.game == state.game:
            tree.advance(state)
        else:
            seed = self._rng.randrange(1 << 30)
            tree = MCTS(state, seed=seed, config=self.level.config)
        tree.history = self._seen
        self._tree = tree
        self.reused_visits = tree.root.n
        return tree

    def analyse(
        self, state: State[Any], progress: Progress | None = None, top: int | None = None
    ) -> list[MoveStat]:
        """Search ``state`` and return the root moves best first."""
        self.choose(state, progress)
        return self.last_analysis[:top] if top else list(self.last_analysis)

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """Search and return the chosen move.

        With ``repeat_draw`` the player remembers ``state`` and the position after its
        move, a game's positions as it sees them, for its later searches (a player
        follows one game at a time: :meth:`reset` starts another).
        """
        if self._after is None or state != self._after:
            self._mistaken = None  # a turn of its own starts: a mistake is drawn for it anew
        self.remember(state)
        self._steps = Steps()
        try:
            with knowledge_for(state.game).knobs(self.level.knobs):
                move = self._choose(state, progress)
        finally:
            self._steps.close()
            self.last_timing = self._steps.times
        after = state.apply_unchecked(move)
        self.remember(after)
        going_on = after.outcome is None and after.to_move == state.to_move
        self._after = after if going_on else None
        return move

    def _mistake_turn(self) -> bool:
        """Whether the turn being played is one of the level's ``mistakes`` (drawn at its
        first decision that gets this far, kept for the turn's other decisions)."""
        if self._mistaken is None:
            self._mistaken = self._rng.random() < self.level.mistakes
        return self._mistaken

    def _choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        start, cpu_start = time.perf_counter(), time.process_time()
        moves = _check_state(state)
        level = self.level
        # Wall clock: the person waits in wall time, so a loaded machine costs simulations,
        # not seconds (docs/ai.md, "Time budgets").
        tree = self._tree_for(state)
        if len(moves) == 1:
            self.last_analysis = tree.analysis()
            return moves[0]
        candidates = moves
        steps = self._steps
        steps.enter("tactics")
        if level.tactics:
            wins = winning_moves(state)
            if wins:
                self.last_analysis = [MoveStat(wins[0], 0, 1.0, 1.0, "win")]
                return wins[0]
            bad = set(losing_moves(state))
            safe = [m for m in moves if m not in bad]
            tree.restrict_root(safe if bad and safe else None)
            candidates = safe or moves
        if level.mistakes > 0 and self._mistake_turn():
            return self._mistake(state, candidates)
        order = _prior_order(state)
        depth, prove = tactical_depth(state, level.solver_depth, level.proof_depth)
        if depth > 1:
            # Whatever its floor, the solver stops at half the time budget (wall clock).
            pre_stop = self.stop
            if level.seconds:
                pre_stop = wall_stop(start + 0.5 * level.seconds, self.stop)
            # The solver gets a quarter of the time budget, never less than the floor.
            limit = max(0.25 * level.seconds, TACTICS_SECONDS) if level.seconds else None
            win = forced_win(
                state,
                depth,
                level.solver_nodes,
                level.threat_nodes,
                limit,
                order,
                pre_stop,
                prove,
                level.proof_nodes,
            )
            if win is not None:
                self.last_analysis = [MoveStat(win, 0, 1.0, 1.0, "win")]
                return win
        steps.enter("threat")
        plan = threat_turn(state, level, start, self.stop) if level.threat_turn_nodes else None
        steps.enter("search")
        checks = level.safety_checks if depth > 1 else 0
        seconds = level.seconds
        if seconds is not None:
            share = DEEP_CHECKS_SHARE if depth > level.solver_depth else CHECKS_SHARE
            if level.checks_share is not None:
                share = level.checks_share
            elif (
                level.danger_share is not None
                and _danger(state, level.unstoppable_nodes, level.lasting_nodes) is not None
            ):
                share = level.danger_share
            seconds = search_seconds(seconds, checks > 0, level.rule_guard, start, cpu_start, share)
        tree.search(level.iterations, seconds, progress, stop=self.stop)
        self.last_analysis = tree.analysis()
        steps.enter("checks")
        stopped = self.stop is not None and self.stop()
        guard = rule_guard(state, level.rule_nodes) if level.rule_guard and not stopped else None
        deadline = None
        if level.seconds is not None:
            deadline = checks_deadline(level.seconds, checks > 0, start)
        if level.temperature > 0:
            move = tree.sample_move(level.temperature)
            return guard.pick(state, [move], deadline) if guard is not None else move
        best = tree.best_move()
        if plan is not None and _plays_threat(plan, candidates, self.last_analysis):
            best = plan
        if guard is not None:
            best = guard.pick(state, [best, *(s.move for s in self.last_analysis)], deadline)
        if checks and not stopped:
            best = self._safest(state, best, checks, order, deadline, guard, depth, prove)
        return best

    def _mistake(self, state: State[Any], moves: list[Move]) -> Move:
        """A random one of ``moves``, passed through the rule guard (``mistakes``)."""
        self.last_analysis = []
        move = moves[self._rng.randrange(len(moves))]
        if self.level.rule_guard:
            move = rule_guard(state, self.level.rule_nodes).pick(state, [move])
        return move

    def _safest(
        self,
        state: State[Any],
        best: Move,
        checks: int,
        order: Callable[[State[Any], list[Move]], list[Move]] | None,
        deadline: float | None,
        guard: RuleGuard | None = None,
        depth: int | None = None,
        prove: Prove | None = None,
    ) -> Move:
        """:func:`safest_move` among ``best`` and the ``checks`` best moves of the analysis,
        then its other searched moves by visits (a proven win is played as it is, moves
        proven lost are left out)."""
        analysis = [s for s in self.last_analysis if s.proven != "loss"]
        if analysis and analysis[0].proven == "win":
            return best
        # Where the best moves all lose, the search's ranking of the others is a better
        # guess than the static prior's (the escape is often a quiet move it visited).
        searched = [s.move for s in analysis[checks:] if s.visits > 0]
        first = [best, *(s.move for s in analysis[:checks]), *searched]
        level = self.level
        depth = level.solver_depth if depth is None else depth
        return safest_move(
            state,
            first,
            depth,
            level.safety_nodes,
            order,
            deadline,
            guard,
            self.stop,
            prove,
            level.proof_nodes,
            level.solver_depth if depth > level.solver_depth else None,
            knowledge_for(state.game).defences,
            1 + checks,
            _danger(state, level.unstoppable_nodes, level.lasting_nodes),
            level.danger_calls,
        )


#: The most times per decision a level's safety checks ask the ``lasting_threat`` hook.
LASTING_CALLS = 32


def _danger(state: State[Any], nodes: int, lasting_nodes: int = 0) -> Danger | None:
    """The game's ``unstoppable`` hook with ``nodes`` positions per question, for the
    safety checks (:class:`~tablier.ai.tactics.TurnSafety`'s ``danger``), or None; with
    ``lasting_nodes``, where it finds nothing, the ``lasting_threat`` hook with that many
    positions per search, its first :data:`LASTING_CALLS` times (the two within the time
    given)."""
    knowledge = knowledge_for(state.game)
    hook = knowledge.unstoppable
    if hook is None or nodes <= 0:
        return None
    lasting = knowledge.lasting_threat
    if lasting is None or lasting_nodes <= 0:
        return lambda s, seconds, stop: hook(s, nodes, seconds, stop)
    asked = [0]

    def danger(
        s: State[Any], seconds: float | None, stop: Callable[[], bool] | None
    ) -> Sequence[Move] | None:
        start = time.process_time()
        line = hook(s, nodes, seconds, stop)
        if line or asked[0] >= LASTING_CALLS or (stop is not None and stop()):
            return line
        left = None if seconds is None else seconds - (time.process_time() - start)
        if left is not None and left <= 0:
            return None
        asked[0] += 1
        return lasting(s, lasting_nodes, left, stop)

    return danger


def search_seconds(
    seconds: float,
    checks: bool,
    guard: bool,
    start: float,
    cpu_start: float,
    share: float = 0.15,
) -> float:
    """The wall-clock seconds a timed search may take now, of a decision of ``seconds``
    that started at ``start`` (wall clock) and ``cpu_start`` (CPU time).

    The budget covers the steps before and after the search too: it keeps ``share``
    (:data:`CHECKS_SHARE`, 15%; :data:`DEEP_CHECKS_SHARE` for checks deeper than the
    level's ``solver_depth``) for the safety ``checks`` (10% for the rule ``guard``
    alone), and the checks' floor of :data:`TACTICS_SECONDS` of CPU time, in wall time
    at the CPU share this decision got so far, but the search keeps at least half of the
    budget.
    """
    reserve = share * seconds if checks else 0.1 * seconds if guard else 0.0
    elapsed = time.perf_counter() - start
    if checks:
        cpu_share = (time.process_time() - cpu_start) / elapsed if elapsed > 0.02 else 1.0
        floor = TACTICS_SECONDS / min(1.0, max(cpu_share, 0.1))
        reserve = max(reserve, min(floor, 0.5 * seconds))
    return max(0.05, seconds - reserve - elapsed)


def checks_deadline(seconds: float, checks: bool, start: float) -> float:
    """The wall-clock time the steps after a timed search must end by: the decision's end
    (``start + seconds``), or later to leave them a twentieth of the budget (the safety
    ``checks``: :data:`TACTICS_SECONDS`), but never past the promise, ``TIME_MARGIN``
    after the decision's end."""
    floor = max(0.05 * seconds, TACTICS_SECONDS if checks else 0.0)
    deadline = max(start + seconds, time.perf_counter() + floor)
    return min(deadline, start + seconds + TIME_MARGIN)


def wall_stop(until: float, outer: Callable[[], bool] | None) -> Callable[[], bool]:
    """A ``stop`` that answers True once the wall clock passes ``until`` or ``outer`` does."""
    return _either(lambda: time.perf_counter() > until, outer)


def _either(first: Callable[[], bool], outer: Callable[[], bool] | None) -> Callable[[], bool]:
    """A ``stop`` that answers True when ``first`` or ``outer`` (if any) does."""
    return lambda: first() or (outer is not None and outer())


def tactical_depth(
    state: State[Any], solver_depth: int, proof_depth: int
) -> tuple[int, Prove | None]:
    """The depth of a level's solver steps in ``state``'s game, and the proof search to use.

    ``proof_depth`` (when above 0 and ``solver_depth`` is on; ``solver_depth`` where that
    is more) with the game's compiled proof search (:attr:`Knowledge.prove
    <tablier.ai.knowledge.Knowledge.prove>`) when the game has one, the compiled core is
    on and the search takes questions that deep; else ``solver_depth`` with it where it
    takes those (Voldétour's stops at three decisions); else ``solver_depth`` with the
    generic solver alone (None).  On Voldétour, whose search stops at three, ``expert``'s
    five becomes three:

    >>> from tablier.games import get
    >>> tactical_depth(get("voldetour", repetition=True).initial_state(), 3, 5)[0]
    3
    """
    prove = knowledge_for(state.game).prove
    if proof_depth <= 0 or solver_depth <= 1 or prove is None or state.outcome is not None:
        return solver_depth, None
    # Does the hook take the question?  (None: the compiled core is off, or the game's
    # search does not go that deep or serve these options; no position is expanded.)
    for depth in dict.fromkeys((max(proof_depth, solver_depth), solver_depth)):
        if prove(state, state.to_move, depth, 0, -1.0) is not None:
            return depth, prove
    return solver_depth, None


def forced_win(
    state: State[Any],
    depth: int,
    nodes: int,
    threat_nodes: int,
    seconds: float | None,
    order: Callable[[State[Any], list[Move]], list[Move]] | None = None,
    stop: Callable[[], bool] | None = None,
    prove: Prove | None = None,
    prove_nodes: int = 2_000_000,
) -> Move | None:
    """The first move of a forced win the mover is proved to have, or None.

    The solver looks ``depth`` decisions deep (at most ``nodes`` positions and
    ``seconds`` of CPU time: a loaded machine leaves it the same work; ``stop``
    ends it early), then the game's deeper proofs
    (:attr:`~tablier.ai.knowledge.Knowledge.forced_win`: XoBo's threat-space
    search, Voldétour's winning turns) get ``threat_nodes`` positions,
    ``seconds`` and the same ``stop``.  ``prove`` (a game's compiled proof search, with
    ``prove_nodes``) goes to the solver.
    The tactical step of ``hard``, ``expert`` and ``master`` before their search.
    """
    solver = Solver(
        max_nodes=nodes,
        max_seconds=seconds,
        order=order,
        stop=stop,
        clock=time.process_time,
        prove=prove,
        prove_nodes=prove_nodes,
    )
    result = solver.solve(state, depth, mover_only=True)
    if result.status == "win" and result.line:
        return result.line[0]
    hook = knowledge_for(state.game).forced_win
    if hook is not None and threat_nodes:
        line = hook(state, threat_nodes, seconds, stop)
        if line:
            return line[0]
    return None


def _plays_threat(plan: Move, candidates: Sequence[Move], analysis: list[MoveStat]) -> bool:
    """Whether a level plays the threat ``plan`` rather than its search's choice: not where
    the tactical filter left it out (``candidates``), the search proved a win, or the search
    proved the threat lost while some other move is not."""
    if plan not in candidates:
        return False
    if not analysis:
        return True
    top = analysis[0]
    if top.proven == "win":
        return False
    lost = any(stat.move == plan and stat.proven == "loss" for stat in analysis)
    return not lost or top.proven == "loss"


#: The share of a timed level's budget its ``threat_turn`` step may take.
THREAT_TURN_SHARE = 0.1


def threat_turn(
    state: State[Any],
    level: Level,
    start: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Move | None:
    """The first decision of a turn that threatens a win at the next one, or None.

    The game's :attr:`~tablier.ai.knowledge.Knowledge.threat_turn` hook (Voldétour's)
    with the level's ``threat_turn_nodes`` per search, within
    :data:`THREAT_TURN_SHARE` of a timed level's budget in CPU time (Voldétour's hook
    takes as much again for a two-turn plan), and, for a
    decision that began at ``start`` (:func:`time.perf_counter`), not past half the
    budget and that share of it in wall-clock time (the steps before, solver
    included, end by half); ``stop`` ends it too; None where the game has no such
    hook.  The step of ``hard`` and ``expert`` between their tactical step
    and their search: a threat is played, once the safety checks pass it, rather than
    the search's choice (docs/ai.md, "Threat turns").
    """
    hook = knowledge_for(state.game).threat_turn
    if hook is None:
        return None
    seconds = THREAT_TURN_SHARE * level.seconds if level.seconds else None
    if level.seconds and start is not None:
        stop = wall_stop(start + (0.5 + THREAT_TURN_SHARE) * level.seconds, stop)
    line = hook(state, level.threat_turn_nodes, seconds, stop)
    return line[0] if line else None


def safest_move(
    state: State[Any],
    first: Sequence[Move],
    depth: int,
    nodes: int,
    order: Callable[[State[Any], list[Move]], list[Move]] | None,
    deadline: float | None,
    guard: RuleGuard | None = None,
    stop: Callable[[], bool] | None = None,
    prove: Prove | None = None,
    prove_nodes: int = 2_000_000,
    guarantee: int | None = None,
    defences: Defences | None = None,
    keep: int = 1,
    danger: Danger | None = None,
    danger_calls: int = 32,
) -> Move:
    """The first move after which the opponent forces no win, ``first[0]`` if none is found.

    Each candidate is checked with a :class:`~tablier.ai.tactics.TurnSafety`:
    after the move and the rest of the mover's turn, the opponent must not
    force a win within ``depth`` decisions.  ``first`` (the search's choice,
    then its next best moves) comes first, then, if none is safe, the other
    legal moves in ``order``, until one is found safe or the budgets run out:
    ``nodes`` solver nodes in all, and the wall-clock ``deadline``, except that
    the checks always get :data:`TACTICS_SECONDS` of CPU time (never more CPU time
    than the wall time left when they start); then the first candidate not
    proven lost, else ``first[0]``.  With a rule ``guard``, candidates it proves
    lost are skipped (``first[0]`` is its choice).  ``prove`` (a game's compiled
    proof search) answers the solver's questions, within ``prove_nodes`` of its
    positions in all.  The tactical step of ``hard``, ``expert`` and ``master`` after
    their search.

    ``guarantee``, below ``depth``, is the depth whose promise holds whatever the
    deeper checks find (``expert`` checks five decisions and keeps the three of
    ``hard``, docs/ai.md "Whole-turn safety"): each candidate is checked at
    ``guarantee`` first and passed over when lost there, and where none passes the
    deep check the choice is the first candidate safe at ``guarantee`` whose deep
    check was cut short, else the first safe at ``guarantee`` (lost deeper), else
    the first not proven lost at ``guarantee``, else ``first[0]``.

    ``defences`` (the game's hook, :attr:`Knowledge.defences
    <tablier.ai.knowledge.Knowledge.defences>`) points the checks at the decisions
    that may stop the opponent's threat first (:class:`~tablier.ai.tactics.TurnSafety`),
    and, once a check has found the opponent's threat, the candidates after the first
    ``keep`` (the search's choices, checked in its order) are taken in that order too:
    those that may stop the threat first.  ``danger`` goes to the checks
    (:class:`~tablier.ai.tactics.TurnSafety`): an ending after which the opponent has
    an unstoppable turn is lost too, asked at most ``danger_calls`` times.
    """
    best = first[0]
    # The checks get at least the floor of CPU time (on a loaded machine they do that much
    # of the work of an idle one), and beyond it the wall-clock time left: past the
    # deadline, once the floor is spent, they stop.  Without a time budget, nodes alone.
    cpu_deadline = None
    over: Callable[[], bool] | None = None
    if deadline is not None:
        wall_deadline = deadline
        cpu_now = time.process_time()
        floor_end = cpu_now + TACTICS_SECONDS
        cpu_deadline = cpu_now + max(deadline - time.perf_counter(), TACTICS_SECONDS)

        def over() -> bool:
            return time.perf_counter() > wall_deadline and time.process_time() > floor_end

    checks_stop = stop if over is None else _either(over, stop)

    def checker(at: int) -> TurnSafety:
        return TurnSafety(
            at,
            nodes,
            order=order,
            stop=checks_stop,
            clock=time.process_time,
            prove=prove,
            prove_nodes=prove_nodes,
            defences=defences,
            danger=danger,
            danger_calls=danger_calls,
        )

    safety = checker(depth)
    shallow = checker(guarantee) if guarantee is not None and 0 < guarantee < depth else None
    legal: list[Move] = state.legal_moves()
    rest = order(state, legal) if order is not None else legal
    # the fallbacks, best first: not proven lost (deep check cut short; safe at the
    # guarantee's depth where there is one), lost only deeper than the guarantee, not proven
    # lost at the guarantee's depth
    fallback: Move | None = None
    lasting: Move | None = None
    loose: Move | None = None
    pending = list(dict.fromkeys((*first, *rest)))

    def candidates() -> Iterator[Move]:
        aimed = None
        i = 0
        while i < len(pending):
            yield pending[i]
            i += 1
            threat = safety.threat
            if defences is not None and threat is not None and threat is not aimed and i >= keep:
                aimed = threat  # a new threat: the candidates that may stop it first
                tail = pending[i:]
                flagged = zip(tail, defences(state, tail, *threat), strict=True)
                pending[i:] = [m for m, _ in sorted(flagged, key=lambda mf: not mf[1])]  # stable

    move: Move
    for move in candidates():
        if guard is not None and move != best and guard.fate(state, move) == LOST:
            continue  # (no deadline: the guard's nodes bound it, a late clock must not)
        if safety.solver.nodes > nodes or safety.solver.proved_nodes >= prove_nodes:
            break
        if over is not None and over():  # (implies the CPU deadline has passed too)
            break
        near = SAFE
        if shallow is not None:
            near = shallow.fate(state, move, cpu_deadline)
            if near == LOST:
                continue  # (lost within the guarantee: deeper too)
        verdict = safety.fate(state, move, cpu_deadline)
        if verdict == SAFE:
            return move
        if near == UNKNOWN:
            loose = move if loose is None else loose
        elif verdict == UNKNOWN:
            fallback = move if fallback is None else fallback
        elif shallow is not None:  # lost deeper than the guarantee
            lasting = move if lasting is None else lasting
    for choice in (fallback, lasting, loose):
        if choice is not None:
            return choice
    return best


def _prior_order(state: State[Any]) -> Callable[[State[Any], list[Move]], list[Move]] | None:
    """Solver move ordering by the game's move prior (best first), or None without one."""
    knowledge = knowledge_for(state.game)
    if knowledge.move_prior is None:
        return None

    def order(s: State[Any], moves: list[Move]) -> list[Move]:
        priors = knowledge.priors(s, moves)
        ranked = sorted(range(len(moves)), key=lambda i: -priors[i])
        return [moves[i] for i in ranked]

    return order


#: Players added from outside the package (benchmarks, experiments): name -> factory
#: ``(overrides, game, seed) -> Player``; see :func:`register_player`.
EXTRA_PLAYERS: dict[str, Callable[[dict[str, str], Game[Any, Any] | None, int | None], Player]] = {}


def register_player(
    name: str,
    factory: Callable[[dict[str, str], Game[Any, Any] | None, int | None], Player],
) -> None:
    """Make :func:`make_player` (and so the arena) build ``name`` with ``factory``.

    ``factory`` gets the spec's settings (strings), the game and the seed.  A
    registration lives in this process and the worker processes it forks (the
    arena's local backend); Ray tasks do not see it.  The built-in names cannot
    be replaced.
    """
    if name in ("random", "greedy", *LEVELS, "master", "mcts"):
        raise TablierError(f"{quote(name)} is a built-in player")
    EXTRA_PLAYERS[name] = factory


def player_names() -> list[str]:
    """The player names :func:`make_player` accepts (without overrides)."""
    return ["random", "greedy", *LEVELS, "master", "mcts", *EXTRA_PLAYERS]


def parse_setting(
    key: str,
    text: str,
    current: Any,
    *,
    nullable: tuple[str, ...],
    integers: tuple[str, ...],
    null_words: tuple[str, ...] = ("none", "off", ""),
    auto: tuple[str, ...] = (),
) -> Any:
    """One setting of a player spec: a yes/no when ``current`` is a bool, yes, no or
    ``auto`` (None: the game's choice) for a key of ``auto``, None for a key of
    ``nullable`` written as one of ``null_words``, else an int (keys of ``integers``) or a
    float; the callers check the sign."""
    low = text.strip().lower()
    if isinstance(current, bool) or key in auto:
        if low in ("1", "yes", "true", "on"):
            return True
        if low in ("0", "no", "false", "off"):
            return False
        if key in auto and low == "auto":
            return None
        choices = "yes, no or auto" if key in auto else "yes or no"
        raise TablierError(f"setting {key!r} must be {choices}, not {quote(text)}")
    if low in null_words and key in nullable:
        return None
    what = f"setting {key!r}"
    if key in integers:
        return parse_int(low, what, error=TablierError)
    return parse_float(low, what, error=TablierError)


def _parse_value(key: str, text: str, current: Any) -> Any:
    if key == "knobs":  # a profile's name, or none
        name = text.strip().lower()
        if not name or not name.replace("_", "").isalnum():
            raise TablierError(f"setting 'knobs' is a profile's name or none, not {text!r}")
        return None if name == "none" else name
    value = parse_setting(
        key,
        text,
        current,
        nullable=("iterations", "seconds", "playout_depth", "checks_share", "danger_share"),
        auto=("normalize",),
        integers=(
            "iterations",
            "solver_depth",
            "solver_nodes",
            "safety_checks",
            "safety_nodes",
            "threat_nodes",
            "threat_turn_nodes",
            "unstoppable_nodes",
            "danger_calls",
            "lasting_nodes",
            "proof_depth",
            "proof_nodes",
            "rule_nodes",
            "playout_depth",
            "max_playout",
            "widen_first",
            "turn_visits",
            "widen_visits",
        ),
    )
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise TablierError(f"setting {key!r} cannot be negative")
    if key in ("checks_share", "danger_share") and value is not None and value >= 1:
        raise TablierError(f"setting {key!r} must be below 1")
    return value


def make_player(spec: str, game: Game[Any, Any] | None = None, seed: int | None = 0) -> Player:
    """Build a player from its name and optional settings (see the module docstring).

    >>> make_player("hard:iterations=50,seconds=none").level.iterations
    50
    """
    if not isinstance(spec, str) or not spec.strip():
        raise TablierError("name a player: " + ", ".join(player_names()))
    name, overrides = parse_spec(spec, error=TablierError, what="player spec")
    if name in ("random", "greedy"):
        extra = set(overrides) - {"rule_guard", "rule_nodes"}
        if extra:
            raise TablierError(
                f"the {name} player takes no settings but rule_guard and rule_nodes"
                f" (not {', '.join(sorted(extra))})"
            )
        guard = _parse_value("rule_guard", overrides.get("rule_guard", "yes"), True)
        nodes = _parse_value("rule_nodes", overrides.get("rule_nodes", str(RULE_NODES)), 0)
        cls = RandomPlayer if name == "random" else GreedyPlayer
        return cls(seed, guard=guard, rule_nodes=nodes)
    if name == "master":
        from .network_player import make_master

        return make_master(overrides, game, seed, spec.strip().lower())
    if name in EXTRA_PLAYERS:
        return EXTRA_PLAYERS[name](overrides, game, seed)
    if name == "mcts":
        level = Level(iterations=500)
    elif name in LEVELS:
        level = LEVELS[name]
    else:
        raise TablierError(f"unknown player {quote(name)} (known: {', '.join(player_names())})")
    level_fields = {f.name for f in dataclasses.fields(Level)} - {"config"}
    config_fields = {f.name for f in dataclasses.fields(MCTSConfig)}
    level_changes: dict[str, Any] = {}
    config_changes: dict[str, Any] = {}
    for key, text in overrides.items():
        if key in level_fields:
            level_changes[key] = _parse_value(key, text, getattr(level, key))
        elif key in config_fields:
            config_changes[key] = _parse_value(key, text, getattr(level.config, key))
        else:
            known = ", ".join(sorted(level_fields | config_fields))
            raise TablierError(f"unknown player setting {quote(key)} (settings: {known})")
    if config_changes:
        level_changes["config"] = dataclasses.replace(level.config, **config_changes)
    level = dataclasses.replace(level, **level_changes)
    if level.iterations is None and level.seconds is None:
        raise TablierError("an MCTS player needs an iteration or a time budget")
    if level.iterations == 0:
        raise TablierError("the iteration budget must be at least 1")
    if level.mistakes > 1:
        raise TablierError("the share of mistakes must be within 0 and 1")
    if level.proof_depth > MAX_PROOF_DEPTH:
        raise TablierError(f"the proof depth must be at most {MAX_PROOF_DEPTH}")
    return MCTSPlayer(level, seed=seed, name=spec.strip().lower())
