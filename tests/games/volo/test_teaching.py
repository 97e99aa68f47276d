"""Volo's rules page and tutorial: real positions, legal steps, tasks checked by the engine.

Every diagram and lesson position is read by the game, every step's move is played from
the previous frame, every marked cell is a cell of the board; each lesson step's accepted
moves are exactly the legal moves that do what its task says (computed here with the
engine), and the catalogs translate every text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tablier.core.teaching import Diagram, LessonStep
from tablier.games import from_spec
from tablier.games.volo import teaching as t
from tablier.games.volo.game import Volo
from tablier.games.volo.rules import VoloMove, VoloState

# The engine-dependent tests run on the compiled core and on the pure engine (conftest.py).
engine_tests = pytest.mark.usefixtures("engine")

LOCALE = Path(t.__file__).parent / "locale"
SECTIONS = {s.key: s for s in t.RULES.sections}
STEPS = {s.key: s for s in t.LESSON.steps}


def read(text: str) -> VoloState:
    """The position of a position string, read by the game its spec names."""
    game = from_spec(text.split(" ", 1)[0])
    assert isinstance(game, Volo)
    return game.parse_position(text)


def texts(moves: list[VoloMove]) -> set[str]:
    return {str(m) for m in moves}


def all_diagrams() -> list[tuple[str, Diagram]]:
    return [(f"{s.key}-{i}", d) for s in t.RULES.sections for i, d in enumerate(s.diagrams)]


# -- the rules page --------------------------------------------------------------------


def test_hook_returns_the_teaching() -> None:
    assert Volo.teaching() is t.TEACHING
    assert t.TEACHING.summary


def test_sections_cover_the_issue_list() -> None:
    # Issue 13, point 1, for Volo: the placement restrictions, one bird's eight flights,
    # the three-bird line's five flights, the four-bird flock's one rearrangement, three
    # regions and the choice to clear, the winning flock, the blocked situation of the
    # pass rule; variants: the mini board and the 2010 pass rule.
    required = {
        "material",
        "setup",
        "turn",
        "placement",
        "flight",
        "lines",
        "rearrange",
        "regions",
        "winning",
        "pass",
        "mini",
        "pass-2010",
    }
    assert required <= set(SECTIONS)
    assert len(SECTIONS) == len(t.RULES.sections)  # keys are unique anchors
    assert SECTIONS["mini"].variant and SECTIONS["pass-2010"].variant
    assert all(s.variant is None for k, s in SECTIONS.items() if k not in {"mini", "pass-2010"})
    for section in t.RULES.sections:
        assert section.diagrams, section.key  # every rule has a live diagram
        assert section.source and "docs/rules/volo.md" in section.source


@engine_tests
@pytest.mark.parametrize(
    ("name", "diagram"), all_diagrams(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_diagram_positions_and_steps(name: str, diagram: Diagram) -> None:
    state = read(diagram.position)
    assert state.to_text() == diagram.position  # written as the engine writes it
    game = state.game
    cells = set(game.cells)
    frames: list[tuple[tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, ...]]] = [
        (diagram.highlights, diagram.arrows, diagram.marks)
    ]
    for step in diagram.steps:
        if step.move is not None:
            assert state.outcome is None, name
            move = game.parse_move(state, step.move)
            assert str(move) == step.move  # in the engine's own notation
            state = state.apply(move)
        frames.append((step.highlights, step.arrows, step.marks))
    for highlights, arrows, marks in frames:
        for cell in (*highlights, *marks, *(c for a in arrows for c in a)):
            assert cell in cells, (name, cell)


@engine_tests
def test_setup_nests() -> None:
    diagram = SECTIONS["setup"].diagrams[0]
    state = read(diagram.position)
    assert state == Volo().initial_state()
    assert set(diagram.highlights) == state.birds(0) | state.birds(1)
    mini, centre = SECTIONS["mini"].diagrams
    assert read(mini.position) == Volo(board="mini").initial_state()
    assert set(mini.highlights) == read(mini.position).birds(0) | read(mini.position).birds(1)
    centre_state = read(centre.position)
    assert centre_state == Volo(board="mini", setup="centre").initial_state()
    assert set(centre.highlights) == centre_state.birds(0) | centre_state.birds(1)


@engine_tests
def test_placement_marks_are_exactly_the_forbidden_cells() -> None:
    diagram = SECTIONS["placement"].diagrams[0]
    state = read(diagram.position)
    places = {m.target[0] for m in state.legal_moves() if m.kind == "place"}
    empty = set(state.game.cells) - state.birds(0) - state.birds(1)
    assert set(diagram.marks) == empty - places
    assert set(t._PLACES) == places
    # Some marks touch Orange; l12, l13 and m12 are only cut off by Blue's wall.
    grid = state.game.grid
    orange = state.bitboard(0)
    for cell in ("l12", "l13", "m12"):
        assert not grid.neighbours[grid.parse_label(cell)] & orange
        assert cell in diagram.marks


@engine_tests
def test_one_bird_has_eight_flights() -> None:
    diagram = SECTIONS["flight"].diagrams[0]
    state = read(diagram.position)
    flights = {str(m) for m in state.legal_moves() if m.source == ("f5",)}
    assert len(flights) == 8
    assert flights == set(t._FLIGHTS)
    assert {
        ("f5", str(m).split("-")[1]) for m in state.legal_moves() if m.source == ("f5",)
    } == set(diagram.arrows)


@engine_tests
def test_three_bird_line_has_five_flights() -> None:
    diagram = SECTIONS["lines"].diagrams[0]
    state = read(diagram.position)
    flock = {"j8", "k9", "l10"}
    assert flock in [set(f) for f in state.flocks(0)]
    moves = [m for m in state.legal_moves() if m.source and set(m.source) <= flock]
    assert texts(moves) == set(t._LINE_FLIGHTS)
    sizes = {str(m): max(len(f) for f in state.apply(m).flocks(0)) for m in moves}
    # Side by side two or three steps: four or five birds; in file to d3: four.
    assert sizes == {
        "j8:l10-j10": 4,
        "j8:l10-j11": 5,
        "j8:l10-e3": 4,
        "j8:l10-d2": 4,
        "j8:l10-c1": 4,
    }
    assert {("j8", str(m).split("-")[1]) for m in moves} == set(diagram.arrows)
    # Without Blue's bird on i8 the line could also fly to the left (the caption says so).
    game = state.game
    freed = game.make_state(
        state.bitboard(0),
        state.bitboard(1) & ~(1 << game.grid.parse_label("i8")),
        0,
        state.supply(0),
        state.supply(1) + 1,
        0,
    )
    left = {str(m) for m in freed.legal_moves() if m.source and set(m.source) <= flock}
    assert left == set(t._LINE_FLIGHTS) | {"j8:l10-h8"}


@engine_tests
def test_four_bird_flock_has_one_rearrangement() -> None:
    state = read(SECTIONS["rearrange"].diagrams[0].position)
    flock = {"d4", "d5", "e5", "e6"}
    assert flock in [set(f) for f in state.flocks(0)]
    moves = [m for m in state.legal_moves() if m.source and set(m.source) <= flock]
    assert texts(moves) == {"e5:e6-e3"}
    after = state.apply(moves[0])
    assert {"d4", "d5", "e3", "e4", "f3"} in [set(f) for f in after.flocks(0)]


@engine_tests
def test_three_regions_and_the_choice() -> None:
    state = read(SECTIONS["regions"].diagrams[0].position)
    choices = {str(m): m for m in state.legal_moves() if str(m).startswith("e5-b2/")}
    assert set(choices) == {"e5-b2/b1", "e5-b2/a2", "e5-b2/h3"}  # three regions
    keep_b = state.apply(choices["e5-b2/b1"])  # Blue left one flock: Blue wins at once
    assert keep_b.outcome is not None and keep_b.outcome.winner == 1
    keep_a = state.apply(choices["e5-b2/a2"])  # Blue joins a2 and a4 next turn
    assert keep_a.outcome is None
    assert any(keep_a.apply(m).outcome for m in keep_a.legal_moves())
    keep_c = state.apply(choices["e5-b2/h3"])  # the safe choice, as the diagram plays it
    assert keep_c.outcome is None
    assert keep_c.birds(1) == {"h3", "k10", "e10"}
    assert keep_c.supply(1) == state.supply(1) + 3  # the birds go back to Blue
    assert not any(keep_c.apply(m).outcome for m in keep_c.legal_moves())


@engine_tests
def test_winning_flight_divides_without_clearing() -> None:
    state = read(SECTIONS["winning"].diagrams[0].position)
    after = state.apply(state.game.parse_move(state, "e5-b2"))
    assert after.outcome is not None and after.outcome.winner == 1
    assert after.outcome.reason == "flock"
    assert after.birds(0) == state.birds(0)  # nothing cleared
    assert len(after.flocks(0)) > 1


@engine_tests
def test_block_stops_the_winning_flight() -> None:
    state = read(SECTIONS["example"].diagrams[0].position)
    as_blue = state.game.make_state(
        state.bitboard(0), state.bitboard(1), 1, state.supply(0), state.supply(1), 0
    )
    threat = as_blue.apply(as_blue.game.parse_move(as_blue, "c5-g5"))
    assert threat.outcome is not None and threat.outcome.winner == 1
    blocked = state.apply(state.game.parse_move(state, "e5"))
    assert "c5-g5" not in texts(blocked.legal_moves())


@engine_tests
def test_pass_current_blocked_situation() -> None:
    state = read(SECTIONS["pass"].diagrams[0].position)
    assert texts(state.legal_moves()) == {"pass"}  # Orange must pass
    after = state.apply(state.game.parse_move(state, "pass"))
    assert after.to_text() == t.PASS_BLUE
    blue = after.legal_moves()
    assert "pass" in texts(blue)
    # Blue has no flight, and adds birds only in the lit region of its own.
    assert all(m.kind != "fly" for m in blue)
    assert {m.target[0] for m in blue if m.kind == "place"} == set(t._BLUE_OWN)
    end = after.apply(after.game.parse_move(after, "pass"))
    assert end.outcome is not None and end.outcome.winner is None
    assert end.outcome.reason == "double-pass"


@engine_tests
def test_pass_2010_last_to_act_wins() -> None:
    state = read(SECTIONS["pass-2010"].diagrams[0].position)
    assert state.game.options["edition"] == "2010"
    assert texts(state.legal_moves()) == {"pass"}
    after = state.apply(state.game.parse_move(state, "pass"))
    assert texts(after.legal_moves()) == {"pass"}
    end = after.apply(after.game.parse_move(after, "pass"))
    assert end.outcome is not None and end.outcome.winner == 0  # Orange acted last
    assert end.outcome.reason == "last-action"
    highlighted = set(SECTIONS["pass-2010"].diagrams[0].highlights)
    assert highlighted == state.birds(1)


# -- the tutorial --------------------------------------------------------------------------


def wins(state: VoloState, move: VoloMove) -> bool:
    after = state.apply(move)
    return after.outcome is not None and after.outcome.winner == state.to_move


def joins(cell: str, size: int | None = None) -> Callable[[VoloState, VoloMove], bool]:
    """The move leaves ``cell``'s bird in a flock with the birds that flew (of ``size``)."""

    def check(state: VoloState, move: VoloMove) -> bool:
        if move.kind != "fly":
            return False
        after = state.apply(move)
        for flock in after.flocks(state.to_move):
            if cell in flock and set(move.target) <= flock:
                return size is None or len(flock) == size
        return False

    return check


