"""Per-game knowledge for the AI, declared by the game.

The search code never asks which game it plays.  A game that wants to help
the AI declares it on its class: :meth:`Game.knowledge
<tablier.core.game.Game.knowledge>` returns a module or object (the built-in
games return their ``ai`` module), read with :func:`knowledge_for`.  Every
name in it is optional:

``evaluate(state) -> float``
    A static evaluation in ``[-1, 1]`` from the point of view of
    ``state.to_move`` (1: that player is winning).  Called on non-terminal
    states only.  With it, playouts are cut off after a few plies and scored
    by the evaluation; without it they run to the end of the game.

``move_prior(state, moves) -> list[float]``
    A cheap, non-negative weight per legal move (same order as ``moves``):
    how promising the move looks before any search.  Used for progressive
    bias in the tree and for weighted playouts.

``turn_prior(state, moves) -> list[float]``
    A costlier prior for the decisions of the player searched for, over the rest
    of their turn: the search uses it instead of ``move_prior`` at the root and
    at the nodes reached from it by that player's own decisions (in a game whose
    turn is several decisions, as Voldétour's, the rest of the turn; elsewhere
    the root only).  There the children are ranked by it and widened
    progressively: only the best few are searched at first, more as the node
    gets visits (the ``turn_*`` and ``widen_*`` fields of
    :class:`~tablier.ai.mcts.MCTSConfig`).  A game where a turn's
    first decision is worth only what its later ones make of it (take a piece,
    then put it on one of hundreds of squares) uses it to look the turn to its
    end, so the search is not spread over every put.

``playout_policy(state, rng) -> Move | None``
    The move to play in a playout from ``state`` (``rng`` is a
    :class:`random.Random`); ``None`` means "fall back to the default"
    (uniform, or weighted by ``move_prior`` to the power ``PLAYOUT_POWER``).

``playout(state, seed, limit, weighted, cutoff) -> (reward, played) | None``
    A whole playout in one call, for games whose compiled core plays them
    faster than the search loop can.  It plays on from ``state`` for at most
    ``limit`` plies (fewer when the game ends), choosing moves as the search's
    own playout would with this knowledge (``playout_policy``; else weighted
    by ``move_prior`` to the power ``PLAYOUT_POWER`` when ``weighted``; else
    uniform), with its own random generator seeded by ``seed`` (``0 <= seed
    < 2**64``).  It returns the reward for player 0 (the outcome's score if
    the game ended; else, when ``cutoff``, the evaluation of the last state
    mapped to ``[0, 1]`` as :meth:`Knowledge.value` does; else 0.5) and the
    moves played as ``(mover, move)`` pairs, which feed RAVE.  ``None`` means
    "not available now" (the compiled core is switched off): the search plays
    the playout itself.

``forced_win(state, nodes, seconds, stop) -> Sequence[Move] | None``
    A game's own proof search for forced wins too deep for the generic solver
    (XoBo: threat-space search over voyna sequences; Voldétour: a win within
    the mover's own turn of up to five decisions).  It returns a winning
    line for the side to move (its first move is played), every reply of the
    opponent refuted (Voldétour's has none to refute), or ``None`` when it
    finds none within ``nodes`` positions and ``seconds`` (``None``: no time
    limit), or before ``stop`` (``None`` or a callable asked now and then)
    answers True.  ``hard``, ``expert`` and ``master`` ask it before searching,
    with a ``stop`` at half their time budget (wall clock).

``threat_turn(state, nodes, seconds, stop) -> Sequence[Move] | None``
    A turn that threatens to win at the next one, in a game whose turns are
    several decisions (Voldétour): the mover's decisions to the end of its
    turn, after which, were it to move again, it would have a winning turn,
    the opponent having none found; or ``None`` when it finds none (each
    search at most ``nodes`` positions, the whole within ``seconds`` of CPU
    time, ``None``: no limit, and before ``stop`` answers True, as for
    ``forced_win``; Voldétour's takes ``seconds`` more where, finding no threat
    and no turn that brings its Lord on, it looks for a two-turn plan: docs/ai.md,
    "Two-turn plans").  ``hard`` and ``expert`` play its first decision
    when the safety checks pass it, instead of the search's choice (docs/ai.md,
    "Threat turns"): in a race where both Lords are stuck, a threat makes the
    opponent answer it or lose.

``unstoppable(state, nodes, seconds, stop) -> Sequence[Move] | None``
    The defence's side of ``threat_turn``: a turn after which nothing the
    opponent does stops the mover's next turn from winning (Voldétour: the Lord
    ends beside the enemy tower at its height, where the piece under it cannot
    move), or a turn that wins at once; the mover's decisions to the end of
    that turn, or ``None`` when it finds none within ``nodes`` positions and
    ``seconds`` of CPU time (``None``: no limit), or before ``stop`` (if any)
    answers True.  The whole-turn safety check of ``hard`` and above
    (:class:`~tablier.ai.tactics.TurnSafety`) asks it of the opponent after each
    way of ending the mover's turn, and counts an ending where it answers a line
    as lost (docs/ai.md, "Unstoppable turns").

``lasting_threat(state, nodes, seconds, stop) -> Sequence[Move] | None``
    A look past ``unstoppable``: a turn that threatens a win at the next one and
    that no turn of the opponent's was found to answer (Voldétour: a block put on a
    low square between the Lord at the tower's height and the tower, a piece left
    in reserve to raise it; the opponent's turns that touch the threat's squares
    tried).  Found, not proved; the same arguments and answer as ``unstoppable``.
    The safety checks of a level with ``lasting_nodes`` (``expert``) ask it after
    ``unstoppable`` finds nothing, a few times per decision, and count an ending
    where it answers a line as lost (docs/ai.md, "Lasting threats").

``position_key(state) -> Hashable | None``
    A key of the position for repetitions, where a game's position can come
    back (Voldétour: the pieces, the Lords and the player to move, at a turn's
    start; ``None`` within a turn, where no position is compared).  With it,
    a search told to (``repeat_draw`` of :class:`~tablier.ai.mcts.MCTSConfig`,
    ``hard`` and above) scores a position the game has already been in as a
    draw, as chess engines do: a player ahead leaves a cycle, one behind seeks
    it (docs/ai.md, "Repetitions in the search").

``prove(state, attacker, depth, nodes, seconds) -> (bool | None, int) | None``
    A compiled proof search with the generic solver's answers: whether
    ``attacker`` forces a win within ``depth`` decisions from ``state`` (not
    over), as :meth:`Solver.wins <tablier.ai.solver.Solver.wins>` says, in
    a fraction of its time.  It returns the answer (``None`` past ``nodes``
    positions or ``seconds`` of CPU time; ``seconds < 0``: no time limit) and
    the positions it expanded; the whole call is ``None`` when the compiled
    core is off.  The solver hands its searches to it when a player asks
    (``proof_depth`` of a level: ``hard`` asks its three-decision questions of
    Volo's, XoBo's and Voldétour's, ``expert`` checks five decisions deep with
    Volo's and XoBo's, docs/ai.md).  A hook may take only some questions (too
    deep, some options) and answer ``None`` to the others.

``defences(state, moves, threat, line) -> list[bool]``
    For the whole-turn safety check of ``hard`` and above
    (:class:`~tablier.ai.tactics.TurnSafety`): ``line`` is the opponent's forced
    win from ``threat`` (a position after the mover's turn, every decision of the
    line the opponent's), ``state`` a position within the mover's turn; for each
    of the mover's ``moves`` there, whether it may interfere with that line (in
    Voldétour: it takes, puts or stands on a square the line uses).  The check
    tries those first and only a few others, so that a defence among hundreds of
    puts is found within its budget; it must not leave out a decision that
    could break the line (the other decisions are still tried after, when the
    focused search finds no safe ending).

``PLAYOUT_DEPTH: int``
    How many plies a cut-off playout runs before the evaluation (default 6).

``PLAYOUT_POWER: float``
    A weighted playout draws each move with a chance in proportion to its
    ``move_prior`` to this power (default 1; above 1 the playouts follow the
    prior's favourites more closely: Voldétour's 3 makes them run the
    leapfrog race, docs/ai.md "Playouts that run the race").

``NORMALIZE: bool``
    Whether the levels that leave ``normalize`` to the game (``hard``,
    ``expert``) stretch a node's children's means to ``[0, 1]`` before the
    exploration term (default False; Voldétour's True: a won race's values bunch
    near 1, docs/ai.md "Stretched means").

``LEVEL_KNOBS: Mapping[str, Mapping[str, float]]`` and ``set_knobs(knobs) -> dict``
    Settings of the game's own knowledge (its evaluation's weights, say) that a level
    plays with: a level naming a profile (``Level.knobs``; ``expert`` names
    ``"expert"``) has ``LEVEL_KNOBS[profile]`` set by ``set_knobs`` around each of its
    decisions, and the values ``set_knobs`` returns (the previous ones) set back
    after (:meth:`Knowledge.knobs`).  A game without the profile plays its defaults.
    The knobs are the process's (the compiled cores' too): two players of one
    process must not think at the same time, as the arena and the server's AI
    workers never do.

When the game declares none (``knowledge()`` returns ``None``, the default),
:class:`Knowledge` falls back to uniform random playouts to the end of the
game and no evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game, Move, State
from ..core.native import load, register

__all__ = [
    "DEFAULT_PLAYOUT_DEPTH",
    "Danger",
    "Defences",
    "Knowledge",
    "Playout",
    "Prove",
    "knowledge_for",
]

DEFAULT_PLAYOUT_DEPTH = 6

#: The ``prove`` hook: ``(state, attacker, depth, nodes, seconds)`` to ``(answer, nodes
#: expanded)``, the answer None past a limit; the call None when unavailable.
Prove = Callable[[State[Any], int, int, int, float], tuple[bool | None, int] | None]

#: The ``forced_win`` and ``threat_turn`` hooks: ``(state, nodes, seconds, stop)`` to the
#: mover's line, or None.
TurnSearch = Callable[
    [State[Any], int, float | None, Callable[[], bool] | None], Sequence[Move] | None
]

#: The ``defences`` hook: ``(state, moves, threat, line)`` to one flag per move.
Defences = Callable[[State[Any], Sequence[Move], State[Any], Sequence[Move]], Sequence[bool]]

#: The ``unstoppable`` hook with its positions bound, as the safety checks ask it:
#: ``(state, seconds, stop)`` to the mover's line, or None (``TurnSafety``'s ``danger``).
Danger = Callable[[State[Any], float | None, Callable[[], bool] | None], Sequence[Move] | None]

#: The ``playout`` hook: ``(state, seed, limit, weighted, cutoff)`` to
#: ``(reward for player 0, [(mover, move), ...])``, or None when unavailable.
Playout = Callable[[State[Any], int, int, bool, bool], tuple[float, list[tuple[int, Move]]] | None]


@dataclass(frozen=True)
class Knowledge:
    """What the AI knows about one game (every field may be ``None``)."""

    evaluate: Callable[[State[Any]], float] | None = None
    move_prior: Callable[[State[Any], Sequence[Move]], Sequence[float]] | None = None
    playout_policy: Callable[[State[Any], random.Random], Move | None] | None = None
    turn_prior: Callable[[State[Any], Sequence[Move]], Sequence[float]] | None = None
    playout: Playout | None = None
    forced_win: TurnSearch | None = None
    threat_turn: TurnSearch | None = None
    unstoppable: TurnSearch | None = None
    lasting_threat: TurnSearch | None = None
    prove: Prove | None = None
    defences: Defences | None = None
    position_key: Callable[[State[Any]], Hashable | None] | None = None
    playout_depth: int = DEFAULT_PLAYOUT_DEPTH
    playout_power: float = 1.0
    normalize: bool = False
    level_knobs: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    set_knobs: Callable[[Mapping[str, float]], Mapping[str, float]] | None = None
    source: str | None = None

    @classmethod
    def from_module(cls, module: object) -> Knowledge:
        """Collect the optional hooks a game's knowledge module (or object) defines."""
        return cls(
            evaluate=getattr(module, "evaluate", None),
            move_prior=getattr(module, "move_prior", None),
            playout_policy=getattr(module, "playout_policy", None),
            turn_prior=getattr(module, "turn_prior", None),
            playout=getattr(module, "playout", None),
            forced_win=getattr(module, "forced_win", None),
            threat_turn=getattr(module, "threat_turn", None),
            unstoppable=getattr(module, "unstoppable", None),
            lasting_threat=getattr(module, "lasting_threat", None),
            prove=getattr(module, "prove", None),
            defences=getattr(module, "defences", None),
            position_key=getattr(module, "position_key", None),
            playout_depth=int(getattr(module, "PLAYOUT_DEPTH", DEFAULT_PLAYOUT_DEPTH)),
            playout_power=float(getattr(module, "PLAYOUT_POWER", 1.0)),
            normalize=bool(getattr(module, "NORMALIZE", False)),
            level_knobs=dict(getattr(module, "LEVEL_KNOBS", {})),
            set_knobs=getattr(module, "set_knobs", None),
            source=getattr(module, "__name__", type(module).__name__),
        )

    @contextmanager
    def knobs(self, profile: str | None) -> Iterator[None]:
        """Within the block, the game's knobs of ``profile`` (its ``LEVEL_KNOBS``) are set;
        after it, what they were.  Nothing where ``profile`` is None or the game has no
        such profile.

        >>> calls = []
        >>> def set_knobs(knobs):
        ...     calls.append(dict(knobs))
        ...     return {name: 0.0 for name in knobs}
        >>> knowledge = Knowledge(level_knobs={"expert": {"w": 2.0}}, set_knobs=set_knobs)
        >>> with knowledge.knobs("expert"):
        ...     pass
        >>> with knowledge.knobs("hard"):
        ...     pass
        >>> calls
        [{'w': 2.0}, {'w': 0.0}]
        """
        knobs = self.level_knobs.get(profile) if profile is not None else None
        if not knobs or self.set_knobs is None:
            yield
            return
        previous = dict(self.set_knobs(knobs))
        try:
            yield
        finally:
            self.set_knobs(previous)

    def priors(self, state: State[Any], moves: Sequence[Move]) -> list[float]:
        """The move prior scaled to ``[0, 1]`` (best move 1); all 1 without a prior."""
        if self.move_prior is None or not moves:
            return [1.0] * len(moves)
        priors = _scaled(self.move_prior(state, moves))
        return [1.0] * len(moves) if priors is None else priors

    def turn_priors(self, state: State[Any], moves: Sequence[Move]) -> list[float]:
        """The turn prior scaled to ``[0, 1]`` (best move 1); :meth:`priors` without one."""
        if self.turn_prior is None or not moves:
            return self.priors(state, moves)
        priors = _scaled(self.turn_prior(state, moves))
        return [1.0] * len(moves) if priors is None else priors

    def value(self, state: State[Any], player: int) -> float:
        """The evaluation of ``state`` for ``player`` in ``[-1, 1]`` (0 without one)."""
        outcome = state.outcome
        if outcome is not None:
            return 2.0 * outcome.score(player) - 1.0
        if self.evaluate is None:
            return 0.0
        v = max(-1.0, min(1.0, float(self.evaluate(state))))
        return v if state.to_move == player else -v


