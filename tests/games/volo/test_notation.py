"""Move notation and position strings (docs/rules/volo.md, "Notation" and "Positions")."""

from __future__ import annotations

import pytest

import tablier.games
from tablier.core.errors import InvalidMoveError, InvalidPositionError

from .test_rules import BLUE_ABC, WALLS, build, refused


def volo(**options):
    return tablier.games.get("volo", **options)


def test_move_attributes_and_text():
    state = build("b5 c5 d5 i5 c9", "l12 m10")
    game = state.game
    line = game.parse_move(state, "d5:b5-h5")
    assert str(line) == "b5:d5-f5"  # lower end first, then where it lands
    assert line.kind == "fly"
    assert set(line.source) == {"b5", "c5", "d5"}
    assert set(line.target) == {"f5", "g5", "h5"}
    assert line.keep is None
    place = game.parse_move(state, "h8")
    assert (place.kind, place.source, place.target, str(place)) == ("place", (), ("h8",), "h8")
    single = build("d4 f5 j5", "b7 l12")
    fly = single.game.parse_move(single, "d4-i4")
    assert (fly.kind, fly.source, fly.target, str(fly)) == ("fly", ("d4",), ("i4",), "d4-i4")


def test_pass_text():
    state = volo(supply=3).initial_state()
    move = state.game.parse_move(state, "Pass")
    assert (move.kind, move.source, move.target, move.keep, str(move)) == (
        "pass",
        (),
        (),
        None,
        "pass",
    )


def test_region_kept_is_named_by_its_lowest_opponent_bird():
    state = build(WALLS + " k10", BLUE_ABC)
    move = state.game.parse_move(state, "D1 - D4 / K8")
    assert str(move) == "d1-d4/h8"  # h8 and k8 share row 8: column h comes first
    assert move.keep == "h8"


def test_case_and_spaces_tolerated():
    state = build("b5 c5 d5 i5 c9", "l12 m10")
    game = state.game
    expected = game.parse_move(state, "b5:d5-f5")
    for text in ("B5:D5-F5", " b5 : d5 - f5 ", "b5:d5 -F5", "\tb5:d5-f5\n"):
        assert game.parse_move(state, text) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "hello", "e5-", "e5:e7", "5e", "e5--e8", "e5-e8/", "passe", "e5 e6"]
)
def test_unreadable_moves(text):
    state = volo().initial_state()
    refused(state, text, InvalidMoveError)


def test_unknown_cells():
    state = volo().initial_state()
    for text in ("n5", "a14", "z1", "b2-n2", "m1"):
        refused(state, text, InvalidMoveError, "unknown cell")


def test_initial_position_string():
    # Worked out by hand from the position format: rows 13 down to 1, each from column a.
    text = volo().initial_state().to_text()
    assert text == (
        "volo:board=standard,edition=current,setup=nests,supply=60 "
        "5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 o 57 57 0"
    )
    mini = volo(board="mini", setup="centre").initial_state().to_text()
    assert mini.endswith("4/7/8/9/4ob4/3bo3/4ob4/9/8/7/4 o 47 47 0")


def test_position_string_round_trip_of_hand_built_positions():
    for state in (
        build(WALLS + " k10", BLUE_ABC),
        build("e5 e6", "b7 l12", to_move=1),
        build("b1 e1 e2 f3 g4 h4 i4 i3", "c1 b2 c3 d3 d1 e3 f4 g5 h5 i5 j4 j5", passes=1),
    ):
        again = state.game.parse_position(state.to_text())
        assert again == state and again.outcome == state.outcome


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ("5/1o4b1/9 o 57 57 0", "rows"),
        ("5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 x 57 57 0", "side to move"),
        ("5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 o 57 57", "five fields"),
        ("5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 o 50 57 0", "must make 60"),
        ("5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 o 57 57 3", "passes"),
        ("5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b2/5 o 57 57 0", "row 12"),
        ("5/1o4b1/9/10/11/12/b8x/12/11/10/9/1o4b1/5 o 57 57 0", "unexpected"),
    ],
)
def test_bad_position_strings(body, match):
    with pytest.raises(InvalidPositionError, match=match):
        volo().parse_position(body)


def test_position_for_other_options_is_refused():
    text = volo(board="mini").initial_state().to_text()
    with pytest.raises(InvalidPositionError):
        volo().parse_position(text)
