"""Each rule of docs/rules/voldetour.md on hand-built 3D positions.

Every position is also checked against the voxel reference (reference.py):
the engine's legal decisions must be exactly the reference's.
"""

from __future__ import annotations

import pytest

from tablier.core.errors import GameOverError, IllegalMoveError, InvalidPositionError

from .helpers import game, play
from .reference import reference_moves

pytestmark = pytest.mark.usefixtures("engine")

G = game()
MINI = game(pieces="mini")


def agree(state) -> set[str]:
    """Assert engine == reference on ``state``; return the engine's notations."""
    moves = state.legal_moves()
    plain = {str(m) for m in moves if m.kind != "lord"}
    lords = {m.key[1][-1]: str(m) for m in moves if m.kind == "lord"}
    ref, ref_lords = reference_moves(state)
    assert plain == ref, (sorted(plain ^ ref)[:20], state.to_text())
    label = state.game.pieceset.grid.label
    assert {"L" + label(a) for a in lords} == set(ref_lords)
    for a, text in lords.items():
        assert tuple(text[1:].split("-")) in ref_lords["L" + label(a)]
    return {str(m) for m in moves}


def legal(state, text: str) -> bool:
    try:
        state.game.parse_move(state, text)
    except IllegalMoveError:
        return False
    return True


# -- placement -------------------------------------------------------------------------


def test_floating_block_refused_and_stacking_accepted():
    s = G.position(black=["B111@d4:1x1x1"], lords=("c6", "h8"), turn=3)
    s = play(s, "B112")
    texts = agree(s)
    with pytest.raises(IllegalMoveError, match="rest flat"):
        G.parse_move(s, "B112@d4:2x1x1")  # d4 is one level high, e4 is the board
    assert "B112@d4+1:1x1x2" in texts  # on top of the block, up to the towers' height
    assert "B112@d5:2x1x1" in texts  # on the board next to it
    with pytest.raises(InvalidPositionError, match="floats"):
        G.position(black=["B111@d4+1:1x1x1"])


def test_height_limit():
    s = play(G.position(black=["B111@d4:1x1x1"], lords=("c6", "h8"), turn=3), "B113")
    with pytest.raises(IllegalMoveError, match="above the towers"):
        G.parse_move(s, "B113@d4+1:1x1x3")
    agree(s)
    s = G.position(black=["B113@d4:1x1x3"], lords=("c6", "h8"), turn=3)
    s = play(s, "S")
    with pytest.raises(IllegalMoveError, match="above the towers"):
        G.parse_move(s, "S@d4:n")
    with pytest.raises(InvalidPositionError, match="above the towers"):
        G.position(black=["B111@d4:1x1x1", "B113@d4+1:1x1x3"])


def test_nothing_on_a_tower_or_a_lord():
    s = play(G.position(lords=("c6", "h8"), turn=3), "B122")
    with pytest.raises(IllegalMoveError, match="tower"):
        G.parse_move(s, "B122@b2:1x2x2")
    with pytest.raises(IllegalMoveError, match="Lord"):
        G.parse_move(s, "B122@c5:1x2x2")  # covers c5 and c6, where Black's Lord stands
    s = play(G.position(lords=("c6", "h8"), turn=3), "S")
    with pytest.raises(IllegalMoveError, match="Lord"):
        G.parse_move(s, "S@h8:n")
    agree(s)
    with pytest.raises(InvalidPositionError, match="tower"):
        G.position(white=["B111@i9:1x1x1"])


def test_upside_down_stair_only_nested():
    s = play(G.position(lords=("c6", "h8"), turn=3), "S")
    texts = agree(s)
    assert not any(t.endswith(":u") for t in texts)
    with pytest.raises(IllegalMoveError, match="nested"):
        G.parse_move(s, "S@d4:u")
    s = G.position(black=["S@d4:e"], lords=("c6", "h8"), turn=3)
    s = play(s, "S")
    texts = agree(s)
    assert "S@d4:u" in texts
    with pytest.raises(IllegalMoveError, match="slope carries nothing"):
        G.parse_move(s, "S@d4:n")
    s = play(s, "S@d4:u")
    assert s.board.height(G.pieceset.grid.parse_label("d4")) == 1  # a flat top
    s = play(s, "B111")
    assert "B111@d4+1:1x1x1" in agree(s)  # a block rests on the nested pair


def test_slope_carries_no_block():
    s = play(G.position(black=["S@d4:e"], lords=("c6", "h8"), turn=3), "B111")
    with pytest.raises(IllegalMoveError, match="rest flat"):
        G.parse_move(s, "B111@d4+1:1x1x1")
    assert not any("@d4" in t for t in agree(s))
    with pytest.raises(InvalidPositionError, match="floats"):
        G.position(black=["S@d4:e", "B111@d4+1:1x1x1"])


