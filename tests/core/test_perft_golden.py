"""The published perft tables (docs/perft.md) against the engine.

``perft_golden.json`` holds, for every game and example option set, the initial position
and five mid-game positions with their counts; ``tools/perft_table.py`` wrote it and the
document.  Here every position is read back from its string and its shallow counts are
recounted (a depth is recounted when it needs at most ``BUDGET`` move generations); the
script's ``--check`` recounts every depth.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import tablier.games
from tablier.core.perft import perft

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = json.loads((Path(__file__).with_name("perft_golden.json")).read_text(encoding="utf-8"))
#: a depth is recounted here when the count one level up (its move generations) is this small
BUDGET = 2_000


def load_tool():
    spec = importlib.util.spec_from_file_location("perft_table", ROOT / "tools" / "perft_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def suite_depths(counts: list[int]) -> list[int]:
    """The depths recounted by the suite: 1 and 2 always, deeper ones while cheap."""
    return [d for d in range(1, len(counts) + 1) if d <= 2 or counts[d - 2] <= BUDGET]


def position_params() -> list:
    return [
        pytest.param(p["position"], p["perft"], id=f"{s['spec']}-{i}")
        for s in DATA["sets"]
        for i, p in enumerate(s["positions"])
    ]


@pytest.mark.parametrize(("text", "counts"), position_params())
def test_shallow_counts_match_the_engine(text, counts):
    state = tablier.games.parse_position(text)
    assert state.to_text() == text
    assert len(counts) >= 2
    for depth in suite_depths(counts):
        assert perft(state, depth) == counts[depth - 1], f"perft({depth}) of {text}"


def test_every_game_and_option_set_has_a_table():
    tabled = {s["spec"]: s for s in DATA["sets"]}
    for name in tablier.games.names():
        cls = tablier.games.game_class(name)
        if cls.__module__.split(".")[:2] != ["tablier", "games"]:
            continue  # a game of the tests or of another package
        for options in cls.example_options():
            game = cls(**options)
            assert game.spec in tabled, f"no perft table for {game.spec}"
            positions = tabled[game.spec]["positions"]
            assert positions[0]["position"] == game.initial_state().to_text()
            assert len(positions) >= 6
            assert len({p["position"] for p in positions}) == len(positions)


def test_the_tables_reach_depth_three_or_four():
    """The tables are not only the shallow counts the suite recounts."""
    deepest = [len(p["perft"]) for s in DATA["sets"] for p in s["positions"]]
    assert max(deepest) == DATA["max_depth"] == 4
    assert sum(d >= 3 for d in deepest) > len(deepest) // 2


def test_suite_recounts_most_of_the_table_cheaply():
    checked = sum(len(suite_depths(p["perft"])) for s in DATA["sets"] for p in s["positions"])
    total = sum(len(p["perft"]) for s in DATA["sets"] for p in s["positions"])
    assert checked >= total // 2


def test_document_is_generated_from_the_data_file():
    tool = load_tool()
    assert (ROOT / "docs" / "perft.md").read_text(encoding="utf-8") == tool.render(DATA)


def test_check_mode_reports_a_wrong_count(capsys, monkeypatch, tmp_path):
    """``--check`` fails, naming the position, when the engine disagrees with the file."""
    tool = load_tool()
    start = DATA["sets"][0]["positions"][0]
    wrong = {"sets": [{"positions": [{**start, "perft": [start["perft"][0] + 1]}]}]}
    path = tmp_path / "golden.json"
    path.write_text(json.dumps(wrong), encoding="utf-8")
    monkeypatch.setattr(tool, "GOLDEN", path)
    assert tool.main(["--check", "--max-depth", "1"]) == 1
    out = capsys.readouterr().out
    assert f"perft(1) = {start['perft'][0]}, table says {start['perft'][0] + 1}" in out
    assert "0 of 1 counts agree" in out
