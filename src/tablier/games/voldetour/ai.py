"""Voldétour's knowledge for the AI (see ``docs/ai.md`` for the interface).

Built on three facts of the rules:

* a Lord must leave its tower (3 levels high) by the end of its player's
  third turn, and to step off it needs a flat top at the tower's height
  next to it: so the move prior favours putting a block whose top is level
  with the Lord on a square next to it, and Lord moves that leave the tower;
* nothing rises above the tower and only the owner moves a piece, so a
  Lord at the tower's height can "leapfrog" on its own pillars (blocks as
  tall as the tower): take the pillar behind it, stand it up next to the
  Lord nearer the enemy tower, walk on.  The opponent can neither move nor
  cover them.  The prior weighs these takes and puts highest;
* the race is to the enemy tower.  :func:`path_distance` is the Lord's 3D
  path distance to it: a cheapest-path search over (square, height) with the
  Lord's own step rules (:meth:`~tablier.games.voldetour.rules.VState.lord_step`:
  flat steps at the same height, slopes and chains of slopes), where a step
  over what is already built costs ``STEP`` and, where nothing is built yet,
  a step onto a square that would first have to be raised costs ``STEP``
  plus ``LEVEL`` per missing level plus ``SLOPE`` for a change of height.
  Where the Lord can walk all the way over what is built, it is at most
  ``STEP`` times the number of its steps (building may be cheaper still).
  It runs on per-height bitboards (a bucket queue of costs), cheap enough
  for the evaluation at the end of every cut-off playout.

The evaluation compares the two Lords' path distances (each capped at 40: a
Lord hemmed in for now is far, not lost) on a square-root scale, where a
step near the goal counts more than one far from it: bringing the own Lord
on is then worth more than walling in an enemy Lord that is farther away
(on a linear scale both were worth the same, and games between AIs stalled
to the decision limit, each side putting blocks before the other's Lord
while its own idled near its tower).  The race counts half through a
saturating ``tanh`` and half linearly, so that a side already well ahead
still sees a gain in getting closer; it penalises a Lord still on its own
tower, more so as its third turn approaches, and a little a Lord idling
next to it.  Beside the path distances the race counts the Lords' own
squares: each square nearer the enemy tower (Manhattan distance) is worth
``_LORD`` (2) on the race's scale.  The path distance builds where nothing
is built as if the pieces were at hand; once the reserves are empty that
made a piece put near the enemy tower read as progress while the Lord stood
on its pillars, and games stalled at the decision limit (docs/ai.md, "The
Lord's own squares").  ``_TEMPO`` (0) would add to the race of the side to
move; it is a knob for the benchmarks (docs/ai.md, "Tempo": no gain in play), as is
``_PIN`` (what a Lord whose pillars are all blocked costs its side; docs/ai.md, "Pinned
pillars").  ``_PILLAR`` bounds what raising a square to the towers' height adds to a step
there in the path distance (a pillar is one put): off by default, 1 for ``expert``, whose
profile in :data:`LEVEL_KNOBS` sets it around its decisions (docs/ai.md, "A pillar is one
put").

When the compiled core is built (see ``rules.py``), :func:`path_distance`,
:func:`evaluate` and :func:`move_prior` are computed by it (the Python
functions stay the reference), and :func:`playout` plays the MCTS's playouts
in it; without it, :func:`playout` answers None and the MCTS plays its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

from ...core.errors import TablierError
from ...core.geometry import BitGrid, bits
from ...core.native import register
from . import rules
from .pieceset import PieceSet
from .rules import VMove, VState, native_tables

__all__ = [
    "BLOCKED",
    "LEVEL",
    "LEVEL_KNOBS",
    "NORMALIZE",
    "PLAYOUT_DEPTH",
    "PLAYOUT_POWER",
    "SLOPE",
    "STEP",
    "defences",
    "evaluate",
    "forced_win",
    "lord_distance",
    "move_prior",
    "move_squares",
    "path_distance",
    "playout",
    "position_key",
    "set_knobs",
    "threat_turn",
    "turn_prior",
    "unstoppable",
]

#: Decisions of a cut-off playout before :func:`evaluate` scores it (a turn is several).
PLAYOUT_DEPTH = 8

#: A weighted playout draws each decision with a chance in proportion to its
#: :func:`move_prior` to this power (the ``PLAYOUT_POWER`` of :mod:`tablier.ai.knowledge`):
#: the playouts then run the leapfrog race as the priors play it, and the evaluation at
#: their end scores the race; drawn in proportion to the prior itself, they spent their
#: decisions on puts and stairs that read as gains, and ten times the simulations made
#: the search weaker (docs/ai.md, "Playouts that run the race").
PLAYOUT_POWER = 3.0

#: The levels that leave it to the game (``hard``, ``expert``) stretch the children's means
#: to [0, 1] before exploring (the ``NORMALIZE`` of :mod:`tablier.ai.knowledge`): when a
#: Lord is far ahead the evaluation saturates, every move reads near 1, the exploration
#: term decides, and a stranded Lord idled where the move that climbs on was a few
#: hundredths better (docs/ai.md, "Stretched means").
NORMALIZE = True

#: Costs of :func:`path_distance`: a Lord step, a level to build under a square, a slope.
STEP = 1
LEVEL = 1
SLOPE = 2
#: The distance of a Lord that cannot reach the enemy tower at all.
BLOCKED = 200

_SCALE = 0.2
#: Distances are capped here in the evaluation: a Lord hemmed in for now is far, not lost
#: (pieces move), so blocking it must not read as a won game.
_CAP = 40
_STUCK = 0.6
#: What a Lord idling next to its own tower costs (it left the tower, and must go on).
_HOME = 0.1
#: What a square nearer the enemy tower (Manhattan distance) is worth to a Lord on the race's
#: scale, beside its path distance (see the module docstring).
_LORD = 2.0
#: The side to move's lead on the race's scale, for the turn it has under way (0: none; a
#: knob for the benchmarks that compare values, ``_set_tempo``).
_TEMPO = 0.0
#: What a Lord at the towers' height with none of its pillars free (:func:`_pinned`) costs on
#: the race's scale (0: nothing; a knob for the benchmarks, ``_set_pin``).
_PIN = 0.0
#: At most what raising a square to the towers' height adds to a Lord's step there in
#: :func:`path_distance` (a pillar stood up is one put, whatever the levels; negative: no
#: bound, ``LEVEL`` per level).  ``expert`` plays with 1 (:data:`LEVEL_KNOBS`); ``_set_pillar``.
_PILLAR = -1.0


def _distance(grid: BitGrid, a: int, b: int) -> int:
    (ca, ra), (cb, rb) = grid.coord(a), grid.coord(b)
    return abs(ca - cb) + abs(ra - rb)


def lord_distance(state: VState, player: int) -> int:
    """Squares between ``player``'s Lord and the enemy tower (Manhattan distance)."""
    ps = state.game.pieceset
    return _distance(ps.grid, state.lords[player], ps.towers[1 - player])