def test_nesting_on_the_opponents_stair_and_stacking_on_their_blocks():
    s = G.position(white=["S@d4:e", "B112@f4:1x1x2"], lords=("c6", "h8"), turn=3)
    s = play(s, "S")
    assert "S@d4:u" in agree(s)
    s = play(s, "S@d4:u", "B111")
    assert "B111@f4+2:1x1x1" in agree(s)


# -- blocked pieces --------------------------------------------------------------------


def test_piece_blocked_by_a_lord():
    s = G.position(black=["B111@d4:1x1x1"], lords=("d4", "h8"), turn=3)
    with pytest.raises(IllegalMoveError, match="blocked"):
        G.parse_move(s, "B111")
    agree(s)
    s = G.position(black=["B111@d4:1x1x1"], lords=("c6", "h8"), turn=3)
    assert "B111" in agree(s)


def test_piece_blocked_by_a_piece_on_top():
    s = G.position(black=["B111@d4:1x1x1"], white=["B111@d4+1:1x1x1"], lords=("c6", "h8"), turn=3)
    with pytest.raises(IllegalMoveError, match="blocked"):
        G.parse_move(s, "B111")
    agree(s)
    # White may move its top block
    s2 = G.position(black=["B111@d4:1x1x1"], white=["B111@d4+1:1x1x1"], lords=("c6", "h8"), turn=4)
    assert "B111" in agree(s2)
    # an upright stair under a nested one is blocked; the nested one may move
    s3 = G.position(black=["S@d4:e", "S@d4:u"], lords=("c6", "h8"), turn=3)
    texts = agree(s3)
    assert "Sd4" in texts
    s3 = play(s3, "Sd4")
    assert s3.hand == ("S", (G.pieceset.grid.parse_label("d4"), 0, 1, 1))
    assert "S@d4:u" not in agree(s3)  # a move must change the piece's place


ENCLOSED = ["B112@c4:1x1x2", "B113@e4:1x1x3"]
ENCLOSERS = ["B111@d3:1x1x1", "B112@d5:1x1x2"]


@pytest.mark.parametrize(
    ("north", "blocked"),
    [
        ("B112@d5:1x1x2", True),  # a block hides the face
        ("S@d5:s", True),  # the stair's high end faces d4: a full face
        ("S@d5:n", False),  # the stair's low edge faces d4: nothing hidden
        ("S@d5:e", False),  # a triangle hides only half of the face
        (None, False),
    ],
)
def test_piece_blocked_by_four_enclosing_pieces(north, blocked):
    white = ["B111@d3:1x1x1"] + ([north] if north else [])
    s = G.position(black=["B111@d4:1x1x1", *ENCLOSED], white=white, lords=("h1", "h8"), turn=3)
    texts = agree(s)
    assert ("B111" in texts) is not blocked
    if blocked:
        with pytest.raises(IllegalMoveError, match="hide all its sides"):
            G.parse_move(s, "B111")


def test_enclosure_needs_construction_pieces():
    # the board's edge does not hide a face
    s = G.position(
        black=["B111@a4:1x1x1", "B112@b4:1x1x2"], white=ENCLOSERS[:1], lords=("h1", "h8")
    )
    assert "B111" in agree(s)
    # nor does a tower (only construction pieces count)
    s = G.position(
        black=["B111@b3:1x1x1", "B112@a3:1x1x2", "B113@c3:1x1x3"],
        white=["B111@b4:1x1x1"],
        lords=("h1", "h8"),
        turn=3,
    )
    assert "B111" in agree(s)


def test_stair_enclosed_by_matching_faces():
    around = ["B112@e4:1x1x2", "B111@d3:1x1x1"]
    # the upright stair rises east: its high face meets e4, its west edge has no face,
    # its side triangles meet d3 (a block) and d5 (a stair with the same slope)
    s = G.position(black=["S@d4:e", "S@d5:e", *around], lords=("h1", "h8"), turn=3)
    texts = agree(s)
    assert "Sd4" not in texts
    s = G.position(black=["S@d4:e", "S@d5:w", *around], lords=("h1", "h8"), turn=3)
    assert "Sd4" in agree(s)


# -- the Lord --------------------------------------------------------------------------

CHAIN = ["S@d5:e", "B111@e5:1x1x1", "S@e5+1:e", "B112@f5:1x1x2"]


