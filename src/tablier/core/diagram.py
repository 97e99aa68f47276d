"""The frames of a rules diagram: its positions, replayed by the game's engine.

A :class:`~tablier.core.teaching.Diagram` is a position and steps that each may play a
move; :func:`frames` reads the position, plays every move with the engine (so a diagram
that the rules do not allow fails here, not in a reader's browser) and gives one
:class:`Frame` per picture: the diagram's own first, then one per step.  The web server
(``GET /api/teaching/<game>``) and the terminal (``tablier rules``) both draw these.

>>> from tablier.core.teaching import Diagram, Step
>>> diagram = Diagram(
...     position="volo:board=mini,edition=current,setup=nests,supply=50 "
...     "4/1o3b1/8/9/10/b6o/10/9/8/1o3b1/4 o 47 47 0",
...     caption="The mini sky at the start.",
...     steps=(Step(caption="Orange adds a bird.", move="e5", highlights=("e5",)),),
... )
>>> [(f.caption, f.move, f.highlights) for f in frames(diagram)]
[('The mini sky at the start.', None, ()), ('Orange adds a bird.', 'e5', ('e5',))]
>>> frames(Diagram(position=diagram.position, caption="", steps=(Step("", move="z9"),)))
Traceback (most recent call last):
...
tablier.core.diagram.BrokenDiagramError: step 1 ('z9') of the diagram '': ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import TablierError
from .game import State
from .teaching import Diagram

__all__ = ["BrokenDiagramError", "Frame", "frames", "read_position"]


class BrokenDiagramError(TablierError):
    """A diagram's position or one of its moves is refused by the game's engine."""


@dataclass(frozen=True)
class Frame:
    """One picture of a diagram: a position with its caption and marks.

    ``move`` is the move played to reach it from the previous frame, in the game's
    notation as the engine writes it (``None`` for the first frame, or a step that only
    changes the marks).
    """

    caption: str
    move: str | None
    state: State[Any]
    highlights: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()
    marks: tuple[str, ...] = ()


def read_position(text: str) -> State[Any]:
    """The state of a full position string (``volo:board=mini / …``), whatever the game.

    Raises :class:`BrokenDiagramError` with the engine's message when it is refused.
    """
    from .. import games as registry

    try:
        return registry.parse_position(text)
    except TablierError as exc:
        raise BrokenDiagramError(f"position {text[:80]!r}: {exc}") from exc


def frames(diagram: Diagram) -> list[Frame]:
    """Every frame of ``diagram``, each step's move played on the previous frame's state.

    Raises :class:`BrokenDiagramError` naming the step whose move the engine refuses.
    """
    state = read_position(diagram.position)
    out = [
        Frame(
            diagram.caption,
            None,
            state,
            tuple(diagram.highlights),
            tuple((a, b) for a, b in diagram.arrows),
            tuple(diagram.marks),
        )
    ]
    for number, step in enumerate(diagram.steps, 1):
        move_text = None
        if step.move is not None:
            game = state.game
            try:
                move = game.parse_move(state, step.move)
                move_text = game.move_text(state, move)
                state = state.apply(move)
            except TablierError as exc:
                raise BrokenDiagramError(
                    f"step {number} ({step.move!r}) of the diagram {diagram.caption[:60]!r}: {exc}"
                ) from exc
        out.append(
            Frame(
                step.caption,
                move_text,
                state,
                tuple(step.highlights),
                tuple((a, b) for a, b in step.arrows),
                tuple(step.marks),
            )
        )
    return out
