"""Notation as in the seed, clear errors, position strings and the rendering."""

from __future__ import annotations

import pytest
from rich.console import Console

import tablier.games
from tablier.core.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from tablier.games import get

from .helpers import build
from .test_xobo_rules import BLOCUS, STACKS

# East-West to move: a4-d4 and g6-i6; e5 will threaten at f5/f6 (the seed's
# "1. e5 (v) ; a4->c4").
SEED_LINE = """
.........
.........
.........
......ooo
.........
oooo.....
.........
.........
.........
"""


def split_record_line(line: str) -> list[str]:
    """The decisions of a record line such as ``1. e5 (v) ; a4->c4``."""
    number, _, rest = line.partition(".")
    assert number.strip().isdigit()
    return [part.strip() for part in rest.split(";")]


def test_seed_record_line_is_readable():
    state = build(SEED_LINE, side="ew")
    game = state.game
    texts = split_record_line("1. e5 (v) ; a4->c4")
    assert texts == ["e5 (v)", "a4->c4"]
    first = game.parse_move(state, texts[0])
    assert str(first) == "e5" and first.kind == "place"
    assert game.move_text(state, first) == "e5 (v)"
    state = state.apply(first)
    assert state.voyna
    second = game.parse_move(state, texts[1])
    assert second.kind == "stack" and str(second) == "a4->c4"
    state = state.apply(second)
    assert state.height("c4") == 3 and state.height("a4") == 0 and state.height("b4") == 0


def test_distribution_notation_with_voyna_mark():
    state = build(STACKS)
    move = state.game.parse_move(state, "c3xd3")
    assert str(move) == "c3xd3" and move.kind == "distribute"
    assert state.game.parse_move(state, "  C3 x D3 ") == move


@pytest.mark.parametrize("text", ["e5", "E5", " e5 ", "e5 (v)", "e5(v)", "e5 ( V )"])
def test_placement_spellings(text):
    state = build(SEED_LINE, side="ew")
    assert str(state.game.parse_move(state, text)) == "e5"


def test_voyna_mark_on_a_quiet_move_is_refused():
    game = get("xobo")
    state = game.initial_state()
    with pytest.raises(IllegalMoveError, match="does not announce voyna"):
        game.parse_move(state, "e5 (v)")


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("", "empty move"),
        ("(v)", "empty move"),
        ("e", "cannot read"),
        ("e5e6", "cannot read"),
        ("e5-e6", "cannot read"),
        ("pass", "cannot read"),
        ("1. e5", "cannot read"),
        ("e5; e6", "cannot read"),
        ("j5", "no cell 'j5'"),
        ("a10", "no cell 'a10'"),
        ("e0", "no cell 'e0'"),
        ("a4->j4", "no cell 'j4'"),
    ],
)
def test_unreadable_moves(text, pattern):
    game = get("xobo")
    state = game.initial_state()
    before = state.to_text()
    with pytest.raises(InvalidMoveError, match=pattern):
        game.parse_move(state, text)
    assert state.to_text() == before


def test_non_text_move():
    game = get("xobo")
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(), 42)  # type: ignore[arg-type]


def test_occupied_cell_and_no_cube():
    state = build(STACKS)
    with pytest.raises(IllegalMoveError, match="d5 holds a single cube"):
        state.game.parse_move(state, "d5")
    with pytest.raises(IllegalMoveError, match="e5 holds a stack of 4"):
        state.game.parse_move(state, "e5")
    empty_handed = build(STACKS, common=0, reserves=(8, 0), side="ew")
    with pytest.raises(IllegalMoveError, match="East-West has no cube to place"):
        empty_handed.game.parse_move(empty_handed, "e9")


def test_moves_after_the_end_are_refused():
    state = build(BLOCUS, side="ew")
    over = state.apply(state.game.parse_move(state, "e5"))
    with pytest.raises(GameOverError, match="game is over"):
        over.game.parse_move(over, "a1")
    with pytest.raises(GameOverError):
        over.apply(state.legal_moves()[0])


def test_illegal_move_object_is_refused_by_apply():
    state = build(BLOCUS, side="ew")
    stacking = get("xobo").parse_move(build(STACKS), "a1xb1")
    with pytest.raises(IllegalMoveError):
        state.apply(stacking)