def from_flock(cells: set[str]) -> Callable[[VoloState, VoloMove], bool]:
    return lambda state, move: move.kind == "fly" and set(move.source) <= cells


def blocks(state: VoloState, move: VoloMove) -> bool:
    after = state.apply(move)
    return after.outcome is None and not any(wins(after, m) for m in after.legal_moves())


def three_regions_kept_safe(state: VoloState, move: VoloMove) -> bool:
    """The flight cuts Blue into three regions, and Blue cannot win after the choice."""
    choices = [m for m in state.legal_moves() if m[:2] == move[:2]]
    after = state.apply(move)
    return (
        move.keep is not None
        and len(choices) == 3
        and after.outcome is None
        and not any(wins(after, m) for m in after.legal_moves())
    )


# What each step's task asks, as a test on (position, move): the accepted moves must be
# exactly the legal moves that pass it.
TASKS: dict[str, Callable[[VoloState, VoloMove], bool]] = {
    "add": lambda state, move: move.kind == "place",
    "fly": lambda state, move: move.kind == "fly" and move.source == ("f5",),
    "fly-far": joins("l10"),
    "line-side": lambda state, move: (
        from_flock({"j8", "k9", "l10"})(state, move) and joins("i10", 5)(state, move)
    ),
    "line-file": lambda state, move: (
        from_flock({"j8", "k9", "l10"})(state, move) and joins("d3")(state, move)
    ),
    "rearrange": from_flock({"d4", "d5", "e5", "e6"}),
    "block": lambda state, move: move.kind == "place" and blocks(state, move),
    "regions": three_regions_kept_safe,
    "win": wins,
    "pass": lambda state, move: move.kind == "pass",
}


