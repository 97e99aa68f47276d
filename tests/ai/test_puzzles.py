"""Puzzles (tablier.ai.puzzles): the shipped files prove, the generator finds real puzzles,
the checker refuses broken ones and the reader refuses malformed files."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import tablier.games
from tablier.ai import puzzles as lib
from tablier.ai.solver import Solver
from tablier.core.errors import TablierError

SPECS = ["volo", "volo:board=mini", "xobo", "voldetour"]
SAMPLE = 5  # puzzles of each file checked on every run


def _shipped(spec):
    return lib.load_shipped(tablier.games.from_spec(spec))


@pytest.mark.parametrize("spec", SPECS)
def test_every_game_ships_at_least_100_puzzles(spec):
    puzzles = _shipped(spec)
    assert len(puzzles) >= 100, f"{spec}: {len(puzzles)} puzzles shipped"
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({p.depth for p in puzzles}) >= 2, f"{spec}: all puzzles have the same depth"


def test_the_shipped_files_are_those_of_the_four_specs():
    names = {lib.data_file_name(tablier.games.from_spec(s)) for s in SPECS}
    assert set(lib.shipped()) == names


@pytest.mark.parametrize("spec", SPECS)
def test_a_seeded_sample_of_every_file_proves(spec):
    puzzles = _shipped(spec)
    for puzzle in random.Random(f"puzzles:{spec}").sample(puzzles, SAMPLE):
        lib.check(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_every_shipped_puzzle_proves(spec):
    for puzzle in _shipped(spec):
        lib.check(puzzle)


def test_the_rating_grows_with_depth_breadth_and_a_failing_greedy_move():
    base = lib.rating(3, 20, 2, False)
    assert lib.rating(5, 20, 2, False) > base
    assert lib.rating(3, 60, 2, False) > base
    assert lib.rating(3, 20, 6, False) > base
    assert lib.rating(3, 20, 2, True) > base


def test_the_generator_finds_puzzles_that_prove():
    game = tablier.games.from_spec("volo:board=mini")
    found = []
    for puzzle in lib.generate(game, seed=3, player="easy", max_seconds=1.0, max_nodes=20_000):
        found.append(puzzle)
        if len(found) == 3:
            break
    assert len({p.id for p in found}) == 3
    for puzzle in found:
        lib.check(puzzle)
        state = puzzle.state()
        assert len(state.legal_moves()) >= 2, "not the only legal move"
        assert puzzle.rating == lib.rating(
            puzzle.depth, puzzle.legal, puzzle.tempting, puzzle.greedy_fails
        )
    text = lib.dump(found, game)
    assert lib.load(text, game) == sorted(found, key=lambda p: (p.depth, p.rating, p.id))


def test_examine_finds_the_shipped_puzzles_again():
    for puzzle in _shipped("volo:board=mini")[::10]:
        state = puzzle.state()
        assert lib.examine(state, puzzle.depth, 10**6, None) == puzzle
    game = tablier.games.from_spec("volo:board=mini")
    state = game.initial_state()
    assert lib.examine(state, 1) is None, "no forced win at the start"


def _broken(puzzle, **changes):
    return dataclasses.replace(puzzle, **changes)


def test_the_checker_refuses_what_does_not_prove():
    puzzle = next(p for p in _shipped("volo:board=mini") if p.depth >= 3)
    lib.check(puzzle)
    wrong_first = next(
        puzzle.state().game.move_text(puzzle.state(), m)
        for m in puzzle.state().legal_moves()
        if puzzle.state().game.move_text(puzzle.state(), m) != puzzle.solution[0]
    )
    cases = {
        "the id": _broken(puzzle, id="0" * 12),
        "decisions exists": _broken(puzzle, depth=puzzle.depth + 2),
        "no forced win": _broken(puzzle, depth=puzzle.depth - 1, solution=puzzle.solution[:-1]),
        "not the winning one": _broken(puzzle, solution=(wrong_first, *puzzle.solution[1:])),
        "the solution has": _broken(puzzle, solution=puzzle.solution[:-1]),
        "solution move": _broken(puzzle, solution=(*puzzle.solution[:-1], "zz99")),
    }
    for needle, broken in cases.items():
        with pytest.raises(lib.PuzzleError, match=needle):
            lib.check(broken)


def test_the_solution_is_the_most_stubborn_defence():
    for puzzle in _shipped("volo:board=mini")[-5:]:
        state = puzzle.state()
        me = state.to_move
        solver = Solver()
        for i, text in enumerate(puzzle.solution):
            move = state.game.parse_move(state, text)
            if state.to_move != me:  # no reply holds out longer than the solution's
                left = puzzle.depth - i
                for other in state.legal_moves():
                    after = state.apply(other)
                    assert solver.win_depth(after, me, left - 1) is not None
            state = state.apply(move)


def _file(puzzles, game):
    return json.loads(lib.dump(puzzles, game))


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(extra=1), "exactly the keys"),
        (lambda d: d.update(game="nosuchgame"), "unknown game"),
        (lambda d: d.update(game=3), "game spec"),
        (lambda d: d.update(puzzles={}), "must be a list"),
        (lambda d: d["puzzles"].append(d["puzzles"][0]), "twice"),
        (lambda d: d["puzzles"].__setitem__(0, []), "an object"),
        (lambda d: d["puzzles"][0].pop("rating"), "missing keys"),
        (lambda d: d["puzzles"][0].update(more=1), "unknown keys"),
        (lambda d: d["puzzles"][0].update(depth="3"), "'depth' must be int"),
        (lambda d: d["puzzles"][0].update(depth=True), "'depth' must be int"),
        (lambda d: d["puzzles"][0].update(depth=0, solution=[]), "from 1 to 7"),
        (lambda d: d["puzzles"][0].update(depth=9), "from 1 to 7"),
        (lambda d: d["puzzles"][0].update(solution=["a1"] * 9), "moves, not"),
        (lambda d: d["puzzles"][0].update(solution=[1] * d["puzzles"][0]["depth"]), "move texts"),
        (lambda d: d["puzzles"][0].update(greedy_fails=1), "'greedy_fails' must be bool"),
        (lambda d: d["puzzles"][0].update(legal=1), "'legal' must be 2 or more"),
        (lambda d: d["puzzles"][0].update(position="volo junk"), "bad position"),
        (lambda d: d["puzzles"][0].update(id="abc"), "does not match"),
    ],
)
def test_malformed_files_are_refused(change, needle):
    game = tablier.games.from_spec("volo:board=mini")
    data = _file(_shipped("volo:board=mini")[:3], game)
    change(data)
    with pytest.raises(lib.PuzzleError, match=needle):
        lib.load(json.dumps(data), game)


@pytest.mark.parametrize("text", ["", "[", "[]", "null", '"x"', "{}"])
def test_text_that_is_no_puzzle_file_is_refused(text):
    with pytest.raises(TablierError):
        lib.load(text)


def test_a_file_of_another_game_is_refused():
    mini = tablier.games.from_spec("volo:board=mini")
    text = lib.dump(_shipped("volo:board=mini")[:2], mini)
    with pytest.raises(lib.PuzzleError, match="is for"):
        lib.load(text, tablier.games.from_spec("volo"))
    with pytest.raises(lib.PuzzleError, match="is for"):
        lib.dump(_shipped("volo:board=mini")[:2], tablier.games.from_spec("volo"))


def test_the_data_file_names_leave_out_implied_options():
    names = [lib.data_file_name(tablier.games.from_spec(s)) for s in SPECS]
    assert names == ["volo.json", "volo-board-mini.json", "xobo.json", "voldetour.json"]
    edition = tablier.games.from_spec("volo:edition=2010")
    assert lib.data_file_name(edition) == "volo-edition-2010.json"
    assert lib.load_shipped(edition) == []