# -- position strings -----------------------------------------------------------------------


def test_initial_position_string():
    game = get("xobo")
    text = game.initial_state().to_text()
    body = "/".join(["........."] * 9) + " ns 36/0/0 -"
    assert text == "xobo:stack=any,exhaustion=moves,voyna=placement " + body
    assert game.parse_position(text) == game.initial_state()
    assert tablier.games.parse_position(text) == game.initial_state()
    # a spec without the voyna option reads with its default (here the XoBo reading)
    assert tablier.games.parse_position("xobo:stack=any,exhaustion=moves " + body).game == game


def test_position_string_round_trip_with_voyna():
    state = build(SEED_LINE, side="ew")
    state = state.apply(state.game.parse_move(state, "e5"))
    text = state.to_text()
    assert text.endswith(" ns 28/0/0 v")
    assert tablier.games.parse_position(text) == state
    assert tablier.games.parse_position(text).voyna


def test_options_are_part_of_the_position():
    game = get("xobo", stack="three", exhaustion="cubes")
    text = game.initial_state().to_text()
    assert text.startswith("xobo:stack=three,exhaustion=cubes,voyna=any-move ")
    assert tablier.games.parse_position(text).game == game
    with pytest.raises(InvalidPositionError):
        get("xobo").parse_position(text)
    with pytest.raises(InvalidPositionError, match="voyna=placement"):
        game.parse_position(get("xobo", stack="three", exhaustion="cubes", voyna="placement")
                            .initial_state().to_text())  # fmt: skip


@pytest.mark.parametrize(
    "body, pattern",
    [
        ("", "3 or 4 fields"),
        ("......... ns 36/0/0", "9 rows"),
        ("/".join(["........."] * 8 + [".........."]) + " ns 36/0/0", "row 1"),
        ("/".join(["....2...."] + ["........."] * 8) + " ns 34/0/0", "exactly two cubes"),
        ("/".join(["....x...."] + ["........."] * 8) + " ns 36/0/0", "unknown character"),
        ("/".join(["........."] * 4 + ["....5...."] + ["........."] * 4) + " ns 31/0/0",
         "could never be distributed"),
        ("/".join(["........."] * 9) + " nw 36/0/0", "'ns' or 'ew'"),
        ("/".join(["........."] * 9) + " ns 36/0", "common/ns/ew"),
        ("/".join(["........."] * 9) + " ns 36/-1/1", "common/ns/ew"),
        ("/".join(["........."] * 9) + " ns 35/0/0", "35 cubes"),
        ("/".join(["........."] * 9) + " ns 36/0/0 v", "says voyna"),
        ("/".join(["........."] * 9) + " ns 36/0/0 !", "'v' \\(voyna\\) or '-'"),
    ],
)  # fmt: skip
def test_bad_position_strings(body, pattern):
    with pytest.raises(InvalidPositionError, match=pattern):
        get("xobo").parse_position_body(body)


def test_position_needs_the_spec_and_the_right_game():
    with pytest.raises(InvalidPositionError):
        tablier.games.parse_position("/".join(["........."] * 9) + " ns 36/0/0")
    with pytest.raises(InvalidPositionError, match="not 'xobo'"):
        get("xobo").parse_position("volo:board=mini " + "/".join(["........."] * 9))


def test_bad_options():
    with pytest.raises(InvalidOptionError, match="stack"):
        get("xobo", stack="two")
    with pytest.raises(InvalidOptionError):
        get("xobo", board="mini")
    with pytest.raises(InvalidOptionError, match=r"voyna.*placement, any-move"):
        get("xobo", voyna="stacking")
    assert tablier.games.from_spec("xobo:stack=three").options == {
        "stack": "three",
        "exhaustion": "moves",
        "voyna": "placement",
    }
    # the default reading follows the rule set: any move under the ten-point rules as a whole
    assert tablier.games.from_spec("xobo:stack=three,exhaustion=cubes").options["voyna"] == (
        "any-move"
    )
    assert tablier.games.from_spec("xobo:exhaustion=cubes,voyna=any-move").spec == (
        "xobo:stack=any,exhaustion=cubes,voyna=any-move"
    )


