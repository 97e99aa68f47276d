"""PUCT search guided by a policy-and-value network (AlphaZero style).

The tree walks the game's fixed action space step by step: a node is a state
and the *pending* steps of a move not yet complete (a Volo flight or a
Voldétour decision encoded as several ids), so every edge is one action id and
the network's policy gives its prior.  No playouts: a new leaf is valued by the
network alone, a finished game by its outcome.

Values are kept per player to decide: each node knows who decides there
(``state.to_move``, never assumed to alternate), an edge's mean value is from
the point of view of the player deciding at its parent, and a leaf's value is
turned to each player's side on the way up.  Two players, zero sum.

Selection: ``Q + c_puct * P * sqrt(N_parent) / (1 + N)``, an unvisited edge
counting as ``Q = parent value - fpu`` (first-play urgency, as Leela Zero).
At the root of a self-play search, Dirichlet noise is mixed into the priors.

>>> from tablier.games import get
>>> from tablier.ai.network import NetConfig, Network
>>> game = get("xobo")
>>> net = Network.random(game, NetConfig(channels=8, blocks=1))
>>> search = PUCT(game, net, PUCTConfig(simulations=16))
>>> root = search.root(game.initial_state())
>>> search.run(root)
16
>>> sum(root.visits.values())
16
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.game import Game, Move, State
from .network import Network, observe

__all__ = ["PUCT", "Node", "PUCTConfig"]


@dataclass(frozen=True)
class PUCTConfig:
    """Settings of a search.

    ``simulations`` (and/or ``seconds``) bound one search.  ``c_puct``: the
    weight of the prior in selection.  ``fpu``: how much worse than its parent
    an unvisited edge is assumed.  ``noise_alpha`` / ``noise_frac``: Dirichlet
    noise at the root (``noise_frac`` 0: none; ``noise_alpha`` 0: ``10 /
    number of legal ids``, as AlphaZero's 0.3 for chess and 0.03 for Go).
    """

    simulations: int | None = 64
    seconds: float | None = None
    c_puct: float = 1.5
    fpu: float = 0.2
    noise_alpha: float = 0.0
    noise_frac: float = 0.0


def _terminal_value(state: State[Any]) -> tuple[int, float]:
    """``(player, value for that player)`` of a finished game."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return 0, 0.0
    return outcome.winner, 1.0


class Node:
    """A state plus the pending steps of a move; the edges' statistics by action id."""

    __slots__ = (
        "children",
        "encodings",
        "ids",
        "pending",
        "player",
        "priors",
        "q",
        "state",
        "terminal",
        "total",
        "value",
        "visits",
        "w",
    )

    def __init__(
        self,
        state: State[Any],
        pending: tuple[int, ...],
        encodings: list[tuple[tuple[int, ...], Move]] | None,
    ) -> None:
        self.state = state
        self.pending = pending
        self.terminal = state.is_terminal
        self.player = -1 if self.terminal else state.to_move
        self.encodings = encodings
        self.ids: list[int] = []
        self.priors: list[float] | None = None
        self.children: dict[int, Node] = {}
        self.visits: dict[int, int] = {}
        self.w: dict[int, float] = {}
        self.total = 0
        self.value = 0.0  # the network's value for self.player
        self.q = 0.0

    @property
    def expanded(self) -> bool:
        return self.priors is not None


def next_ids(encodings: Sequence[tuple[int, ...]], pending: tuple[int, ...]) -> list[int]:
    """The ids that may follow ``pending`` among the moves' ``encodings`` (sorted).

    >>> next_ids([(1, 4), (1, 2), (3,)], (1,))
    [2, 4]
    """
    k = len(pending)
    return sorted({e[k] for e in encodings if len(e) > k and e[:k] == pending})


class PUCT:
    """A PUCT search of ``game`` guided by ``net`` (see the module docstring)."""

    def __init__(
        self,
        game: Game[Any, Any],
        net: Network,
        config: PUCTConfig | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.game = game
        self.net = net
        self.config = config or PUCTConfig()
        self.rng = rng or random.Random(0)
        codec: Any = type(game).actions()
        self._encode: Callable[[State[Any], Move], tuple[int, ...]] = codec.encode
        self.stop: Callable[[], bool] | None = None

    # -- tree --------------------------------------------------------------------------

    def root(self, state: State[Any], pending: tuple[int, ...] = ()) -> Node:
        """A fresh root for ``state`` (with ``pending`` steps of a move already given)."""
        return Node(state, pending, None)

    def _encodings(self, node: Node) -> list[tuple[tuple[int, ...], Move]]:
        if node.encodings is None:
            enc = self._encode
            node.encodings = [(tuple(enc(node.state, m)), m) for m in node.state.legal_moves()]
        return node.encodings

    def _expand(self, node: Node) -> float:
        """Evaluate ``node`` with the network; its value for ``node.player``."""
        pre = node.pending
        ids = next_ids([steps for steps, _ in self._encodings(node)], pre)
        node.ids = ids
        priors, value = self.net.evaluate(observe(self.game, node.state, pre), ids)
        node.priors = [float(p) for p in priors]
        node.value = value
        return value

    def completed(self, node: Node, action: int) -> Move | None:
        """The move that ``action`` completes at ``node``, or None when more ids follow."""
        steps = (*node.pending, action)
        return next((m for enc, m in self._encodings(node) if enc == steps), None)

    def child(self, node: Node, action: int) -> Node:
        """The node after ``action`` at ``node`` (made on first use)."""
        found = node.children.get(action)
        if found is not None:
            return found
        move = self.completed(node, action)
        if move is not None:
            found = Node(node.state.apply_unchecked(move), (), None)
        else:
            steps = (*node.pending, action)
            k = len(steps)
            found = Node(node.state, steps, [e for e in self._encodings(node) if e[0][:k] == steps])
        node.children[action] = found
        return found

    def add_noise(self, node: Node) -> None:
        """Mix Dirichlet noise into the priors of ``node`` (expanding it first)."""
        cfg = self.config
        if node.terminal or cfg.noise_frac <= 0:
            return
        if not node.expanded:
            self._expand(node)
        assert node.priors is not None
        n = len(node.ids)
        if n < 2:
            return
        alpha = cfg.noise_alpha or min(1.0, max(0.03, 10.0 / n))
        gammas = [self.rng.gammavariate(alpha, 1.0) for _ in range(n)]
        total = sum(gammas) or 1.0
        frac = cfg.noise_frac
        node.priors = [
            (1 - frac) * p + frac * g / total for p, g in zip(node.priors, gammas, strict=True)
        ]

    # -- search ------------------------------------------------------------------------

    def _select(self, node: Node) -> int:
        assert node.priors is not None
        c = self.config.c_puct * math.sqrt(node.total + 1)
        default_q = node.value - self.config.fpu if node.total else node.value
        best, best_score = node.ids[0], -math.inf
        visits, w = node.visits, node.w
        for a, p in zip(node.ids, node.priors, strict=True):
            n = visits.get(a, 0)
            score = w[a] / n + c * p / (1 + n) if n else default_q + c * p
            if score > best_score:
                best, best_score = a, score
        return best

    def simulate(self, root: Node) -> None:
        """One simulation from ``root``: select, expand with the network, back up."""
        path: list[tuple[Node, int]] = []
        node = root
        while node.expanded and not node.terminal:
            a = self._select(node)
            path.append((node, a))
            node = self.child(node, a)
        if node.terminal:
            player, value = _terminal_value(node.state)
        else:
            player, value = node.player, self._expand(node)
        for parent, a in path:
            v = value if parent.player == player else -value
            parent.visits[a] = parent.visits.get(a, 0) + 1
            parent.w[a] = parent.w.get(a, 0.0) + v
            parent.total += 1

    def run(self, root: Node, simulations: int | None = None, seconds: float | None = None) -> int:
        """Search from ``root`` within the budget (the config's unless given); the
        number of simulations run.  A root with a single legal id is not searched."""
        if root.terminal:
            return 0
        if not root.expanded:
            self._expand(root)
        if len(root.ids) == 1:
            return 0
        sims = self.config.simulations if simulations is None else simulations
        secs = self.config.seconds if seconds is None else seconds
        deadline = time.perf_counter() + secs if secs is not None else math.inf
        done = 0
        stop = self.stop
        while (sims is None or done < sims) and time.perf_counter() < deadline:
            self.simulate(root)
            done += 1
            if stop is not None and stop():
                break
        return done

    def policy(self, root: Node) -> tuple[list[int], list[float]]:
        """The root's ids and their share of the visits (the training target)."""
        if not root.expanded:
            self._expand(root)
        total = sum(root.visits.values())
        if total == 0:
            assert root.priors is not None
            return list(root.ids), list(root.priors)
        return list(root.ids), [root.visits.get(a, 0) / total for a in root.ids]

    def pick(self, root: Node, temperature: float) -> int:
        """An action id of ``root``: the most visited (temperature 0) or drawn in
        proportion to ``visits ** (1 / temperature)``."""
        ids, probs = self.policy(root)
        if temperature <= 0:
            best = max(probs)
            return self.rng.choice([a for a, p in zip(ids, probs, strict=True) if p == best])
        weights = [p ** (1.0 / temperature) for p in probs]
        return self.rng.choices(ids, weights=weights)[0]