def test_lord_climbs_a_chain_of_two_slopes_in_one_step():
    s = G.position(black=CHAIN, lords=("c5", "h8"), turn=3)
    texts = agree(s)
    assert "Lc5-f5" in texts  # two slopes, one step, two levels up
    assert str(G.parse_move(s, "Lf5")) == "Lc5-f5"
    down = G.position(black=CHAIN, lords=("f5", "h8"), turn=3)
    assert "Lf5-c5" in agree(down)


def test_lord_refused_from_the_side_and_never_stops_on_a_slope():
    s = G.position(black=CHAIN, lords=("d4", "h8"), turn=3)
    agree(s)
    with pytest.raises(IllegalMoveError, match="no step"):
        G.parse_move(s, "Ld4-d5")
    with pytest.raises(IllegalMoveError, match="slope"):
        G.parse_move(s, "Ld5")


def test_broken_chain_is_not_a_path():
    s = G.position(black=["S@d5:e", "S@e5:e", "B112@f5:1x1x2"], lords=("c5", "h8"), turn=3)
    texts = agree(s)
    assert not any(t.endswith("f5") for t in texts if t.startswith("L"))


def test_lord_steps_only_on_the_same_level_and_at_most_three():
    s = G.position(black=["B111@d4:1x1x1"], lords=("c4", "h8"), turn=3)
    texts = agree(s)
    assert "Lc4-d4" not in texts
    assert "Lc4-c5-c6-c7" in texts
    with pytest.raises(IllegalMoveError, match="1, 2 or 3 steps"):
        G.parse_move(s, "Lc4-c5-c6-c7-c8")
    assert str(G.parse_move(s, "Lc4-b4-b5-c5")) == "Lc4-c5"  # any valid path, shortest printed


def test_lords_block_each_other():
    s = G.position(lords=("c5", "d5"), turn=3)
    texts = agree(s)
    assert "Ld5" not in {("L" + t.split("-")[-1]) for t in texts if t.startswith("L")}
    assert not any(t.endswith("-e5") for t in texts)  # e5 needs passing over d5
    with pytest.raises(IllegalMoveError, match="pass over"):
        G.parse_move(s, "Lc5-d5-e5")
    with pytest.raises(IllegalMoveError, match="share"):
        G.parse_move(s, "Ld5")
    free = G.position(lords=("c5", "h8"), turn=3)
    assert "Lc5-d5-e5" in agree(free)


def test_lord_crosses_its_own_tower_but_does_not_stop():
    s = G.position(black=["B113@a2:1x1x3"], white=["B113@c2:1x1x3"], lords=("a2", "h8"), turn=3)
    texts = agree(s)
    assert "La2-b2-c2" in texts
    with pytest.raises(IllegalMoveError, match="own tower"):
        G.parse_move(s, "Lb2")


def test_lord_leaves_the_tower_onto_a_high_block():
    s = play(G.initial_state(), "B113", "B113@b3:1x1x3")
    assert "Lb2-b3" in agree(s)
    s = play(s, "Lb2-b3")
    assert s.to_move == 1 and s.turn == 2 and s.outcome is None


# -- turns -----------------------------------------------------------------------------


def test_turn_structure():
    s = G.initial_state()
    with pytest.raises(IllegalMoveError, match="at least one action"):
        G.parse_move(s, "end")
    with pytest.raises(IllegalMoveError, match="take a piece first"):
        G.parse_move(s, "B111@d4:1x1x1")
    s = play(s, "B111")
    with pytest.raises(IllegalMoveError, match="hold"):
        G.parse_move(s, "S")
    assert all(m.kind == "put" for m in s.legal_moves())
    s = play(s, "B111@d4:1x1x1")
    assert s.to_move == 0
    with pytest.raises(IllegalMoveError, match="block action"):
        G.parse_move(s, "B112")
    s = play(s, "S", "S@e4:n")
    assert s.to_move == 0 and "end" in agree(s)
    s = play(s, "end")
    assert s.to_move == 1 and s.turn == 2 and s.done == 0


def test_no_placement_after_the_lord_moved():
    s = play(G.initial_state(), "B113", "B113@b3:1x1x3", "Lb2-b3")
    # the Lord's move ends the turn: the stair action is lost
    assert s.to_move == 1 and s.reserve_stairs(0) == G.pieceset.stairs
    s = play(s, "B113", "B113@i8:1x1x3", "Li9-i8")
    s = play(s, "S", "S@b4:s")
    assert "end" in agree(s)
    assert not any(m.kind == "take" and m.key[1] == "S" for m in s.legal_moves())


