"""A small stand-in :class:`~tablier.core.teaching.Teaching` for tests of the pages.

The rules pages, their API and ``tablier rules`` are tested on any game: the built-in games
with their own teaching once they declare it, and here a fake one built from a game's
start position and its first legal moves (so it is always a real, replayable diagram).
Its texts are messages of the interface's catalog, so that their French and Japanese are
known: ``Page not found`` is ``Page introuvable`` and ``ページが見つかりません``.

``TaughtToy`` is the toy game (``toygame.py``) with that teaching; :func:`install` gives it to
every registered game that declares none (the browser tests' server calls it at start).
"""

from __future__ import annotations

from typing import Any

import tablier.games
from core.toygame import Toy
from tablier.core.game import Game
from tablier.core.teaching import Diagram, Lesson, LessonStep, RulesPage, Section, Step, Teaching

#: Cells each game's notation names, lit in the fake diagrams.
CELLS = {"volo": ("e5", "d4"), "xobo": ("e5", "d4"), "voldetour": ("c2", "d3")}


def fake_teaching(game: Game[Any, Any]) -> Teaching:
    """Two sections (one a variant), a diagram of three frames, a one-step lesson."""
    state = game.initial_state()
    start = state.to_text()
    first = state.legal_moves()[0]
    first_text = game.move_text(state, first)
    after = state.apply(first)
    second_text = game.move_text(after, after.legal_moves()[0])
    a, b = CELLS.get(game.name, ("", ""))
    lit = tuple(c for c in (a,) if c)
    arrow = ((a, b),) if a and b else ()
    crossed = tuple(c for c in (b,) if c)
    diagram = Diagram(
        position=start,
        caption="Page not found",
        highlights=lit,
        arrows=arrow,
        steps=(
            Step(caption="Game not found", move=first_text, marks=crossed),
            Step(caption="Back to the lobby", move=second_text, highlights=lit),
        ),
    )
    rules = RulesPage(
        title="Page not found",
        intro=("Back to the lobby",),
        sections=(
            Section("start", "Game not found", ("Back to the lobby",), (diagram,)),
            Section(
                "variant",
                "Page not found",
                ("Game not found",),
                (Diagram(position=start, caption="Page not found", marks=crossed),),
                variant="Back to the lobby",
                source="seed 000",
            ),
        ),
    )
    lesson = Lesson(
        title="Page not found",
        intro="Back to the lobby",
        steps=(
            LessonStep(
                key="first",
                title="Game not found",
                text="Back to the lobby",
                position=start,
                task="Page not found",
                accept=(first_text,),
                hint="Game not found",
                hint_cells=lit,
            ),
        ),
        final_game=game.spec,
    )
    return Teaching(rules=rules, lesson=lesson, summary="Page not found")


class TaughtToy(Toy):
    """The toy game with the fake teaching."""

    name = "taughttoy"
    title = "Toy with rules"

    @classmethod
    def teaching(cls) -> Teaching:
        """The fake teaching on a pile of 10."""
        return fake_teaching(cls())


def install() -> list[str]:
    """Give the fake teaching to every registered game without one; the games patched."""
    patched = []
    for name in tablier.games.names():
        cls = tablier.games.game_class(name)
        if cls.teaching() is None:
            cls.teaching = classmethod(lambda c: fake_teaching(c()))  # type: ignore[method-assign,assignment]
            patched.append(name)
    return patched
