"""One test (at least) for each rule of ``docs/rules/volo.md``, on hand-built positions.

Each test names the rule (R-n) or interpretation (I-n) it checks.  Every
hand-built position is also run through :func:`test_reference.compare`, so the
engine and the independent reference agree on it move by move.
"""

from __future__ import annotations

import pytest

import tablier.games
from tablier.core.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)

from .test_reference import compare

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")


def volo(**options):
    return tablier.games.get("volo", **options)


def build(orange: str, blue: str, to_move: int = 0, game=None, **kw):
    """A hand-built position; the engine and the reference must agree on it."""
    game = game or volo()
    state = game.position(orange.split(), blue.split(), to_move=to_move, **kw)
    compare(state)
    return state


def notations(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def flights_from(state, cell: str) -> set[str]:
    return {str(m) for m in state.legal_moves() if m.kind == "fly" and cell in m.source}


def refused(state, text: str, error=IllegalMoveError, match: str | None = None) -> str:
    """Parse ``text``, expect ``error`` matching ``match``; the state must not change."""
    before = state.to_text()
    moves_before = [str(m) for m in state.legal_moves()]
    with pytest.raises(error, match=match) as info:
        state.game.parse_move(state, text)
    assert state.to_text() == before
    assert [str(m) for m in state.legal_moves()] == moves_before
    return str(info.value)


# -- R-1 board and coordinates (I-1, I-2) ------------------------------------------------


@pytest.mark.parametrize(("board", "count", "edge"), [("standard", 120, 7), ("mini", 84, 6)])
def test_board_cells(board, count, edge):
    game = volo(board=board)
    cells = game.cells
    assert len(cells) == len(set(cells)) == count
    top = 2 * edge - 2
    expected = set()
    for q in range(top + 1):
        for r in range(top + 1):
            if abs(q - r) <= edge - 1:
                expected.add(f"{chr(97 + q)}{r + 1}")
    n = edge
    holes = [(0, 0), (n - 1, 0), (top, n - 1), (top, top), (n - 1, top), (0, n - 1)]
    holes.append((n - 1, n - 1))
    for q, r in holes:
        expected.discard(f"{chr(97 + q)}{r + 1}")
    assert set(cells) == expected


def test_standard_board_corner_and_centre_are_not_cells():
    state = volo().initial_state()
    for text, what in [
        ("a1", "corner"),
        ("g1", "corner"),
        ("m7", "corner"),
        ("m13", "corner"),
        ("g13", "corner"),
        ("a7", "corner"),
        ("g7", "centre"),
    ]:
        refused(state, text, InvalidMoveError, what)


# -- R-3 setup (I-3, I-4) and supplies (R-2, I-5) ----------------------------------------


@pytest.mark.parametrize(
    ("board", "setup", "orange", "blue", "total"),
    [
        ("standard", "nests", {"b2", "l7", "g12"}, {"g2", "l12", "b7"}, 60),
        ("mini", "nests", {"b2", "j6", "f10"}, {"f2", "j10", "b6"}, 50),
        ("standard", "centre", {"h7", "g8", "f6"}, {"h8", "f7", "g6"}, 60),
        ("mini", "centre", {"g6", "f7", "e5"}, {"g7", "e6", "f5"}, 50),
    ],
)
def test_setup(board, setup, orange, blue, total):
    state = volo(board=board, setup=setup).initial_state()
    assert state.birds(0) == orange
    assert state.birds(1) == blue
    assert state.supply(0) == state.supply(1) == total - 3
    assert state.to_move == 0  # Orange moves first
    assert state.passes == 0 and state.outcome is None
    compare(state)


def test_supply_option_overrides_total():
    state = volo(board="mini", supply=20).initial_state()
    assert state.supply(0) == state.supply(1) == 17


# -- R-4 turns, R-5 adding a bird (I-7, I-8) ---------------------------------------------


def test_placement_anywhere_else():
    state = build("e5 k10", "b2 b3 a3 l12")
    places = {str(m) for m in state.legal_moves() if m.kind == "place"}
    assert {"h8", "l13", "b1", "a6", "m9", "k5"} <= places
    after = state.apply(state.game.parse_move(state, "h8"))
    assert after.birds(0) == {"e5", "k10", "h8"}
    assert after.supply(0) == state.supply(0) - 1
    assert after.to_move == 1


def test_placement_refused_next_to_a_friend():
    state = build("e5 k10", "b2 b3 a3 l12")
    for cell in ("e6", "f6", "d4", "d5", "e4", "f5"):
        assert cell not in notations(state)
        refused(state, cell, match="next to a bird of Orange")


def test_placement_refused_inside_opponent_region():
    # a2 is walled in by Blue's b2, b3, a3 and the missing corner a1: no open path
    # (empty cells or Orange birds) leads from a2 to an Orange bird.
    state = build("e5 k10", "b2 b3 a3 l12")
    assert "a2" not in notations(state)
    refused(state, "a2", match="region controlled by Blue")
    # For Blue, a2 lies in its own region but touches Blue's b2.
    blue = build("e5 k10", "b2 b3 a3 l12", to_move=1)
    refused(blue, "a2", match="next to a bird of Blue")


def test_placement_refused_on_occupied_cell():
    state = build("e5 k10", "b2 b3 a3 l12")
    refused(state, "b2", match="occupied by a bird of Blue")
    refused(state, "e5", match="occupied by a bird of Orange")


def test_supply_exhaustion():
    # With 3 birds each, nobody has a bird in supply: no placement at all, and at the
    # start no flight either, so the only decision is to pass.
    game = volo(supply=3)
    state = game.initial_state()
    assert state.supply(0) == 0
    refused(state, "e5", match="no bird left in supply")
    assert notations(state) == {"pass"}
    compare(state)
    # Placing the last bird of the supply empties it; flights are still allowed.
    game = volo(supply=4)
    state = build("d4 f5 j5", "b7 l12", game=game)
    assert state.supply(0) == 1
    after = state.apply(game.parse_move(state, "k10"))
    assert after.supply(0) == 0
    after = after.apply(game.parse_move(after, "m9"))
    assert not any(m.kind == "place" for m in after.legal_moves())
    assert any(m.kind == "fly" for m in after.legal_moves())
    refused(after, "h8", match="no bird left in supply")
    compare(after)


# -- R-6..R-8 flying (I-9, I-10, I-11) ---------------------------------------------------


def test_single_bird_flies_past_friends():
    # d4 flies east along row 4: it may stop on e4 or f4 (next to f5), fly on past f5
    # without stopping, and stop on i4 or j4 (next to j5).  g4 and h4 touch no friend.
    state = build("d4 f5 j5", "b7 l12")
    targets = {m.split("-")[1] for m in flights_from(state, "d4")}
    east = {f"d4-{t}" for t in targets if t[1:] == "4" and t[0] > "d"}
    assert east == {"d4-e4", "d4-f4", "d4-i4", "d4-j4"}
    refused(state, "d4-g4", match="enlarge")
    refused(state, "d4-h4", match="enlarge")
    refused(state, "d4-k4", InvalidMoveError, "unknown cell")
    after = state.apply(state.game.parse_move(state, "d4-i4"))
    assert after.birds(0) == {"i4", "f5", "j5"}
    assert after.supply(0) == state.supply(0)


def test_single_bird_cannot_jump():
    # A bird on the path blocks a flight (the seeds: "over vacant spaces"): Blue on e4.
    state = build("d4 f5 j5", "e4 b7 l12")
    refused(state, "d4-f4", match="path is blocked at e4")
    refused(state, "d4-i4", match="path is blocked at e4")
    # a friendly bird blocks as well: birds never jump
    state = build("d4 f4 j5", "b7 l12")
    assert "d4-e4" in notations(state)
    refused(state, "d4-i4", match="path is blocked at f4")


def test_three_bird_line_in_file_and_side_by_side():
    state = build("b5 c5 d5 i5 c9", "l12 m10")
    moves = notations(state)
    # in file (along the line's own axis), east: only 4 steps lands next to i5
    assert "b5:d5-f5" in moves
    for text in ("b5:d5-c5", "b5:d5-d5", "b5:d5-e5"):
        refused(state, text, match="enlarge")
    refused(state, "b5:d5-g5", match="path is blocked at i5")
    # side by side, north: 3 steps lands b8 c8 d8 next to c9; 4 steps leaves the sky
    assert "b5:d5-b8" in moves
    refused(state, "b5:d5-b7", match="enlarge")
    refused(state, "b5:d5-b9", InvalidMoveError, "unknown cell")
    # the line may be named from either end; the named first end lands on the target
    assert str(state.game.parse_move(state, "d5:b5-h5")) == "b5:d5-f5"
    after = state.apply(state.game.parse_move(state, "b5:d5-f5"))
    assert after.birds(0) == {"f5", "g5", "h5", "i5", "c9"}
    after = state.apply(state.game.parse_move(state, "b5:d5-b8"))
    assert after.birds(0) == {"b8", "c8", "d8", "i5", "c9"}


def test_line_in_file_several_distances():
    # Like figure 5 of the seeds: the line b5 c5 d5 flies in file along row 5 past
    # empty sky and may stop after 5, 6 or 7 steps, each time touching j6.
    state = build("b5 c5 d5 j6", "l12 m10")
    east = {m for m in notations(state) if m.startswith("b5:d5-") and m.endswith("5")}
    assert east == {"b5:d5-g5", "b5:d5-h5", "b5:d5-i5"}


def test_line_vacated_cells_count_as_free():
    # A two-bird line in file moves one step: the rear bird lands where the front bird was.
    state = build("d4 e4 g5", "b7 l12")
    assert "d4:e4-e4" in notations(state)
    after = state.apply(state.game.parse_move(state, "d4:e4-e4"))
    assert after.birds(0) == {"e4", "f4", "g5"}


def test_rearrangement_that_stays_whole_and_grows_is_legal():
    # d5 e5 is one flock; e5 moves to e6, still touching d5 and now touching f7.
    state = build("d5 e5 f7 k10", "b7 l12")
    assert "e5-e6" in notations(state)
    after = state.apply(state.game.parse_move(state, "e5-e6"))
    assert {"d5", "e6", "f7"} in [set(f) for f in after.flocks(0)]


def test_rearrangement_that_splits_is_illegal():
    # c5 d5 e5: d5 moves to d6, next to d7 and c5 but no longer to e5: the flock splits.
    state = build("c5 d5 e5 d7", "b7 l12")
    assert "d5-d6" not in notations(state)
    refused(state, "d5-d6", match="split")


def test_rearrangement_that_does_not_grow_is_illegal():
    state = build("d5 e5 k10", "b7 l12")
    assert "e5-e6" not in notations(state)
    refused(state, "e5-e6", match="enlarge")


def test_only_own_birds_fly():
    state = build("b5 c5 d5 i5 c9", "l12 m10")
    refused(state, "l12-l11", match="holds a bird of Blue")
    refused(state, "a5-a6", match="holds no bird")
    refused(state, "b5:e5-b8", match="e5 holds no bird")


def test_cells_not_in_one_line():
    state = build("b5 c5 d5 i5 c9", "l12 m10")
    refused(state, "b5:c7-f5", match="not in one straight line")
    refused(state, "c9-e10", match="not a flight in a straight line")


# -- R-9..R-11 regions and the end (I-12..I-17) ------------------------------------------

# Three Orange walls meet around the empty d4: east e4..j4, north d5..d10, south-west
# c3 b2 (with the missing corner a1).  Filling d4 cuts the sky into region A (north-east,
# Blue h8 and k8), B (west, Blue a4 and a6) and C (south, Blue f2).  Orange's d1 can fly
# d1-d4, joining the three walls.
WALLS = "e4 f4 g4 h4 i4 j4 d5 d6 d7 d8 d9 d10 c3 b2 d1"
BLUE_ABC = "h8 k8 a4 a6 f2"


def test_three_regions_each_choice():
    state = build(WALLS + " k10", BLUE_ABC)
    moves = {m for m in notations(state) if m.startswith("d1-d4")}
    assert moves == {"d1-d4/h8", "d1-d4/a4", "d1-d4/f2"}
    game = state.game
    keep_a = state.apply(game.parse_move(state, "d1-d4/h8"))
    assert keep_a.birds(1) == {"h8", "k8"}
    assert keep_a.supply(1) == state.supply(1) + 3
    assert keep_a.outcome is None
    keep_b = state.apply(game.parse_move(state, "d1-d4/a4"))
    assert keep_b.birds(1) == {"a4", "a6"}
    assert keep_b.supply(1) == state.supply(1) + 3
    assert keep_b.outcome is None
    # any cell of the region names it, an empty one too
    assert game.parse_move(state, "d1-d4/c4") == game.parse_move(state, "d1-d4/a6")
    assert game.parse_move(state, "d1-d4/d1") == game.parse_move(state, "d1-d4/f2")
    # birds on the board plus supply stay constant for both sides
    for after in (keep_a, keep_b):
        for p in (0, 1):
            assert len(after.birds(p)) + after.supply(p) == 60


def test_clearing_that_leaves_opponent_one_flock_loses():
    state = build(WALLS + " k10", BLUE_ABC)
    keep_c = state.apply(state.game.parse_move(state, "d1-d4/f2"))
    assert keep_c.birds(1) == {"f2"}
    assert keep_c.outcome is not None
    assert keep_c.outcome.winner == 1 and keep_c.outcome.reason == "opponent-flock"
    assert keep_c.legal_moves() == []


def test_region_choice_errors():
    state = build(WALLS + " k10", BLUE_ABC)
    message = refused(state, "d1-d4", match="3 regions")
    assert "/" in message
    refused(state, "d1-d4/e4", match="not in one of the regions")
    refused(state, "d1-d4/q1", InvalidMoveError, "unknown cell")
    plain = build("d5 e5 f7 k10", "b7 l12")
    refused(plain, "e5-e6/a2", match="does not divide")


def test_win_with_simultaneous_division_clears_nothing():
    # Without k10, d1-d4 gathers every Orange bird into one flock: Orange wins at once,
    # although Blue's birds now lie in three regions; nothing is removed, no choice.
    state = build(WALLS, BLUE_ABC)
    wins = [m for m in state.legal_moves() if str(m).startswith("d1-d4")]
    assert [str(m) for m in wins] == ["d1-d4"]
    after = state.apply(wins[0])
    assert after.outcome.winner == 0 and after.outcome.reason == "flock"
    assert after.birds(1) == set(BLUE_ABC.split())
    assert after.supply(1) == state.supply(1)
    assert after.legal_moves() == []
    refused(after, "pass", GameOverError, "over")
    refused(after, "h8", GameOverError, "over")


def test_placement_never_divides_the_opponent():
    # A cut cell of the opponent's regions touches Orange birds on two sides, so Orange
    # may never add a bird there: d4, the hub of the three walls, is refused; only a
    # flight divides (R-5, consequence).
    state = build(WALLS + " k10", BLUE_ABC)
    refused(state, "d4", match="next to a bird of Orange")
    assert all(m.keep is None for m in state.legal_moves() if m.kind == "place")


def test_parsed_position_is_read_as_if_the_other_side_had_just_moved():
    # Blue to move: Orange (who "just moved") is one flock -> Orange has won.
    won = build("e5 e6", "b7 l12", to_move=1)
    assert (won.outcome.winner, won.outcome.reason) == (0, "flock")
    # Orange to move and Orange already one flock, Blue not: Orange wins as well.
    lost = build("e5 e6", "b7 l12", to_move=0)
    assert (lost.outcome.winner, lost.outcome.reason) == (0, "opponent-flock")
    # both one flock: the side that just moved wins
    both = build("e5 e6", "l12", to_move=0)
    assert (both.outcome.winner, both.outcome.reason) == (1, "flock")


def test_impossible_positions_are_refused():
    game = volo()
    with pytest.raises(InvalidPositionError, match="no bird"):
        game.position([], ["e5"])
    with pytest.raises(InvalidPositionError, match="regions"):
        game.position(["a2", "k10"], ["b2", "b3", "a3", "l12"])
    with pytest.raises(InvalidPositionError):
        game.position(["e5"], ["e5"])
    with pytest.raises(InvalidPositionError, match="must make 60"):
        game.position(["e5"], ["l12"], supply=(60, 59))
    with pytest.raises(InvalidPositionError):
        game.position(["z5"], ["l12"])


# -- passing ------------------------------------------------------------------

# Orange's own region: the flock e1 e2 f3 g4 h4 i4 i3 walls in the pocket f1 f2 g2 h2 g3 h3
# at the missing corner g1; only g2 is not next to an Orange bird.  Orange's other bird b1
# reaches the flock through the corridor c2 d2; Blue walls in everything else.  No
# Orange flight can join b1 and the flock: nothing can land next to b1 but on c2, reached
# only from d2 (R-13, I-19).
RING = "e1 e2 f3 g4 h4 i4 i3"
WALL = "c1 b2 c3 d3 d1 e3 f4 g5 h5 i5 j4 j5"
FULL_RING = RING + " f1 f2 g3 h3"  # the pocket filled: 12 Orange birds


def test_optional_pass_current_edition():
    state = build("b1 " + RING, WALL)
    assert notations(state) == {"g2", "pass"}
    after = state.apply(state.game.parse_move(state, "pass"))
    assert after.passes == 1 and after.to_move == 1 and after.outcome is None
    assert after.birds(0) == state.birds(0) and after.supply(0) == state.supply(0)
    # an action resets the count of passes
    blue = after.apply(after.game.parse_move(after, "l12"))
    assert blue.passes == 0


def test_no_optional_pass_in_2010_edition():
    state = build("b1 " + RING, WALL, game=volo(edition="2010"))
    assert notations(state) == {"g2"}
    refused(state, "pass", match="only when no action is possible")


def test_pass_refused_when_a_bird_can_be_added_outside_own_regions():
    state = volo().initial_state()
    refused(state, "pass", match="outside Orange's own regions")
    state = build("b1 " + RING, "c1 b2 c3 d3 d1 f4 g5 h5 i5 j4 j5")  # e3 opened
    assert "pass" not in notations(state)
    compare(state)


def test_pass_refused_when_a_flight_is_possible():
    state = build("d4 f5 j5", "b7 l12")
    refused(state, "pass", match="flight is possible")
    state = build("d4 f5 j5", "b7 l12", game=volo(edition="2010"))
    refused(state, "pass", match="flight is possible")


@pytest.mark.parametrize("edition", ["current", "2010"])
def test_forced_pass(edition):
    game = volo(edition=edition, supply=12)
    state = build("b1 " + FULL_RING, WALL, game=game)
    assert state.supply(0) == 0
    assert notations(state) == {"pass"}
    after = state.apply(game.parse_move(state, " PASS "))
    assert after.passes == 1 and after.outcome is None


def test_two_passes_draw_in_current_edition():
    game = volo(supply=12)
    state = build("b1 " + FULL_RING, WALL, game=game, passes=1)
    after = state.apply(game.parse_move(state, "pass"))
    assert after.passes == 2
    assert after.outcome.winner is None and after.outcome.reason == "double-pass"
    assert after.legal_moves() == []
    # optional pass as the second pass also draws
    state = build("b1 " + RING, WALL, passes=1)
    after = state.apply(state.game.parse_move(state, "pass"))
    assert after.outcome.reason == "double-pass"


def test_both_unable_to_play_last_actor_wins_in_2010_edition():
    # Blue has just passed (passes=1); Orange cannot act either and passes: the game
    # ends and Orange, who made the last action before these passes, wins.
    game = volo(edition="2010", supply=12)
    state = build("b1 " + FULL_RING, WALL, game=game, passes=1)
    after = state.apply(game.parse_move(state, "pass"))
    assert after.outcome.winner == 0 and after.outcome.reason == "last-action"
    # played out from an action: Blue acts, Orange cannot, Blue cannot -> Blue wins
    start = volo(edition="2010", supply=3).initial_state()
    one = start.apply(start.game.parse_move(start, "pass"))
    two = one.apply(one.game.parse_move(one, "pass"))
    assert (two.outcome.winner, two.outcome.reason) == (1, "last-action")


def test_double_pass_parsed_position():
    cur = build("b1 " + RING, WALL, passes=2, to_move=0)
    assert (cur.outcome.winner, cur.outcome.reason) == (None, "double-pass")
    old = build("b1 " + RING, WALL, passes=2, to_move=0, game=volo(edition="2010"))
    assert (old.outcome.winner, old.outcome.reason) == (1, "last-action")


# -- the mini board ----------------------------------------------------------------------


def test_mini_board_rules():
    game = volo(board="mini")
    state = game.initial_state()
    assert len(state.legal_moves()) == len(notations(state))
    refused(state, "l6", InvalidMoveError, "unknown cell")
    refused(state, "f6", InvalidMoveError, "centre")
    refused(state, "k11", InvalidMoveError, "corner")
    # a short game on the mini board: a flight joining two flocks
    state = build("c3 e3 j6", "f2 j10 b6", game=game)
    assert "c3-d3" in notations(state)
    after = state.apply(game.parse_move(state, "c3-d3"))
    assert after.birds(0) == {"d3", "e3", "j6"}
    assert after.supply(0) == 47
