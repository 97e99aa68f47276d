"""The Volo game: options, setup, positions and the entry points of the protocol."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...core.errors import N_, InvalidPositionError, Message
from ...core.game import Game, Option, Outcome, Variant
from .board import BOARDS, VoloBoard, board_for
from .rules import PLAYER_NAMES, PLAYERS, VoloMove, VoloState

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from ...core.teaching import Teaching

__all__ = ["Volo"]


def _check_supply(value: Any) -> Message | None:
    if not isinstance(value, int) or isinstance(value, bool) or not 3 <= value <= 200:
        return Message(N_("the number of birds per player must be a whole number from 3 to 200"))
    return None


class Volo(Game[VoloState, VoloMove]):
    """Volo by Dieter Stein: gather all your birds into one flock.

    Options:

    - ``board``: ``"standard"`` (edge 7, 120 cells) or ``"mini"`` (edge 6, 84 cells);
    - ``edition``: ``"current"`` (optional pass, two passes draw) or ``"2010"``
      (pass only when nothing is possible; when both cannot play, the last to act wins);
    - ``setup``: ``"nests"`` (one step in from each missing corner) or ``"centre"``
      (the six cells around the missing centre);
    - ``supply``: birds per player including the three set up (default 60, or 50 on
      the mini board).

    >>> from tablier.games import get
    >>> game = get("volo", board="mini")
    >>> state = game.initial_state()
    >>> sorted(state.birds(0))
    ['b2', 'f10', 'j6']
    """

    name = "volo"
    title = "Volo"
    difficulty = 1
    VARIANTS = (
        Variant("standard"),
        Variant("mini", {"board": "mini"}),
        Variant("2010", {"edition": "2010"}),
    )
    OPTIONS = (
        Option(
            "board",
            "standard",
            "the sky: standard (edge 7) or mini (edge 6)",
            choices=tuple(BOARDS),
        ),
        Option(
            "edition",
            "current",
            "pass rule: current (English/Japanese) or 2010 (French)",
            choices=("current", "2010"),
        ),
        Option(
            "setup",
            "nests",
            "starting cells: nests (next to the corners) or centre",
            choices=("nests", "centre"),
        ),
        Option(
            "supply",
            None,
            "birds per player including the three set up (default: 60 standard, 50 mini)",
            parse=int,
            check=_check_supply,
        ),
    )

    def _resolve_options(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["supply"] is None:
            values["supply"] = 60 if values["board"] == "standard" else 50
        self.board: VoloBoard = board_for(values["board"])
        self.grid = self.board.grid
        self.total: int = values["supply"]
        self.optional_pass: bool = values["edition"] == "current"
        return values

    @property
    def player_names(self) -> tuple[str, str]:
        """``("Orange", "Blue")``; Orange moves first."""
        return PLAYER_NAMES

    @property
    def cells(self) -> tuple[str, ...]:
        """The labels of every cell of the board (row by row, from a1's row up)."""
        return tuple(self.grid.label(i) for i in self.board.cells)

    @classmethod
    def example_options(cls) -> list[dict[str, Any]]:
        """Both boards with both editions, plus the centre setup and a small supply."""
        return [
            {"board": "standard", "edition": "current"},
            {"board": "standard", "edition": "2010"},
            {"board": "mini", "edition": "current"},
            {"board": "mini", "edition": "2010"},
            {"board": "mini", "setup": "centre", "supply": 12},
        ]

    # -- hooks (see :class:`~tablier.core.game.Game`) ------------------------------------

    @classmethod
    def knowledge(cls) -> object:
        """The AI knowledge of Volo: ``games/volo/ai.py``."""
        from . import ai

        return ai

    @classmethod
    def teaching(cls) -> Teaching:
        """Volo's rules page and tutorial: ``games/volo/teaching.py``."""
        from .teaching import TEACHING

        return TEACHING

    @classmethod
    def actions(cls) -> object:
        """The action encoding of Volo (research): ``games/volo/actions.py``."""
        from . import actions

        return actions

    @classmethod
    def engine(cls) -> str:
        """``"compiled"`` when Volo's compiled core (``_native.c``) is in use, else why not."""
        from ...core.native import engine_status

        return engine_status("tablier.games.volo._native")

    # -- states -------------------------------------------------------------------------

    def initial_state(self) -> VoloState:
        """Three birds each on their starting cells, Orange to move."""
        setup = self._options["setup"]
        b0 = self.board.setup_mask(setup, 0)
        b1 = self.board.setup_mask(setup, 1)
        return VoloState(self, b0, b1, 0, self.total - 3, self.total - 3, 0, None)

    def position(
        self,
        birds0: Iterable[str],
        birds1: Iterable[str],
        to_move: int = 0,
        supply: tuple[int, int] | None = None,
        passes: int = 0,
    ) -> VoloState:
        """Build a position from cell labels (for puzzles and tests).

        ``supply`` defaults to each side's total minus its birds on the board.
        The position is checked like a parsed one (see :meth:`make_state`).
        """
        masks = []
        for player, labels in enumerate((birds0, birds1)):
            m = 0
            for text in labels:
                i = self.grid.parse_label(text)
                if i is None:
                    raise InvalidPositionError(
                        N_("{text} is not a cell of the {board} board"),
                        text=repr(text),
                        board=self.board.name,
                    )
                if m >> i & 1:
                    raise InvalidPositionError(
                        N_("{cell} is given twice for {player}"),
                        cell=text,
                        player=PLAYERS[player],
                    )
                m |= 1 << i
            masks.append(m)
        if supply is None:
            supply = (self.total - masks[0].bit_count(), self.total - masks[1].bit_count())
        return self.make_state(masks[0], masks[1], to_move, supply[0], supply[1], passes)

    def make_state(
        self, b0: int, b1: int, to_move: int, s0: int, s1: int, passes: int
    ) -> VoloState:
        """Check a position and build its state, with its outcome if it is over.

        Raises InvalidPositionError when the position cannot arise in a game:
        overlapping birds, a side without birds, supplies that do not add up
        to the total with the birds on the board, a side whose birds lie in
        two regions (except the loser of a winning flight, which divides
        without clearing), or a pass count other than 0, 1 or 2.
        """
        if to_move not in (0, 1):
            raise InvalidPositionError(N_("the side to move must be 0 (Orange) or 1 (Blue)"))
        if b0 & b1:
            raise InvalidPositionError(N_("a cell holds birds of both players"))
        if passes not in (0, 1, 2):
            raise InvalidPositionError(N_("the number of consecutive passes must be 0, 1 or 2"))
        grid = self.grid
        for player, (mine, supply) in enumerate(((b0, s0), (b1, s1))):
            name = PLAYERS[player]
            if mine & ~self.board.all:
                raise InvalidPositionError(N_("{player} has a bird outside the board"), player=name)
            if not mine:
                raise InvalidPositionError(N_("{player} has no bird on the board"), player=name)
            if supply < 0:
                raise InvalidPositionError(N_("{player}'s supply cannot be negative"), player=name)
            if mine.bit_count() + supply != self.total:
                raise InvalidPositionError(
                    N_(
                        "{player} has {n} birds on the board and {supply} in supply; "
                        "together they must make {total}"
                    ),
                    player=name,
                    n=mine.bit_count(),
                    supply=supply,
                    total=self.total,
                )
        outcome = None
        if passes == 2:
            outcome = self.double_pass_outcome(1 - to_move)
        else:
            last = 1 - to_move
            boards = (b0, b1)
            if grid.fill(boards[last] & -boards[last], boards[last]) == boards[last]:
                outcome = Outcome(last, "flock", f"{PLAYER_NAMES[last]}'s birds form one flock")
            elif grid.fill(boards[to_move] & -boards[to_move], boards[to_move]) == boards[to_move]:
                outcome = Outcome(
                    to_move, "opponent-flock", f"{PLAYER_NAMES[to_move]}'s birds form one flock"
                )
        # Each side's birds lie in one region: any division is cleared at once, except
        # by a winning flight, which divides without clearing (docs/rules/volo.md, R-9, R-10).
        for player, (mine, theirs) in enumerate(((b0, b1), (b1, b0))):
            if outcome is not None and outcome.reason == "flock" and outcome.winner != player:
                continue
            if grid.fill(mine & -mine, self.board.all & ~theirs) & mine != mine:
                raise InvalidPositionError(
                    N_("{player}'s birds lie in several regions, which no move can leave behind"),
                    player=PLAYERS[player],
                )
        return VoloState(self, b0, b1, to_move, s0, s1, passes, outcome)

    def double_pass_outcome(self, last_passer: int) -> Outcome:
        """The outcome after the second pass in a row, made by ``last_passer``."""
        if self.optional_pass:
            return Outcome(None, "double-pass", "both players passed in turn: the game is drawn")
        return Outcome(
            last_passer,
            "last-action",
            f"neither player can play: {PLAYER_NAMES[last_passer]}, who acted last, wins",
        )

    # -- notation ------------------------------------------------------------------------------

    def parse_move(self, state: VoloState, text: str) -> VoloMove:
        """Read a move (``e5``, ``e5-e8``, ``e5:e7-f6``, ``e5-e8/c3``, ``pass``)."""
        from .notation import parse_move

        return parse_move(self, state, text)

    def position_body(self, state: VoloState) -> str:
        """The body of ``state``'s position string (written by ``notation.py``)."""
        from .notation import position_body

        return position_body(state)

    def parse_position_body(self, body: str) -> VoloState:
        """Read the body of a position string (see ``docs/rules/volo.md``)."""
        from .notation import parse_position_body

        return parse_position_body(self, body)

    # -- views for graphical clients ------------------------------------------------------

    def state_view(self, state: VoloState) -> dict[str, Any]:
        """The core view plus the sky, birds, supplies and flocks (see ``view.py``)."""
        from .view import state_view

        return state_view(self, state, super().state_view(state))

    def move_view(self, state: VoloState, move: VoloMove) -> dict[str, Any]:
        """The notation plus kind, flying line, landing cells and region kept (see ``view.py``)."""
        from .view import move_view

        return move_view(self, state, move, self.move_text(state, move))

    def render(self, state: VoloState, *, last_move: VoloMove | None = None) -> Text:
        """The board as a rich Text, with coordinates, supplies and the last move marked."""
        from .render import render

        return render(self, state, last_move)
