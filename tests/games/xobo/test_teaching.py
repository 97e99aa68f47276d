"""XoBo's rules page and tutorial: real positions, legal steps, tasks the engine checks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tablier.core.errors import IllegalMoveError
from tablier.core.teaching import Diagram, LessonStep
from tablier.games import from_spec, get
from tablier.games.xobo import XoBo, XoBoState
from tablier.games.xobo import teaching as module
from tablier.games.xobo.board import GRID

TEACHING = module.TEACHING
LOCALE = Path(module.__file__).parent / "locale"
SECTIONS = TEACHING.rules.sections
STEPS = {step.key: step for step in TEACHING.lesson.steps}
CELLS = {GRID.label(i) for i in GRID.indices}

# Issue 13's list for XoBo, each a section of the page; then the variants.
REQUIRED = (
    "material",
    "turn",
    "winning-chain",  # the winning chain
    "four-edges",  # the blocus (illustration 4)
    "voyna",
    "stacking",  # stacking against a voyna, four aligned cubes
    "distribution",  # a four-cube stack's distributions with captures
    "reserves",
    "defences",  # stacking, distributing, the blocus as defences
    "end",
    "double-attack",
    "forcing-blocus",  # 1. g9 (v) ; c7->e9 2. d7 (v)
    "follow-up-attack",  # 1. e5 (v) ; a4->c4 ... 4. f3 (v)
    "ten-point",  # variant: stack=three, exhaustion=cubes
    "voyna-option",  # variant: voyna=placement / any-move (interpretation 13)
)


def _game(position: str) -> XoBo:
    game = from_spec(position.split(" ", 1)[0])
    assert isinstance(game, XoBo)
    return game


def _state(position: str) -> XoBoState:
    return _game(position).parse_position(position)


def _play(state: XoBoState, *texts: str) -> XoBoState:
    for text in texts:
        state = state.apply(state.game.parse_move(state, text))
    return state


def _texts(state: XoBoState, kind: str | None = None) -> set[str]:
    return {str(m) for m in state.legal_moves() if kind is None or m.kind == kind}


def _labels(mask: int) -> set[str]:
    return {GRID.label(i) for i in GRID.indices if mask >> i & 1}


def _wins_now(state: XoBoState) -> set[str]:
    """The moves of the side to move that win at once."""
    me = state.to_move
    return {
        str(m)
        for m in state.legal_moves()
        if (end := state.apply(m).outcome) is not None and end.winner == me
    }


def _defences(state: XoBoState) -> set[str]:
    """The moves after which the side to move has not lost and the opponent cannot win at once."""
    me = state.to_move
    out = set()
    for move in state.legal_moves():
        after = state.apply(move)
        if after.outcome is not None:
            if after.outcome.winner == me:
                out.add(str(move))
        elif not _wins_now(after):
            out.add(str(move))
    return out


def _unanswerable(state: XoBoState) -> set[str]:
    """Voyna moves after which the opponent has no defence at all."""
    out = set()
    for move in state.legal_moves():
        after = state.apply(move)
        if after.outcome is None and after.voyna and not _defences(after):
            out.add(str(move))
    return out


def _diagrams() -> list[tuple[str, Diagram]]:
    return [(s.key, d) for s in SECTIONS for d in s.diagrams]


def _diagram(key: str, index: int = 0) -> Diagram:
    return next(s for s in SECTIONS if s.key == key).diagrams[index]


def _frames(diagram: Diagram) -> list[XoBoState]:
    """The state of each frame: the diagram's position, then one per step."""
    states = [_state(diagram.position)]
    for step in diagram.steps:
        states.append(_play(states[-1], step.move) if step.move else states[-1])
    return states


# -- the rules page ------------------------------------------------------------------------


def test_the_page_covers_the_issue_list_in_order() -> None:
    assert [s.key for s in SECTIONS] == list(REQUIRED)
    variants = {s.key for s in SECTIONS if s.variant is not None}
    assert variants == {"ten-point", "voyna-option"}
    for section in SECTIONS:
        assert section.paragraphs and section.diagrams, section.key
        assert section.source and "Seed 001" in section.source, section.key
        assert "docs/rules/xobo.md" in section.source, section.key


