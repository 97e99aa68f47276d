"""The XoBo game class: options, states, notation and rendering in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import Game, Option, Variant
from .rules import PLAYER_NAMES, TOTAL_CUBES, XoBoMove, XoBoState

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from ...core.teaching import Teaching

__all__ = ["XoBo"]


class XoBo(Game[XoBoState, XoBoMove]):
    """XoBo / Kholodnaya Voyna (Vincent Everaert, 2000): connect your edges with single cubes.

    North-South (player 0, moves first) connects rows 9 and 1, East-West
    (player 1) columns a and i, with 36 neutral cubes.  Options (the
    default follows the XoBo write-up of the seed, the other value its
    ten-point Kholodnaya Voyna rules):

    - ``stack``: ``"any"`` (a stack gathers a run of three cubes or more) or
      ``"three"`` (exactly three);
    - ``exhaustion``: ``"moves"`` (a player with no legal move loses) or
      ``"cubes"`` (a player left without a cube to place loses at once);
    - ``voyna``: which moves announce voyna, ``"placement"`` (only placing a
      cube, as the XoBo write-up says) or ``"any-move"`` (any move, the
      ten-point rules' "dernier coup"); by default ``"any-move"`` for the
      ten-point rules as a whole (``stack=three,exhaustion=cubes``) and
      ``"placement"`` otherwise.

    >>> from tablier.games import get
    >>> game = get("xobo")
    >>> state = game.initial_state()
    >>> state = state.apply(game.parse_move(state, "e5"))
    >>> state.common, state.to_move
    (35, 1)
    >>> game.spec
    'xobo:stack=any,exhaustion=moves,voyna=placement'
    >>> get("xobo", stack="three", exhaustion="cubes").spec
    'xobo:stack=three,exhaustion=cubes,voyna=any-move'
    """

    name = "xobo"
    title = "XoBo / Kholodnaya Voyna"
    difficulty = 2
    VARIANTS = (
        Variant("xobo"),
        Variant("ten-point", {"stack": "three", "exhaustion": "cubes"}),
    )
    OPTIONS = (
        Option(
            "stack",
            "any",
            "cubes gathered by a stacking: any run of three or more (XoBo) or exactly three "
            "(Kholodnaya Voyna ten-point rules)",
            choices=("any", "three"),
        ),
        Option(
            "exhaustion",
            "moves",
            "who loses by exhaustion: a player with no legal move (XoBo) or a player left "
            "without a cube to place, at once (Kholodnaya Voyna ten-point rules)",
            choices=("moves", "cubes"),
        ),
        Option(
            "voyna",
            None,
            "which moves announce voyna: only a placement (XoBo) or any move (Kholodnaya "
            "Voyna ten-point rules); default: any-move with stack=three,exhaustion=cubes, "
            "else placement",
            choices=("placement", "any-move"),
        ),
    )

    def _resolve_options(self, values: dict[str, Any]) -> dict[str, Any]:
        self.stack_three: bool = values["stack"] == "three"
        self.exhaustion_cubes: bool = values["exhaustion"] == "cubes"
        if values["voyna"] is None:
            ten_point = self.stack_three and self.exhaustion_cubes
            values["voyna"] = "any-move" if ten_point else "placement"
        self.voyna_placement: bool = values["voyna"] == "placement"
        return values

    @property
    def player_names(self) -> tuple[str, str]:
        """``("North-South", "East-West")``; North-South moves first."""
        return PLAYER_NAMES

    @classmethod
    def example_options(cls) -> list[dict[str, Any]]:
        """Every combination of ``stack`` and ``exhaustion`` with its default ``voyna``, and
        both rule sets (XoBo, the ten-point rules) with the other reading of ``voyna``."""
        return [
            *(
                {"stack": stack, "exhaustion": exhaustion}
                for stack in ("any", "three")
                for exhaustion in ("moves", "cubes")
            ),
            {"stack": "any", "exhaustion": "moves", "voyna": "any-move"},
            {"stack": "three", "exhaustion": "cubes", "voyna": "placement"},
        ]

    # -- hooks (see :class:`~tablier.core.game.Game`) ------------------------------------

    @classmethod
    def knowledge(cls) -> object:
        """The AI knowledge of XoBo: ``games/xobo/ai.py``."""
        from . import ai

        return ai

    @classmethod
    def teaching(cls) -> Teaching:
        """XoBo's rules page and tutorial: ``games/xobo/teaching.py``."""
        from .teaching import TEACHING

        return TEACHING

    @classmethod
    def actions(cls) -> object:
        """The action encoding of XoBo (research): ``games/xobo/actions.py``."""
        from . import actions

        return actions

    @classmethod
    def engine(cls) -> str:
        """``"compiled"`` when XoBo's compiled core (``_native.c``) is in use, else why not."""
        from ...core.native import engine_status

        return engine_status("tablier.games.xobo._native")

    def initial_state(self) -> XoBoState:
        """The empty board, 36 cubes in the common reserve, North-South to move."""
        return XoBoState(self, 0, 0, 0, TOTAL_CUBES, (0, 0), 0)

    def parse_move(self, state: XoBoState, text: str) -> XoBoMove:
        """Read ``e5``, ``a4->c4`` or ``g6xf5``, each optionally followed by ``(v)``."""
        from .notation import parse_move

        return parse_move(self, state, text)

    def move_text(self, state: XoBoState, move: XoBoMove) -> str:
        """``move`` as the seed writes it in a game, with `` (v)`` when it announces voyna."""
        from .notation import move_text

        return move_text(state, move)

    def position_body(self, state: XoBoState) -> str:
        """The body of ``state``'s position string (written by ``notation.py``)."""
        from .notation import position_body

        return position_body(state)

    def parse_position_body(self, body: str) -> XoBoState:
        """Read the body of a position string (see ``docs/rules/xobo.md``)."""
        from .notation import parse_position_body

        return parse_position_body(self, body)

    def state_view(self, state: XoBoState) -> dict[str, Any]:
        """The core view plus the board, reserves and voyna (see ``games/xobo/view.py``)."""
        from .view import state_view

        return state_view(self, state, super().state_view(state))

    def move_view(self, state: XoBoState, move: XoBoMove) -> dict[str, Any]:
        """Notation, kind, cells, run or direction of ``move`` (see ``games/xobo/view.py``)."""
        from .view import move_view

        return move_view(self, state, move, self.move_text(state, move))

    def render(self, state: XoBoState, *, last_move: XoBoMove | None = None) -> Text:
        """The board as a rich Text: coordinates, heights, reserves, voyna, last move."""
        from .render import render

        return render(self, state, last_move)
