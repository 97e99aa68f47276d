"""The arena: statistics on synthetic results, a short real match, resuming."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import pytest

from tablier.ai.arena import (
    elo_difference,
    read_results,
    run_match,
    score_interval,
    summarise,
)
from tablier.ai.match import play_game
from tablier.ai.players import make_player
from tablier.core.errors import TablierError
from tablier.games import get


def _synthetic(wins, draws, losses):
    return [{"score_a": 1.0}] * wins + [{"score_a": 0.5}] * draws + [{"score_a": 0.0}] * losses


def test_elo_of_known_scores():
    assert elo_difference(0.5) == 0.0
    # 400 * log10(3) for 75%: the textbook figure is about +191.
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def _slow_bounds(score, n, z=1.96):
    """Reference: the Wilson bounds by bisection of |score - s| = z*sqrt(s(1-s)/n)."""

    def gap(s):
        return abs(score - s) - z * math.sqrt(s * (1 - s) / n)

    def root(lo, hi):  # gap(lo) and gap(hi) have opposite signs
        for _ in range(200):
            mid = (lo + hi) / 2
            if (gap(mid) > 0) == (gap(lo) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low = 0.0 if gap(0.0) <= 0 else root(0.0, score)
    high = 1.0 if gap(1.0) <= 0 else root(score, 1.0)
    return low, high


@pytest.mark.parametrize("w, d, l", [(60, 20, 20), (3, 0, 7), (20, 0, 0), (0, 0, 9), (1, 1, 1)])
def test_summary_counts_score_and_interval(w, d, l):
    s = summarise(_synthetic(w, d, l), "x", "y")
    n = w + d + l
    assert (s.games, s.wins, s.draws, s.losses) == (n, w, d, l)
    score = (w + d / 2) / n
    assert s.score == pytest.approx(score)
    low, high = _slow_bounds(score, n)
    assert score_interval(score, n) == pytest.approx((low, high), abs=1e-9)
    assert s.elo_low == pytest.approx(elo_difference(low))
    assert s.elo_high == pytest.approx(elo_difference(high))
    assert s.elo_low <= s.elo <= s.elo_high
    assert f"+{w} ={d} -{l}" in s.describe()


def test_interval_shrinks_with_more_games_and_handles_sweeps():
    small = summarise(_synthetic(6, 0, 4))
    large = summarise(_synthetic(60, 0, 40))
    assert large.elo_high - large.elo_low < small.elo_high - small.elo_low
    sweep = summarise(_synthetic(20, 0, 0))
    assert sweep.score == 1.0 and sweep.elo == math.inf
    assert 250 < sweep.elo_low < 320 and sweep.elo_high == math.inf  # a sweep proves little
    assert "+inf" in sweep.describe()
    assert sweep.as_dict()["elo"] == "+inf"
    even = summarise(_synthetic(0, 8, 0))
    assert even.elo == 0.0 and even.elo_low < 0 < even.elo_high
    with pytest.raises(TablierError):
        summarise([])


def test_play_game_makes_its_players_with_the_given_function():
    game = get("volo", board="mini", supply=12)
    made: list[tuple[str, int]] = []

    def make(spec, game, seed=0):
        made.append((spec, seed))
        return make_player("greedy", game, seed=seed)

    record = play_game(game, "a-spec", "b-spec", 1, seed=4, max_plies=6, make=make)
    # game 1: b moves first; the seeds are those make_player gets by default
    assert made == [("b-spec", 4 * 1_000_003 + 2), ("a-spec", 4 * 1_000_003 + 3)]
    assert record["first"] == "b-spec" and record["plies"] <= 6


def test_play_game_alternates_colours_and_shares_openings():
    game = get("volo", board="mini", supply=12)
    g0 = play_game(game, "greedy", "random", 0, seed=4, opening_plies=2)
    g1 = play_game(game, "greedy", "random", 1, seed=4, opening_plies=2)
    assert g0["first"] == "greedy" and g1["first"] == "random"
    assert g0["a_first"] and not g1["a_first"]
    assert g0["moves"][:2] == g1["moves"][:2]
    # The record replays and its result is the one stored.
    state = game.initial_state()
    for text in g0["moves"]:
        state = state.apply(game.parse_move(state, text))
    assert state.outcome is not None and state.outcome.result == g0["result"]
    a_player = 0 if g0["a_first"] else 1
    assert g0["score_a"] == state.outcome.score(a_player)
    assert 0 <= g0["think_a"]["mean"] <= g0["think_a"]["max"] <= g0["seconds"]


def test_a_record_keeps_the_steps_of_the_longest_decision():
    """For a player that times its steps (an MCTS level): which step the longest decision
    spent its time in, on both clocks; a player that does not has none."""
    game = get("volo", board="mini", supply=12)
    record = play_game(game, "medium:iterations=20,seconds=none", "random", 0, seed=4)
    think = record["think_a"]
    assert "steps" not in record["think_b"]
    assert {"tactics", "search"} <= set(think["steps"]) <= {"tactics", "threat", "search", "checks"}
    walls = [wall for wall, _cpu in think["steps"].values()]
    assert all(wall >= 0 for wall in walls) and sum(walls) <= think["max"] + 1e-3


def test_real_match_in_processes_and_resume(tmp_path):
    game = get("volo", board="mini", supply=12)
    out = tmp_path / "m.jsonl"
    a, b = "medium:iterations=10,seconds=none", "random"
    results = run_match(game, a, b, 4, jobs=2, seed=1, out=out)
    assert [r["index"] for r in results] == [0, 1, 2, 3]
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(x)["game"] == game.spec for x in lines)
    # Interrupted run: drop two games and leave a half-written line; resuming plays them again.
    kept = [x for x in lines if json.loads(x)["index"] in (0, 3)]
    out.write_text("\n".join(kept) + '\n{"index": 1, "gam')
    assert sorted(r["index"] for r in read_results(out)) == [0, 3]
    played = []
    again = run_match(game, a, b, 4, jobs=1, seed=1, out=out, on_result=played.append)
    assert sorted(r["index"] for r in played) == [1, 2]
    assert [r["index"] for r in again] == [0, 1, 2, 3]
    by_index = {r["index"]: r for r in results}
    for r in again:  # seeded and iteration-bounded: the replayed games are the same
        assert r["moves"] == by_index[r["index"]]["moves"]
    s = summarise(again, a, b)
    assert s.games == 4 and s.wins + s.draws + s.losses == 4


def test_match_errors(tmp_path):
    game = get("volo", board="mini")
    with pytest.raises(TablierError, match="games"):
        run_match(game, "random", "random", 0)
    with pytest.raises(TablierError, match="jobs"):
        run_match(game, "random", "random", 2, jobs=0)
    with pytest.raises(TablierError, match="unknown player"):
        run_match(game, "random", "wizard", 2)
    other = tmp_path / "other.jsonl"
    other.write_text(
        json.dumps(
            {
                "index": 0,
                "game": "volo:board=standard",
                "first": "random",
                "second": "random",
                "score_a": 1.0,
                "plies": 12,
                "result": "1-0",
                "reason": "flock",
            }
        )
        + "\n"
    )
    with pytest.raises(TablierError, match="results of"):
        run_match(game, "random", "random", 2, out=other)
    with pytest.raises(TablierError, match="cannot write"):
        run_match(game, "random", "random", 1, out=tmp_path / "missing" / "r.jsonl")
    with pytest.raises(TablierError, match="cannot read"):
        read_results(tmp_path)  # a directory
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1, 2]\n")
    with pytest.raises(TablierError, match="not an arena result"):
        read_results(bad)


def test_backends_share_the_match_module_without_a_cycle():
    # arena -> ray_backend -> match, and match imports neither backend.
    import tablier.ai as ai_package

    folder = Path(ai_package.__file__).parent

    def imported(name: str) -> set[str]:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {a.name for a in node.names}
        return found

    assert "match" in imported("arena") and "match" in imported("ray_backend")
    assert "arena" not in imported("ray_backend")
    assert not {"arena", "ray_backend"} & imported("match")