def test_lesson_has_enough_steps() -> None:
    assert len(t.LESSON.steps) >= 10
    assert len(STEPS) == len(t.LESSON.steps)
    assert set(TASKS) == {s.key for s in t.LESSON.steps if s.accept}


@engine_tests
@pytest.mark.parametrize("step", t.LESSON.steps, ids=lambda s: s.key)
def test_lesson_step(step: LessonStep) -> None:
    state = read(step.position)
    assert state.to_text() == step.position
    assert state.outcome is None
    game = state.game
    cells = set(game.cells)
    assert all(c in cells for c in step.hint_cells)
    assert not step.then  # a Volo turn is one decision
    if not step.accept:
        return
    assert step.success and step.wrong and step.hint
    legal = {str(m): m for m in state.legal_moves()}
    for text in step.accept:
        assert text in legal, (step.key, text)
        assert str(game.parse_move(state, text)) == text
    task = TASKS[step.key]
    doing = {text for text, move in legal.items() if task(state, move)}
    assert set(step.accept) == doing
    assert len(step.accept) == len(set(step.accept))
    assert set(legal) - doing, step.key  # some legal move does not do the task
    if step.reply is not None:
        after = state.apply(legal[step.accept[0]])
        game.parse_move(after, step.reply)


@engine_tests
def test_lesson_pass_ends_in_a_draw() -> None:
    state = read(STEPS["pass"].position)
    end = state.apply(state.game.parse_move(state, "pass"))
    assert end.outcome is not None and end.outcome.winner is None


def test_final_game_spec() -> None:
    game = from_spec(t.LESSON.final_game)
    assert isinstance(game, Volo)
    assert game.options["board"] == "mini"


# -- the catalogs -----------------------------------------------------------------------


def msgids() -> set[str]:
    """Every text of teaching.py marked with N_ (read from the source)."""
    tree = ast.parse(Path(t.__file__).read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and isinstance(node.args[0], ast.Constant)
    }


def catalog(lang: str | None) -> dict[str, str]:
    path = LOCALE / "volo.pot" if lang is None else LOCALE / lang / "LC_MESSAGES" / "volo.po"
    with path.open("rb") as f:
        cat = read_po(f)
    return {str(m.id): str(m.string) for m in cat if m.id}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^{}]*\}", text))


def test_every_text_is_in_the_template() -> None:
    ids = msgids()
    assert len(ids) > 100
    assert ids <= set(catalog(None))


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_every_text_is_translated(lang: str) -> None:
    translations = catalog(lang)
    for msgid in msgids():
        assert translations.get(msgid), (lang, msgid)
        assert placeholders(translations[msgid]) == placeholders(msgid), (lang, msgid)