def path_distance(state: VState, player: int, walls: int = 0) -> int:
    """The cost of ``player``'s Lord's cheapest 3D path to the enemy tower (see
    :func:`_path_distance_pure`; computed by the compiled core when it plays).

    ``walls``: squares (a bitboard) the path may neither cross nor end on; the evaluation
    passes none (the other Lord is no wall: Lords move), the progress turns of
    :func:`.turnwin.threat` its square (a defender beside its tower need never move).
    """
    if walls:
        return (_path_distance_native if _on else _path_distance_pure)(state, player, walls)
    return _path_distance(state, player)


def _path_distance_pure(state: VState, player: int, walls: int = 0) -> int:
    """The cost of ``player``'s Lord's cheapest 3D path to the enemy tower.

    See the module docstring: ``STEP`` per step over built paths (slopes
    included, crossing the own tower allowed; the other Lord is no wall: Lords
    move, and a Lord in the way must not make a near Lord look far),
    and, where the path needs building, ``LEVEL`` per level to raise a square
    and ``SLOPE`` per change of height.  ``BLOCKED`` when no path exists.
    ``walls``: squares (a bitboard) the path may neither cross nor end on (see
    :func:`path_distance`).
    """
    ps = state.game.pieceset
    grid = ps.grid
    board = grid.board
    b = state.board
    H = ps.tower_height
    target = ps.towers[1 - player]
    tbit = 1 << target
    start = state.lords[player]
    h0 = b.height(start)
    if h0 is None:  # pragma: no cover - Lords never stand on slopes
        return BLOCKED
    towers = (1 << ps.towers[0]) | (1 << ps.towers[1])
    lflat = b.lflat
    # squares by the height of their flat top, where a Lord could be led by building
    buildable = [b.flat[k] & ~towers for k in range(H + 1)]
    slopes = 0
    for z in range(H):
        for m in b.slope[z]:
            slopes |= m
    near_slope = grid.dilate(slopes) if slopes else 0
    # virtual[h]: (height reached, added cost, squares) for the steps that need building
    virtual: list[list[tuple[int, int, int]]] = []
    for h in range(H + 1):
        row = []
        for h2 in (h - 1, h, h + 1):
            if 0 <= h2 <= H:
                climb = SLOPE if h2 != h else 0
                for k in range(h2 + 1):
                    squares = buildable[k]
                    if squares and (climb or k < h2):  # else nothing, or a plain step
                        raise_ = LEVEL * (h2 - k)
                        if h == h2 == H and 0 <= _PILLAR < raise_:
                            raise_ = int(_PILLAR)  # a pillar stood up is one put
                        row.append((h2, STEP + climb + raise_, squares))
        virtual.append(row)
    shifts = grid.shifts
    step = state.lord_step
    walls &= ~(1 << start)
    seen = [walls] * (H + 1)
    buckets: dict[int, list[int]] = {0: [0] * (H + 1)}
    buckets[0][h0] = 1 << start

    def push(cost: int, h: int, mask: int) -> None:
        row = buckets.get(cost)
        if row is None:
            row = buckets[cost] = [0] * (H + 1)
        row[h] |= mask

    cost = 0
    while buckets:
        cur = buckets.pop(cost, None)
        if cur is not None:
            for h in range(H + 1):
                new = cur[h] & ~seen[h]
                if not new:
                    continue
                seen[h] |= new
                if h == H and new & tbit:
                    return cost
                nb = 0
                for s in shifts:
                    nb |= new << s if s > 0 else new >> -s
                nb &= board
                real = nb & lflat[h] & ~seen[h]
                if real:
                    push(cost + STEP, h, real)
                if new & near_slope:
                    q_bits = new & near_slope
                    while q_bits:
                        low = q_bits & -q_bits
                        q_bits ^= low
                        q = low.bit_length() - 1
                        for e in range(4):
                            r = step(b, q, h, e)
                            if r is not None:
                                push(cost + STEP, r[1], 1 << r[0])
                for h2, extra, squares in virtual[h]:
                    cells = nb & squares & ~seen[h2]
                    if cells:
                        push(cost + extra, h2, cells)
                if h == H - 1 and nb & tbit:
                    push(cost + STEP + SLOPE, H, tbit)
        cost += 1
    return BLOCKED


