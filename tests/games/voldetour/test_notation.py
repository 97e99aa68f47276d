"""Notation, position strings, errors and rendering."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import tablier.games
from tablier.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    TablierError,
)

from .helpers import game, play, random_positions

G = game()


def test_registry_and_options():
    g = tablier.games.get("voldetour", pieces="mini", repetition="on", max_turns="50")
    assert g.options == {"pieces": "mini", "repetition": True, "max_turns": 50}
    assert tablier.games.from_spec(g.spec) == g
    assert g.player_names == ("Black", "White")
    with pytest.raises(InvalidOptionError):
        game(pieces="nosuchset")
    with pytest.raises(InvalidOptionError):
        game(max_turns=0)
    with pytest.raises(InvalidOptionError):
        game(repetition="maybe")


def test_every_legal_move_round_trips_on_random_positions():
    rng = random.Random(5)
    for options in ({}, {"pieces": "mini"}):
        g = game(**options)
        for state in random_positions(g, 40, rng.randrange(10**6)):
            moves = state.legal_moves()
            texts = [str(m) for m in moves]
            assert len(set(texts)) == len(texts)
            for move, text in zip(moves, texts, strict=True):
                assert g.parse_move(state, text) == move
                assert g.parse_move(state, text.upper()) == move
                assert not any(c in text for c in ";{}[] ")


def test_position_strings_round_trip():
    for options in ({}, {"pieces": "mini", "repetition": True, "max_turns": 30}):
        g = game(**options)
        for state in random_positions(g, 40, 9):
            text = state.to_text()
            assert g.parse_position(text) == state
            assert tablier.games.parse_position(text) == state
            assert g.parse_position(text).to_text() == text
            assert hash(g.parse_position(text)) == hash(state)


def test_position_body_example():
    s = play(G.initial_state(), "B113", "B113@b3:1x1x3")
    assert s.to_text() == (
        "voldetour:pieces=default,repetition=False,max_turns=none "
        "turn=1 lords=b2,i9 black=B113@b3:1x1x3 white=- do=br"
    )
    s = play(s, "S", "S@c3:n", "Lb2-b3")
    assert s.body() == "turn=2 lords=b3,i9 black=B113@b3:1x1x3,S@c3:n white=-"
    s = play(s, "Bi9".replace("i9", "111"))
    assert "hand=B111" in s.body()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "zz",
        "B999",
        "Bxyz@c3:1x1x1",
        "S@z9:n",
        "S@c3:q",
        "L",
        "Lb2--b3",
        "B111@c3",
        "Lk1",
        "B111@c3:1x1",
        "endx",
        "S@c3+:n",
    ],
)
def test_unreadable_moves(text):
    s = G.initial_state()
    before = s.to_text()
    with pytest.raises(InvalidMoveError):
        G.parse_move(s, text)
    assert s.to_text() == before


def test_illegal_moves_say_why():
    s = G.position(black=["B111@d4:1x1x1"], lords=("c6", "h8"), turn=3)
    cases = {
        "B111@d5:1x1x1": "take a piece first",
        "S@d5:n": "take a piece first",
        "Sd4": "no stair on d4",
        "Lc6-c8": "no step",
        "Lc6": "another square",
        "pass": "pass only",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalMoveError, match=why):
            G.parse_move(s, text)
    s = play(s, "B112")
    for text, why in {
        "B112@d4:3x1x1": "no orientation 3x1x1",
        "B112@j4:2x1x1": "leave the board",
        "B112@d4+2:1x1x2": "level 1",
        "B111@d4+1:1x1x1": "hold B112",
    }.items():
        with pytest.raises(IllegalMoveError, match=why):
            G.parse_move(s, text)


def test_bad_positions():
    bad = [
        "turn=1 black=- ",
        "turn=0 black=- white=-",
        "turn=1 black=B111@c3:1x1x1,B111@d3:1x1x1 white=-",
        "turn=1 black=B111@c3:1x1x1 white=B112@c3:1x1x2",
        "turn=1 black=S@c3:u white=-",
        "turn=1 black=S@c3:n lords=c3,i9 white=-",
        "turn=1 lords=c3,c3 black=- white=-",
        "turn=1 black=- white=- rep=12",
        "turn=1 black=- white=- hand=Sc3",
        "turn=1 black=B111@c3:1x1x1 white=- hand=B111",
        "turn=1 black=- white=- hand=B111 do=b",
        "turn=1 black=S@a1:n,S@a2:n,S@a3:n,S@a4:n,S@a5:n,S@a6:n white=-",
        "turn=1 black=- white=- colour=red",
    ]
    for body in bad:
        with pytest.raises(InvalidPositionError):
            G.parse_position_body(body)
    with pytest.raises(InvalidPositionError):
        G.parse_position("volo:board=mini turn=1 black=- white=-")
    with pytest.raises(TablierError):
        tablier.games.parse_position("voldetour:pieces=mini turn=1 black=B111@f6:3x1x1 white=-")


def test_render_shows_heights_towers_lords_and_reserves():
    s = G.position(
        black=["B113@c3:1x1x3", "S@d3:e"], white=["B111@f6:1x1x1"], lords=("c3", "h8"), turn=4
    )
    text = G.render(s, last_move=None)
    plain = text.plain
    assert "a  b  c" in plain and " 10" in plain
    assert "3B" in plain  # Black's Lord on the three-level block
    assert "0>" in plain  # a slope rising east from level 0
    assert "3#" in plain  # a tower
    assert "0W" in plain  # White's Lord on the board
    assert "Black reserve: blocks B111 B112 B122 B123; stairs 4" in plain
    assert "Turn 4 of White" in plain
    console = Console(width=80, record=True)
    console.print(text)
    assert "Black reserve" in console.export_text()
    moved = play(s, "B111")
    assert "in hand: B111" in G.render(moved, last_move=moved.legal_moves()[0]).plain


def test_pickle_moves_states_and_games():
    import pickle

    s = play(G.initial_state(), "B123")
    for move in s.legal_moves()[:20]:
        again = pickle.loads(pickle.dumps(move))
        assert again == move and str(again) == str(move)
    assert pickle.loads(pickle.dumps(s)) == s
    assert pickle.loads(pickle.dumps(G)) == G


def test_piece_sets_are_data():
    from tablier.games.voldetour import available_sets, load_set

    assert {"default", "mini"} <= set(available_sets())
    ps = load_set("default")
    assert [b.name for b in ps.blocks] == ["111", "112", "113", "122", "123"]
    assert [len(b.orientations) for b in ps.blocks] == [1, 3, 3, 3, 6]
    assert ps.tower_height == 3 and ps.stairs == 5 and (ps.width, ps.height) == (10, 10)
    assert [ps.grid.label(t) for t in ps.towers] == ["b2", "i9"]
    mini = load_set("mini")
    assert mini.tower_height == 2 and mini.marked.bit_count() == 2
    for bad in ("../default", "nope", "Default!"):
        with pytest.raises(InvalidOptionError):
            load_set(bad)