@pytest.mark.parametrize(("key", "diagram"), _diagrams())
def test_diagram_positions_are_real_and_their_steps_legal(key: str, diagram: Diagram) -> None:
    state = _state(diagram.position)
    assert state.to_text() == diagram.position  # written as the engine writes it
    assert state.outcome is None
    frames: list[tuple[str | None, tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, ...]]]
    frames = [(None, diagram.highlights, diagram.arrows, diagram.marks)]
    frames += [(s.move, s.highlights, s.arrows, s.marks) for s in diagram.steps]
    for move, highlights, arrows, marks in frames:
        if move is not None:
            assert state.outcome is None, (key, move)
            assert move in _texts(state), (key, move)
            state = _play(state, move)
        named = {*highlights, *marks, *(c for pair in arrows for c in pair)}
        assert named <= CELLS, (key, named - CELLS)
        for a, b in arrows:
            assert a != b


def test_material_and_the_winning_chain() -> None:
    assert _state(_diagram("material").position) == get("xobo").initial_state()
    turn = _frames(_diagram("turn"))[-1]
    assert turn.height("e5") == turn.height("d4") == 1 and turn.common == 34
    diagram = _diagram("winning-chain")
    start, end = _frames(diagram)
    assert start.height("d6") == 3  # the stack the chain goes around
    assert _wins_now(start) >= {"e2"}
    assert end.outcome is not None
    assert (end.outcome.winner, end.outcome.reason) == (0, "connection")
    assert all(end.height(cell) == 1 for cell in diagram.steps[0].highlights)


def test_the_blocus_cells_lose_for_whoever_fills_them() -> None:
    diagram = _diagram("four-edges")
    state = _state(diagram.position)
    assert not state.voyna and not state.threats(0) and not state.threats(1)
    for side in ("ns", "ew"):
        mover = _state(diagram.position.replace(" ew ", f" {side} "))
        for cell in diagram.marks:
            end = _play(mover, cell).outcome
            assert end is not None and end.reason == "blocus" and end.winner != mover.to_move


def test_voyna_and_stacking_diagrams() -> None:
    diagram = _diagram("voyna")
    after = _frames(diagram)[1]
    assert after.voyna and _labels(after.threats(1)) == {"f5", "f6"}
    assert (
        after.game.move_text(
            _state(diagram.position), after.game.parse_move(_state(diagram.position), "e5")
        )
        == "e5 (v)"
    )
    # three of the four aligned cubes, onto d4: the threat is gone
    _, under, cut = _frames(_diagram("stacking"))
    assert under.voyna and "a4->d4" in _texts(under, "stack")
    assert cut.height("d4") == 3 and cut.height("a4") == 1 and not _wins_now(cut)
    # five aligned: onto a5 is allowed, onto e5 cannot ever be distributed
    five = _state(_diagram("stacking", 1).position)
    assert "e5->a5" in _texts(five, "stack")
    with pytest.raises(IllegalMoveError, match="could never be distributed"):
        five.game.parse_move(five, "a5->e5")


def test_the_stack_of_four_captures_one_or_two() -> None:
    state = _state(_diagram("distribution").position)
    assert _texts(state, "distribute") == {"f7xe6", "f7xf6"}  # north-east runs off
    with pytest.raises(IllegalMoveError):
        state.game.parse_move(state, "f7xg8")
    south_west = _frames(_diagram("distribution"))[-1]
    south = _frames(_diagram("distribution", 1))[-1]
    assert south_west.reserve(0) == 2 and south.reserve(0) == 4  # one pair, two pairs
    assert south_west.height("d5") == 0 and south_west.height("b3") == 1


def test_reserves_are_used_once_the_common_one_is_empty() -> None:
    start, first, second, third = _frames(_diagram("reserves"))
    assert (start.common, start.reserve(0), start.reserve(1)) == (1, 3, 20)
    assert (first.common, first.reserve(0), first.reserve(1)) == (0, 3, 20)
    assert (second.reserve(0), second.reserve(1)) == (3, 19)
    assert (third.reserve(0), third.reserve(1)) == (2, 19)


def test_the_blocus_defence() -> None:
    _, attacked, blocus = _frames(_diagram("defences"))
    assert attacked.voyna and _labels(attacked.threats(0)) == {"e7"}
    assert not _texts(attacked, "stack") and not _texts(attacked, "distribute")
    assert _defences(attacked) == {"i8", "i9"}
    assert not blocus.threats(0)
    end = _play(blocus, "e7").outcome
    assert end is not None and end.reason == "blocus" and end.winner == 1


