"""XoBo's JSON views for the web client: state_view and move_view (games/xobo/view.py)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from tablier.games import get

from .helpers import build

COLUMNS = "abcdefghi"


def label(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def random_game(options: dict, seed: int, plies: int = 200):
    """States of one random game that favours stackings and distributions."""
    game = get("xobo", **options)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        special = [m for m in legal if m.kind != "place"]
        move = rng.choice(special) if special and rng.random() < 0.6 else rng.choice(legal)
        state = state.apply(move)
        states.append(state)
    return game, states


def check_state_view(game, state) -> dict:
    view = json.loads(json.dumps(game.state_view(state)))
    assert view["game"] == "xobo" and view["spec"] == game.spec
    assert view["position"] == state.to_text()
    assert game.parse_position(view["position"]) == state
    assert view["size"] == 9 and view["columns"] == COLUMNS
    assert len(view["heights"]) == 9 and all(len(row) == 9 for row in view["heights"])
    for r in range(9):
        for c in range(9):
            assert view["heights"][r][c] == state.height(label(c, r))
    assert view["common"] == state.common
    assert view["reserves"] == list(state.reserves)
    assert sum(map(sum, view["heights"])) + view["common"] + sum(view["reserves"]) == 36
    assert view["cubes_to_place"] == [state.common + state.reserves[p] for p in (0, 1)]
    assert view["voyna"] == state.voyna
    assert view["silent"] == (state.silent and state.outcome is None)
    if state.outcome is None:
        assert view["to_move"] == state.to_move and view["outcome"] is None
    else:
        assert view["to_move"] is None
        assert view["outcome"]["winner"] == state.outcome.winner
        assert view["outcome"]["reason"] == state.outcome.reason
    if state.voyna:
        assert view["voyna_by"] == 1 - state.to_move
        assert view["threats"]
        for cell in view["threats"]:
            assert state.height(cell) == 0
            # one more cube there joins the announcer's edges
            ones = state.ones | 1 << _index(cell)
            probe = type(state)(
                game, ones, state.stacks, state.heights, state.common, state.reserves, state.turn
            )
            assert probe.connected(view["voyna_by"])
    elif view["silent"]:
        assert view["voyna_by"] is None and not state.voyna
        mask = state.threats(1 - state.to_move)
        assert view["threats"] and sum(1 << _index(cell) for cell in view["threats"]) == mask
    else:
        assert view["voyna_by"] is None and view["threats"] == []
    for player in (0, 1):
        chain = view["connections"][player]
        assert bool(chain) == state.connected(player)
        assert all(state.height(cell) == 1 for cell in chain)
    return view


def _index(cell: str) -> int:
    from tablier.games.xobo.board import GRID

    return GRID.parse_label(cell)


def check_move_view(game, state, move) -> dict:
    view = json.loads(json.dumps(game.move_view(state, move)))
    assert game.parse_move(state, view["notation"]) == move
    assert view["notation"] == game.move_text(state, move)
    assert view["kind"] == move.kind
    after = state.apply(move)
    assert view["voyna"] == after.voyna
    names = move.cells
    assert view["from"] == names[0] and view["to"] == names[-1]
    if move.kind == "place":
        assert view["cells"] == [view["from"]]
        assert state.height(view["from"]) == 0 and after.height(view["from"]) == 1
    elif move.kind == "stack":
        run = view["run"]
        assert run[0] == view["from"] and run[-1] == view["to"]
        assert len(run) == view["height"] >= 3 and len(set(run)) == len(run)
        assert all(state.height(cell) == 1 for cell in run)
        assert after.height(view["to"]) == view["height"]
        assert all(after.height(cell) == 0 for cell in run[:-1])
        pairs = itertools.pairwise(run)
        steps = {(ord(b[0]) - ord(a[0]), int(b[1:]) - int(a[1:])) for a, b in pairs}
        assert len(steps) == 1 and max(map(abs, next(iter(steps)))) == 1
    else:
        height = state.height(view["from"])
        assert view["height"] == height >= 3
        covered = view["covered"]
        assert len(covered) == height and covered[0] == view["to"]
        dc, dr = view["direction"]
        c0, r0 = ord(view["from"][0]) - 97, int(view["from"][1:]) - 1
        assert covered == [label(c0 + k * dc, r0 + k * dr) for k in range(1, height + 1)]
        assert view["captures"] == [cell for cell in covered if state.height(cell) == 1]
        assert view["captures"]
        mover = state.to_move
        gained = after.reserves[mover] - state.reserves[mover]
        assert gained == 2 * len(view["captures"])
        assert after.height(view["from"]) == 0
        assert view["cells"] == [view["from"], *covered]
    return view


@pytest.mark.parametrize("options", get("xobo").example_options(), ids=str)
def test_views_of_random_games(options):
    kinds = set()
    voyna_seen = False
    silent_seen = False
    for seed in range(6):
        game, states = random_game(options, seed)
        for state in states:
            view = check_state_view(game, state)
            voyna_seen |= view["voyna"]
            silent_seen |= view["silent"]
            for move in state.legal_moves():
                kinds.add(check_move_view(game, state, move)["kind"])
    # the sample must exercise every kind of move and a voyna, or the test proves little
    assert kinds == {"place", "stack", "distribute"}
    assert voyna_seen
    # a silent threat only where a placement alone announces voyna
    assert not silent_seen or game.options["voyna"] == "placement"


def test_view_of_a_silent_threat():
    # North-South's distribution b4xc4 makes a threat on d5, e5 and f5 (tests/games/xobo)
    body = (
        "....1..../....1..../....1..../....1..../........./.31....../....1..../....1..../....1...."
        " ns 25/0/0"
    )
    for voyna in ("placement", "any-move"):
        game = get("xobo", voyna=voyna)
        state = game.parse_position_body(body)
        after = state.apply(game.parse_move(state, "b4xc4"))
        view = check_state_view(game, after)
        assert view["options"]["voyna"] == voyna
        assert sorted(view["threats"]) == ["d5", "e5", "f5"]
        assert view["silent"] == (voyna == "placement") and view["voyna"] == (voyna == "any-move")
        assert view["voyna_by"] == (None if voyna == "placement" else 0)
        assert check_move_view(game, state, game.parse_move(state, "b4xc4"))["voyna"] == (
            voyna == "any-move"
        )


def test_initial_view():
    game = get("xobo", stack="three", exhaustion="cubes")
    view = game.state_view(game.initial_state())
    assert view["heights"] == [[0] * 9 for _ in range(9)]
    assert view["common"] == 36 and view["reserves"] == [0, 0]
    assert view["to_move"] == 0 and view["players"] == ["North-South", "East-West"]
    assert view["edges"] == [["south", "north"], ["west", "east"]]
    assert view["options"] == {"stack": "three", "exhaustion": "cubes", "voyna": "any-move"}


def test_connection_view_names_the_chain():
    game = get("xobo")
    # a column of single cubes on e1..e9: North-South has connected
    rows = ["....o...."] * 9
    state = build("\n".join(rows), side="ew", game=game)
    view = check_state_view(game, state)
    assert view["outcome"]["winner"] == 0 and view["outcome"]["reason"] == "connection"
    assert view["connections"][0] == [f"e{r}" for r in range(1, 10)]
    assert view["connections"][1] == []
