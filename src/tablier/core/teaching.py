"""What a game declares to teach itself: its rules page and its tutorial.

A game returns a :class:`Teaching` from its :meth:`Game.teaching
<tablier.core.game.Game.teaching>` hook (the built-in games keep it in
``games/<name>/teaching.py``).  Everything here is data: the server, the browser
client and the terminal draw it without knowing the game.

Texts are English message ids, marked with :func:`N_` so that extraction finds them;
their French and Japanese translations live in the game's own catalogs
(``games/<name>/locale/<lang>/LC_MESSAGES/<name>.po``).  A text may use ``{name}``
placeholders only where a field says so.

Positions are position strings (``"volo:board=mini / …"``) read by the game itself, so
every diagram is a real position, checked by the tests; cells and moves are written in
the game's own notation.

>>> step = Step(caption=N_("A bird lands next to its flock."), move="e5", highlights=("e5",))
>>> step.move
'e5'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["N_", "Diagram", "Lesson", "LessonStep", "RulesPage", "Section", "Step", "Teaching"]


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogs; returns it unchanged."""
    return message


@dataclass(frozen=True)
class Step:
    """One frame of a diagram that a reader steps through.

    ``move`` (notation) is played from the previous frame's position to reach this one
    (``None``: the frame shows the same position with other marks).  ``highlights``
    are cells to light up, ``arrows`` pairs of cells ``(from, to)`` to draw an arrow
    between, ``marks`` cells to mark as wrong or forbidden (a cross).
    """

    caption: str
    move: str | None = None
    highlights: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Diagram:
    """A live, read-only board: a position, with marks, maybe a sequence of steps.

    The first frame is ``position`` with ``caption``, ``highlights``, ``arrows`` and
    ``marks``; each of ``steps`` then plays its move (if any) and shows its own marks.
    """

    position: str
    caption: str
    highlights: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()
    marks: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Section:
    """A part of the rules page: a title, paragraphs, diagrams.

    ``key`` is the section's anchor (``#placement``), stable across languages.
    ``variant`` names the edition or rule set the section belongs to when it is not the
    default game (a message id such as ``N_("Mini sky — Japanese edition")``): the page
    marks it clearly as a variant.  ``source`` cites where the rule comes from (the
    seed and the section of ``docs/rules/<game>.md``), shown small under the section.
    """

    key: str
    title: str
    paragraphs: tuple[str, ...]
    diagrams: tuple[Diagram, ...] = ()
    variant: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class RulesPage:
    """The whole rules of a game: an introduction, then sections in reading order."""

    title: str
    intro: tuple[str, ...]
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class LessonStep:
    """One step of a tutorial: a position, an explanation, a task checked by the engine.

    The player must play one of ``accept`` (moves in notation, from ``position``).  Any
    other legal move gets ``wrong`` as feedback; ``hint`` is shown on request, with
    ``hint_cells`` lit up.  After a right move, ``reply`` (if any) is played for the
    other side and ``success`` is shown.  A step whose task is several decisions of the
    same player (a Voldétour turn) lists them in ``then``: after the first accepted
    move, each further entry is a tuple of accepted moves for the next decision.
    ``accept`` empty means a step with nothing to play (read, then go on).
    """

    key: str
    title: str
    text: str
    position: str
    task: str
    accept: tuple[str, ...] = ()
    then: tuple[tuple[str, ...], ...] = ()
    hint: str = ""
    hint_cells: tuple[str, ...] = ()
    wrong: str = ""
    success: str = ""
    reply: str | None = None


@dataclass(frozen=True)
class Lesson:
    """A tutorial: steps in order, then a short game against the ``easy`` computer.

    ``final_game`` is the game spec of that last game (a small board or short option
    set where the game has one).
    """

    title: str
    intro: str
    steps: tuple[LessonStep, ...]
    final_game: str
    final_text: str = ""


@dataclass(frozen=True)
class Teaching:
    """What a game declares to teach itself (:meth:`Game.teaching`)."""

    rules: RulesPage
    lesson: Lesson
    summary: str = ""  # one sentence: what the game is (the lobby's card)