#: The evaluation's knobs: each one's global here (the compiled core's setter is
#: ``set_<knob>``), set by ``_set_<knob>`` and :func:`set_knobs`.
_KNOBS = {"lord_weight": "_LORD", "pin": "_PIN", "pillar": "_PILLAR", "tempo": "_TEMPO"}


def _set_knob(knob: str, value: float) -> float:
    """Make ``value`` the ``knob``'s global here and in the compiled core; the previous one."""
    name = _KNOBS[knob]
    previous: float = globals()[name]
    globals()[name] = value
    if rules._native is not None:
        getattr(rules._native, f"set_{knob}")(value)
    return previous


def _set_lord_weight(weight: float) -> float:
    """Make ``weight`` the evaluation's ``_LORD``, in Python and in the compiled core alike;
    the previous weight.  For benchmarks that play two weights against each other in one
    process (``benchmarks/voldetour_lord_weight.py``), not for play.

    >>> previous = _set_lord_weight(0.0)
    >>> _set_lord_weight(previous)
    0.0
    """
    return _set_knob("lord_weight", float(weight))


def _set_tempo(tempo: float) -> float:
    """Make ``tempo`` the evaluation's ``_TEMPO``, in Python and in the compiled core alike;
    the previous one.  For benchmarks that play two values against each other in one
    process (``benchmarks/voldetour_lord_weight.py --a-tempo``), not for play.

    >>> previous = _set_tempo(3.0)
    >>> _set_tempo(previous)
    3.0
    """
    return _set_knob("tempo", float(tempo))


