"""XoBo's knowledge for the AI (see ``docs/ai.md`` for the interface).

**Connection distance** in the style of Hex evaluators: for each player,
the fewest cubes that must still be placed to join that player's two edges
by a chain of single cubes (8-neighbourhood), where a cell holding one cube
costs nothing, an empty cell costs one cube and a stack cannot be crossed.
It is worked out on bitboards by growing the reached set one cube at a time
(a dilation into empty cells, then a flood fill through single cubes), so it
costs a few dozen shifts.  Keeping the layers of that growth from both edges
gives the **shortest-path cells**: the empty cells where one more cube
shortens the player's distance by one (:func:`path_cells`).  The cubes are
shared, so a placement on the opponent's shortest paths helps the opponent
as much as a placement on one's own helps oneself.

**Threats** (*voyna*): a player with a cell that connects their edges (and
not the opponent's) and a cube to place wins at once if it is their turn;
the opponent, under voyna, must break every such cell by stacking or
distributing (a placement cannot block: it would join the attacker's edges
and lose by the blocus rule).  Under the option ``voyna=placement`` a threat
made by a stacking or a distribution announces no voyna (``state.silent``):
the opponent may not stack, so such a threat is worth more to its maker and
weighs more on the defender; the knowledge treats a silent threat like a
voyna everywhere else (the moves that break it come first).

* :func:`evaluate`: a side to move that can win at once scores near 1;
  otherwise ``tanh(0.45·(d_opp − d_own + ½) + material − danger)``, where
  the side to move is half a cube ahead (tempo), ``material`` counts the
  personal reserves once the common reserve runs low (a player without cubes
  cannot build, and loses when they cannot move) and ``danger`` is a penalty
  while under voyna, a larger one under a silent threat (no stacking to
  answer it).
* :func:`move_prior`: the one-ply change of the distances for placements
  (read from :func:`path_cells`, no move applied), and for stackings and
  distributions the effect of the move on the threats and distances: under
  voyna (or a silent threat) the moves that break every threat come first, a
  move that makes a threat of one's own (without leaving one to the opponent)
  next, a silent one more, captures count as material.
* :func:`playout_policy`: playouts take a win in one, answer a voyna (or a
  silent threat) with a move that breaks it when one exists, and otherwise
  follow the prior.
* :func:`forced_win`: a forced win by voyna after voyna (threat-space
  search, :mod:`tablier.games.xobo.threats`), asked by ``hard`` and
  ``expert`` before they search.
* :func:`prove`: whether a player forces a win within some decisions, the
  generic solver's AND/OR search run in the compiled core, for ``expert``'s
  five-decision checks (docs/ai.md, "Compiled proof search").
* :func:`playout`: a whole playout in the compiled core (``_native.c``), with
  the same choices as the search's own playout loop and its own generator;
  None when the compiled core is off.

When the compiled core is built, :func:`evaluate`, :func:`move_prior` and
:func:`playout_policy` run in it and give the same numbers and moves as the
Python below (which stays the reference, and runs when it is switched off).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ...core.game import Move
from ...core.native import register
from .board import BOARD, EDGES, dilate, fill
from .rules import PLACE, XoBoMove, XoBoState
from .rules import _native as _rules_native

__all__ = [
    "PLAYOUT_DEPTH",
    "PROOF_MAX_DEPTH",
    "connection_distance",
    "distance_layers",
    "evaluate",
    "forced_win",
    "move_prior",
    "path_cells",
    "playout",
    "playout_policy",
    "prove",
    "winning_cells",
]

#: Plies of a cut-off playout before :func:`evaluate` scores it.
PLAYOUT_DEPTH = 4

#: The deepest question :func:`prove` answers (that of the compiled core).
PROOF_MAX_DEPTH = 15

#: The distance given to a player whose edges cannot be joined any more.
BLOCKED = 40

_SCALE = 0.45
_TEMPO = 0.5
_WIN_NOW = 0.95  # the side to move connects with its next cube
_MATERIAL = 0.06  # per cube of personal-reserve difference once the common reserve is low
_DANGER = 0.35  # under voyna (the opponent threatens to connect)
_DANGER_SILENT = 0.6  # under a silent threat (voyna=placement: no stacking to answer it)


def distance_layers(ones: int, stacks: int, player: int, start: int) -> list[int]:
    """The cells reached from edge ``start`` (0 or 1 of ``player``'s edges) at cost 0, 1, ...

    ``layers[k]`` holds every cell whose cheapest chain from that edge
    (counting the empty cells on it, the cell itself included) costs at most
    ``k``; the growth stops once the other edge is reached or nothing grows.
    """
    edges = EDGES[player]
    a, b = edges[start], edges[1 - start]
    empty = BOARD & ~(ones | stacks)
    reached = fill(ones & a, ones)
    layers = [reached]
    while not reached & b:
        grown = reached | ((dilate(reached) | a) & empty)
        if grown == reached:
            break
        reached = fill(grown, grown | ones)
        layers.append(reached)
    return layers


def connection_distance(ones: int, stacks: int, player: int) -> int:
    """Cubes still needed to join ``player``'s edges (``BLOCKED`` when impossible)."""
    layers = distance_layers(ones, stacks, player, 0)
    if not layers[-1] & EDGES[player][1]:
        return BLOCKED
    return len(layers) - 1


def path_cells(ones: int, stacks: int, player: int) -> tuple[int, int]:
    """``(distance, cells)``: the empty cells lying on a cheapest chain of ``player``.

    A cube placed on one of these cells shortens the distance by exactly one;
    a cube anywhere else leaves it unchanged.  ``cells`` is 0 when the player
    is connected or blocked.
    """
    fwd = distance_layers(ones, stacks, player, 0)
    if not fwd[-1] & EDGES[player][1]:
        return BLOCKED, 0
    dist = len(fwd) - 1
    if dist == 0:
        return 0, 0
    back = distance_layers(ones, stacks, player, 1)
    # An empty cell c is counted in both directions: dA(c) + dB(c) - 1 == dist.
    cells = 0
    for k in range(1, dist + 1):
        j = dist + 1 - k
        if j < len(back):
            cells |= fwd[k] & back[j]
    return dist, cells & BOARD & ~(ones | stacks)


def _has_cube(state: XoBoState, player: int) -> bool:
    return bool(state.common or state.reserves[player])


def winning_cells(state: XoBoState) -> int:
    """Empty cells where the side to move connects at once (0 without a cube to place)."""
    p = state.turn
    if not _has_cube(state, p):
        return 0
    return state.threats(p)


def _threatened(state: XoBoState, player: int) -> bool:
    """True when ``player`` would win with their next cube (a cell and a cube)."""
    return bool(_has_cube(state, player) and state.threats(player))


def _material(state: XoBoState, p: int) -> float:
    common = state.common
    if common >= 12:
        return 0.0
    weight = _MATERIAL * (12 - common) / 12
    return weight * (state.reserves[p] - state.reserves[1 - p])


def evaluate(state: XoBoState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    if _evaluate_c is not None:
        return _evaluate_c(state)
    p = state.turn
    ones, stacks = state.ones, state.stacks
    if winning_cells(state):
        return _WIN_NOW
    mine = connection_distance(ones, stacks, p)
    theirs = connection_distance(ones, stacks, 1 - p)
    x = _SCALE * (theirs - mine + _TEMPO) + _material(state, p)
    if state.voyna:
        x -= _DANGER
    elif state.silent:
        x -= _DANGER_SILENT
    return math.tanh(x)


# -- the move prior --------------------------------------------------------------------------

_W_WIN = 50.0
_W_DEFEND = 8.0
_W_ATTACK = 3.0
_W_SILENT_ATTACK = 5.0  # a threat the opponent may not answer by stacking
_W_HOPELESS = 0.02


def _after_value(state: XoBoState, after: XoBoState, p: int) -> float:
    """A one-ply score of ``after`` for ``p`` (who just moved), about -3..3."""
    ones, stacks = after.ones, after.stacks
    d_me = connection_distance(ones, stacks, p)
    d_opp = connection_distance(ones, stacks, 1 - p)
    gain = (after.reserves[p] - state.reserves[p]) * 0.5  # captured cubes
    return 0.8 * (min(d_opp, 9) - min(d_me, 9)) + 0.1 * gain


def move_prior(state: XoBoState, moves: Sequence[XoBoMove]) -> list[float]:
    """A weight per move: wins, then voyna answers and threats, then distance gains."""
    if _prior_c is not None:
        return _prior_c(state, moves)
    p = state.turn
    q = 1 - p
    ones, stacks = state.ones, state.stacks
    win = winning_cells(state)
    under = state.voyna or state.silent  # a threat to answer
    d_me, mine = path_cells(ones, stacks, p)
    d_opp, theirs = path_cells(ones, stacks, q)
    base = 0.8 * (min(d_opp, 9) - min(d_me, 9))
    out: list[float] = []
    for move in moves:
        kind, a = move[0], move[1]
        if kind == PLACE:
            bit = 1 << a
            if bit & win:
                out.append(_W_WIN)
                continue
            value = base + (0.8 if bit & mine else 0.0) - (0.8 if bit & theirs else 0.0)
            w = math.exp(0.9 * value - base * 0.9)
            if under:
                w *= _W_HOPELESS  # a placement rarely answers a voyna
            out.append(w)
            continue
        after = state.apply_unchecked(move)
        outcome = after.outcome
        if outcome is not None:
            out.append(_W_WIN if outcome.winner == p else 1e-4)
            continue
        value = _after_value(state, after, p)
        w = math.exp(0.9 * value - base * 0.9)
        if _threatened(after, q):
            w *= _W_HOPELESS  # the opponent wins next
        elif under:
            w *= _W_DEFEND
        elif after.voyna:
            w *= _W_ATTACK
        elif after.silent:
            w *= _W_SILENT_ATTACK
        out.append(w)
    return out


def playout_policy(state: XoBoState, rng: random.Random) -> XoBoMove | None:
    """Take a win in one; answer a voyna or a silent threat with a move that breaks it."""
    if _answers_c is not None:
        found = _answers_c(state)
        if isinstance(found, list):
            return found[rng.randrange(len(found))]
        return found
    win = winning_cells(state)
    if win:
        from .rules import place_move

        return place_move((win & -win).bit_length() - 1)
    if not (state.voyna or state.silent):
        return None
    q = 1 - state.turn
    moves = state.legal_moves()
    answers = [m for m in moves if m[0] != PLACE and not _threatened(state.apply_unchecked(m), q)]
    if answers:
        return answers[rng.randrange(len(answers))]
    return None


def playout(
    state: XoBoState, seed: int, limit: int, weighted: bool, cutoff: bool
) -> tuple[float, list[tuple[int, Move]]] | None:
    """A playout from ``state`` in the compiled core: ``(reward for player 0, played)``.

    At most ``limit`` plies, stopping at the end of the game; each move is
    :func:`playout_policy`'s, else drawn weighted by :func:`move_prior` when
    ``weighted`` (uniformly if the weights sum to 0 or less), else uniformly,
    with a generator of its own seeded with ``seed`` (``0 <= seed < 2**64``).
    The reward is the outcome's score for player 0 if the game ended, else
    with ``cutoff`` :func:`evaluate` clamped to ``[-1, 1]`` from player 0's
    side and mapped to ``[0, 1]``, else 0.5.  ``played`` lists ``(mover,
    move)``.  None when the compiled core is off (play the Python loop).
    """
    if _playout_c is None:
        return None
    return _playout_c(state, seed, limit, weighted, cutoff)


def forced_win(
    state: XoBoState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[Move] | None:
    """A forced win by threats for the side to move (see :mod:`.threats`), or None."""
    from .threats import forced_win as search

    return search(state, nodes, seconds, stop)


def prove(
    state: XoBoState, attacker: int, depth: int, nodes: int, seconds: float
) -> tuple[bool | None, int] | None:
    """Whether ``attacker`` forces a win within ``depth`` decisions, in the compiled core.

    The answer of :meth:`tablier.ai.solver.Solver.wins` (the same AND/OR search over
    the same moves, without its table), ``None`` past ``nodes`` positions or
    ``seconds`` of CPU time (``seconds < 0``: no time limit), with the positions
    expanded; ``None`` instead of the pair when the compiled core is off, when the
    game is over and for a depth above :data:`PROOF_MAX_DEPTH` (the solver then
    searches itself).  Costs are in docs/performance.md ("Proof search").

    A chain of shared cubes from row 1 to row 8: the first player, who joins
    north and south, completes it on row 9 at once (``None`` without the core):

    >>> from tablier.games import get
    >>> game = get("xobo")
    >>> state = game.initial_state()
    >>> for text in ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]:
    ...     state = state.apply(game.parse_move(state, text))
    >>> state.to_move
    0
    >>> answer = prove(state, 0, 1, 1000, -1.0)
    >>> answer is None or answer[0]
    True
    """
    if _prove_c is None or state.outcome is not None or depth > PROOF_MAX_DEPTH:
        return None
    return _prove_c(state, attacker, depth, nodes, seconds)


_evaluate_c: Callable[[XoBoState], float] | None = None
_prior_c: Callable[[XoBoState, Sequence[XoBoMove]], list[float]] | None = None
_answers_c: Callable[[XoBoState], XoBoMove | list[XoBoMove] | None] | None = None
_playout_c: Callable[[XoBoState, int, int, bool, bool], tuple[float, list[tuple[int, Move]]]] | None
_playout_c = None
_prove_c: Callable[[XoBoState, int, int, int, float], tuple[bool | None, int]] | None = None


def switch(compiled: bool) -> None:
    """Compute the knowledge in the compiled core (True) or in the Python above (False)."""
    global _evaluate_c, _prior_c, _answers_c, _playout_c, _prove_c
    core = _rules_native if compiled else None
    _evaluate_c = core.evaluate if core is not None else None
    _prior_c = core.move_prior if core is not None else None
    _answers_c = core.policy_answers if core is not None else None
    _playout_c = core.playout if core is not None else None
    _prove_c = core.prove if core is not None else None


if _rules_native is not None:
    switch(True)
    register(__name__, switch)
