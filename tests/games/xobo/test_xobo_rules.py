"""Each rule of docs/rules/xobo.md on hand-built positions (diagrams: row 9 on top)."""

from __future__ import annotations

import pytest

from tablier.core.errors import IllegalMoveError, InvalidPositionError
from tablier.games import get

from .helpers import build, cell, texts

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")

NS, EW = 0, 1

# East-West threatens on rows 7 and 3 (a double attack); North-South to move.
DOUBLE_ATTACK = """
.........
.........
oooo.oooo
.........
.........
.........
ooo.ooooo
.........
.........
"""

# North-South (d6-d9 and f1-f4) and East-West (a4-d4 and f6-i6) both wait for e5,
# which touches all four half-chains by its corners: a blocus.
BLOCUS = """
...o.....
...o.....
...o.....
...o.oooo
.........
oooo.o...
.....o...
.....o...
.....o...
"""


def play(state, text):
    return state.apply(state.game.parse_move(state, text))


# -- connection -------------------------------------------------------------------------


def test_chain_by_corners_connects_north_and_south():
    state = build(
        """
        ....o....
        ...o.....
        ....o....
        .....o...
        ....o....
        ...o.....
        ...o.....
        ....o....
        .........
        """,
        side="ns",
    )
    assert state.outcome is None
    after = play(state, "e1")
    assert after.outcome.winner == NS and after.outcome.reason == "connection"


def test_stacks_never_count_in_a_chain():
    state = build(
        """
        ....o....
        ....o....
        ....o....
        ....o....
        ....3....
        ....o....
        ....o....
        ....o....
        ....o....
        """,
        side="ew",
    )
    assert state.outcome is None
    assert not state.connected(NS)


def test_corner_cells_belong_to_both_edges():
    # the long diagonal touches all four edges through its corners
    diagonal = """
        ........o
        .......o.
        ......o..
        .....o...
        ....o....
        ...o.....
        ..o......
        .o.......
        .........
        """
    state = build(diagonal, side="ew")
    after = play(state, "a1")
    assert after.outcome.winner == NS and after.outcome.reason == "blocus"
    state = build(diagonal, side="ns")
    after = play(state, "a1")
    assert after.outcome.winner == EW and after.outcome.reason == "blocus"


def test_cubes_serve_whoever_they_connect():
    # the same cubes make East-West's row; North-South placing the gap loses
    state = build(
        """
        .........
        .........
        .........
        .........
        oooo.oooo
        .........
        .........
        .........
        .........
        """,
        side="ns",
    )
    assert "e5" in texts(state)  # a losing placement is still offered
    after = play(state, "e5")
    assert after.outcome.winner == EW and after.outcome.reason == "blocus"
    assert after.legal_moves() == []


# -- voyna ---------------------------------------------------------------------------------


def test_voyna_is_announced_by_a_threatening_move():
    state = build(
        """
        .........
        .........
        .........
        .........
        ooo..oooo
        .........
        .........
        .........
        .........
        """,
        side="ew",
    )
    assert not state.voyna
    after = play(state, "d5")
    assert after.voyna and after.to_move == NS
    assert state.game.move_text(state, state.game.parse_move(state, "d5")) == "d5 (v)"
    threats = after.threats(EW)
    assert threats == sum(1 << cell(c) for c in ("e4", "e5", "e6"))


def test_no_voyna_without_a_cube_to_place():
    state = build(DOUBLE_ATTACK, side="ns", reserves=(20, 0), common=0)
    assert state.threats(EW)
    assert not state.voyna
    assert all(m.kind == "place" for m in state.legal_moves())


def test_double_attack_only_one_half_can_be_stacked_away():
    state = build(DOUBLE_ATTACK, side="ns")
    assert state.voyna
    stackings = [m for m in state.legal_moves() if m.kind == "stack"]
    assert "a7->c7" in {str(m) for m in stackings}
    assert "a3->c3" in {str(m) for m in stackings}
    # stacking one line away leaves the other threat standing
    after = play(state, "a7->c7")
    assert after.threats(EW) and not after.voyna  # North-South announced nothing
    assert play(after, "d3").outcome.winner == EW
    # whatever North-South does, East-West has a winning reply
    for move in state.legal_moves():
        nxt = state.apply(move)
        if nxt.outcome is not None:
            assert nxt.outcome.winner == EW
            continue
        assert any(
            (r := nxt.apply_unchecked(reply)).outcome is not None and r.outcome.winner == EW
            for reply in nxt.legal_moves()
        ), str(move)


def test_blocus_no_voyna_and_no_stacking():
    state = build(BLOCUS, side="ew")
    assert state.threats(NS) == 0 and state.threats(EW) == 0
    assert not state.voyna
    assert all(m.kind == "place" for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="no voyna"):
        state.game.parse_move(state, "a4->c4")
    # the completing cell joins all four edges: whoever fills it loses
    assert play(state, "e5").outcome.winner == NS
    assert play(build(BLOCUS, side="ns"), "e5").outcome.winner == EW


