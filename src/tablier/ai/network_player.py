"""The ``master`` level: a PUCT search guided by the game's trained network.

The network comes from the package (``tablier/ai/networks/<game>[-<variant>].npz``,
see :func:`~tablier.ai.network.shipped_network`) or from the folder named by
``$TABLIER_NETWORK_DIR``; a game or variant without one gets a clear error.
Inference is numpy only: PyTorch is never imported.

Settings after a colon (``master:seconds=1,simulations=none``): ``seconds``
and ``simulations`` bound each decision (whichever comes first; 1.7 s by
default, as ``hard``), ``c_puct``, ``tactics`` (take a win in one at once, and
never hand the opponent a win in one when another move does not),
``solver_depth``, ``solver_nodes``, ``threat_nodes``, ``safety_checks``,
``safety_nodes`` and ``unstoppable_nodes`` (the tactical steps of ``hard``, with
its settings: before the search, play a forced win the solver or the game's
deeper proofs find; after it, play the first of the best moves after which the
opponent forces no win within ``solver_depth`` decisions, nor has a turn that
nothing stops from winning at the next one where the game can tell, see
:func:`~tablier.ai.players.safest_move`),
``rule_guard`` and ``rule_nodes`` (as the other levels).

A move encoded as several action ids (a Volo flight, a Voldétour decision) is
chosen id by id on the subtree already grown.  The search gets what
:func:`~tablier.ai.players.search_seconds` leaves of the time budget (the
tactical steps and the rule guard take the rest, as in ``hard``); the first id gets 70% of that
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
from .knowledge import knowledge_for
from .mcts import MoveStat, SearchProgress
from .network import Network, shipped_network
from .players import (
    RULE_NODES,
    TACTICS_SECONDS,
    Player,
    Progress,
    _check_state,
    _danger,
    _prior_order,
    checks_deadline,
    forced_win,
    parse_setting,
    rule_guard,
    safest_move,
    search_seconds,
    wall_stop,
)
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
    solver_depth: int = 3
    solver_nodes: int = 6000
    threat_nodes: int = 20_000
    safety_checks: int = 4
    safety_nodes: int = 20_000
    unstoppable_nodes: int = 1000
    rule_guard: bool = True
    rule_nodes: int = RULE_NODES


#: The ``master`` level: as much time as ``hard``, and its tactical steps.
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
        """The move of the search, between the tactical steps (see the module docstring)."""
        start, cpu_start = time.perf_counter(), time.process_time()
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
        order = _prior_order(state)
        if lv.solver_depth > 1:
            # As ``hard``: a quarter of the budget, never less than the floor (CPU time),
            # and never past half of the budget (wall clock).
            limit = max(0.25 * lv.seconds, TACTICS_SECONDS) if lv.seconds else None
            pre_stop = wall_stop(start + 0.5 * lv.seconds, self.stop) if lv.seconds else self.stop
            win = forced_win(
                state, lv.solver_depth, lv.solver_nodes, lv.threat_nodes, limit, order, pre_stop
            )
            if win is not None:
                return win
        checks = lv.safety_checks if lv.solver_depth > 1 else 0
        search = self._search()
        node = root = search.root(state)
        deadline = None
        if lv.seconds is not None:
            left = search_seconds(lv.seconds, checks > 0, lv.rule_guard, start, cpu_start)
            deadline = time.perf_counter() + left
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
        stopped = self.stop is not None and self.stop()
        end = None if lv.seconds is None else checks_deadline(lv.seconds, checks > 0, start)
        guard = rule_guard(state, lv.rule_nodes) if lv.rule_guard else None
        chosen = guard.pick(state, ranked + moves, end) if guard is not None else ranked[0]
        if checks and not stopped:
            first = [chosen, *_by_visits(search, root, moves)[:checks]]
            chosen = safest_move(
                state,
                first,
                lv.solver_depth,
                lv.safety_nodes,
                order,
                end,
                guard,
                self.stop,
                defences=knowledge_for(state.game).defences,
                keep=len(first),
                danger=_danger(state, lv.unstoppable_nodes),
            )
        return chosen


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
        integers=(
            "simulations",
            "rule_nodes",
            "solver_depth",
            "solver_nodes",
            "threat_nodes",
            "safety_checks",
            "safety_nodes",
            "unstoppable_nodes",
        ),
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
