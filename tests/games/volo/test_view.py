"""Volo's JSON views for graphical clients (``games/volo/view.py``)."""

from __future__ import annotations

import json
import random
import time

import pytest

from tablier.games import get
from tablier.games.volo import Volo

OPTION_SETS = Volo.example_options()


def _positions(game, seed: int, count: int):
    """Random positions of ``game`` reached by random play (terminal ones included)."""
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(1, 70)):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            flights = [m for m in moves if m.kind == "fly"]
            # lean towards flights: they make the lines and the divisions
            pool = flights if flights and rng.random() < 0.5 else moves
            state = state.apply_unchecked(rng.choice(pool))
        out.append(state)
    return out


def _enclosing(game):
    """A position where Orange's d3-b3 shuts a Blue bird in at a2 (nests setup only)."""
    state = game.initial_state()
    for text in ("a3", "a2", "d3", "h8"):
        state = state.apply(game.parse_move(state, text))
    return state


def _coords(view):
    return {cell["c"]: (cell["q"], cell["r"]) for cell in view["cells"]}


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_state_view_agrees_with_state(options):
    game = get("volo", **options)
    for state in _positions(game, 11, 25):
        view = game.state_view(state)
        assert json.loads(json.dumps(view)) == view
        assert view["game"] == "volo" and view["position"] == state.to_text()
        assert view["board"] == game.options["board"] and view["edge"] == game.board.edge
        assert view["edition"] == game.options["edition"]
        assert view["setup"] == game.options["setup"]
        assert view["total"] == game.options["supply"]
        assert [c["c"] for c in view["cells"]] == list(game.cells)
        n = game.board.edge
        for cell in view["cells"]:
            q, r = cell["q"], cell["r"]
            assert cell["c"] == f"{chr(ord('a') + q)}{r + 1}"
            assert 0 <= q <= 2 * n - 2 and 0 <= r <= 2 * n - 2 and abs(q - r) <= n - 1
        holes = {h["c"] for h in view["holes"]}
        assert len(holes) == 7 and not holes & set(game.cells)
        assert [h["kind"] for h in view["holes"]].count("centre") == 1
        assert len(view["cells"]) + len(view["holes"]) == 3 * n * (n - 1) + 1
        for player in (0, 1):
            mine = {c for c, p in view["birds"].items() if p == player}
            assert mine == set(state.birds(player))
            assert view["supply"][player] == state.supply(player)
            assert view["on_board"][player] == len(mine)
            flocks = view["flocks"][player]
            assert sorted(map(frozenset, flocks), key=sorted) == sorted(
                state.flocks(player), key=sorted
            )
            assert [len(f) for f in flocks] == sorted((len(f) for f in flocks), reverse=True)
        assert view["passes"] == state.passes
        if state.outcome is None:
            assert view["to_move"] == state.to_move and view["outcome"] is None
        else:
            assert view["to_move"] is None
            assert view["outcome"]["reason"] == state.outcome.reason


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_move_views_agree_with_moves(options):
    game = get("volo", **options)
    divisions = 0
    positions = _positions(game, 5, 30)
    if game.options["setup"] == "nests":
        positions.append(_enclosing(game))
    for state in positions:
        coords = _coords(game.state_view(state))
        p = state.to_move
        for move in state.legal_moves():
            view = game.move_view(state, move)
            assert json.loads(json.dumps(view)) == view
            assert game.parse_move(state, view["notation"]) == move
            assert view["notation"] == game.move_text(state, move)
            kind = {"place": "add", "fly": "fly", "pass": "pass"}[move.kind]
            assert view["kind"] == kind
            assert view["from"] == list(move.source)
            assert view["to"] == list(move.target)
            assert view["keep"] == move.keep
            if kind == "add":
                assert view["from"] == [] and len(view["to"]) == 1
                assert view["to"][0] not in state.birds(0) | state.birds(1)
            if kind == "pass":
                assert view["from"] == view["to"] == [] and view["notation"] == "pass"
            if kind == "fly":
                assert len(view["from"]) == len(view["to"]) >= 1
                assert set(view["from"]) <= state.birds(p)
                dq, dr = view["step"]
                k = view["steps"]
                assert (dq, dr) in ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
                assert k >= 1
                for a, b in zip(view["from"], view["to"], strict=True):
                    (qa, ra), (qb, rb) = coords[a], coords[b]
                    assert (qb - qa, rb - ra) == (dq * k, dr * k)
            else:
                assert view["step"] is None and view["steps"] == 0
            after = state.apply(move)
            theirs_before = state.birds(1 - p)
            if view["keep"] is None:
                assert view["kept"] == view["removed"] == []
                assert view["opponent_wins"] is False
                if after.outcome is None or after.outcome.reason != "flock":
                    assert after.birds(1 - p) == theirs_before
            else:
                divisions += 1
                assert view["keep"] in view["kept"]
                assert set(view["kept"]) == after.birds(1 - p)
                assert set(view["removed"]) == theirs_before - after.birds(1 - p)
                assert view["removed"] and not set(view["kept"]) & set(view["removed"])
                assert after.supply(1 - p) == state.supply(1 - p) + len(view["removed"])
                loses = after.outcome is not None and after.outcome.reason == "opponent-flock"
                assert view["opponent_wins"] == loses
                # the other choices of the same flight name other regions
                same = [
                    game.move_view(state, m)
                    for m in state.legal_moves()
                    if m[0] == move[0] and m[1] == move[1]
                ]
                assert len(same) >= 2
                removed_sets = [frozenset(v["removed"]) for v in same]
                assert len(set(removed_sets)) == len(same)
    if game.options["setup"] == "nests":
        assert divisions >= 2


