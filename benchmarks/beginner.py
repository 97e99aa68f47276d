"""A beginner-like player for calibrating ``easy``: greedy one ply plus random moves.

``beginner`` plays, at each decision:

* with probability ``noise`` (default 0.3), a uniformly random legal move; the
  draw is made once per turn, so in a game whose turn has several decisions
  (Voldétour) a whole turn is random or none of it is (a beginner has a plan for
  its turn, good or bad, rather than a random step in the middle of it);
* else a move that wins at once, if it has one;
* else the move whose resulting position the game's static evaluation
  (:meth:`tablier.ai.knowledge.Knowledge.value`, the game's ``evaluate`` hook)
  likes best, random among equals; a game without an evaluation gets a random move.

A beginner looks at its own move only: unlike ``greedy``, it does **not** check
whether the move hands the opponent a win in one (that is what makes it a
beginner, and what ``easy`` must be able to punish). Like every Tablier player it
passes its choice through the rule guard (:func:`tablier.ai.players.rule_guard`),
so it does not lose by a rule it could have obeyed, such as Voldétour's tower
deadline: a beginner knows the rules.

Importing this module registers the name ``beginner`` with
:func:`tablier.ai.players.register_player`, so ``beginner`` and
``beginner:noise=0.5`` are player specs for :func:`tablier.ai.arena.run_match`
(local backend) in this process and its workers. From the command line::

    python benchmarks/beginner.py volo:board=mini easy -n 20

plays a match like ``tablier arena`` and prints its summary.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from tablier.ai.knowledge import knowledge_for
from tablier.ai.players import (
    EXTRA_PLAYERS,
    RULE_NODES,
    Player,
    Progress,
    register_player,
    rule_guard,
)
from tablier.ai.tactics import winning_moves
from tablier.core.errors import GameOverError, TablierError
from tablier.core.game import Game, Move, State
from tablier.core.position import parse_float

#: The share of random moves of the default beginner (the issue's 30%).
NOISE = 0.3


class BeginnerPlayer(Player):
    """Greedy one ply without looking at the answers, plus ``noise`` random moves."""

    def __init__(self, seed: int | None = None, noise: float = NOISE, guard: bool = True):
        if not 0.0 <= noise <= 1.0:
            raise TablierError(f"the beginner's noise must be within 0 and 1, not {noise!r}")
        self.name = "beginner" if noise == NOISE else f"beginner:noise={noise:g}"
        self.noise = noise
        self.guard = guard
        self.rng = random.Random(seed)
        self._next: State[Any] | None = None  # the state after its last move
        self._random_turn = False

    def reset(self) -> None:
        """A new game: forget the turn in progress."""
        self._next = None

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        """The beginner's move (see the module docstring)."""
        if state.outcome is not None:
            raise GameOverError("the game is over: there is no move to choose")
        moves = state.legal_moves()
        if self._next is None or state != self._next:  # a new turn: random or not
            self._random_turn = self.rng.random() < self.noise
        if len(moves) == 1:
            move = moves[0]
        else:
            ranked = self._ranked(state, moves)
            move = (
                ranked[0] if not self.guard else rule_guard(state, RULE_NODES).pick(state, ranked)
            )
        after = state.apply_unchecked(move)
        self._next = after if after.to_move == state.to_move and after.outcome is None else None
        return move

    def _ranked(self, state: State[Any], moves: list[Move]) -> list[Move]:
        """The chosen move first, then the others (best evaluated first, for the guard)."""
        if self._random_turn:
            return [moves[self.rng.randrange(len(moves))], *moves]
        wins = winning_moves(state)
        if wins:
            return [wins[0], *moves]
        knowledge = knowledge_for(state.game)
        if knowledge.evaluate is None:
            return [moves[self.rng.randrange(len(moves))], *moves]
        me = state.to_move
        values = {m: round(knowledge.value(state.apply_unchecked(m), me), 9) for m in moves}
        top = max(values.values())
        best = [m for m in moves if values[m] == top]
        return [best[self.rng.randrange(len(best))], *sorted(moves, key=lambda m: -values[m])]


def make_beginner(
    overrides: dict[str, str], game: Game[Any, Any] | None = None, seed: int | None = None
) -> BeginnerPlayer:
    """The factory behind the spec ``beginner[:noise=X,rule_guard=no]``."""
    extra = set(overrides) - {"noise", "rule_guard"}
    if extra:
        raise TablierError(
            f"the beginner takes only noise and rule_guard (not {', '.join(sorted(extra))})"
        )
    noise = parse_float(overrides.get("noise", str(NOISE)), "noise", error=TablierError)
    guard = overrides.get("rule_guard", "yes").strip().lower() not in ("0", "no", "false", "off")
    return BeginnerPlayer(seed, noise=noise, guard=guard)


def register() -> None:
    """Make ``beginner`` a player spec in this process (done on import; idempotent)."""
    if "beginner" not in EXTRA_PLAYERS:
        register_player("beginner", make_beginner)


register()


def main(argv: list[str] | None = None) -> int:
    import tablier.games
    from tablier.ai.arena import run_match, summarise

    parser = argparse.ArgumentParser(description="A match between the beginner and a player.")
    parser.add_argument("game")
    parser.add_argument("opponent")
    parser.add_argument("-n", "--games", type=int, default=20)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--beginner", default="beginner", help="the beginner's spec")
    args = parser.parse_args(argv)
    game = tablier.games.from_spec(args.game)
    results = run_match(
        game, args.beginner, args.opponent, args.games, jobs=args.jobs, seed=args.seed
    )
    print(summarise(results, args.beginner, args.opponent).describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