def test_the_end_by_exhaustion() -> None:
    end = _frames(_diagram("end"))[-1].outcome
    assert end is not None and (end.winner, end.reason) == (1, "exhaustion")


def test_the_double_attack_cannot_be_answered() -> None:
    start, attack, cut, won = _frames(_diagram("double-attack"))
    assert cut.height("h4") == 3
    assert not start.voyna and attack.voyna
    assert _labels(attack.threats(1)) == {"e5", "e6"}
    assert _texts(attack, "stack") >= {"f4->h4", "g6->i6"}  # each branch can be cut ...
    assert not _defences(attack)  # ... but not both
    assert won.outcome is not None and won.outcome.winner == 1


def _seed_line(key: str, line: str) -> list[XoBoState]:
    """Play a line written as the seed writes it, checking each (v) against the engine."""
    state = _state(_diagram(key).position)
    states = [state]
    for text in re.split(r"\s*;\s*|\s*\d+\.\s*", line):
        if not text:
            continue
        move = state.game.parse_move(state, text)  # refuses a (v) that announces nothing
        assert state.game.move_text(state, move) == text
        state = state.apply(move)
        states.append(state)
    return states


def test_forcing_the_blocus_open_as_the_seed_plays_it() -> None:
    diagram = _diagram("forcing-blocus")
    assert [s.move for s in diagram.steps] == ["g9", "c7->e9", "d7"]
    start, *after = _seed_line("forcing-blocus", "1. g9 (v) ; c7->e9 2. d7 (v)")
    assert not start.voyna and not start.threats(1)
    blocus = {str(m) for m in start.legal_moves() if start.apply(m).outcome is not None}
    assert blocus == set(diagram.marks)  # the blocus cells, and nothing wins
    g9, stacked, d7 = after
    assert _defences(g9) == {"c7->e9", "e9->c7"}  # both break the blocus
    assert not _wins_now(stacked)
    assert d7.voyna and not _defences(d7)  # "Nord-Sud n'a plus de défense"


def test_the_follow_up_attack_as_the_seed_plays_it() -> None:
    diagram = _diagram("follow-up-attack")
    line = "1. e5 (v) ; a4->c4 2. c6 (v) ; i6->g6 3. g4 (v) ; g6xf5 4. f3 (v)"
    states = _seed_line("follow-up-attack", line)
    assert [s.move for s in diagram.steps] == ["e5", "a4->c4", "c6", "i6->g6", "g4", "g6xf5", "f3"]
    for voyna in states[1::2]:
        assert voyna.voyna
    for answer, seed in zip(states[1:-1:2], ("a4->c4", "i6->g6", "g6xf5"), strict=True):
        assert seed in _defences(answer)  # each of the seed's answers holds for a turn
    assert states[6].reserve(0) == 2  # g6xf5 captured the cube on f5
    assert not _defences(states[-1])  # "l'attaque ne peut plus être stoppée"


def test_the_ten_point_rules_variant() -> None:
    ten = get("xobo", stack="three", exhaustion="cubes")
    four = _state(_diagram("ten-point").position)
    assert four.game == ten
    under = _play(four, "e5")
    assert under.voyna and "b4->d4" in _texts(under, "stack")
    with pytest.raises(IllegalMoveError, match="exactly"):
        under.game.parse_move(under, "a4->d4")
    diagram = _diagram("ten-point", 1)
    end = _frames(diagram)[-1].outcome
    assert end is not None and (end.winner, end.reason) == (1, "exhaustion")
    # under the XoBo rules the same North-South could still distribute its stack
    xobo = _play(_state(diagram.position.replace(ten.spec, get("xobo").spec)), "h4")
    assert xobo.outcome is None and _texts(xobo) == _texts(xobo, "distribute") != set()


def test_the_voyna_option_variant() -> None:
    placement, any_move = (_frames(_diagram("voyna-option", i))[1] for i in range(2))
    assert placement.silent and not placement.voyna
    assert _labels(placement.threats(1)) == {"f5", "f6", "f7"}
    assert not _texts(placement, "stack") and not _defences(placement)
    assert any_move.voyna and not any_move.silent
    assert "a4->c4" in _defences(any_move)


# -- the tutorial -------------------------------------------------------------------------


