"""Property tests (hypothesis) over random Volo games played through the public API."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tablier.games

from . import reference as R

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")

OPTION_SETS = [
    {"board": "standard"},
    {"board": "standard", "edition": "2010"},
    {"board": "mini"},
    {"board": "mini", "edition": "2010", "setup": "centre"},
    {"board": "mini", "supply": 10},
    {"board": "standard", "setup": "centre", "supply": 14},
]

games = st.sampled_from(OPTION_SETS).map(lambda o: tablier.games.get("volo", **o))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(game, seed: int, plies: int = 80):
    """The states of a random game (at most ``plies`` decisions), with the moves made."""
    rng = random.Random(seed)
    state = game.initial_state()
    history = []
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        history.append((state, move))
        state = state.apply_unchecked(move)
    return history, state


def messy(text: str, rng: random.Random) -> str:
    """The same move with random case and spaces."""
    out = [" " * rng.randrange(2)]
    for ch in text:
        out.append(ch.upper() if rng.random() < 0.5 else ch)
        out.append(" " * rng.randrange(2))
    return "".join(out)


@SETTINGS
@given(games, seeds)
def test_every_legal_move_parses_back(game, seed):
    history, _ = random_game(game, seed, plies=40)
    rng = random.Random(seed)
    for state, _move in history[::3]:
        for move in state.legal_moves():
            assert game.parse_move(state, str(move)) == move
            assert game.parse_move(state, messy(str(move), rng)) == move


@SETTINGS
@given(games, seeds)
def test_applying_never_changes_the_original(game, seed):
    history, _ = random_game(game, seed)
    for state, move in history:
        text, key = state.to_text(), hash(state)
        birds = (state.birds(0), state.birds(1))
        after = state.apply(move)
        assert after is not state
        assert state.to_text() == text and hash(state) == key
        assert (state.birds(0), state.birds(1)) == birds
        assert state.apply(move) == after  # applying is deterministic


@SETTINGS
@given(games, seeds)
def test_position_strings_round_trip(game, seed):
    history, last = random_game(game, seed)
    for state in [s for s, _ in history] + [last]:
        text = state.to_text()
        again = game.parse_position(text)
        assert again == state and hash(again) == hash(state)
        assert again.to_text() == text
        assert again.outcome == state.outcome
        assert tablier.games.parse_position(text) == state


@SETTINGS
@given(games, seeds)
def test_birds_on_board_plus_supply_is_constant(game, seed):
    total = game.options["supply"]
    history, last = random_game(game, seed, plies=150)
    for state in [s for s, _ in history] + [last]:
        for p in (0, 1):
            assert len(state.birds(p)) + state.supply(p) == total
            assert state.birds(p)  # never without a bird
        assert not state.birds(0) & state.birds(1)


@SETTINGS
@given(games, seeds)
def test_outcome_and_passes_are_consistent(game, seed):
    history, last = random_game(game, seed, plies=300)
    for state, move in history:
        after = state.apply_unchecked(move)
        assert after.to_move == 1 - state.to_move
        if move.kind == "pass":
            assert after.passes == state.passes + 1
            assert after.birds(0) == state.birds(0) and after.birds(1) == state.birds(1)
        else:
            assert after.passes == 0
    if last.outcome is not None:
        assert last.legal_moves() == []
        assert last.outcome.reason in {"flock", "opponent-flock", "double-pass", "last-action"}


@SETTINGS
@given(games, seeds)
def test_other_spellings_of_a_move_parse_to_it(game, seed):
    """A line named from its other end, and a kept region named by any of its cells."""
    board = R.board_of(game.options["board"])
    history, _ = random_game(game, seed, plies=60)
    rng = random.Random(seed)
    for state, _move in history[::4]:
        me = state.to_move
        mine = {board.cell(c) for c in state.birds(me)}
        for move in state.legal_moves():
            text = str(move)
            body, _, keep = text.partition("/")
            if move.kind == "fly" and len(move.source) > 1:
                first, rest = body.split(":")
                last, target = rest.split("-")
                (q0, r0), (q1, r1) = board.cell(first), board.cell(last)
                qt, rt = board.cell(target)
                other = board.label((q1 + qt - q0, r1 + rt - r0))
                again = f"{last}:{first}-{other}" + (f"/{keep}" if keep else "")
                assert game.parse_move(state, again) == move
            if keep:
                source = {board.cell(c) for c in move.source}
                target = {board.cell(c) for c in move.target}
                after = (mine - source) | target
                region = R.component(board, board.cell(keep), board.cells - after)
                cell = rng.choice(sorted(region))
                assert game.parse_move(state, f"{body}/{board.label(cell)}") == move
