"""A tiny game used to test the generic machinery (records, perft, CLI, conformance).

"Toy" is a take-away game played on one pile of stones.  The player to move
decides one of:

* ``take 1`` or ``take 3``: remove that many stones and score them; the turn
  passes to the opponent;
* ``take 2 (+)``: remove two stones and score them; the *same* player decides
  again (a turn of several decisions), unless the pile is empty;
* ``pass``: legal while stones remain, except straight after a pass.

The game ends when the pile is empty.  Under ``rule=normal`` the higher score
wins, under ``rule=misere`` the lower score wins, and equal scores draw.  The
move notation contains a space and parentheses on purpose, like XoBo's
``e5 (v)``, so that the record reader is tested on such moves.

Position body: ``<pile>/<score0>/<score1> <side> <flag>`` where side is ``0``
or ``1`` and flag is ``p`` after a pass, else ``-``.  Example:
``toy:pile=10,rule=normal 10/0/0 0 -``.

``PlainToy`` is the same game without any option (a pile of 7, normal rule):
its spec is its bare name, ``plaintoy``, so its position strings start with a
word without a colon, e.g. ``plaintoy 7/0/0 0 -``.

The games are registered only in tests (see ``conftest.py``).
"""

from __future__ import annotations

import re

from rich.text import Text

from tablier.core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from tablier.core.game import Game, Move, Option, Outcome, State


def _check_pile(value: int) -> str | None:
    return None if 1 <= value <= 60 else "must be between 1 and 60"


class ToyMove(Move):
    """Take ``count`` stones (1-3), or pass (``count == 0``)."""

    __slots__ = ("again", "count")

    def __init__(self, count: int) -> None:
        self.count = count
        self.again = count == 2

    def __str__(self) -> str:
        if self.count == 0:
            return "pass"
        return f"take {self.count}" + (" (+)" if self.again else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToyMove) and other.count == self.count

    def __hash__(self) -> int:
        return hash(("toy", self.count))


class ToyState(State):
    """A pile, two scores, the side to move and whether the last decision was a pass."""

    __slots__ = ("_side", "game", "passed", "pile", "scores")

    def __init__(
        self, game: Toy, pile: int, scores: tuple[int, int], side: int, passed: bool
    ) -> None:
        self.game = game
        self.pile = pile
        self.scores = scores
        self._side = side
        self.passed = passed

    @property
    def to_move(self) -> int:
        """The player whose decision it is."""
        return self._side

    @property
    def outcome(self) -> Outcome | None:
        """Decided once the pile is empty."""
        if self.pile:
            return None
        a, b = self.scores
        if a == b:
            return Outcome(None, "equal", "equal scores")
        high = 0 if a > b else 1
        if self.game.misere:
            return Outcome(1 - high, "lower-score", "lower score wins")
        return Outcome(high, "higher-score", "higher score wins")

    def legal_moves(self) -> list[Move]:
        """Takes of 1..3 (at most the pile), then pass when allowed."""
        if not self.pile:
            return []
        moves: list[Move] = [ToyMove(k) for k in range(1, min(3, self.pile) + 1)]
        if not self.passed:
            moves.append(ToyMove(0))
        return moves

    def apply_unchecked(self, move: Move) -> ToyState:
        """The state after ``move``."""
        assert isinstance(move, ToyMove)
        k = move.count
        if k == 0:
            return ToyState(self.game, self.pile, self.scores, 1 - self._side, True)
        scores = list(self.scores)
        scores[self._side] += k
        pile = self.pile - k
        side = self._side if (move.again and pile) else 1 - self._side
        return ToyState(self.game, pile, (scores[0], scores[1]), side, False)

    def to_text(self) -> str:
        """``<spec> pile/score0/score1 side flag``."""
        a, b = self.scores
        flag = "p" if self.passed else "-"
        return self.game.position_text(f"{self.pile}/{a}/{b} {self._side} {flag}")

    def _key(self) -> tuple:
        return (self.game, self.pile, self.scores, self._side, self.passed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToyState) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())


_MOVE = re.compile(r"^take\s*(\d+)\s*(\(\s*\+\s*\))?$")
_BODY = re.compile(r"^(\d+)/(\d+)/(\d+)\s+([01])\s+([p-])$")


class Toy(Game):
    """The toy take-away game (tests only)."""

    name = "toy"
    title = "Toy take-away"
    OPTIONS = (
        Option("pile", 10, "stones on the pile at the start", parse=int, check=_check_pile),
        Option("rule", "normal", "who wins: higher score (normal) or lower", ("normal", "misere")),
    )

    def _resolve_options(self, values: dict) -> dict:
        self.start_pile: int = values["pile"]
        self.misere: bool = values["rule"] == "misere"
        return values

    @property
    def player_names(self) -> tuple[str, str]:
        """Red and Green."""
        return ("Red", "Green")

    @classmethod
    def example_options(cls) -> list[dict]:
        """Both rules and a small odd pile."""
        return [{}, {"rule": "misere"}, {"pile": 5}]

    def initial_state(self) -> ToyState:
        """Full pile, no scores, Red to move."""
        return ToyState(self, self.start_pile, (0, 0), 0, False)

    def parse_move(self, state: State, text: str) -> Move:
        """Read ``take N``, ``take 2 (+)`` or ``pass``."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        assert isinstance(state, ToyState)
        norm = " ".join(text.lower().split())
        if norm == "pass":
            move = ToyMove(0)
        else:
            m = _MOVE.match(norm)
            if not m:
                raise InvalidMoveError(f"cannot read {text!r}: expected 'take N' or 'pass'")
            k = int(m.group(1))
            if not 1 <= k <= 3:
                raise InvalidMoveError(f"cannot take {k} stones: take 1, 2 or 3")
            move = ToyMove(k)
            if m.group(2) and not move.again:
                raise IllegalMoveError(f"take {k} does not give another decision")
        if state.outcome is not None:
            raise IllegalMoveError("the game is over")
        if move.count > state.pile:
            raise IllegalMoveError(f"only {state.pile} stones are left")
        if move.count == 0 and state.passed:
            raise IllegalMoveError("no pass straight after a pass")
        return move

    def parse_position_body(self, body: str) -> ToyState:
        """Read ``pile/score0/score1 side flag``."""
        m = _BODY.match(body.strip().lower())
        if not m:
            raise InvalidPositionError(f"cannot read the toy position {body!r}")
        pile, a, b = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if pile + a + b != self.start_pile:
            raise InvalidPositionError("pile and scores do not add up to the starting pile")
        return ToyState(self, pile, (a, b), int(m.group(4)), m.group(5) == "p")

    def render(self, state: State, *, last_move: Move | None = None) -> Text:
        """The pile as dots and the scores."""
        assert isinstance(state, ToyState)
        text = Text()
        text.append("pile: " + "o" * state.pile + f" ({state.pile})\n", style="bold")
        for p in (0, 1):
            text.append(f"{self.player_names[p]}: {state.scores[p]}\n")
        if last_move is not None:
            text.append(f"last: {last_move}\n", style="italic")
        return text


class PlainToy(Toy):
    """The toy game without options (tests only): a pile of 7, the higher score wins."""

    name = "plaintoy"
    title = "Toy take-away, no options"
    OPTIONS = ()

    def _resolve_options(self, values: dict) -> dict:
        self.start_pile = 7
        self.misere = False
        return values

    @classmethod
    def example_options(cls) -> list[dict]:
        """The only option set: none."""
        return [{}]