def test_blocus_outcome_reason():
    after = play(build(BLOCUS, side="ew"), "e5")
    assert after.outcome.reason == "blocus"


# -- stacking ------------------------------------------------------------------------------

# East-West threatens at i1-i3; a run of five single cubes stands on row 8.
LONG_RUN = """
.........
.ooooo...
.........
.........
.........
.........
.........
oooooooo.
.........
"""


def test_stacking_refused_without_voyna():
    state = build(LONG_RUN, side="ew")  # North-South moved last and threatens nothing
    assert not state.voyna
    with pytest.raises(IllegalMoveError, match="no voyna to answer"):
        state.game.parse_move(state, "b8->d8")


def row8(state):
    return {str(m) for m in state.legal_moves() if m.kind == "stack" and str(m).count("8") == 2}


def test_stack_from_a_longer_alignment():
    state = build(LONG_RUN, side="ns")
    assert state.voyna
    assert row8(state) == {
        "b8->d8", "d8->b8", "c8->e8", "e8->c8", "d8->f8", "f8->d8",
        "b8->e8", "e8->b8", "c8->f8", "f8->c8", "b8->f8", "f8->b8",
    }  # fmt: skip
    after = play(state, "b8->e8")
    assert [after.height(c) for c in ("b8", "c8", "d8", "e8", "f8")] == [0, 0, 0, 4, 1]
    assert after.common == state.common and after.reserves == state.reserves


def test_ten_point_rules_stack_exactly_three():
    game = get("xobo", stack="three")
    state = build(LONG_RUN, side="ns", game=game)
    assert row8(state) == {"b8->d8", "d8->b8", "c8->e8", "e8->c8", "d8->f8", "f8->d8"}
    with pytest.raises(IllegalMoveError, match="exactly three"):
        game.parse_move(state, "b8->e8")


def test_stack_that_could_never_be_distributed_is_refused():
    state = build(
        """
        .........
        oooooooo.
        .........
        .........
        ....o....
        ...o.....
        ..o......
        .o.......
        o........
        """,
        side="ns",
    )
    assert state.voyna
    moves = texts(state)
    assert "e5->a1" in moves  # five cubes on a1: eight cells to the corner i9
    assert "a1->e5" not in moves  # five cubes on e5: at most four cells to any edge
    with pytest.raises(IllegalMoveError, match="unplayable stack"):
        state.game.parse_move(state, "a1->e5")
    assert "a1->d4" in moves and "b2->e5" in moves  # four cubes fit on e5


def test_stack_must_be_a_run_of_single_cubes():
    state = build(
        """
        .........
        oooooooo.
        .........
        .........
        .........
        .........
        .........
        ..oo.o...
        .........
        """,
        side="ns",
    )
    with pytest.raises(IllegalMoveError, match="not a run of single cubes: e2 is empty"):
        state.game.parse_move(state, "c2->e2")
    with pytest.raises(IllegalMoveError, match="not a straight run"):
        state.game.parse_move(state, "c2->f3")
    with pytest.raises(IllegalMoveError, match="at least three"):
        state.game.parse_move(state, "c2->d2")


# -- distribution --------------------------------------------------------------------------

STACKS = """
.........
.......4.
.........
.....o...
..314....
.........
..313....
......3..
3oo......
"""


def test_distribution_running_off_the_board_is_refused():
    state = build(STACKS)
    with pytest.raises(IllegalMoveError, match="run off the board"):
        state.game.parse_move(state, "h8xi9")
    assert "h8xi9" not in texts(state)


def test_distribution_capturing_nothing_is_refused():
    state = build(STACKS)
    with pytest.raises(IllegalMoveError, match="captures nothing"):
        state.game.parse_move(state, "g2xg3")
    # g2's only capturing direction is north-west, through d5's single cube
    assert {t for t in texts(state) if t.startswith("g2x")} == {"g2xf3"}


def test_distribution_onto_an_existing_stack():
    state = build(STACKS, side="ew")
    after = play(state, "c3xd3")
    assert [after.height(c) for c in ("c3", "d3", "e3", "f3")] == [0, 0, 4, 1]
    assert after.reserves == (0, 2)  # the pair on d3 goes to the distributor
    assert after.cubes_on_board + after.common + sum(after.reserves) == 36


def test_distribution_growing_a_stack_too_high_is_refused():
    state = build(STACKS)
    with pytest.raises(IllegalMoveError, match="grow the stack on e5 to 5"):
        state.game.parse_move(state, "c3xd4")
    assert "c3xd4" not in texts(state)


