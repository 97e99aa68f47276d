"""Monte Carlo tree search (UCT) for every game, through the protocol only.

Improvements over plain UCT, each switchable in :class:`MCTSConfig`:

* **progressive bias**: a child's score gets ``bias * prior / (visits + 1)``
  where ``prior`` is the game's cheap move prior (see
  :mod:`tablier.ai.knowledge`), scaled so the best move has 1;
* **RAVE** (all-moves-as-first): each child also keeps the results of the
  simulations in which its move was played later by the same player, blended
  in with weight ``beta = n_amaf / (n_amaf + n + n * n_amaf / rave_k)``;
* **solver-aware backups** (MCTS-Solver): terminal states are proven wins,
  losses or draws; a node where the player to decide has a proven winning
  child is proven won, one whose children are all proven is proven with the
  best of them; proven losses are never selected again;
* **decisive moves**: when a node is expanded every child state is computed,
  so a move that ends the game is known (and proven) at once (only the
  states of finished games are kept: the others are made again when the
  search first reaches them, so a large tree is not mostly unvisited states);
* **cut-off playouts**: with a static evaluation, playouts stop after
  ``playout_depth`` plies and are scored by it; without one they run to the end;
* **repetitions as draws** (``repeat_draw``, off by default): where the game
  declares a ``position_key``, a position the game has already been in
  (:attr:`MCTS.history`, the keys its player adds) is scored a draw wherever
  the search meets it again, as chess engines score a repetition: a player
  ahead leaves a cycle, one behind seeks it.

Values are backed up from the point of view of the player who made each
decision (``parent.state.to_move``), so turns of several decisions by the
same player need no special case.

Budgets: ``iterations`` and/or ``seconds`` (whichever ends first).  With an
iteration budget and a seed the search is deterministic.  :meth:`MCTS.advance`
re-roots the tree on a later position (the moves played since) so work is
reused between moves.

The loops over a node's children (selection, expansion, backups, proofs) run
compiled when ``tablier.ai._native`` is built, giving the same tree for a seed
(the Python functions ``_descend_py``, ``_children_py``, ``_backup_py`` and
``_proof_py`` are the reference); the nodes, which never form reference
cycles, are then also kept out of the cyclic garbage collector's passes (freed
by reference counting alone).  RAVE's backup looks up the moves played rather
than every child when they are fewer.
A game's ``playout`` hook (see :mod:`tablier.ai.knowledge`) plays whole
playouts in its compiled core.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import GameOverError, TablierError
from ..core.game import Move, State
from ..core.native import load, register
from .knowledge import Knowledge, Playout, knowledge_for

__all__ = ["MCTS", "MCTSConfig", "MoveStat", "SearchProgress"]

_LOSS = 0.0
_DRAW = 0.5
_WIN = 1.0
#: Children's means closer than this are not stretched by ``normalize`` (all alike).
_FLAT = 1e-9
#: ``_Node.ranked``: children in the game's order; ranked by the move prior; by the turn prior.
_UNRANKED, _BY_PRIOR, _BY_TURN = 0, 1, 2


@dataclass(frozen=True)
class MCTSConfig:
    """Tuning of the search (defaults are the ones the levels use)."""

    exploration: float = 0.7
    prior_bias: float = 1.0
    rave: bool = True
    rave_k: float = 300.0
    # the children's means stretched to [0, 1] before the exploration term is added, where
    # they bunch together (a won race's values all near 1: docs/ai.md, "Stretched means");
    # None: the game's NORMALIZE
    normalize: bool | None = False
    solver: bool = True
    decisive: bool = True
    cutoff: bool = True
    playout_depth: int | None = None  # None: the game's PLAYOUT_DEPTH
    max_playout: int = 400  # plies of a full playout before it is scored a draw
    weighted_playouts: bool = True
    # the game's turn prior, when it has one, ranks and widens the turn searched for
    turn_prior: bool = True
    turn_visits: int = 16  # a node of that turn gets the turn prior after this many visits
    widen_first: int = 5
    widen_visits: int = 40
    widen_rate: float = 1.3
    # a position the game has been in scores a draw where the search meets it again, less
    # ``repeat_contempt`` for the player searching (a stronger player's dislike of draws)
    repeat_draw: bool = False
    repeat_contempt: float = 0.0

    def __post_init__(self) -> None:
        if self.widen_first < 1 or self.widen_visits < 1:
            raise TablierError("widen_first and widen_visits must be at least 1")
        if not self.widen_rate > 1.0:
            raise TablierError(f"widen_rate must be above 1, not {self.widen_rate!r}")
        if not 0.0 <= self.repeat_contempt <= 0.5:
            raise TablierError(
                f"repeat_contempt must be within 0 and 0.5, not {self.repeat_contempt!r}"
            )


@dataclass(frozen=True)
class MoveStat:
    """One root move in an analysis: visits, score (0..1 for the side to move), proof."""

    move: Move
    visits: int
    score: float
    prior: float
    proven: str | None = None  # "win", "loss", "draw" or None

    def describe(self) -> str:
        """``e5  visits 120  win 63.0%`` (with the proof when there is one)."""
        text = f"{self.move!s:<14} visits {self.visits:>6}  win {100 * self.score:5.1f}%"
        if self.proven:
            text += f"  (proven {self.proven})"
        return text


@dataclass(frozen=True)
class SearchProgress:
    """Passed to the progress callback while searching."""

    iterations: int
    elapsed: float
    fraction: float
    best: MoveStat | None


class _Node:
    __slots__ = (
        "an",
        "aw",
        "children",
        "index",
        "move",
        "mover",
        "n",
        "prior",
        "proven",
        "ranked",
        "state",
        "w",
    )

    # The root has no move (``None``) and a child no state until the search first
    # reaches it; neither is read before then, so both are typed as always present.
    # No link to the parent: the tree has no reference cycle, so a tree let go is freed
    # at once, and the garbage collector, which walks every node it tracks, has less to do.
    move: Move
    state: State[Any]

    def __init__(self, move: Any, state: Any, mover: int | None, prior: float) -> None:
        self.move = move
        self.state = state
        self.mover = mover  # who made ``move`` (None at the root)
        self.prior = prior
        self.n = 0
        self.w = 0.0  # sum of rewards for ``mover``
        self.an = 0
        self.aw = 0.0
        self.children: list[_Node] | None = None
        self.index: dict[Move, _Node] | None = None  # the children by move, made for RAVE
        self.proven: float | None = None  # exact reward for ``mover``
        self.ranked = _UNRANKED  # children ranked best first: by the move or the turn prior


def _best_child_py(
    children: list[_Node],
    parent_mean: float,
    log_n: float,
    c: float,
    bias: float,
    rave: bool,
    k: float,
    normalize: bool = False,
) -> _Node:
    """The child to follow (see :meth:`MCTS._select`); the reference of the compiled one.

    Each child's mean ``q`` (the parent's for an unvisited child, blended with the
    all-moves-as-first mean when ``rave``) scores ``q + c * sqrt(log_n / (n + 1)) + bias *
    prior / (n + 1)``; with ``normalize`` the means of the children not proven lost are
    first stretched to ``[0, 1]`` (``(q - lo) / (hi - lo)``, when they differ).
    """
    means: list[float | None] = []
    for child in children:
        proven = child.proven
        if proven is not None:
            if proven == _WIN:
                return child
            if proven == _LOSS:
                means.append(None)
                continue
        n = child.n
        q = child.w / n if n else parent_mean
        if rave and child.an:
            amaf = child.aw / child.an
            beta = child.an / (child.an + n + n * child.an / k)
            q = (1.0 - beta) * q + beta * amaf
        means.append(q)
    lo, span = 0.0, 1.0
    known = [mean for mean in means if mean is not None] if normalize else []
    if known:
        least, most = min(known), max(known)
        if most - least > _FLAT:
            lo, span = least, most - least
    best = None
    best_score = -math.inf
    for child, mean in zip(children, means, strict=True):
        if mean is None:
            continue
        n = child.n
        score = (mean - lo) / span + c * math.sqrt(log_n / (n + 1)) + bias * child.prior / (n + 1)
        if score > best_score:
            best_score = score
            best = child
    if best is None:  # every child proven lost: play the first one
        return children[0]
    return best


def _descend_py(
    node: _Node,
    children: list[_Node] | None,
    c: float,
    bias: float,
    rave: bool,
    k: float,
    normalize: bool = False,
) -> _Node:
    """The child of ``node`` to follow, among ``children`` (None: all of them).

    Unvisited children start from the parent's mean for the player deciding at
    ``node`` (0.5 at the root or before any visit).  The compiled one's reference.
    """
    own = node.children
    assert own
    player = own[0].mover  # the player deciding at ``node`` made every child's move
    log_n = math.log(node.n + 1)
    if node.mover is None or not node.n:
        parent_mean = 0.5
    elif node.mover == player:
        parent_mean = node.w / node.n
    else:
        parent_mean = 1.0 - node.w / node.n
    return _best_child_py(
        own if children is None else children, parent_mean, log_n, c, bias, rave, k, normalize
    )


def _proof_py(children: list[_Node]) -> float | None:
    """What the children's proofs prove for the player choosing among them, or None.

    A proven win settles it; otherwise every child must be proven, and the best
    value counts.  The reference of the compiled one.
    """
    best = None
    for child in children:
        value = child.proven  # for the player who moves to ``child``
        if value is None:
            if best is None or best < _WIN:
                best = -1.0  # unknown child: only a proven win settles it
            continue
        if value == _WIN:
            return _WIN
        if best is None or (best != -1.0 and value > best):
            best = value
    if best is None or best == -1.0:
        return None
    return best


def _children_py(
    state: State[Any],
    moves: list[Move],
    priors: list[float] | None,
    player: int,
    decisive: bool,
    solver: bool,
) -> list[_Node]:
    """The child nodes of ``state`` (see :meth:`MCTS._expand`); the compiled one's reference.

    With ``decisive`` every child state is computed, so that a move ending the game
    is seen (and, with ``solver``, proven) at once; a child keeps its state only
    then: the others are made again when the search first reaches them (most never
    are, and a big tree holding them all would be mostly states).
    """
    weights = priors if priors is not None else [1.0] * len(moves)
    if not decisive:
        return [
            _Node(move, None, player, prior) for move, prior in zip(moves, weights, strict=True)
        ]
    apply = state.apply_unchecked
    children = []
    for move, prior in zip(moves, weights, strict=True):
        after = apply(move)
        outcome = after.outcome
        if outcome is None:
            children.append(_Node(move, None, player, prior))
            continue
        child = _Node(move, after, player, prior)
        if solver:
            child.proven = outcome.score(player)
        children.append(child)
    return children


def _backup_py(
    path: list[_Node], played: list[tuple[int, Move]], reward0: float, rave: bool
) -> None:
    """Back a simulation up its ``path``; the compiled one's reference.

    Each node gets a visit and its mover's reward; with ``rave``, each child of a
    node on the path whose move its player made later in the simulation (``played``:
    tree moves, then playout moves) gets an all-moves-as-first result.
    """
    rewards = (reward0, 1.0 - reward0)
    first: dict[tuple[int, Move], int] = {}
    if rave:
        for i in range(len(played) - 1, -1, -1):
            first[played[i]] = i
    for depth, n in enumerate(path):
        n.n += 1
        if n.mover is not None:
            n.w += rewards[n.mover]
        if rave and n.children:
            _amaf(n, depth, first, rewards)


def _amaf(
    node: _Node, depth: int, first: dict[tuple[int, Move], int], rewards: tuple[float, float]
) -> None:
    """All-moves-as-first: credit each child of ``node`` (at ``depth`` in the path)
    whose move its player made from there on in this simulation (``first``: where
    each (player, move) was first made)."""
    player = node.state.to_move
    r = rewards[player]
    children = node.children
    assert children is not None
    if len(children) <= len(first):
        for child in children:
            seen = first.get((player, child.move))
            if seen is not None and seen >= depth:
                child.an += 1
                child.aw += r
        return
    # fewer moves played than children: look the played ones up instead (same result)
    index = node.index
    if index is None:
        index = node.index = {child.move: child for child in reversed(children)}
    for (mover, move), seen in first.items():
        if mover == player and seen >= depth:
            found = index.get(move)
            if found is not None:
                found.an += 1
                found.aw += r


# The loops over a node's children run compiled when ``tablier.ai._native`` is built;
# ``_switch`` puts the Python ones back (``tablier.core.native.using``).
_native = load("tablier.ai._native")
_descend = _descend_py
_proof = _proof_py


_children = _children_py
_backup = _backup_py


def _switch(compiled: bool) -> None:
    global _descend, _proof, _children, _backup
    if compiled and _native is not None:
        _descend, _proof = _native.descend, _native.proof
        _children, _backup = _native.children, _native.backup
    else:
        _descend, _proof = _descend_py, _proof_py
        _children, _backup = _children_py, _backup_py


if _native is not None:
    _native.bind(_Node)
    _switch(True)
    register(__name__, _switch)


def _rank(node: _Node, how: int) -> None:
    """Order ``node``'s children best first by their prior, proven wins first, for
    progressive widening (:meth:`MCTS._width`)."""
    assert node.children is not None
    node.children.sort(key=lambda c: (c.proven == _WIN, c.prior), reverse=True)
    node.ranked = how


def _proven_label(value: float | None) -> str | None:
    if value is None:
        return None
    return "win" if value == _WIN else "loss" if value == _LOSS else "draw"


class MCTS:
    """A search tree over one game.  Create one per game and per player.

    >>> from tablier.games import get
    >>> game = get("volo", board="mini")
    >>> search = MCTS(game.initial_state(), seed=1)
    >>> move = search.search(iterations=20)
    >>> move in game.initial_state().legal_moves()
    True
    """

    def __init__(
        self,
        state: State[Any],
        *,
        seed: int | None = 0,
        config: MCTSConfig | None = None,
        knowledge: Knowledge | None = None,
    ) -> None:
        self.config = config or MCTSConfig()
        self.knowledge = knowledge if knowledge is not None else knowledge_for(state.game)
        self.rng = random.Random(seed)
        depth = self.config.playout_depth
        if depth is None:
            depth = self.knowledge.playout_depth
        self._cut = depth if (self.config.cutoff and self.knowledge.evaluate is not None) else None
        self._fast_playout = self._playout_hook(state)
        #: Rank the turn searched for by the game's turn prior (``_expand``, ``_width``).
        self._ranking = self.config.turn_prior and self.knowledge.turn_prior is not None
        normalize = self.config.normalize
        #: Stretch the children's means before exploring (``normalize``, else the game's).
        self._normalize = self.knowledge.normalize if normalize is None else normalize
        self._log_rate = math.log(self.config.widen_rate)
        self.root = _Node(None, state, None, 1.0)
        self._restrict: set[Move] | None = None
        self.iterations = 0
        #: Keys (the game's ``position_key``) of the positions the game has been in: with
        #: ``repeat_draw``, the search scores each a draw where it meets it again (not at
        #: the root).  The player adds them; the search only reads them.
        self.history: set[Hashable] = set()
        self._keys: dict[State[Any], Hashable | None] = {}

    # -- tree reuse -----------------------------------------------------------------------

    @property
    def state(self) -> State[Any]:
        """The position at the root of the tree."""
        return self.root.state

    def advance(self, state: State[Any], max_depth: int = 8) -> bool:
        """Re-root the tree on ``state`` if it lies in the tree; else start afresh.

        Returns True when part of the tree was reused.
        """
        self._restrict = None
        self._keys = {}  # (the positions of the tree let go need no key any more)
        if state == self.root.state:
            return True
        frontier = [self.root]
        for _ in range(max_depth):
            nxt = []
            for node in frontier:
                for child in node.children or ():
                    if child.state is None:
                        continue
                    if child.state == state:
                        child.mover = None
                        child.proven = None
                        self.root = child
                        if self.config.solver:
                            self._update_proof(child)
                        return True
                    nxt.append(child)
            frontier = nxt
        self.root = _Node(None, state, None, 1.0)
        return False

    def restrict_root(self, moves: list[Move] | None) -> None:
        """Search only these root moves (used by the tactical filter); None lifts it."""
        self._restrict = set(moves) if moves is not None else None

    # -- the search -----------------------------------------------------------------------

    def _expand(self, node: _Node, own: bool = False) -> None:
        """Make ``node``'s children; ``own``: a node of the turn searched for, whose
        children are ranked for progressive widening (see :meth:`_select`)."""
        state = node.state
        moves = state.legal_moves()
        cfg = self.config
        rank = own and self._ranking
        priors = self.knowledge.priors(state, moves) if cfg.prior_bias or rank else None
        node.children = _children(
            state, moves, priors or None, state.to_move, cfg.decisive, cfg.solver
        )
        if rank:
            _rank(node, _BY_PRIOR)
        if cfg.solver:
            self._update_proof(node)

    def _rank_turn(self) -> None:
        """Rank the nodes of the root's turn made before it was the turn searched for (a
        kept tree), by the cheap prior their children got then."""
        if not self._ranking or self.root.ranked:
            return  # (a ranked root was ranked in this turn, and its nodes since with it)
        turn = self.root.state.to_move
        stack = [self.root]
        while stack:
            node = stack.pop()
            children = node.children
            if children is None or node.state.to_move != turn:
                continue
            if not node.ranked:
                _rank(node, _BY_PRIOR)
            stack.extend(c for c in children if c.children is not None)

    def _rank_by_turn(self, node: _Node) -> None:
        """Give ``node``'s children the game's turn prior and rank them by it."""
        children = node.children
        assert children is not None
        priors = self.knowledge.turn_priors(node.state, [c.move for c in children])
        for child, prior in zip(children, priors, strict=True):
            child.prior = prior
        _rank(node, _BY_TURN)

    def _width(self, visits: int) -> int:
        """How many of a ranked node's children are searched after ``visits`` visits:
        ``widen_first``, and one more each time the visits grow ``widen_rate`` times
        beyond ``widen_visits`` (progressive unpruning, Chaslot et al. 2008)."""
        cfg = self.config
        if visits <= cfg.widen_visits:
            return cfg.widen_first
        return cfg.widen_first + int(math.log(visits / cfg.widen_visits) / self._log_rate)

    def _update_proof(self, node: _Node) -> bool:
        """Prove ``node`` from its children when possible; True when it became proven."""
        if node.proven is not None or not node.children or node.state is None:
            return False
        best = _proof(node.children)
        if best is None:
            return False
        player = node.state.to_move
        if node.mover is None:  # the root: proven for the player to decide
            node.proven = best
        else:
            node.proven = best if node.mover == player else 1.0 - best
        return True

    def _select(self, node: _Node, own: bool) -> _Node:
        """The child to follow; ``own``: ``node`` is of the turn searched for (where a
        ranked node's children are widened progressively)."""
        cfg = self.config
        widen = own and node.ranked
        if widen and node.ranked == _BY_PRIOR and (node.n >= cfg.turn_visits or node is self.root):
            self._rank_by_turn(node)  # (before the root's allowed moves are listed in order)
        allowed = None
        if node is self.root and self._restrict is not None and node.children:
            allowed = [c for c in node.children if c.move in self._restrict] or None
        if widen:
            pool = node.children if allowed is None else allowed
            assert pool is not None
            width = self._width(node.n)
            if width < len(pool):
                allowed = pool[:width]
        return _descend(
            node, allowed, cfg.exploration, cfg.prior_bias, cfg.rave, cfg.rave_k, self._normalize
        )

    def _playout_hook(self, state: State[Any]) -> Playout | None:
        """The game's whole-playout hook when it is available now, else None.

        Asked once with a zero-ply playout, so that a hook which is switched off
        (a compiled core not in use) costs nothing, not even a random draw.
        """
        hook = self.knowledge.playout
        if hook is None or hook(state, 0, 0, False, False) is None:
            return None
        return hook

    def _playout(self, state: State[Any], played: list[tuple[int, Move]]) -> float:
        """Play on from ``state``; return the reward for player 0.

        The game's ``playout`` hook plays it when there is one (with its own
        generator, seeded from the search's), else the loop below.
        """
        rng = self.rng
        limit = self._cut if self._cut is not None else self.config.max_playout
        hook = self._fast_playout
        if hook is not None:
            cutoff = self._cut is not None
            result = hook(state, rng.getrandbits(64), limit, self.config.weighted_playouts, cutoff)
            if result is not None:
                reward, line = result
                played.extend(line)
                return reward
        knowledge = self.knowledge
        policy = knowledge.playout_policy
        prior = knowledge.move_prior if self.config.weighted_playouts else None
        power = knowledge.playout_power
        plies = 0
        while state.outcome is None and plies < limit:
            move = policy(state, rng) if policy is not None else None
            if move is None:
                moves = state.legal_moves()
                if prior is not None:
                    weights = prior(state, moves)
                    if power != 1.0:
                        weights = [w**power for w in weights]
                    move = (
                        rng.choices(moves, weights=weights)[0]
                        if sum(weights) > 0
                        else (moves[rng.randrange(len(moves))])
                    )
                else:
                    move = moves[rng.randrange(len(moves))]
            played.append((state.to_move, move))
            state = state.apply_unchecked(move)
            plies += 1
        outcome = state.outcome
        if outcome is not None:
            return outcome.score(0)
        if self._cut is None:
            return _DRAW
        return (knowledge.value(state, 0) + 1.0) / 2.0

    def _iterate(self) -> None:
        cfg = self.config
        node = self.root
        path = [node]
        played: list[tuple[int, Move]] = []
        reward0: float
        # still in the turn searched for (only its player's decisions so far)?
        own = self._ranking
        turn = node.state.to_move
        history = self.history if cfg.repeat_draw else None
        while True:
            if node.proven is not None and node is not self.root:
                reward0 = node.proven if node.mover == 0 else 1.0 - node.proven
                break
            if history and node is not self.root and self._repeats(node.state, history):
                # a draw, less the contempt of the player searching (``turn``)
                contempt = cfg.repeat_contempt
                reward0 = _DRAW - contempt if turn == 0 else _DRAW + contempt
                break
            if node.children is None:  # (a node with children is not a game's end)
                outcome = node.state.outcome
                if outcome is not None:
                    reward0 = outcome.score(0)
                    break
                if node.n == 0 and node is not self.root:
                    reward0 = self._playout(node.state, played)
                    break
            if own:  # (the player to decide here made every decision so far)
                own = node.state.to_move == turn
            if node.children is None:
                self._expand(node, own)
                if node.proven is not None and node is not self.root:
                    continue
            child = self._select(node, own)
            mover = child.mover  # the player to decide at ``node``
            assert mover is not None
            played.append((mover, child.move))
            if child.state is None:
                child.state = node.state.apply_unchecked(child.move)
                outcome = child.state.outcome
                if outcome is not None and cfg.solver:
                    child.proven = outcome.score(child.mover)
            node = child
            path.append(node)
        _backup(path, played, reward0, cfg.rave)
        if cfg.solver:
            for n in reversed(path[:-1]):
                if not self._update_proof(n):
                    break
        self.iterations += 1

    def _repeats(self, state: State[Any], history: set[Hashable]) -> bool:
        """Whether ``state`` is a position of ``history`` (the game's ``position_key``)."""
        keys = self._keys
        try:
            key = keys[state]
        except KeyError:
            hook = self.knowledge.position_key
            key = keys[state] = hook(state) if hook is not None else None
        return key is not None and key in history

    def search(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        progress: Callable[[SearchProgress], None] | None = None,
        progress_every: float = 0.2,
        stop: Callable[[], bool] | None = None,
    ) -> Move:
        """Search until the budget is spent and return the best root move.

        At least one of ``iterations`` and ``seconds`` must be given.  The
        search also stops early once the root is proven, or as soon as
        ``stop`` (asked before every iteration) answers True.
        """
        if iterations is None and seconds is None:
            raise TablierError("give an iteration or a time budget")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise TablierError(
                f"the iteration budget must be a whole number ≥ 1, not {iterations!r}"
            )
        if seconds is not None and not seconds > 0:
            raise TablierError(f"the time budget must be positive, not {seconds!r}")
        root = self.root
        if root.state.outcome is not None:
            raise GameOverError("the game is over: there is nothing to search")
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else None
        next_report = start + progress_every
        done = 0
        if root.children is None:
            self._expand(root, own=True)
        else:
            self._rank_turn()
        while True:
            if iterations is not None and done >= iterations:
                break
            if root.proven is not None and self._restrict is None:
                break
            if self._root_settled():
                break
            if stop is not None and stop():
                break
            self._iterate()
            done += 1
            if deadline is not None or progress is not None:
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    break
                if progress is not None and now >= next_report:
                    next_report = now + progress_every
                    progress(self._progress(done, now - start, iterations, seconds))
        if progress is not None:
            progress(self._progress(done, time.perf_counter() - start, iterations, seconds, True))
        return self.best_move()

    def _root_settled(self) -> bool:
        children = self._root_children()
        return len(children) == 1 or _proof(children) == _WIN

    def _progress(
        self,
        done: int,
        elapsed: float,
        iterations: int | None,
        seconds: float | None,
        final: bool = False,
    ) -> SearchProgress:
        fractions = []
        if iterations:
            fractions.append(done / iterations)
        if seconds:
            fractions.append(elapsed / seconds)
        fraction = 1.0 if final else min(1.0, max(fractions) if fractions else 0.0)
        stats = self.analysis(1)
        return SearchProgress(done, elapsed, fraction, stats[0] if stats else None)

    # -- results ----------------------------------------------------------------------------

    def _root_children(self) -> list[_Node]:
        root = self.root
        if root.children is None:
            self._expand(root, own=True)
        children = root.children or []
        if self._restrict is not None:
            allowed = [c for c in children if c.move in self._restrict]
            if allowed:
                return allowed
        return children

    @staticmethod
    def _rank(child: _Node) -> tuple[int, int, float, float]:
        proven = child.proven
        tier = 2 if proven == _WIN else 0 if proven == _LOSS else 1
        mean = child.w / child.n if child.n else 0.0
        return (tier, child.n, mean, child.prior)

    def best_move(self) -> Move:
        """The most visited root move (a proven win first, a proven loss last)."""
        children = self._root_children()
        best = max(children, key=self._rank)
        return best.move

    def sample_move(self, temperature: float) -> Move:
        """A root move drawn with probability proportional to ``visits ** (1/temperature)``."""
        children = self._root_children()
        wins = [c for c in children if c.proven == _WIN]
        if wins:
            return wins[0].move
        weights = [((c.n + 1) ** (1.0 / temperature)) for c in children]
        return self.rng.choices(children, weights=weights)[0].move

    def analysis(self, top: int | None = None) -> list[MoveStat]:
        """Root moves best first: visits, win estimate for the side to move, proof."""
        children = sorted(self._root_children(), key=self._rank, reverse=True)
        out = []
        for c in children[:top] if top else children:
            score = c.proven if c.proven is not None else (c.w / c.n if c.n else 0.5)
            out.append(MoveStat(c.move, c.n, score, c.prior, _proven_label(c.proven)))
        return out

    def with_config(self, **changes: Any) -> MCTSConfig:
        """A copy of the configuration with some fields changed."""
        return replace(self.config, **changes)
