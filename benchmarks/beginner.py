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

"One ply" is one *turn*: where a move leaves the same player to decide (a turn of
several decisions, as in Voldétour), the beginner looks at the whole turn. It
expands its own decisions until the other player is to move or the game ends, and
plays the first decision of the turn whose end position the evaluation likes best
(a turn that wins ends the search at once). The expansion examines at most
``turn_nodes`` positions (default :data:`TURN_NODES`): the budget is shared evenly
among the moves of each decision, in random order, so a turn tree too large is
sampled evenly, and a position where the budget runs out mid-turn is judged as it
stands. The plan is made again at each decision of the turn (the tree left is
smaller, so the sample is finer). In a game whose turns are single decisions this
is exactly the one-decision greedy choice above.

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

from tablier.ai.knowledge import Knowledge, knowledge_for
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

#: The most positions the beginner examines to plan one decision of a turn.
TURN_NODES = 4000


class BeginnerPlayer(Player):
    """Greedy one ply without looking at the answers, plus ``noise`` random moves."""

    def __init__(
        self,
        seed: int | None = None,
        noise: float = NOISE,
        guard: bool = True,
        turn_nodes: int = TURN_NODES,
    ):
        if not 0.0 <= noise <= 1.0:
            raise TablierError(f"the beginner's noise must be within 0 and 1, not {noise!r}")
        if turn_nodes < 1:
            raise TablierError(f"the beginner's turn_nodes must be at least 1, not {turn_nodes}")
        self.name = "beginner" if noise == NOISE else f"beginner:noise={noise:g}"
        self.noise = noise
        self.turn_nodes = turn_nodes
        self.guard = guard
        self.rng = random.Random(seed)
        # The turn sampling has its own stream, so that in a game of one-decision turns
        # the beginner's choices are those of the one-decision greedy policy, draw for draw.
        self.turn_rng = random.Random(None if seed is None else f"turn {seed}")
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
        values = self._turn_values(state, moves, knowledge)
        top = max(values.values())
        best = [m for m in moves if values[m] == top]
        return [best[self.rng.randrange(len(best))], *sorted(moves, key=lambda m: -values[m])]

    def _turn_values(
        self, state: State[Any], moves: list[Move], knowledge: Knowledge
    ) -> dict[Move, float]:
        """Each move's value for the mover: the best end of the turn it starts (sampled)."""
        me = state.to_move
        values: dict[Move, float] = {m: -2.0 for m in moves}  # below any value: unexamined
        order = list(moves)
        self.turn_rng.shuffle(order)
        left = max(self.turn_nodes, len(order))  # every move of the decision is looked at
        for i, move in enumerate(order):
            share = left // (len(order) - i)
            used, value = self._turn_best(state.apply_unchecked(move), me, share - 1, knowledge)
            values[move] = round(value, 9)
            left -= 1 + used
            if value >= 1.0:  # a win within the turn: nothing is better
                break
        return values

    def _turn_best(
        self, state: State[Any], me: int, budget: int, knowledge: Knowledge
    ) -> tuple[int, float]:
        """(positions examined, best value for ``me``) of the rest of ``me``'s turn."""
        if state.outcome is not None or state.to_move != me or budget <= 0:
            return 0, knowledge.value(state, me)
        moves = state.legal_moves()
        self.turn_rng.shuffle(moves)
        moves = moves[:budget]
        best, left = -2.0, budget
        for i, move in enumerate(moves):
            share = left // (len(moves) - i)
            used, value = self._turn_best(state.apply_unchecked(move), me, share - 1, knowledge)
            left -= 1 + used
            if value > best:
                best = value
                if best >= 1.0:
                    break
        return budget - left, best


def make_beginner(
    overrides: dict[str, str], game: Game[Any, Any] | None = None, seed: int | None = None
) -> BeginnerPlayer:
    """The factory behind the spec ``beginner[:noise=X,rule_guard=no,turn_nodes=N]``."""
    extra = set(overrides) - {"noise", "rule_guard", "turn_nodes"}
    if extra:
        raise TablierError(
            "the beginner takes only noise, rule_guard and turn_nodes"
            f" (not {', '.join(sorted(extra))})"
        )
    noise = parse_float(overrides.get("noise", str(NOISE)), "noise", error=TablierError)
    guard = overrides.get("rule_guard", "yes").strip().lower() not in ("0", "no", "false", "off")
    text = overrides.get("turn_nodes", str(TURN_NODES)).strip()
    if not text.isdigit():
        raise TablierError(f"the beginner's turn_nodes must be a whole number, not {text!r}")
    return BeginnerPlayer(seed, noise=noise, guard=guard, turn_nodes=int(text))


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