def test_the_lesson_is_long_enough_and_ends_with_a_game() -> None:
    assert len(STEPS) == len(TEACHING.lesson.steps) >= 10
    assert from_spec(TEACHING.lesson.final_game) == get("xobo")
    assert TEACHING.summary
    assert XoBo.teaching() is TEACHING


@pytest.mark.parametrize("step", TEACHING.lesson.steps, ids=lambda s: s.key)
def test_lesson_steps_are_legal_and_named_cells_real(step: LessonStep) -> None:
    state = _state(step.position)
    assert state.to_text() == step.position and state.outcome is None
    assert set(step.hint_cells) <= CELLS and step.hint_cells
    assert step.accept and step.hint and step.wrong and step.success and step.task
    assert set(step.accept) <= _texts(state), set(step.accept) - _texts(state)
    assert not step.then and step.reply is None


def _accepted(key: str) -> tuple[XoBoState, set[str]]:
    step = STEPS[key]
    return _state(step.position), set(step.accept)


def test_first_cube_accepts_every_cell_around_e5() -> None:
    state, accept = _accepted("first-cube")
    around = {
        c for c in CELLS if c != "e5" and max(abs(ord(c[0]) - ord("e")), abs(int(c[1]) - 5)) == 1
    }
    assert accept == around and accept < _texts(state, "place")


@pytest.mark.parametrize("key", ["connect", "around-stack", "four-edges"])
def test_winning_steps_accept_every_winning_move(key: str) -> None:
    state, accept = _accepted(key)
    assert accept == _wins_now(state)
    if key == "four-edges":
        end = _play(state, "d5").outcome
        assert end is not None and end.reason == "blocus" and end.winner == 1


def test_voyna_step_accepts_every_threatening_placement() -> None:
    state, accept = _accepted("voyna")
    assert not state.voyna
    assert accept == {str(m) for m in state.legal_moves() if state.apply(m).voyna}


def test_stack_step_accepts_every_stacking_that_cuts_the_line() -> None:
    state, accept = _accepted("stack")
    assert state.voyna
    assert accept == _defences(state) & _texts(state, "stack")
    assert not _defences(state) & _texts(state, "place")


def test_capture_step_accepts_the_distributions_that_capture_two() -> None:
    state, accept = _accepted("capture")
    two = {m for m in _texts(state, "distribute") if _play(state, m).reserve(0) == 4}
    assert accept == two and _texts(state, "distribute") - two


def test_trouble_step_accepts_every_defending_distribution() -> None:
    state, accept = _accepted("trouble")
    assert state.voyna
    assert accept == _defences(state) & _texts(state, "distribute")
    assert _texts(state, "distribute") - accept  # not every distribution defends


def test_blocus_step_accepts_every_blocus() -> None:
    state, accept = _accepted("blocus")
    assert state.voyna and accept == _defences(state)
    for move in accept:
        after = _play(state, move)
        assert not after.threats(0)
        end = _play(after, "e7").outcome
        assert end is not None and end.reason == "blocus"


@pytest.mark.parametrize("key", ["double-attack", "follow-up", "forcing-blocus"])
def test_attack_steps_accept_every_unanswerable_voyna(key: str) -> None:
    state, accept = _accepted(key)
    assert not state.voyna and not _wins_now(state)
    assert accept == _unanswerable(state)
    voynas = {str(m) for m in state.legal_moves() if state.apply(m).voyna}
    assert voynas - accept  # some voynas can still be answered


def test_exhaustion_step_accepts_the_moves_that_keep_a_cube() -> None:
    state, accept = _accepted("exhaustion")
    assert state.game == get("xobo", stack="three", exhaustion="cubes")
    assert accept == {str(m) for m in state.legal_moves() if state.apply(m).outcome is None}
    for move in _texts(state, "place"):
        end = _play(state, move).outcome
        assert end is not None and (end.winner, end.reason) == (1, "exhaustion")


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
    template = _catalog(LOCALE / "xobo.pot")
    assert ids <= set(template), sorted(ids - set(template))[:5]
    for lang in ("en", "fr", "ja"):
        catalog = _catalog(LOCALE / lang / "LC_MESSAGES" / "xobo.po")
        assert ids <= set(catalog), (lang, sorted(ids - set(catalog))[:5])
        if lang == "en":
            continue
        missing = sorted(i for i in ids if not catalog[i])
        assert not missing, (lang, missing[:5])
        for msgid in ids:
            assert _placeholders(catalog[msgid]) == _placeholders(msgid), (lang, msgid)