def test_distribution_capturing_two_piles():
    state = build(STACKS, side="ns", reserves=(1, 0))
    after = play(state, "a1xb1")
    assert [after.height(c) for c in ("a1", "b1", "c1", "d1")] == [0, 0, 0, 1]
    assert after.reserves == (5, 0)


def test_any_player_may_distribute_any_stack():
    for side in ("ns", "ew"):
        assert "a1xb1" in texts(build(STACKS, side=side))


def test_distribution_needs_a_stack_and_a_neighbouring_direction():
    state = build(STACKS)
    with pytest.raises(IllegalMoveError, match="holds no stack"):
        state.game.parse_move(state, "d5xe5")
    with pytest.raises(IllegalMoveError, match="not next to"):
        state.game.parse_move(state, "c3xe3")


# -- reserves and exhaustion ---------------------------------------------------------------

# 36 cubes in 2 x 2 blocks: nobody is connected.
BLOCKS = """
.........
oo.oo.oo.
oo.oo.oo.
.........
oo.oo.oo.
oo.oo.oo.
.........
oo.oo.oo.
oo.oo.oo.
"""

BLOCKS_WITH_STACK = """
.........
oo.oo....
oo.oo.3..
.........
oo.oo.oo.
oo.oo.oo.
.........
oo.oo.oo.
oo.oo.oo.
"""


def test_reserves_switch_from_common_to_personal():
    state = build(
        """
        .........
        .........
        o.......o
        .........
        .........
        .........
        .........
        .........
        .........
        """,
        reserves=(16, 17),
        common=1,
    )
    s1 = play(state, "e5")  # the last cube of the common reserve
    assert (s1.common, s1.reserves) == (0, (16, 17))
    s2 = play(s1, "e6")  # then each player's own
    assert (s2.common, s2.reserves) == (0, (16, 16))
    s3 = play(s2, "e7")
    assert (s3.common, s3.reserves) == (0, (15, 16))


def test_exhaustion_by_moves():
    state = build(BLOCKS, side="ew", common=0)
    assert state.outcome is not None
    assert state.outcome.winner == NS and state.outcome.reason == "exhaustion"
    assert state.legal_moves() == []
    # with a stack to distribute, East-West can still play (and only that)
    state = build(BLOCKS_WITH_STACK, side="ew", reserves=(1, 0), common=0)
    assert state.outcome is None
    assert {m.kind for m in state.legal_moves()} == {"distribute"}


def test_exhaustion_by_cubes_is_immediate():
    game = get("xobo", exhaustion="cubes")
    state = build(BLOCKS_WITH_STACK, side="ew", reserves=(1, 0), common=0, game=game)
    assert state.outcome.winner == NS and state.outcome.reason == "exhaustion"
    # the player who just moved is out of cubes while the other still has some
    state = build(BLOCKS_WITH_STACK, side="ns", reserves=(1, 0), common=0, game=game)
    assert state.outcome.winner == NS  # East-West, who moved last, has none
    default = build(BLOCKS_WITH_STACK, side="ns", reserves=(1, 0), common=0)
    assert default.outcome is None


def test_exhaustion_after_the_last_common_cube():
    one_missing = BLOCKS.replace("oo.oo.oo.\n", "oo.oo.o..\n", 1)
    game = get("xobo", exhaustion="cubes")
    state = build(one_missing, side="ns", common=1, game=game)
    assert state.outcome is None
    after = play(state, "a9")
    assert after.common == 0 and after.outcome.winner == NS
    assert after.outcome.reason == "exhaustion"
    # under the XoBo rule East-West has no move at all, so loses the same way
    state = build(one_missing, side="ns", common=1)
    after = play(state, "a9")
    assert after.outcome.winner == NS and after.outcome.reason == "exhaustion"


def test_a_distribution_can_announce_voyna_by_breaking_a_blocus():
    # BLOCUS with a stack of three on d1: distributing it north captures d4, which cuts
    # East-West's half-chain away from e5; e5 then wins for North-South alone.
    diagram = BLOCUS.strip().splitlines()
    diagram[8] = "...3.o..."
    game = get("xobo", voyna="any-move")
    state = build("\n".join(diagram), side="ns", game=game)
    assert not state.voyna
    move = state.game.parse_move(state, "d1xd2")
    assert state.game.move_text(state, move) == "d1xd2 (v)"
    after = state.apply(move)
    assert after.voyna and not after.silent and after.reserves == (2, 0)
    assert after.threats(NS) == 1 << cell("e5")
    # East-West may now stack, e.g. the column d6-d9
    assert "d6->d8" in texts(after)
    assert not play(after, "d6->d8").threats(NS)


# -- which moves announce voyna (option voyna) ----------------------------------------------

# North-South to move: e1-e3 and e6-e9 leave e4 and e5 empty.  Distributing the stack on b4
# east captures c4 and puts single cubes on d4 and e4: d5, e5 or f5 then joins rows 1 and 9.
SILENT = """
....o....
....o....
....o....
....o....
.........
.3o......
....o....
....o....
....o....
"""
ROW5 = sum(1 << cell(label) for label in ("d5", "e5", "f5"))


