"""The Voldetour game class: options and setup; notation, views and rendering are delegated.

The rules live in ``rules.py``, the readers in ``notation.py``, the terminal
rendering in ``render.py`` and the web views in ``view.py``; this class ties them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from rich.text import Text

from ...core.errors import N_, Message
from ...core.game import Game, Option, Variant
from ...core.teaching import Teaching
from . import notation, render, view
from .pieceset import PieceSet, available_sets, load_set
from .rules import PLAYER_NAMES, VMove, VState

__all__ = ["Voldetour"]

_BOOL = {
    "on": True,
    "true": True,
    "yes": True,
    "1": True,
    "off": False,
    "false": False,
    "no": False,
    "0": False,
}


def _parse_bool(text: str) -> bool:
    try:
        return _BOOL[text.strip().lower()]
    except KeyError:
        raise ValueError(text) from None


def _check_bool(value: Any) -> Message | None:
    return None if isinstance(value, bool) else Message(N_("must be on or off"))


def _check_turns(value: Any) -> Message | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return Message(N_("the move limit must be a whole number of turns, at least 1"))
    return None


class Voldetour(Game[VState, VMove]):
    """Voldetour: build 3D paths of blocks and stairs and walk your Lord to the enemy tower.

    Options:

    - ``pieces``: the piece set (a file in ``pieces/``; ``default`` is the
      project's reading of the seed, ``mini`` a small 6 x 6 set for quick games);
    - ``repetition``: ``on`` to draw when the same position starts a turn a
      third time (off by default; the seed has no such rule);
    - ``max_turns``: a draw once that many turns are played (off by default).

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.initial_state()
    >>> state = state.apply(game.parse_move(state, "B113"))
    >>> state = state.apply(game.parse_move(state, "B113@b3:1x1x3"))
    >>> str(game.parse_move(state, "Lb3"))
    'Lb2-b3'
    """

    name = "voldetour"
    title = "Voldétour"
    difficulty = 3
    VARIANTS = (Variant("standard"), Variant("mini", {"pieces": "mini"}))
    OPTIONS = (
        Option(
            "pieces",
            "default",
            "the piece set: default (the project's reading of the seed) or mini",
            choices=available_sets(),
        ),
        Option(
            "repetition",
            False,
            "draw when a position starts a turn for the third time (on/off)",
            parse=_parse_bool,
            check=_check_bool,
        ),
        Option(
            "max_turns",
            None,
            "draw after this many turns (none: no limit)",
            parse=int,
            check=_check_turns,
        ),
    )

    def _resolve_options(self, values: dict[str, Any]) -> dict[str, Any]:
        self.pieceset: PieceSet = load_set(values["pieces"])
        self.repetition: bool = bool(values["repetition"])
        self.max_turns: int | None = values["max_turns"]
        return values

    @property
    def player_names(self) -> tuple[str, str]:
        """``("Black", "White")``; Black starts."""
        return PLAYER_NAMES

    @classmethod
    def example_options(cls) -> list[dict[str, Any]]:
        """The default set, the mini set, and both draw options switched on."""
        return [
            {},
            {"pieces": "mini"},
            {"repetition": True, "max_turns": 40},
            {"pieces": "mini", "repetition": True, "max_turns": 30},
        ]

    # -- hooks (see :class:`~tablier.core.game.Game`) ------------------------------------

    @classmethod
    def knowledge(cls) -> object:
        """The AI knowledge of Voldetour: ``games/voldetour/ai.py``."""
        from . import ai

        return ai

    @classmethod
    def actions(cls) -> object:
        """The action encoding of Voldetour (research): ``games/voldetour/actions.py``."""
        from . import actions

        return actions

    @classmethod
    def teaching(cls) -> Teaching:
        """Voldetour's rules page and tutorial: ``games/voldetour/teaching.py``."""
        from .teaching import TEACHING

        return TEACHING

    @classmethod
    def engine(cls) -> str:
        """``"compiled"`` when Voldetour's compiled core (``_native.c``) is in use, else why not."""
        from ...core.native import engine_status

        return engine_status("tablier.games.voldetour._native")

    # -- states -------------------------------------------------------------------------

    def initial_state(self) -> VState:
        """Every construction piece in reserve, each Lord on its tower, Black to move."""
        ps = self.pieceset
        state = VState(self, (None,) * (2 * len(ps.blocks)), ((), ()), ps.towers, 1)
        if self.repetition:
            state = replace(state, history=(state.repetition_key(),))
        return state

    def position(
        self,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        lords: tuple[str, str] | None = None,
        turn: int = 1,
    ) -> VState:
        """Build a start-of-turn position from put notations (for puzzles and tests).

        ``black`` and ``white`` list each side's pieces on the board, e.g.
        ``["B113@c3:1x1x3", "S@d3:e"]``; ``lords`` gives the Lords' squares
        (default: on their towers).  The position is checked like a parsed one.
        """
        words = [f"turn={turn}"]
        if lords is not None:
            words.append(f"lords={lords[0]},{lords[1]}")
        words.append("black=" + (",".join(black) or "-"))
        words.append("white=" + (",".join(white) or "-"))
        return self.parse_position_body(" ".join(words))

    # -- notation and position strings ------------------------------------------------

    def parse_move(self, state: VState, text: str) -> VMove:
        """Read a decision in Voldetour notation and return the matching legal move.

        Raises InvalidMoveError for unreadable text, IllegalMoveError (with the
        reason) for a decision the rules forbid, GameOverError once the game is over
        (see ``notation.py``).
        """
        return notation.parse_move(self, state, text)

    def parse_position_body(self, body: str) -> VState:
        """Read a position body written by :meth:`VState.body` and check it.

        Raises InvalidPositionError, saying what is wrong, for anything that
        cannot be read or cannot arise (overlaps, floating pieces, pieces on a
        tower or above it, an upside-down stair not nested, a Lord on a slope...).
        """
        return notation.parse_position_body(self, body)

    # -- views for graphical clients ------------------------------------------------------

    def state_view(self, state: VState) -> dict[str, Any]:
        """The core view with the 3D board, reserves and turn progress (see ``view.py``)."""
        return view.state_view(self, state, super().state_view(state))

    def move_view(self, state: VState, move: VMove) -> dict[str, Any]:
        """The core move view with the piece, placement or Lord path (see ``view.py``)."""
        return view.move_view(self, state, move, super().move_view(state, move))

    # -- rendering ------------------------------------------------------------------------

    def render(self, state: VState, *, last_move: VMove | None = None) -> Text:
        """A height map: each square shows its height and a mark, with coordinates.

        Marks: ``.`` flat, ``^ > v <`` a slope rising north/east/south/west
        (the digit is its lower level), ``#`` a tower, ``B``/``W`` a Lord.
        The colour is the owner of the top piece.  Reserves follow (see ``render.py``).
        """
        return render.render(self, state, last_move=last_move)