def test_third_turn_rule():
    s = G.initial_state()
    for i in range(5):
        s = play(s, "B111" if i < 2 else ("B112" if i < 4 else "B122"))
        s = play(s, str(s.legal_moves()[0]), "end")
    # Black ended its third turn on its tower: White wins
    assert s.outcome is not None and s.outcome.winner == 1 and s.outcome.reason == "stayed"
    assert s.legal_moves() == []
    # leaving on the third turn is in time
    t = G.initial_state()
    for i in range(4):
        t = play(t, "B111" if i < 2 else "B112")
        t = play(t, str(t.legal_moves()[0]), "end")
    t = play(t, "B113", "B113@b3:1x1x3", "Lb2-b3")
    assert t.outcome is None and t.turn == 6
    t = play(t, "B122")
    t = play(t, str(t.legal_moves()[0]), "end")
    assert t.outcome is not None and t.outcome.winner == 0 and t.outcome.reason == "stayed"


def test_the_win():
    s = G.position(black=["B113@i8:1x1x3"], lords=("i8", "c3"), turn=3)
    assert "Li8-i9" in agree(s)
    s = play(s, "Li9")
    assert s.outcome is not None and s.outcome.winner == 0 and s.outcome.reason == "tower"
    assert s.legal_moves() == []
    with pytest.raises(GameOverError):
        G.parse_move(s, "end")
    # the enemy Lord on its own tower keeps it: no sharing
    s = G.position(black=["B113@i8:1x1x3"], lords=("i8", "i9"), turn=3)
    assert "Li8-i9" not in agree(s)


def pass_position(passes: int = 0):
    """Mini set: Black's pieces are all on the board and blocked, its Lord is stuck."""
    return MINI.parse_position_body(
        "turn=3 lords=b2,c4 "
        "black=B111@d2:1x1x1,B112@d4:2x1x1,B122@a5:2x2x1,S@f1:n,S@c4:e,S@c4:u "
        "white=B111@f6:1x1x1,B112@d4+1:2x1x1,B122@a5+1:2x2x1,S@d2+1:n,S@f1:u,S@a1:n"
        + (f" passes={passes}" if passes else "")
    )


def test_pass_only_when_no_action_is_possible():
    s = pass_position()
    assert agree(s) == {"pass"}
    s = play(s, "pass")
    assert s.to_move == 1 and s.passes == 1 and s.outcome is None
    assert "pass" not in agree(s)
    with pytest.raises(IllegalMoveError, match="pass only"):
        MINI.parse_move(s, "pass")


def test_two_passes_draw():
    s = play(pass_position(passes=1), "pass")
    assert s.outcome is not None and s.outcome.winner is None and s.outcome.reason == "no-action"


def test_repetition_option():
    g = game(pieces="mini", repetition=True)
    s = g.position(lords=("c3", "d4"), turn=3)
    for _ in range(2):
        s = play(s, "Lc3-c2", "Ld4-d5", "Lc2-c3", "Ld5-d4")
    assert s.outcome is not None and s.outcome.reason == "repetition"
    assert g.parse_position(s.to_text()) == s
    plain = game(pieces="mini")
    t = plain.position(lords=("c3", "d4"), turn=3)
    for _ in range(2):
        t = play(t, "Lc3-c2", "Ld4-d5", "Lc2-c3", "Ld5-d4")
    assert t.outcome is None


def test_repetition_restarts_after_a_piece_leaves_a_reserve():
    g = game(pieces="mini", repetition=True)
    s = g.position(lords=("c3", "d4"), turn=3)
    s = play(s, "Lc3-c2", "Ld4-d5", "Lc2-c3", "Ld5-d4", "B111", "B111@a6:1x1x1", "end")
    assert len(s.history) == 1


def test_move_limit_option():
    g = game(max_turns=2)
    s = play(g.initial_state(), "B111", "B111@d4:1x1x1", "end", "S", "S@e5:n", "end")
    assert s.outcome is not None and s.outcome.reason == "move-limit" and s.outcome.winner is None


def test_lord_crosses_a_ridge_in_one_step():
    # d5 rises east to level 1, e5 falls east back to the board: a continuous path
    s = G.position(black=["S@d5:e", "S@e5:w"], lords=("c5", "h8"), turn=3)
    texts = agree(s)
    assert "Lc5-f5" in texts
    # the step lands on the first flat square beyond, which must be at the chain's end height
    s = G.position(black=["S@d5:e", "S@e5:w", "B111@f5:1x1x1"], lords=("c5", "h8"), turn=3)
    assert not any(t.endswith("f5") for t in agree(s) if t.startswith("L"))