def test_region_choice_on_the_mini_board():
    """The short game of the browser test: d3-b3 shuts Blue's a2 in (docs/web-client.md)."""
    game = get("volo", board="mini")
    state = _enclosing(game)
    views = {
        v["notation"]: v
        for v in (game.move_view(state, m) for m in state.legal_moves())
        if v["from"] == ["d3"] and v["to"] == ["b3"]
    }
    assert set(views) == {"d3-b3/a2", "d3-b3/f2"}
    assert views["d3-b3/a2"]["removed"] == ["f2", "b6", "h8", "j10"]
    assert views["d3-b3/f2"]["removed"] == ["a2"]
    assert views["d3-b3/f2"]["kept"] == ["f2", "b6", "h8", "j10"]
    # keeping a2 alone leaves Blue one flock: Blue would win at once
    assert views["d3-b3/a2"]["opponent_wins"] is True
    assert views["d3-b3/f2"]["opponent_wins"] is False


def test_game_over_views():
    game = get("volo", board="mini")
    state = game.parse_position(
        "volo:board=mini,edition=current,setup=nests,supply=50 "
        "4/1o3b1/8/9/10/b6o/10/9/8/1o3b1/4 b 47 47 2"
    )
    view = game.state_view(state)
    assert view["to_move"] is None
    assert view["outcome"]["reason"] == "double-pass" and view["outcome"]["result"] == "1/2-1/2"


# A crowded standard-board position (supply 200) with 568 legal moves, most of them flights.
CROWDED = (
    "volo:board=standard,edition=current,setup=nests,supply=200 1o2o/bo2o3/o2o2o1o/5o2oo/"
    "1o1o3o1ob/o1o2o3o1o/1ooo1o1o1o/o1ooo1o1o1ob/o1ooo2o3/b1ooooo1oo/o1ooooo2/3oo2o/o3o "
    "o 144 196 0"
)


def test_move_views_are_cheap():
    """Every move view of a crowded position costs a few microseconds (docs/web-client.md).

    ``pytest tests/games/volo/test_view.py -k cheap -s`` prints the figure.
    """
    game = get("volo", board="standard", supply=200)
    state = game.parse_position(CROWDED)
    moves = state.legal_moves()
    assert len(moves) == 568
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        views = [game.move_view(state, m) for m in moves]
        best = min(best, time.perf_counter() - start)
    size = len(json.dumps(views))
    print(
        f"\n{len(moves)} move views: {best * 1000:.2f} ms "
        f"({best / len(moves) * 1e6:.1f} us a move), {size / 1024:.0f} KiB of JSON"
    )
    # 3000 moves in well under 100 ms needs < 33 us a move; allow a slow shared machine
    assert best / len(moves) < 100e-6
