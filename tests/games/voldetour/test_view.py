"""The JSON views of Voldetour states and decisions (the web board reads them)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from .helpers import game, play, random_positions

OPTIONS = ({}, {"pieces": "mini"})


def _positions(options: dict, count: int, seed: int) -> list:
    g = game(**options)
    states = random_positions(g, count, seed)
    states.append(g.initial_state())
    # a turn in progress: a block taken from the reserve, then put
    s = g.initial_state()
    states.append(play(s, "B111"))
    states.append(play(s, "B111", "B111@c3:1x1x1", "S"))
    return states


def _json(obj):
    """The object after a trip through JSON text (fails on anything not JSON)."""
    return json.loads(json.dumps(obj, allow_nan=False))


def _cells(view_piece: dict) -> set[tuple[int, int, int]]:
    return {tuple(c) for c in view_piece["cells"]}


@pytest.mark.parametrize("options", OPTIONS)
def test_state_view_is_json_and_agrees_with_the_state(options):
    g = game(**options)
    ps = g.pieceset
    for state in _positions(options, 25, 31):
        view = g.state_view(state)
        assert _json(view) == view
        assert g.parse_position(view["position"]) == state
        assert view["board"]["width"] == ps.width and view["board"]["height"] == ps.height
        assert len(view["columns"]) == ps.width * ps.height
        # every square's column is the stack of the pieces in it
        full: Counter = Counter()
        upright: dict = {}
        nested: set = set()
        ids = [p["id"] for p in view["pieces"]]
        assert len(set(ids)) == len(ids)
        for piece in view["pieces"]:
            assert piece["owner"] in (0, 1) and piece["kind"] in ("block", "stair")
            for x, y, z in piece["cells"]:
                assert 0 <= x < ps.width and 0 <= y < ps.height and 0 <= z < ps.tower_height
                if piece["kind"] == "block":
                    full[(x, y, z)] += 1
                elif piece["upside_down"]:
                    nested.add((x, y, z))
                else:
                    upright[(x, y, z)] = piece["dir"]
        assert all(n == 1 for n in full.values())
        for label, col in view["columns"].items():
            x, y = ps.grid.coord(ps.grid.parse_label(label))
            if "tower" in col:
                assert col["height"] == ps.tower_height
                continue
            z = 0
            while (x, y, z) in full or ((x, y, z) in upright and (x, y, z) in nested):
                z += 1
            if col["height"] is None:
                assert col["slope"] == {"level": z, "dir": upright[(x, y, z)]}
                assert (x, y, z) not in nested
            else:
                assert col["height"] == z and (x, y, z) not in upright
        # Lords stand on flat tops at their level
        for p, lord in enumerate(view["lords"]):
            assert lord["square"] == ps.grid.label(state.lords[p])
            assert lord["level"] == view["columns"][lord["square"]]["height"]
            assert lord["on_tower"] == (state.lords[p] == ps.towers[p])
        # every piece is on the board, in a reserve or in hand
        hand = view["turn"]["hand"]
        for p in (0, 1):
            on_board = [x for x in view["pieces"] if x["owner"] == p]
            held = hand is not None and view["turn"]["player"] == p
            nblocks = sum(x["kind"] == "block" for x in on_board)
            nstairs = len(on_board) - nblocks
            res = view["reserves"][p]
            held_b = held and hand["kind"] == "block"
            held_s = held and hand["kind"] == "stair"
            assert nblocks + len(res["blocks"]) + held_b == len(ps.blocks)
            assert nstairs + res["stairs"] + held_s == ps.stairs
        assert view["turn"]["number"] == state.turn
        assert view["turn"]["player"] == state.to_move


def test_turn_progress_and_deadline():
    g = game(pieces="mini")
    s = g.initial_state()
    view = g.state_view(s)
    assert view["turn"]["done"] == {"block": False, "stair": False, "lord": False}
    assert view["turn"]["deadlines"] == [
        {"player": 0, "turn": 5, "own_turns_left": 3},
        {"player": 1, "turn": 6, "own_turns_left": 3},
    ]
    s = play(s, "B112")
    view = g.state_view(s)
    assert view["turn"]["hand"]["id"] == "b:B112" and view["turn"]["hand"]["from"] is None
    assert view["reserves"][0]["blocks"] == ["111", "122"]
    s = play(s, "B112@b3:1x1x2")
    view = g.state_view(s)
    assert view["turn"]["hand"] is None
    s = play(s, "S", "S@d4:n")
    view = g.state_view(s)
    assert view["turn"]["done"] == {"block": True, "stair": True, "lord": False}
    s = play(s, "Lb3")
    view = g.state_view(s)
    assert view["turn"]["player"] == 1 and view["turn"]["number"] == 2
    assert [d["player"] for d in view["turn"]["deadlines"]] == [1]


@pytest.mark.parametrize("options", OPTIONS)
def test_every_legal_move_has_a_view_that_agrees_with_the_move(options):
    g = game(**options)
    ps = g.pieceset
    rng = random.Random(7)
    share = 1.0 if options else 0.5  # puts checked against the next state (all on mini)
    for state in _positions(options, 25, 47):
        moves = state.legal_moves()
        p = state.to_move
        before = {x["id"]: x for x in g.state_view(state)["pieces"]}
        for move in moves:
            mv = g.move_view(state, move)
            assert _json(mv) == mv
            assert g.parse_move(state, mv["notation"]) == move
            assert mv["kind"] == move.kind and mv["player"] == p
            # geometry is checked against the state after the move
            if move.kind != "put" or rng.random() < share:
                after = state.apply(move)
                _check_geometry(g, ps, state, before, mv, after)


def _check_geometry(g, ps, state, before, mv, after):
    view = g.state_view(after)
    p = state.to_move
    if mv["kind"] == "take":
        piece = mv["piece"]
        if piece["from"] is not None:
            # lifted: it was on the board there, and is gone
            src = before[piece["id"]]
            assert _cells(src) == _cells(piece["from"])
            assert piece["id"] not in {x["id"] for x in view["pieces"]}
        assert view["turn"]["hand"]["id"] == piece["id"]
        # the placements are exactly the puts of the next decision
        puts = set()
        for group in mv["placements"]:
            for square, level in group["anchors"].items():
                lev = f"+{level}" if level else ""
                if piece["kind"] == "block":
                    text = f"B{piece['name']}@{square}{lev}:{group['orientation']}"
                else:
                    text = f"S@{square}{lev}:{group['orientation']}"
                puts.add(str(g.parse_move(after, text)))
        assert puts == {str(m) for m in after.legal_moves()}
    elif mv["kind"] == "put":
        placed = [
            x
            for x in view["pieces"]
            if x["owner"] == p
            and x["kind"] == mv["piece"]["kind"]
            and x["anchor"] == mv["anchor"]
            and x["level"] == mv["level"]
            and x["orientation"] == mv["orientation"]
        ]
        assert len(placed) == 1
        assert _cells(placed[0]) == _cells(mv)
        assert mv["squares"] == placed[0]["squares"]
        if mv["piece"]["kind"] == "block":
            assert placed[0]["id"] == mv["piece"]["id"]
        for x, y, z in mv["cells"]:
            col = view["columns"][ps.grid.label(ps.grid.index(x, y))]
            top = col["height"] if col["height"] is not None else col["slope"]["level"]
            assert top >= z
    elif mv["kind"] == "lord":
        lord = view["lords"][p]
        assert mv["from"] == ps.grid.label(state.lords[p]) == mv["path"][0]
        assert lord["square"] == mv["to"] == mv["path"][-1]
        assert lord["level"] == mv["levels"][-1]
        assert 2 <= len(mv["path"]) <= 4
        path = "L" + "-".join(mv["path"])
        assert g.parse_move(state, path) == g.parse_move(state, mv["notation"])
    else:
        assert view["turn"]["number"] == state.turn + 1


def test_lord_path_levels_follow_the_stairs():
    g = game()
    s = g.position(black=["B113@b3:1x1x3", "B112@b4:1x1x2", "S@b4+2:s"], white=["B112@b5:1x1x2"])
    views = [g.move_view(s, m) for m in s.legal_moves() if m.kind == "lord"]
    by_dest = {v["to"]: v for v in views}
    assert by_dest["b3"]["path"] == ["b2", "b3"] and by_dest["b3"]["levels"] == [3, 3]
    # b3 (3) -> down the slope on b4 -> b5 (2): one step
    assert by_dest["b5"]["path"] == ["b2", "b3", "b5"]
    assert by_dest["b5"]["levels"] == [3, 3, 2]


def test_blocked_flag():
    g = game()
    s = g.position(black=["B111@c3:1x1x1", "B112@c3+1:1x1x2"], white=[])
    pieces = {x["id"]: x for x in g.state_view(s)["pieces"]}
    assert pieces["b:B111"]["blocked"] and not pieces["b:B112"]["blocked"]


@pytest.mark.parametrize("options", OPTIONS)
def test_turn_ends_mark_exactly_the_decisions_that_end_a_turn(options):
    # the move list writes one line per turn from these prefixes alone (the views of
    # earlier positions may not be loaded): a decision ends its player's turn exactly when
    # its notation begins with one of them
    g = game(**options)
    prefixes = tuple(p.lower() for p in g.state_view(g.initial_state())["turn_ends"])
    rng = random.Random(7)
    seen = Counter()
    for _ in range(6):
        s = g.initial_state()
        for _ in range(120):
            if s.outcome is not None:
                break
            move = rng.choice(list(s.legal_moves()))
            text = g.move_text(s, move)
            after = s.apply(move)
            ends = after.outcome is not None or after.to_move != s.to_move
            assert text.lower().startswith(prefixes) == ends, text
            seen[ends] += 1
            s = after
    assert seen[True] > 20 and seen[False] > 20