def _set_pillar(cost: float) -> float:
    """Make ``cost`` (whole; negative: none) the path distance's ``_PILLAR``, in Python and in
    the compiled core alike; the previous one.  For the benchmarks and :func:`set_knobs`.

    >>> previous = _set_pillar(1)
    >>> _set_pillar(previous)
    1.0
    """
    return _set_knob("pillar", float(int(cost)))


#: The evaluation's settings by level profile (``Level.knobs``, :mod:`tablier.ai.knowledge`):
#: ``expert`` reads a square raised to the towers' height as one put (docs/ai.md, "A pillar
#: is one put": at the levels' budgets it keeps a leader at that height).
LEVEL_KNOBS: dict[str, dict[str, float]] = {"expert": {"pillar": 1.0}}


def set_knobs(knobs: Mapping[str, float]) -> dict[str, float]:
    """Set the evaluation's knobs named in ``knobs`` (``lord_weight``, ``tempo``, ``pin``,
    ``pillar``: ``_set_<name>``), in Python and in the compiled core; the previous values.

    >>> previous = set_knobs({"pillar": 1, "tempo": 0.5})
    >>> previous
    {'pillar': -1.0, 'tempo': 0.0}
    >>> set_knobs(previous)
    {'pillar': 1.0, 'tempo': 0.5}
    >>> set_knobs({"speed": 1})
    Traceback (most recent call last):
    ...
    tablier.core.errors.TablierError: unknown knob 'speed' (knobs: lord_weight, pin, pillar, tempo)
    """
    unknown = [name for name in knobs if name not in _KNOBS]
    if unknown:
        raise TablierError(f"unknown knob {unknown[0]!r} (knobs: {', '.join(_KNOBS)})")
    # looked up by name when called: the benchmarks' tests watch the setters
    return {name: globals()[f"_set_{name}"](value) for name, value in knobs.items()}


def _set_pin(weight: float) -> float:
    """Make ``weight`` the evaluation's ``_PIN``, in Python and in the compiled core alike;
    the previous one.  For benchmarks that play two values against each other in one
    process (``benchmarks/voldetour_lord_weight.py --a-pin``), not for play.

    >>> previous = _set_pin(4.0)
    >>> _set_pin(previous)
    4.0
    """
    return _set_knob("pin", float(weight))


def _pinned(state: VState, player: int) -> bool:
    """Whether ``player``'s Lord stands at the towers' height with each of its pillars (the
    blocks as tall as the tower) on the board and blocked: under a Lord (its own, under it;
    the enemy's, stepped onto it), covered or enclosed.  Such a Lord cannot leapfrog until a
    pillar is freed: the Lords' meeting, where each steps onto the other's trailing pillar,
    leaves one side so (docs/ai.md, "Pinned pillars").

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.parse_position_body(
    ...     "turn=9 lords=e5,f6 black=B113@e5:1x1x3,B123@e6:2x1x3 white=-")
    >>> _pinned(state, 0), _pinned(state, 1)
    (True, False)
    """
    ps = state.game.pieceset
    b = state.board
    if b.height(state.lords[player]) != ps.tower_height:
        return False
    nb = len(ps.blocks)
    for k in _tall_kinds(ps):
        placed = state.blocks[player * nb + k]
        if placed is None or not state.block_blocked(b, placed):
            return False
    return True


def _stuck(state: VState, player: int) -> float:
    """How urgent leaving the tower is for ``player``; once the Lord has left, ``_HOME``
    while it idles next to its own tower, else 0."""
    ps = state.game.pieceset
    lord, tower = state.lords[player], ps.towers[player]
    if lord != tower:
        return _HOME if _distance(ps.grid, lord, tower) == 1 else 0.0
    return _STUCK * (1 + state.turns_completed(player)) / 3


def _near(distance: int) -> float:
    """A path distance (capped at ``_CAP``) on a scale where a step near the goal counts
    more: ``sqrt(_CAP * d)``, from 0 to ``_CAP`` like the distance itself."""
    return math.sqrt(_CAP * min(_CAP, distance))


