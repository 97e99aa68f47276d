"""The game registry: entry points, the built-in fallback, register(), pickling by class."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata

import pytest

import tablier.games
from tablier.ai.arena import run_match
from tablier.ai.match import play_game
from tablier.core.errors import TablierError, UnknownGameError
from tablier.games import ENTRY_POINT_GROUP, game_class, get, names

from .toygame import Toy

BUILT_IN = {"volo", "xobo", "voldetour"}


@pytest.fixture
def fresh_entry_points(monkeypatch):
    """Re-read the entry points in the test, and again after it."""
    monkeypatch.setattr(tablier.games, "_declared", None)
    monkeypatch.setattr(tablier.games, "_loaded", {})
    yield
    tablier.games._declared = None


def _points(*pairs: tuple[str, str]) -> metadata.EntryPoints:
    return metadata.EntryPoints(
        metadata.EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in pairs
    )


def test_built_in_games_are_declared_entry_points() -> None:
    declared = {p.name: p.value for p in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert set(declared) >= BUILT_IN, "pyproject.toml declares the built-in games"
    for name in BUILT_IN:
        assert declared[name] == f"{game_class(name).__module__.rpartition('.')[0]}:" + (
            game_class(name).__name__
        )


def test_built_ins_work_without_metadata(monkeypatch, fresh_entry_points) -> None:
    monkeypatch.setattr(metadata, "entry_points", lambda **kw: _points())
    assert set(names()) == BUILT_IN | {"toy", "plaintoy"}
    assert get("volo", board="mini").name == "volo"


def test_broken_metadata_keeps_the_built_ins(monkeypatch, fresh_entry_points) -> None:
    def broken(**kw):
        raise OSError("unreadable METADATA")

    monkeypatch.setattr(metadata, "entry_points", broken)
    assert set(names()) >= BUILT_IN


def test_a_game_from_another_package_plugs_in(monkeypatch, fresh_entry_points) -> None:
    tablier.games.unregister("toy")
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: _points(
            ("toy", "core.toygame:Toy"),
            ("pile", "core.toygame:Toy"),
            ("ghost", "no_such_module_here:Game"),
            ("notgame", "core.toygame:ToyMove"),
        ),
    )
    assert {"toy", "pile", "ghost", "notgame"} <= set(names()) and set(names()) >= BUILT_IN
    assert game_class("toy") is Toy and get("Toy", pile=5).options["pile"] == 5
    with pytest.raises(TablierError, match=r"'pile' \(core\.toygame:Toy\) is named 'toy'"):
        game_class("pile")
    with pytest.raises(TablierError, match=r"'ghost' \(no_such_module_here:Game\) cannot be"):
        game_class("ghost")
    with pytest.raises(TablierError, match="is not a Game subclass"):
        game_class("notgame")
    with pytest.raises(UnknownGameError, match="unknown game 'nope'"):
        game_class("nope")


def test_register_refuses_what_is_not_a_game() -> None:
    with pytest.raises(TablierError, match="only a Game subclass"):
        tablier.games.register(len)  # type: ignore[arg-type]


def test_a_plugged_in_game_reads_its_own_position_strings(monkeypatch, fresh_entry_points) -> None:
    tablier.games.unregister("toy")
    monkeypatch.setattr(metadata, "entry_points", lambda **kw: _points(("toy", "core.toygame:Toy")))
    state = tablier.games.start_state("toy:pile=5")
    assert tablier.games.parse_position(state.to_text()) == state


def test_a_game_pickles_by_class_not_by_registered_name() -> None:
    game = Toy(pile=7, rule="misere")
    data = pickle.dumps(game)
    tablier.games.unregister("toy")
    copy = pickle.loads(data)  # no registry needed
    assert type(copy) is Toy and copy == game


def test_a_registered_game_plays_in_spawned_workers() -> None:
    # Spawned workers start afresh: the toy game is not registered there, so only
    # pickling by class lets them rebuild it.
    game = Toy(pile=9)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert "toy" not in pool.submit(names).result()
        result = pool.submit(play_game, game, "random", "greedy", 1, 3).result()
    assert result["game"] == game.spec and result["plies"] >= 3


def test_arena_with_two_jobs_plays_a_registered_game() -> None:
    results = run_match(Toy(pile=6), "random", "greedy", 4, jobs=2, seed=2)
    assert [r["index"] for r in results] == [0, 1, 2, 3]
    assert all(r["game"] == "toy:pile=6,rule=normal" for r in results)


def test_a_game_without_options_reads_its_position_strings_back() -> None:
    from .toygame import PlainToy

    game = PlainToy()
    assert game.spec == "plaintoy"
    state = game.initial_state().apply(game.parse_move(game.initial_state(), "take 1"))
    text = state.to_text()
    assert text == "plaintoy 6/1/0 1 -"
    assert game.parse_position(text) == state
    assert tablier.games.parse_position("  PlainToy\t6/1/0 1 -") == state
    assert game.parse_position("6/1/0 1 -") == state  # the body alone
    assert tablier.games.start_state("plaintoy") == game.initial_state()
    with pytest.raises(TablierError, match="must start with the game spec"):
        tablier.games.parse_position("6/1/0 1 -")
    with pytest.raises(TablierError, match="this position is for 'toy'"):
        game.parse_position("toy:pile=7 6/1/0 1 -")