def _scaled_py(weights: Sequence[float]) -> list[float] | None:
    """The weights, negative ones as 0, divided by the largest; None if it is not above 0.

    The reference of the compiled one (``tablier.ai._native.scaled``).
    """
    # max(0.0, w), as a comparison: the same value (NaN and -0.0 give 0.0), faster
    raw = [v if (v := float(w)) > 0.0 else 0.0 for w in weights]
    if not raw:
        raise ValueError("no weights to scale")
    top = max(raw)
    if top <= 0.0:
        return None
    return [w / top for w in raw]


_native = load("tablier.ai._native")
_scaled = _scaled_py


def _switch(compiled: bool) -> None:
    global _scaled
    _scaled = _native.scaled if compiled and _native is not None else _scaled_py


if _native is not None:
    _switch(True)
    register(__name__, _switch)


_CACHE: dict[type[Game[Any, Any]], Knowledge] = {}


def knowledge_for(game: Game[Any, Any]) -> Knowledge:
    """The knowledge ``game``'s class declares (:meth:`Game.knowledge`), or the fallback.

    >>> from tablier.games import get
    >>> knowledge_for(get("volo")).source
    'tablier.games.volo.ai'
    """
    cls = type(game)
    knowledge = _CACHE.get(cls)
    if knowledge is None:
        module = cls.knowledge()
        knowledge = Knowledge() if module is None else Knowledge.from_module(module)
        _CACHE[cls] = knowledge
    return knowledge
