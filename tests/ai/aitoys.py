"""Small games for testing the AI through the protocol alone.

``tree``: a random finite game tree fixed by a seed.  Each position is the
path of move numbers from the root; a generator seeded by ``(seed, path)``
decides whether it is over (and who won, or a draw), how many moves it has,
and who decides after each move: the same player decides again about a third
of the time, so turns of several decisions are common and players do not
alternate.  Small enough to search exhaustively in tests.
"""

from __future__ import annotations

import random
from functools import lru_cache

from rich.text import Text

from tablier.core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from tablier.core.game import Game, Move, Option, Outcome, State


class TreeMove(Move):
    """Move number ``k`` (``m0``, ``m1``...)."""

    __slots__ = ("k",)

    def __init__(self, k: int) -> None:
        self.k = k

    def __str__(self) -> str:
        return f"m{self.k}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TreeMove) and other.k == self.k

    def __hash__(self) -> int:
        return hash(("tree", self.k))


@lru_cache(maxsize=200_000)
def _node(seed: int, depth: int, branching: int, path: tuple[int, ...]):
    rng = random.Random(f"{seed}/{path}")
    over = len(path) >= depth or (len(path) > 0 and rng.random() < 0.2)
    winner = rng.choice((0, 1, 0, 1, None)) if over else None
    n = 0 if over else rng.randint(1, branching)
    again = tuple(rng.random() < 0.33 for _ in range(n))
    return over, winner, n, again


class TreeState(State):
    """A position of the tree game: the path and the player to decide."""

    __slots__ = ("_side", "game", "path")

    def __init__(self, game: TreeGame, path: tuple[int, ...], side: int) -> None:
        self.game = game
        self.path = path
        self._side = side

    def _info(self):
        o = self.game.options
        return _node(o["seed"], o["depth"], o["branching"], self.path)

    @property
    def to_move(self) -> int:
        """Whose decision it is."""
        return self._side

    @property
    def outcome(self) -> Outcome | None:
        """Fixed by the seed at the leaves."""
        over, winner, _, _ = self._info()
        if not over:
            return None
        return Outcome(winner, "leaf", "a leaf of the tree")

    def legal_moves(self) -> list[Move]:
        """``m0`` .. ``m<n-1>``."""
        _, _, n, _ = self._info()
        return [TreeMove(k) for k in range(n)]

    def apply_unchecked(self, move: Move) -> TreeState:
        """Follow the branch; the same player decides again when the tree says so."""
        assert isinstance(move, TreeMove)
        _, _, _, again = self._info()
        side = self._side if again[move.k] else 1 - self._side
        return TreeState(self.game, (*self.path, move.k), side)

    def to_text(self) -> str:
        """``<spec> <path as dotted numbers or -> <side>``."""
        body = ".".join(map(str, self.path)) or "-"
        return self.game.position_text(f"{body} {self._side}")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TreeState)
            and other.path == self.path
            and other._side == self._side
            and other.game == self.game
        )

    def __hash__(self) -> int:
        return hash((self.path, self._side))


class TreeGame(Game):
    """The random tree game (tests only)."""

    name = "tree"
    title = "Random tree"
    OPTIONS = (
        Option("seed", 0, "which tree", parse=int),
        Option("depth", 6, "longest game", parse=int),
        Option("branching", 3, "most moves in a position", parse=int),
    )

    @property
    def player_names(self) -> tuple[str, str]:
        """North and South."""
        return ("North", "South")

    def initial_state(self) -> TreeState:
        """The root, North to decide."""
        return TreeState(self, (), 0)

    def parse_move(self, state: State, text: str) -> Move:
        """Read ``m<k>``."""
        assert isinstance(state, TreeState)
        t = text.strip().lower() if isinstance(text, str) else ""
        if not (t.startswith("m") and t[1:].isdigit()):
            raise InvalidMoveError(f"cannot read {text!r}: expected m<number>")
        move = TreeMove(int(t[1:]))
        if move not in state.legal_moves():
            raise IllegalMoveError(f"{text} is not legal here")
        return move

    def parse_position_body(self, body: str) -> TreeState:
        """Read ``<path> <side>`` by replaying the path."""
        parts = body.split()
        if len(parts) != 2 or parts[1] not in ("0", "1"):
            raise InvalidPositionError(f"cannot read the tree position {body!r}")
        state = self.initial_state()
        if parts[0] != "-":
            for k in parts[0].split("."):
                state = state.apply(self.parse_move(state, "m" + k))
        if state.to_move != int(parts[1]):
            raise InvalidPositionError("wrong side to move for this path")
        return state

    def render(self, state: State, *, last_move: Move | None = None) -> Text:
        """The path as text."""
        return Text(state.to_text())


def exact(state: State, attacker: int) -> int | None:
    """Reference: the fewest decisions in which ``attacker`` forces a win, or None.

    Full-tree minimax on (win, distance): the attacker picks the quickest
    win, the defender the slowest loss, and any escape (a draw or a defender
    win somewhere) makes a defender position not won.  No depth limit, no
    table: deliberately different from the solver's depth-limited AND/OR search.
    """
    outcome = state.outcome
    if outcome is not None:
        return 0 if outcome.winner == attacker else None
    results = [exact(state.apply_unchecked(m), attacker) for m in state.legal_moves()]
    if state.to_move == attacker:
        wins = [r for r in results if r is not None]
        return 1 + min(wins) if wins else None
    if any(r is None for r in results):
        return None
    return 1 + max(results)  # type: ignore[type-var]


class TreePlayouts:
    """Knowledge for the tree game with a ``playout`` hook, recording its calls.

    The hook plays uniformly at random with ``random.Random(seed)``; ``report``
    replaces the moves it says it played (for RAVE checks); ``on=False`` makes
    it answer None, as a switched-off compiled core does.
    """

    def __init__(self, on: bool = True, report: list[tuple[int, Move]] | None = None) -> None:
        self.on = on
        self.report = report
        self.calls: list[tuple[State, int, int, bool, bool]] = []

    def playout(
        self, state: State, seed: int, limit: int, weighted: bool, cutoff: bool
    ) -> tuple[float, list[tuple[int, Move]]] | None:
        """Play on from ``state`` for at most ``limit`` decisions."""
        self.calls.append((state, seed, limit, weighted, cutoff))
        if not self.on:
            return None
        rng = random.Random(seed)
        played: list[tuple[int, Move]] = []
        while state.outcome is None and len(played) < limit:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            played.append((state.to_move, move))
            state = state.apply_unchecked(move)
        outcome = state.outcome
        reward = 0.5 if outcome is None else outcome.score(0)
        return reward, played if self.report is None else list(self.report)