def test_example_options_cover_every_combination():
    sets = get("xobo").example_options()
    readings = {(o["stack"], o["exhaustion"], get("xobo", **o).options["voyna"]) for o in sets}
    assert readings == {
        ("any", "moves", "placement"),
        ("any", "cubes", "placement"),
        ("three", "moves", "placement"),
        ("three", "cubes", "any-move"),
        # both rule sets with the other reading of voyna
        ("any", "moves", "any-move"),
        ("three", "cubes", "placement"),
    }
    assert len(sets) == len(readings)


# -- rendering ----------------------------------------------------------------------------


def rendered(state, last_move=None) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(state.game.render(state, last_move=last_move))
    return console.export_text()


def test_render_shows_coordinates_heights_reserves_and_voyna():
    state = build(STACKS, reserves=(2, 0))
    text = rendered(state)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghi")
    assert lines[1].split()[0] == "9" and lines[1].split()[-1] == "9"
    assert lines[9].split()[0] == "1"
    assert lines[5].split() == ["5", ".", ".", "3", "o", "4", ".", ".", ".", ".", "5"]
    assert "common reserve: 6" in text and "North-South: 2" in text and "East-West: 0" in text
    assert "VOYNA" not in text
    threatened = build(SEED_LINE, side="ew")
    move = threatened.game.parse_move(threatened, "e5")
    after = threatened.apply(move)
    text = rendered(after, last_move=move)
    assert "VOYNA" in text and "East-West threatens to win" in text
    styled = after.game.render(after, last_move=move)
    e5 = [span for span in styled.spans if "reverse" in str(span.style)]
    assert len(e5) == 1 and styled.plain[e5[0].start : e5[0].end].strip() == "o"


def test_render_shows_the_outcome():
    state = build(BLOCUS, side="ew")
    over = state.apply(state.game.parse_move(state, "e5"))
    assert "blocus rule" in rendered(over)


def test_position_of_another_game_is_refused():
    state = get("xobo").initial_state()
    with pytest.raises(InvalidMoveError, match="not a position of xobo:stack=three"):
        get("xobo", stack="three").parse_move(state, "e5")


def test_seed_lines_in_a_game_record():
    from tablier.core.record import Record

    start = build(SEED_LINE, side="ew")
    text = (
        '[Game "xobo"]\n'
        '[Options "stack=any,exhaustion=moves"]\n'
        f'[Position "{start.to_text()}"]\n\n'
        "1. e5 (v) ; a4->c4\n"
        "2. c6 ; d7\n"
    )
    record = Record.from_text(text)
    final = record.final_state()
    assert final.height("c4") == 3 and final.height("c6") == 1 and final.height("d7") == 1
    # Records write each move as the seed does, voyna included (Game.move_text).
    assert [d.move for d in record.moves] == ["e5 (v)", "a4->c4", "c6", "d7"]
    assert "1... e5 (v)\n2. a4->c4 ; c6\n" in record.to_text()
    again = Record.from_text(record.to_text())
    assert again == record and again.final_state() == final


@pytest.mark.parametrize("voyna", ["placement", "any-move"])
def test_a_record_carries_the_voyna_option(voyna):
    from tablier.core.record import Record

    from .test_xobo_rules import SILENT

    game = get("xobo", voyna=voyna)
    start = build(SILENT, game=game)
    record = Record.from_text(
        f'[Game "xobo"]\n[Options "voyna={voyna}"]\n[Position "{start.to_text()}"]\n\n'
        "1. b4xc4 ; a1\n"
    )
    assert record.game == game
    text = record.to_text()
    assert f"voyna={voyna}" in text
    # the distribution's threat is announced only under any-move, and so is the mark
    assert ("b4xc4 (v)" in text) == (voyna == "any-move")
    again = Record.from_text(text)
    assert again == record and again.final_state() == record.final_state()
    after = start.apply(game.parse_move(start, "b4xc4"))
    assert after.silent == (voyna == "placement")


def test_moves_and_states_pickle():
    import pickle

    state = build(STACKS, reserves=(2, 0))
    for move in state.legal_moves():
        assert pickle.loads(pickle.dumps(move)) == move
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state) and again.to_text() == state.to_text()
