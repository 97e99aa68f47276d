"""Small tutorials of the tests, taught by XoBo, Volo and Voldétour in a server of their own.

``tests/web/test_learn_web.py`` starts ``tablier serve`` with these lessons installed
(:func:`install`, run in the server's process before it starts), so that the tutorial
page's mechanics are checked whatever the games' own lessons say, or before they exist.
The texts are messages of the interface's catalogs, so that they read in every language.
"""

from __future__ import annotations

from tablier.core.teaching import Lesson, LessonStep, RulesPage, Teaching
from tablier.games import game_class

XOBO_EMPTY = "xobo " + "/".join(["........."] * 9) + " ns 36/0/0 -"
VOLO_MINI = (
    "volo:board=mini,edition=current,setup=nests,supply=50 "
    "4/1o3b1/8/9/10/b6o/10/9/8/1o3b1/4 o 47 47 0"
)
VOLO_FLY = (
    "volo:board=mini,edition=current,setup=nests,supply=50 "
    "4/1o1b1b1/b7/3o5/6bo2/bo5o/10/3o5/2b5/1o3b1/4 o 43 43 0"
)
VOLDETOUR_MINI = (
    "voldetour:pieces=mini,repetition=False,max_turns=none turn=1 lords=b2,e5 black=- white=-"
)

LESSONS = {
    "xobo": Lesson(
        title="Tutorial",
        intro="Steps",
        steps=(
            LessonStep(
                key="place",
                title="Game",
                text="Moves",
                position=XOBO_EMPTY,
                task="Play",
                accept=("e5",),
                hint="Hint",
                hint_cells=("e5",),
                wrong="Try again",
                success="Well done!",
            ),
            LessonStep(
                key="read", title="Read the rules", text="Steps", position=XOBO_EMPTY, task=""
            ),
            LessonStep(
                key="answered",
                title="Opponent",
                text="Moves",
                position=XOBO_EMPTY,
                task="Play",
                accept=("d4", "f6"),
                hint_cells=("d4", "f6"),
                reply="a1",
            ),
        ),
        final_game="xobo:stack=three",
        final_text="Play",
    ),
    "volo": Lesson(
        title="Tutorial",
        intro="",
        steps=(
            LessonStep(
                key="add", title="Game", text="", position=VOLO_MINI, task="Play", accept=("c1",)
            ),
            LessonStep(
                key="fly",
                title="Moves",
                text="",
                position=VOLO_FLY,
                task="Play",
                accept=("d4-d6",),
                reply="b1",
            ),
        ),
        final_game="volo:board=mini",
    ),
    "voldetour": Lesson(
        title="Tutorial",
        intro="",
        steps=(
            LessonStep(
                key="block",
                title="Game",
                text="",
                position=VOLDETOUR_MINI,
                task="Play",
                accept=("B111",),
                then=(("B111@c1:1x1x1",),),
            ),
        ),
        final_game="voldetour:pieces=mini",
    ),
}


def teaching(name: str) -> Teaching:
    """The test tutorial of the game ``name`` (no rules page)."""
    return Teaching(rules=RulesPage(title="Rules", intro=(), sections=()), lesson=LESSONS[name])


def install() -> None:
    """Make the games teach the lessons above (in this process)."""
    for name in LESSONS:
        taught = teaching(name)
        game_class(name).teaching = classmethod(lambda cls, t=taught: t)  # type: ignore[method-assign]
