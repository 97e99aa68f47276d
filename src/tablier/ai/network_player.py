"""The ``master`` level: a PUCT search guided by the game's trained network.

The network comes from the package (``tablier/ai/networks/<game>[-<variant>].npz``,
see :func:`~tablier.ai.network.shipped_network`) or from the folder named by
``$TABLIER_NETWORK_DIR``; a game or variant without one gets a clear error.
Inference is numpy only: PyTorch is never imported.

Settings after a colon (``master:seconds=1,simulations=none``): ``seconds``
and ``simulations`` bound each decision (whichever comes first; 1.7 s by
default, as ``hard``), ``c_puct``, ``tactics`` (take a win in one at once, and
never hand the opponent a win in one when another move does not),
``rule_guard`` and ``rule_nodes`` (as the other levels).

A move encoded as several action ids (a Volo flight, a Voldétour decision) is
chosen id by id on the subtree already grown.  The search ends at 85% of the
time budget (the rule guard checks the move in the rest); the first id gets 70% of that
(all of it when no move has several ids), each further id half the time left
(with a simulation budget: a quarter of it).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import TablierError, quote
from ..core.game import Game, Move, State
from .az import PUCT, Node, PUCTConfig
from .mcts import MoveStat, SearchProgress
from .network import Network, shipped_network
from .players import RULE_NODES, Player, Progress, _check_state, parse_setting, rule_guard
from .tactics import losing_moves, winning_moves

__all__ = ["MASTER", "MasterLevel", "NetworkPlayer", "make_master"]

_NETWORKS: dict[str, Network] = {}


@dataclass(frozen=True)
class MasterLevel:
    """The budget and habits of a network player (see the module docstring)."""

    simulations: int | None = None
    seconds: float | None = 1.7
    c_puct: float = 1.5
    tactics: bool = True
    rule_guard: bool = True
    rule_nodes: int = RULE_NODES


#: The ``master`` level: as much time as ``hard``.
MASTER = MasterLevel()


def load_network(game: Game[Any, Any]) -> Network:
    """The network for ``game`` (shipped or in ``$TABLIER_NETWORK_DIR``), read once."""
    path = shipped_network(game)
    key = str(path)
    net = _NETWORKS.get(key)
    if net is None:
        net = Network.load(path)
        if net.meta.get("spec") != game.spec:
            raise TablierError(
                f"the network {path.name} was trained for {net.meta.get('spec')}, not {game.spec}"
            )
        _NETWORKS[key] = net
    return net


class NetworkPlayer(Player):
    """PUCT guided by a network, with a win-in-one check and the rule guard."""

    def __init__(
        self,
        game: Game[Any, Any],
        net: Network,
        level: MasterLevel = MASTER,
        seed: int | None = 0,
        name: str = "master",
    ) -> None:
        if level.simulations is None and level.seconds is None:
            raise TablierError("a master player needs a simulation or a time budget")
        self.game = game
        self.net = net
        self.level = level
        self.name = name
        self.rng = random.Random(seed)

    def _search(self) -> PUCT:
        lv = self.level
        config = PUCTConfig(simulations=lv.simulations, seconds=lv.seconds, c_puct=lv.c_puct)
        search = PUCT(self.game, self.net, config, rng=self.rng)
        search.stop = self.stop
        return search

    def analyse(
        self, state: State[Any], progress: Progress | None = None, top: int | None = None
    ) -> list[MoveStat]:
        """Search ``state``; its first action ids as moves, most visited first."""
        _check_state(state)
        search = self._search()
        root = search.root(state)
        search.run(root)
        stats = _stats(search, root)
        return stats[:top] if top else stats

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """The move of the search (see the module docstring)."""
        start = time.perf_counter()
        moves = _check_state(state)
        if len(moves) == 1:
            return moves[0]
        lv = self.level
        bad: set[Move] = set()
        if lv.tactics:
            wins = winning_moves(state)
            if wins:
                return wins[0]
            bad = set(losing_moves(state))
        search = self._search()
        node = root = search.root(state)
        end = None if lv.seconds is None else start + lv.seconds
        # The search stops at 85% of the budget: the rule guard's check comes after it.
        deadline = None if lv.seconds is None else start + 0.85 * lv.seconds
        several = any(len(enc) > 1 for enc, _ in search._encodings(root))
        share = 0.7 if several else 1.0  # keep time for the further ids of the move
        done = search.run(node, seconds=_left(deadline, share))
        move: Move | None = None
        while move is None:
            ids, shares = search.policy(node)
            best = max(shares)
            action = search.rng.choice([a for a, p in zip(ids, shares, strict=True) if p == best])
            move = search.completed(node, action)
            if move is None:
                node = search.child(node, action)
                done += search.run(
                    node,
                    simulations=None if lv.simulations is None else max(1, lv.simulations // 4),
                    seconds=_left(deadline, 0.5),
                )
        ranked = [move]
        if move in bad and len(bad) < len(moves):
            ranked = _by_visits(search, root, [m for m in moves if m not in bad])
        if progress is not None:
            elapsed = time.perf_counter() - start
            stats = _stats(search, root)
            progress(SearchProgress(done, elapsed, 1.0, stats[0] if stats else None))
        if not lv.rule_guard:
            return ranked[0]
        ranked += moves
        return rule_guard(state, lv.rule_nodes).pick(state, ranked, end)


def _left(deadline: float | None, share: float) -> float | None:
    """``share`` of the time left before ``deadline`` (None: no time bound)."""
    if deadline is None:
        return None
    return max(0.0, deadline - time.perf_counter()) * share


def _by_visits(search: PUCT, root: Node, moves: list[Move]) -> list[Move]:
    """``moves`` ordered by the visits, then the prior, of their first id at ``root``."""
    assert root.priors is not None
    prior = dict(zip(root.ids, root.priors, strict=True))
    encode = search._encode
    k = len(root.pending)

    def key(m: Move) -> tuple[int, float]:
        a = encode(root.state, m)[k]
        return (-root.visits.get(a, 0), -prior.get(a, 0.0))

    return sorted(moves, key=key)


def _stats(search: PUCT, root: Node) -> list[MoveStat]:
    """The root's first ids as moves, most visited first (a move of several ids stands
    for every move that starts with its first id)."""
    if not root.expanded:
        return []
    assert root.priors is not None
    first: dict[int, Move] = {}
    for enc, m in search._encodings(root):
        first.setdefault(enc[len(root.pending)], m)
    out = []
    for a, prior in zip(root.ids, root.priors, strict=True):
        n = root.visits.get(a, 0)
        score = (root.w.get(a, 0.0) / n + 1) / 2 if n else 0.5
        out.append(MoveStat(first[a], n, score, prior))
    out.sort(key=lambda st: -st.visits)
    return out


def _parse(key: str, text: str, current: Any) -> Any:
    value = parse_setting(
        key,
        text,
        current,
        nullable=("simulations", "seconds"),
        integers=("simulations", "rule_nodes"),
        null_words=("none", "off"),
    )
    if (
        value is not None
        and not isinstance(value, bool)
        and (value < 0 or (key == "simulations" and value == 0))
    ):
        raise TablierError(f"setting {key!r} must be positive")
    return value


def make_master(
    overrides: dict[str, str], game: Game[Any, Any] | None, seed: int | None, name: str
) -> NetworkPlayer:
    """The ``master`` player for ``game`` with the settings of a player spec."""
    if game is None:
        raise TablierError("the master level needs to know its game (its network)")
    level = MASTER
    fields = {f: getattr(level, f) for f in MasterLevel.__dataclass_fields__}
    changes: dict[str, Any] = {}
    for key, text in overrides.items():
        if key not in fields:
            known = ", ".join(sorted(fields))
            raise TablierError(f"unknown master setting {quote(key)} (settings: {known})")
        changes[key] = _parse(key, text, fields[key])
    level = replace(level, **changes)
    return NetworkPlayer(game, load_network(game), level, seed=seed, name=name)
