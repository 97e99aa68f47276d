"""The game-independent core of the research interfaces: moves as steps of one action space.

A game's action encoding (the module or object its :meth:`Game.actions
<tablier.core.game.Game.actions>` declares) encodes every legal move of a state as a short
tuple of action ids (one id for most moves; a few consecutive ids of the
same player where the move space is huge).  :class:`Stepper` plays such
steps: it keeps the *pending* ids of a move not yet complete, says which ids
may come next (the action mask) and applies the move once its last id is
given.  No code here asks which game it handles.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.errors import IllegalMoveError, InvalidMoveError, TablierError
from ..core.game import Game, Move, State

__all__ = ["Stepper", "actions_for", "ansi_text", "rgb_picture"]

_REQUIRED = (
    "num_actions",
    "encode",
    "decode",
    "observation_shape",
    "plane_names",
    "observation_planes",
    "cell_colours",
)

_MODULES: dict[type[Game], Any] = {}


def actions_for(game: Game) -> Any:
    """The action encoding ``game``'s class declares (:meth:`Game.actions`).

    Raises TablierError when the game declares none, or one that lacks a name
    of the interface (see ``docs/research.md``).

    >>> from tablier.games import get
    >>> actions_for(get("volo")).__name__
    'tablier.games.volo.actions'
    """
    cls = type(game)
    module = _MODULES.get(cls)
    if module is None:
        module = cls.actions()
        if module is None:
            raise TablierError(
                f"{game.name} declares no action encoding (Game.actions); "
                "the research interfaces need one"
            )
        missing = [n for n in _REQUIRED if not hasattr(module, n)]
        if missing:
            where = getattr(module, "__name__", type(module).__name__)
            raise TablierError(
                f"the action encoding of {game.name} ({where}) lacks {', '.join(missing)}"
            )
        _MODULES[cls] = module
    return module


class Stepper:
    """Moves of one game as steps of a fixed discrete action space.

    >>> from tablier.games import get
    >>> stepper = Stepper(get("xobo"))
    >>> state = stepper.game.initial_state()
    >>> ids = stepper.next_ids(state, ())
    >>> state2, pending = stepper.advance(state, (), ids[0])
    >>> pending
    ()
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.codec = actions_for(game)
        self.num_actions: int = int(self.codec.num_actions(game))
        self.observation_shape: tuple[int, ...] = tuple(self.codec.observation_shape(game))
        self._cache_state: State | None = None
        self._cache: list[tuple[tuple[int, ...], Move]] = []

    def __reduce__(self) -> tuple:
        return (Stepper, (self.game,))

    def __deepcopy__(self, memo: dict) -> Stepper:
        # Shared by copies of the environments and states that use it (OpenSpiel clones).
        return self

    def encodings(self, state: State) -> list[tuple[tuple[int, ...], Move]]:
        """``(steps, move)`` for every legal move of ``state`` (the last state is cached)."""
        if self._cache_state is not state:
            encode = self.codec.encode
            self._cache = [(tuple(encode(state, m)), m) for m in state.legal_moves()]
            self._cache_state = state
        return self._cache

    def next_ids(self, state: State, pending: Sequence[int]) -> list[int]:
        """The ids that may follow ``pending`` in ``state``, sorted (empty once it is over)."""
        k = len(pending)
        pre = tuple(pending)
        return sorted({steps[k] for steps, _ in self.encodings(state) if steps[:k] == pre})

    def mask(self, state: State, pending: Sequence[int]) -> np.ndarray:
        """The action mask (int8, 1 for each id that may come next)."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        ids = self.next_ids(state, pending)
        if ids:
            out[ids] = 1
        return out

    def advance(
        self, state: State, pending: Sequence[int], action: int
    ) -> tuple[State, tuple[int, ...]]:
        """Give the next id: ``(new state, ())`` once a move is complete, else
        ``(state, longer pending)``.

        Raises InvalidMoveError for an id outside the action space and
        IllegalMoveError for one that no legal move continues with; nothing changes then.
        """
        new_state, new_pending, _ = self.play(state, pending, action)
        return new_state, new_pending

    def play(
        self, state: State, pending: Sequence[int], action: Any
    ) -> tuple[State, tuple[int, ...], Move | None]:
        """Like :meth:`advance`, and also the move completed (None while it is pending).

        ``action`` may be any value: anything but a whole number of the action space
        (``None`` included) raises InvalidMoveError.
        """
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise InvalidMoveError(f"an action is a whole number, not {action!r}") from None
        if a != action or not 0 <= a < self.num_actions:
            raise InvalidMoveError(
                f"action {action!r} is outside the action space 0..{self.num_actions - 1}"
            )
        if state.is_terminal:
            raise IllegalMoveError("the game is over: no action is legal")
        steps = (*pending, a)
        k = len(steps)
        longer = False
        for enc, move in self.encodings(state):
            if enc == steps:
                return state.apply_unchecked(move), (), move
            if enc[:k] == steps:
                longer = True
        if longer:
            return state, steps, None
        legal = self.next_ids(state, pending)
        raise IllegalMoveError(
            f"action {a} is not legal here (after pending steps {list(pending)}; "
            f"{len(legal)} legal actions, e.g. {legal[:8]})"
        )

    def observation(self, state: State, player: int, pending: Sequence[int] = ()) -> np.ndarray:
        """The observation planes of ``state`` from ``player``'s side (float32)."""
        obs = self.codec.observation_planes(state, player, tuple(pending))
        return np.asarray(obs, dtype=np.float32)


def ansi_text(game: Game, state: State, last_move: Move | None = None) -> str:
    """The game's own text rendering of ``state``, as plain text."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system=None, highlight=False)
    console.print(game.render(state, last_move=last_move))
    return buffer.getvalue()


def rgb_picture(game: Game, state: State, scale: int = 16) -> np.ndarray:
    """A picture of the board (``uint8``, height x width x 3): the game's cell colours,
    each pixel blown up to ``scale`` x ``scale`` with a thin grid line."""
    small = np.asarray(actions_for(game).cell_colours(state), dtype=np.uint8)
    big = np.repeat(np.repeat(small, scale, axis=0), scale, axis=1)
    big[::scale, :, :] = 90
    big[:, ::scale, :] = 90
    return np.ascontiguousarray(big)
