"""Voldetour's rules page and tutorial: real positions, legal steps, tasks the engine checks."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tablier.core.teaching import Diagram, LessonStep
from tablier.games import from_spec, get
from tablier.games.voldetour import Voldetour, VState, notation
from tablier.games.voldetour import teaching as module

TEACHING = module.TEACHING
PACKAGE = Path(module.__file__).parent
LOCALE = PACKAGE / "locale"
SECTIONS = TEACHING.rules.sections
STEPS = {step.key: step for step in TEACHING.lesson.steps}

# Issue 13's list for Voldetour, each a section of the page; then the variants.
REQUIRED = (
    "material",  # every piece
    "turn",
    "placing",  # placing on pieces
    "blocked",  # blocked pieces
    "support",  # no empty space below
    "height",  # height limit
    "lord",
    "slopes",  # the Lord's moves over slopes
    "chains",  # ... and chains of slopes
    "tower",  # the tower deadline
    "win",  # the win
    "mini",  # variant: the mini piece set
    "draws",  # variant: the repetition and turn-limit options
)


def _game(position: str) -> Voldetour:
    game = from_spec(position.split(" ", 1)[0])
    assert isinstance(game, Voldetour)
    return game


def _state(position: str) -> VState:
    return _game(position).parse_position(position)


def _play(state: VState, *texts: str) -> VState:
    for text in texts:
        state = state.apply(state.game.parse_move(state, text))
    return state


def _texts(state: VState, kind: str | None = None) -> list[str]:
    return [str(m) for m in state.legal_moves() if kind is None or m.kind == kind]


def _cells(game: Voldetour) -> set[str]:
    ps = game.pieceset
    return {f"{'abcdefghij'[x]}{y + 1}" for x in range(ps.width) for y in range(ps.height)}


def _height(state: VState, cell: str) -> int | None:
    return state.board.height(notation._cell(state.game, cell))


def _lord(state: VState, player: int) -> str:
    return state.body().split("lords=")[1].split()[0].split(",")[player]


def _reason(state: VState) -> str | None:
    return None if state.outcome is None else state.outcome.reason


def _diagrams() -> list[tuple[str, Diagram]]:
    return [(s.key, d) for s in SECTIONS for d in s.diagrams]


# -- the rules page ------------------------------------------------------------------------


def test_the_page_covers_the_issue_list_in_order() -> None:
    keys = [s.key for s in SECTIONS]
    assert keys == list(REQUIRED)
    variants = {s.key for s in SECTIONS if s.variant is not None}
    assert variants == {"mini", "draws"}
    for section in SECTIONS:
        assert section.paragraphs and section.diagrams, section.key
        assert section.source and "docs/rules/voldetour.md" in section.source


@pytest.mark.parametrize(("key", "diagram"), _diagrams())
def test_diagram_positions_are_real_and_their_steps_legal(key: str, diagram: Diagram) -> None:
    game = _game(diagram.position)
    state = game.parse_position(diagram.position)
    assert state.to_text() == diagram.position  # written as the engine writes it
    cells = _cells(game)
    frames: list[tuple[str | None, tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, ...]]]
    frames = [(None, diagram.highlights, diagram.arrows, diagram.marks)]
    frames += [(s.move, s.highlights, s.arrows, s.marks) for s in diagram.steps]
    for move, highlights, arrows, marks in frames:
        if move is not None:
            state = _play(state, move)
        json.dumps(game.state_view(state))  # what the board module draws
        named = {*highlights, *marks, *(c for pair in arrows for c in pair)}
        assert named <= cells, (key, named - cells)


def _diagram(key: str, index: int = 0) -> Diagram:
    return next(s for s in SECTIONS if s.key == key).diagrams[index]


def _end(diagram: Diagram) -> VState:
    state = _state(diagram.position)
    return _play(state, *(s.move for s in diagram.steps if s.move is not None))


def test_pieces_diagram_shows_every_piece_of_the_set() -> None:
    state = _state(_diagram("material", 1).position)
    assert state.reserve_blocks(0) == []  # every block of Black's is on the board
    assert "S@i4:u" in state.body() and "S@h7:n" in state.body()


def test_diagrams_show_what_their_rule_says() -> None:
    # blocked: only the free Stair and reserve pieces can be taken
    state = _state(_diagram("blocked").position)
    assert _texts(state, "take") == ["B122", "B123", "S", "Sg3"]
    # support: no block lies over the gap at d4 until it is filled
    state = _play(_state(_diagram("support").position), "B113")
    assert not [m for m in _texts(state) if m.startswith(("B113@c4+1", "B113@b4+1"))]
    assert not [m for m in _texts(state) if m.startswith("B113@g4+1")]
    # height: nothing on the 3-high column, nothing above level 2
    state = _play(_state(_diagram("height").position), "B111")
    assert [m for m in _texts(state) if "+" in m] == ["B111@e4+2:1x1x1"]
    # the Lord: the highlighted squares are exactly where it can end
    diagram = _diagram("lord")
    ends = {m.split("-")[-1] for m in _texts(_state(diagram.position), "lord")}
    assert ends == set(diagram.highlights)
    # the other Lord cannot be crossed
    ends = {m.split("-")[-1] for m in _texts(_state(_diagram("lord", 1).position), "lord")}
    assert "c4" in ends and not {"d4", "e4"} & ends
    # a slope entered from its side is not a way up
    assert "Ld3-d4" not in _texts(_state(_diagram("slopes", 1).position), "lord")
    assert "Ld3-e4" not in _texts(_state(_diagram("slopes", 1).position), "lord")
    # chains: each crossed in a single step
    for index in range(4):
        diagram = _diagram("chains", index)
        assert diagram.steps[0].move in _texts(_state(diagram.position), "lord")
    # the tower deadline, crossing the own tower, the win and the blocked win
    assert _reason(_end(_diagram("tower"))) == "stayed"
    cross = _state(_diagram("tower", 1).position)
    assert not [m for m in _texts(cross, "lord") if m.endswith("b2")]
    won = _end(_diagram("win"))
    assert _reason(won) == "tower" and won.outcome is not None and won.outcome.winner == 0
    assert not _texts(_state(_diagram("win", 1).position), "lord")
    # the draw options
    assert _reason(_end(_diagram("draws"))) == "repetition"
    assert _reason(_end(_diagram("draws", 1))) == "move-limit"
    assert _end(_diagram("mini")).outcome is None


# -- the tutorial -------------------------------------------------------------------------


def test_the_lesson_is_long_enough_and_ends_with_a_mini_game() -> None:
    assert len(STEPS) == len(TEACHING.lesson.steps) >= 10
    game = from_spec(TEACHING.lesson.final_game)
    assert game == get("voldetour", pieces="mini")
    assert TEACHING.summary
    assert Voldetour.teaching() is TEACHING


def _branches(step: LessonStep) -> list[list[str]]:
    """Every sequence of decisions the step accepts that the engine plays legally."""
    state = _state(step.position)
    chains: list[tuple[VState, list[str]]] = []
    for text in step.accept:
        assert text in _texts(state), (step.key, text)
        chains.append((_play(state, text), [text]))
    for options in step.then:
        grown = []
        used = set()
        for after, done in chains:
            legal = set(_texts(after))
            for text in options:
                if text in legal:
                    used.add(text)
                    grown.append((_play(after, text), [*done, text]))
        assert used == set(options), (step.key, set(options) - used)  # none is never legal
        chains = grown
    return [done for _, done in chains]


@pytest.mark.parametrize("step", TEACHING.lesson.steps, ids=lambda s: s.key)
def test_lesson_steps_are_legal_and_named_cells_real(step: LessonStep) -> None:
    game = _game(step.position)
    state = game.parse_position(step.position)
    assert state.to_text() == step.position
    assert state.to_move == 0  # the learner plays Black
    assert set(step.hint_cells) <= _cells(game)
    assert step.accept and step.hint and step.wrong and step.success
    assert _branches(step)


def _after(key: str) -> list[VState]:
    step = STEPS[key]
    return [_play(_state(step.position), *done) for done in _branches(step)]


def _every_first_decision(key: str) -> set[str]:
    return set(_texts(_state(STEPS[key].position)))


def test_build_stands_a_tower_high_column_beside_the_tower_and_ends() -> None:
    for state in _after("build"):
        assert state.to_move == 1
        assert max(_height(state, c) or 0 for c in ("a2", "b1", "b3", "c2")) == 3
    # every other put of B113 standing upright is elsewhere
    state = _play(_state(STEPS["build"].position), "B113")
    upright = {m for m in _texts(state) if m.endswith(":1x1x3")}
    assert upright - set(STEPS["build"].then[0]) and len(STEPS["build"].then[0]) == 4


def _lord_off(state: VState) -> bool:
    return _lord(state, 0) != "b2"


def test_step_off_and_chain_take_the_lord_off_its_tower() -> None:
    for key in ("step-off", "chain"):
        for state in _after(key):
            assert _lord_off(state) and state.outcome is None
    # every Lord move after every stair put is accepted, and the other puts do not free it
    step = STEPS["chain"]
    held = _play(_state(step.position), "S")
    freeing = {m for m in _texts(held) if _texts(_play(held, m), "lord")}
    assert freeing == set(step.then[0])
    moves = set()
    for put in freeing:
        moves |= set(_texts(_play(held, put), "lord"))
    assert moves == set(step.then[1])
    # stopping without leaving loses the game
    state = _play(_state(step.position), "S", "S@b5:s", "end")
    assert state.outcome is not None and state.outcome.reason == "stayed"


def test_climb_needs_a_slope_facing_the_lord() -> None:
    step = STEPS["climb"]
    block = {"e4", "f4", "e5", "f5"}
    assert not [m for m in _texts(_state(step.position), "lord") if m.split("-")[-1] in block]
    held = _play(_state(step.position), "S")
    good = set()
    moves = set()
    for put in _texts(held):
        onto = [m for m in _texts(_play(held, put), "lord") if m.split("-")[-1] in block]
        if onto:
            good.add(put)
            moves |= set(onto)
    assert good == set(step.then[0])
    assert moves == set(step.then[1])


def test_on_pieces_lists_every_put_on_the_white_block() -> None:
    step = STEPS["on-pieces"]
    held = _play(_state(step.position), "B112")
    on_top = {m for m in _texts(held) if "+1" in m}
    assert on_top == set(step.then[0])
    # lying half over the edge would leave empty space: not offered
    assert "B112@e4+1:2x1x1" not in _texts(held)


def test_support_fills_the_gap_and_the_lord_crosses() -> None:
    step = STEPS["support"]
    start = _state(step.position)
    assert not _texts(start, "lord")  # stuck one level up beside the gap
    filling = set()
    takes = set()
    for take in _texts(start, "take"):
        held = _play(start, take)
        for put in _texts(held):
            after = _play(held, put)
            if _height(after, "d4") == 1 and "Lc4-d4-e4" in _texts(after, "lord"):
                filling.add(put)
                takes.add(take)
    assert takes == set(step.accept)
    assert filling == set(step.then[0])
    for state in _after("support"):
        assert _lord(state, 0) == "e4"


def test_height_accepts_only_the_highest_put() -> None:
    step = STEPS["height"]
    held = _play(_state(step.position), "B111")
    assert [m for m in _texts(held) if "+2" in m] == list(step.then[0])
    (state,) = _after("height")
    assert _height(state, "e4") == 3


def test_nest_blocks_the_white_stair() -> None:
    step = STEPS["nest"]
    (state,) = _after("nest")
    white = state.stairs[1]
    assert white and all(state.stair_blocked(state.board, st) for st in white)
    before = _state(step.position)
    assert not any(before.stair_blocked(before.board, st) for st in before.stairs[1])


def test_blocked_accepts_the_only_free_piece_on_the_board() -> None:
    step = STEPS["blocked"]
    lifts = {m for m in _texts(_state(step.position), "take") if m.startswith("S") and m != "S"}
    lifts |= {"B111", "B112", "B113"} & _every_first_decision("blocked")
    assert lifts == set(step.accept)


def test_cross_lords_and_win_end_where_the_task_says() -> None:
    for state in _after("cross"):
        assert _lord(state, 0) in ("a1", "a2")
    assert {m for m in _texts(_state(STEPS["cross"].position), "lord")} == set(
        STEPS["cross"].accept
    )
    (state,) = _after("lords")
    assert _lord(state, 0) == "e5"
    assert {m for m in _texts(_state(STEPS["lords"].position), "lord") if m.endswith("e5")} == {
        "Lc4-c5-d5-e5"
    }
    (state,) = _after("win")
    assert state.outcome is not None and state.outcome.winner == 0
    step = STEPS["win"]
    held = _play(_state(step.position), "S")
    winning = {
        m for m in _texts(held) if [x for x in _texts(_play(held, m), "lord") if x.endswith("i9")]
    }
    assert winning == set(step.then[0])


# -- the catalogs -------------------------------------------------------------------------


def _msgids() -> set[str]:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
            arg = node.args[0]
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            out.add(arg.value)
    return out


def _catalog(path: Path) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {m.id: m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str)}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^{}]*\}", text))


def test_every_message_is_in_the_template_and_translated() -> None:
    pytest.importorskip("babel")
    ids = _msgids()
    assert len(ids) > 100
    template = _catalog(LOCALE / "voldetour.pot")
    assert ids <= set(template), sorted(ids - set(template))[:5]
    for lang in ("en", "fr", "ja"):
        catalog = _catalog(LOCALE / lang / "LC_MESSAGES" / "voldetour.po")
        assert ids <= set(catalog), (lang, sorted(ids - set(catalog))[:5])
        if lang == "en":
            continue
        missing = sorted(i for i in ids if not catalog[i])
        assert not missing, (lang, missing[:5])
        for msgid in ids:
            assert _placeholders(catalog[msgid]) == _placeholders(msgid), (lang, msgid)