def test_the_default_reading_follows_each_write_up():
    assert get("xobo").options["voyna"] == "placement"  # [X] "en posant un cube"
    ten_point = get("xobo", stack="three", exhaustion="cubes")
    assert ten_point.options["voyna"] == "any-move"  # [K] "par son dernier coup"
    assert get("xobo", stack="three").options["voyna"] == "placement"
    assert get("xobo", exhaustion="cubes").options["voyna"] == "placement"


@pytest.mark.parametrize("rules", [{}, {"stack": "three", "exhaustion": "cubes"}])
def test_a_distribution_that_makes_a_threat_announces_voyna_under_any_move(rules):
    game = get("xobo", **rules, voyna="any-move")
    state = build(SILENT, game=game)
    move = game.parse_move(state, "b4xc4")
    assert game.move_text(state, move) == "b4xc4 (v)"
    after = state.apply(move)
    assert after.threats(NS) == ROW5 and after.reserves == (2, 0)
    assert after.voyna and not after.silent and after.to_text().endswith(" ew 25/2/0 v")
    assert "e1->e3" in texts(after)  # East-West may stack to defend


@pytest.mark.parametrize("rules", [{}, {"stack": "three", "exhaustion": "cubes"}])
def test_a_distribution_that_makes_a_threat_is_silent_under_placement(rules):
    game = get("xobo", **rules, voyna="placement")
    state = build(SILENT, game=game)
    move = game.parse_move(state, "b4xc4")
    assert game.move_text(state, move) == "b4xc4"
    with pytest.raises(IllegalMoveError, match="only a placement announces it"):
        game.parse_move(state, "b4xc4 (v)")
    after = state.apply(move)
    # The threat stands (d5, e5 or f5 wins next turn) but no voyna was announced: no stacking.
    assert after.threats(NS) == ROW5
    assert after.silent and not after.voyna and after.outcome is None
    assert not any("->" in t for t in texts(after))
    with pytest.raises(IllegalMoveError, match="no voyna to answer"):
        play(after, "e1->e3")
    assert after.to_text().endswith(" ew 25/2/0 -")
    # East-West has no defence left: no stack to distribute, no blocus to make.
    for reply in after.legal_moves():
        nxt = after.apply(reply)
        assert nxt.outcome is not None or nxt.threats(NS), reply
    assert play(play(after, "a1"), "e5").outcome.winner == NS


def test_a_silent_threat_is_part_of_the_position():
    game = get("xobo")
    after = play(build(SILENT, game=game), "b4xc4")
    text = after.to_text()
    again = game.parse_position(text)
    assert again == after and again.silent and hash(again) == hash(after)
    # the same board after a placement: the threat is a voyna, the states differ
    announced = game.parse_position(text[:-1] + "v")
    assert announced.voyna and not announced.silent and announced != after
    # without the flag, voyna follows from the threat, as if the last move were a placement
    assert game.parse_position(text[:-2]) == announced
    # under the broad reading a '-' contradicts the threat
    with pytest.raises(InvalidPositionError, match="is under voyna"):
        get("xobo", voyna="any-move").parse_position_body(text.split(" ", 1)[1])


def test_a_placement_while_a_silent_threat_stands_announces_voyna():
    # Interpretation: "en posant un cube, menace de gagner" holds whenever the player
    # threatens after a placement, even if the threat came from an earlier distribution.
    game = get("xobo")
    after = play(play(build(SILENT, game=game), "b4xc4"), "a9")  # East-West does not defend
    assert after.to_move == NS and after.outcome is None
    again = play(after, "a8")  # North-South places elsewhere instead of winning
    assert again.voyna and not again.silent and again.threats(NS) == ROW5
    assert game.move_text(after, game.parse_move(after, "a8")) == "a8 (v)"


def test_a_stacking_that_makes_a_threat_is_silent_under_placement():
    # Found in random games: a stacking that answers a voyna and leaves its maker
    # threatening to win (the reference test checks every such move).
    from .helpers import random_plays

    for voyna, found in (("placement", "silent"), ("any-move", "voyna")):
        game = get("xobo", voyna=voyna)
        seen = 0
        for state, _ in random_plays(game, seed=2024, count=220):
            for move in state.legal_moves():
                if move.kind != "stack":
                    continue
                after = state.apply_unchecked(move)
                if (
                    after.outcome is None
                    and after.threats(state.to_move)
                    and (after.common or after.reserves[state.to_move])
                ):
                    assert getattr(after, found) and not getattr(
                        after, "voyna" if found == "silent" else "silent"
                    )
                    seen += 1
        assert seen > 5, (voyna, seen)