def evaluate(state: VState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    return _evaluate(state)


def _evaluate_pure(state: VState) -> float:
    """:func:`evaluate` in Python (the reference of the compiled core)."""
    p = state.to_move
    race = _near(path_distance(state, 1 - p)) - _near(path_distance(state, p))
    race += _LORD * (lord_distance(state, 1 - p) - lord_distance(state, p)) + _TEMPO
    if _PIN:
        race += _PIN * (_pinned(state, 1 - p) - _pinned(state, p))
    stuck = _stuck(state, 1 - p) - _stuck(state, p)
    # half a saturating race term, half a linear one: a large lead still gains by growing
    value = 0.5 * math.tanh(_SCALE * race + stuck) + 0.5 * race / _CAP + 0.5 * stuck
    return max(-1.0, min(1.0, value))


def move_prior(state: VState, moves: Sequence[VMove]) -> list[float]:
    """Leaving the tower, approaching the enemy tower, and "leapfrogging" at the top
    (see :func:`_move_prior_pure`; computed by the compiled core when it plays)."""
    return _move_prior(state, moves)


def _move_prior_pure(state: VState, moves: Sequence[VMove]) -> list[float]:
    """Leaving the tower, approaching the enemy tower, and "leapfrogging" at the top.

    A Lord at the tower's height walks on pillars as tall as the tower, which
    nothing can be put on (nothing rises above the tower) and which the
    opponent cannot move: taking the own pillar behind the Lord and putting
    it level with the Lord on a square next to it, nearer the enemy tower,
    is the surest way forward.  So: a put level with the Lord next to it
    weighs 4 when it is nearer the enemy tower (1.5 otherwise); taking a
    block that is not ahead of the Lord (or a tall one from the reserve)
    weighs 1.5 (a block ahead 0.3); Lord moves weigh by the squares they
    gain toward the enemy tower, more while the Lord is still on its tower.
    """
    ps = state.game.pieceset
    grid = ps.grid
    p = state.to_move
    lord = state.lords[p]
    target = ps.towers[1 - p]
    before = _distance(grid, lord, target)
    on_tower = lord == ps.towers[p]
    lord_height = state.board.height(lord)
    near = grid.neighbours[lord]  # the four squares next to the Lord
    orientations = ps.orientations
    nb = len(ps.blocks)
    tall = _tall_kinds(ps)
    out: list[float] = []
    for move in moves:
        tag = move[0]
        if tag == "L":
            gain = before - _distance(grid, move[1][-1], target)
            out.append(max(0.1, (2.0 if on_tower else 1.0) + 0.5 * gain))
        elif tag == "P" and move[1] == "B":
            oid, anchor, z = move[3], move[4], move[5]
            o = orientations[oid]
            foot = o.base << anchor
            if lord_height is not None and z + o.dz == lord_height and foot & near:
                out.append(4.0 if _nearest(grid, foot, target) < before else 1.5)
            else:
                out.append(0.5)
        elif tag == "T" and move[1] == "B":
            k = move[2]
            placed = state.blocks[p * nb + k]
            if placed is None:
                out.append(1.5 if k in tall else 0.6)
            else:
                foot = orientations[placed[0]].base << placed[1]
                out.append(1.5 if _nearest(grid, foot, target) >= before else 0.3)
        elif tag in ("T", "P"):
            out.append(0.6)
        elif tag == "E":
            out.append(0.3)
        else:
            out.append(0.1)
    return out


#: How fast :func:`turn_prior` falls with the evaluation: a decision whose action ends
#: 0.1 below the best one's weighs ``exp(-1)`` times its :func:`move_prior`.
TURN_SCALE = 10.0


def turn_prior(state: VState, moves: Sequence[VMove]) -> list[float]:
    """The decisions of the side to move, weighed by where their action ends.

    Each decision's :func:`move_prior` times ``exp(TURN_SCALE * (v - best))``,
    where ``v`` is the evaluation (:func:`evaluate`, for the side to move) once the
    action it starts is complete: after a take, the best of the puts of that piece
    (a piece taken is worth only what its put makes of it); after a put, a Lord move
    or ``end``, the position it leaves.  The search ranks and widens the decisions
    of the turn it searches by it (``turn_prior`` in :mod:`tablier.ai.knowledge`):
    without it, in an endgame with empty reserves, a take was worth the mean of
    hundreds of puts, and the one put that brought the Lord nearer was lost among
    them (docs/ai.md, "Stalled games").  About a thousand evaluations for a take
    decision, a few milliseconds with the compiled core.

    >>> from tablier.games import get
    >>> state = get("voldetour").initial_state()
    >>> weights = turn_prior(state, state.legal_moves())
    >>> len(weights) == len(state.legal_moves()) and min(weights) > 0
    True
    """
    p = state.to_move
    base = move_prior(state, moves)
    values = [_action_value(state, move, p) for move in moves]
    best = max(values, default=0.0)
    return [w * math.exp(TURN_SCALE * (v - best)) for w, v in zip(base, values, strict=True)]


def _action_value(state: VState, move: VMove, player: int) -> float:
    """The evaluation for ``player`` once the action ``move`` starts is complete."""
    after = state.apply_unchecked(move)
    if after.hand is not None and after.to_move == player and after.outcome is None:
        return max(
            (_value(after.apply_unchecked(put), player) for put in after.legal_moves()),
            default=-1.0,
        )
    return _value(after, player)


def _value(state: VState, player: int) -> float:
    """:func:`evaluate` (the outcome's value at the end of the game) for ``player``."""
    outcome = state.outcome
    if outcome is not None:
        return 2.0 * outcome.score(player) - 1.0
    value = evaluate(state)
    return value if state.to_move == player else -value


def _nearest(grid: BitGrid, foot: int, target: int) -> int:
    """The least Manhattan distance from a square of ``foot`` to ``target``."""
    return min(_distance(grid, q, target) for q in bits(foot))


_TALL: dict[int, frozenset[int]] = {}


def _tall_kinds(ps: PieceSet) -> frozenset[int]:
    """The block kinds that, standing, are as tall as the tower (pillars)."""
    got = _TALL.get(id(ps))
    if got is None:
        got = _TALL[id(ps)] = frozenset(
            k for k, kind in enumerate(ps.blocks) if max(kind.size) >= ps.tower_height
        )
    return got


# -- the compiled core ----------------------------------------------------------------


def _path_distance_native(state: VState, player: int, walls: int = 0) -> int:
    tables = native_tables(state.game.pieceset)
    if tables is None:
        return _path_distance_pure(state, player, walls)
    try:
        distance: int = rules._native.path_distance(tables, state, player, walls)
    except OverflowError:  # a turn number beyond 2**62: the pure code plays it
        return _path_distance_pure(state, player, walls)
    return distance


def _evaluate_native(state: VState) -> float:
    tables = native_tables(state.game.pieceset)
    if tables is None:
        return _evaluate_pure(state)
    try:
        value: float = rules._native.evaluate(tables, state)
    except OverflowError:
        return _evaluate_pure(state)
    return value


def _move_prior_native(state: VState, moves: Sequence[VMove]) -> list[float]:
    tables = native_tables(state.game.pieceset)
    if tables is None:
        return _move_prior_pure(state, moves)
    try:
        weights: list[float] = rules._native.move_prior(tables, state, moves)
    except OverflowError:
        return _move_prior_pure(state, moves)
    return weights


def playout(
    state: VState, seed: int, limit: int, weighted: bool, cutoff: bool
) -> tuple[float, list[tuple[int, VMove]]] | None:
    """A playout from ``state`` played by the compiled core, or None when it is off
    (or cannot take the state: a turn number beyond 2**62).

    At most ``limit`` decisions, stopping at the end of the game; each decision
    drawn uniformly, or, when ``weighted``, with a chance in proportion to its
    :func:`move_prior` to the power :data:`PLAYOUT_POWER`, from
    the compiled core's own generator seeded with ``seed`` (``0 <= seed <
    2**64``; the same seed gives the same playout).  Returns the reward for
    Black (the outcome's score; else, with ``cutoff``, ``(v + 1) / 2`` with
    ``v`` the evaluation from Black's side; else 0.5) and the decisions played
    as ``(mover, move)``, as the MCTS's own playout does.
    """
    if not _on:
        return None
    game = state.game
    tables = native_tables(game.pieceset)
    if tables is None:
        return None
    try:
        result: tuple[float, list[tuple[int, VMove]]] = rules._native.playout(
            tables, state, seed, limit, weighted, cutoff, game.repetition, game.max_turns or 0
        )
    except OverflowError:
        return None
    return result


def defences(
    state: VState, moves: Sequence[VMove], threat: VState, line: Sequence[VMove]
) -> list[bool]:
    """Which of the mover's ``moves`` in ``state`` may stop ``line``, the opponent's win
    from ``threat`` (the ``defences`` hook of :mod:`tablier.ai.knowledge`).

    The line uses the squares of the pieces it takes and puts and the squares its
    Lord walks on or over (a chain of slopes between two squares of its path); a
    decision may stop it when it takes a piece from one of them, puts one on one,
    or brings the mover's Lord to stand on one.  Nothing else can: pieces stand
    in columns, and only the owner moves a piece.

    White's Lord stands on a pillar beside Black's tower: it takes its pillar from
    f5 and stands it on b3, then walks onto the tower.  Putting a block on b3 stops
    it; one on j1 does not:

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> threat = game.position(white=["B113@b4:1x1x3", "B123@f5:1x2x3"],
    ...                        lords=("e5", "b4"), turn=10)
    >>> line, after = [], threat
    >>> for text in ("B123", "B123@b3:2x1x3", "Lb4-b3-b2"):
    ...     line.append(game.parse_move(after, text))
    ...     after = after.apply(line[-1])
    >>> after.outcome.winner
    1
    >>> now = game.position(white=["B113@b4:1x1x3", "B123@f5:1x2x3"],
    ...                     lords=("e5", "b4"), turn=9)
    >>> now = now.apply(game.parse_move(now, "B111"))
    >>> puts = [game.parse_move(now, text) for text in ("B111@b3:1x1x1", "B111@j1:1x1x1")]
    >>> defences(now, puts, threat, line)
    [True, False]
    """
    zone = line_squares(threat, line)
    return [bool(move_squares(state, move) & zone) for move in moves]


def line_squares(state: VState, line: Sequence[VMove]) -> int:
    """The squares (a bitboard) ``line``, played from ``state``, takes from, puts on, or
    walks on or over (:func:`move_squares` with ``walk``): where a turn may break it."""
    zone = 0
    for move in line:
        zone |= move_squares(state, move, walk=True)
        state = state.apply_unchecked(move)
    return zone


def step_squares(grid: BitGrid, a: int, b: int) -> int:
    """The squares (a bitboard) a Lord's step from ``a`` to ``b`` steps on or over: the
    slopes of a chain crossed in a straight line, then ``b`` (not ``a``)."""
    (ca, ra), (cb, rb) = grid.coord(a), grid.coord(b)
    dc, dr = (cb > ca) - (cb < ca), (rb > ra) - (rb < ra)
    squares = 0
    while (ca, ra) != (cb, rb):
        ca, ra = ca + dc, ra + dr
        squares |= 1 << grid.index(ca, ra)
    return squares


def move_squares(state: VState, move: VMove, walk: bool = False) -> int:
    """The squares (a bitboard) ``move`` takes a piece from or puts one on in ``state``; for a
    Lord move, the square it ends on, or with ``walk`` every square it steps on or over."""
    ps = state.game.pieceset
    grid = ps.grid
    tag = move[0]
    if tag == "L":
        path: tuple[int, ...] = move[1]
        if not walk:
            return 1 << path[-1]
        squares = 1 << path[0]
        for a, b in pairwise(path):
            squares |= step_squares(grid, a, b)
        return squares
    if tag == "T" and move[1] == "B":
        placed = state.blocks[state.to_move * len(ps.blocks) + move[2]]
        return 0 if placed is None else ps.orientations[placed[0]].base << placed[1]
    if tag == "T":
        return 0 if move[2] is None else 1 << int(move[2][0])
    if tag == "P" and move[1] == "B":
        return int(ps.orientations[move[3]].base << move[4])
    if tag == "P":
        return 1 << int(move[2])
    return 0


def position_key(state: VState) -> int | None:
    """The key of a turn's starting position for repetitions (the ``position_key`` hook of
    :mod:`tablier.ai.knowledge`): the pieces, the Lords and the player to move, as the
    ``repetition`` option compares them (D-3); None within a turn.

    Both Lords walk away and back: the position comes again, its turn number apart:

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.position(black=["B123@c3:1x2x3"], white=["B123@h7:1x2x3"],
    ...                       lords=("c3", "h7"), turn=9)
    >>> later = state
    >>> for text in ("Lc3-c4", "Lh7-h8", "Lc4-c3", "Lh8-h7"):
    ...     later = later.apply(game.parse_move(later, text))
    >>> later.turn - state.turn, position_key(later) == position_key(state)
    (4, True)
    >>> position_key(state.apply(game.parse_move(state, "B111"))) is None
    True
    """
    if state.done or state.hand is not None:
        return None
    return state.repetition_key()


def forced_win(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[VMove] | None:
    """A win within the mover's own turn, as its decisions, or None (see :mod:`.turnwin`)."""
    from .turnwin import forced_win as turn_win

    return turn_win(state, nodes, seconds, stop)


def threat_turn(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[VMove] | None:
    """A turn that threatens a win at the next one, or where there is none a turn that
    brings the Lord on in a race won but for the finish, as its decisions, or None (see
    :func:`.turnwin.threat`, asked with ``progress``)."""
    from .turnwin import threat

    return threat(state, nodes, seconds, stop, progress=True)


def unstoppable(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[VMove] | None:
    """A turn after which nothing stops the mover's next one from winning, as its
    decisions, or None (see :func:`.turnwin.unstoppable`)."""
    from .turnwin import unstoppable as unstoppable_turn

    return unstoppable_turn(state, nodes, seconds, stop=stop).line


def lasting_threat(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Sequence[VMove] | None:
    """A turn that threatens a win at the next one, for which no answer of the opponent's
    was found, as its decisions, or None (see :func:`.turnwin.lasting`)."""
    from .turnwin import lasting

    return lasting(state, nodes, seconds, stop)


#: The deepest question :func:`prove` takes: a Voldétour turn is two to four decisions, and
#: the levels' checks ask three (their guarantee, docs/ai.md); deeper ones go to the
#: generic solver, so ``expert`` looks three decisions deep here (with this search).
PROOF_DEPTH = 3


def prove(
    state: VState, attacker: int, depth: int, nodes: int, seconds: float
) -> tuple[bool | None, int] | None:
    """Whether ``attacker`` forces a win within ``depth`` decisions, in the compiled core.

    The answer of :meth:`tablier.ai.solver.Solver.wins` (the same AND/OR search over
    the same decisions, whoever makes them, without its table), ``None`` past
    ``nodes`` positions or ``seconds`` of CPU time (``seconds < 0``: no time limit),
    with the positions expanded.  ``None`` instead of the pair where the generic
    solver answers instead: the compiled core off or without the piece set, the game
    over, a depth above :data:`PROOF_DEPTH`.  With the ``repetition`` option the
    search draws a position that starts a turn a third time, counting the state's
    history and the turns ended on the way, as the rules do.  Costs:
    docs/performance.md.

    Black's Lord on a block as high as White's tower, beside it, Black to move: it
    steps onto the tower at once (``None`` without the compiled core):

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.position(black=["B113@i8:1x1x3"], lords=("i8", "e5"), turn=9)
    >>> answer = prove(state, 0, 1, 1000, -1.0)
    >>> answer is None or answer[0]
    True
    >>> answer is None or prove(state, 1, 3, 1000, -1.0)[0]
    False
    """
    game = state.game
    if not _on or depth > PROOF_DEPTH or state.outcome is not None:
        return None
    tables = native_tables(game.pieceset)
    if tables is None:
        return None
    try:
        result: tuple[bool | None, int] = rules._native.prove(
            tables, game.max_turns or 0, game.repetition, state, attacker, depth, nodes, seconds
        )
    except OverflowError:  # a turn number beyond 2**62: the generic solver plays it
        return None
    return result


_on = False
_path_distance: Callable[[VState, int], int] = _path_distance_pure
_evaluate: Callable[[VState], float] = _evaluate_pure
_move_prior: Callable[[VState, Sequence[VMove]], list[float]] = _move_prior_pure


def switch(compiled: bool) -> None:
    """Use the compiled core (True, when it is loaded) or the pure Python (False)."""
    global _on, _path_distance, _evaluate, _move_prior
    _on = compiled and rules._native is not None
    _path_distance = _path_distance_native if _on else _path_distance_pure
    _evaluate = _evaluate_native if _on else _evaluate_pure
    _move_prior = _move_prior_native if _on else _move_prior_pure


if rules._native is not None:
    set_knobs({knob: globals()[name] for knob, name in _KNOBS.items()})  # one value each
    rules._native.set_playout_power(PLAYOUT_POWER)  # and one power
    register(__name__, switch)
    switch(True)
