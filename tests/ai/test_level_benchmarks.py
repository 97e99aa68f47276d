"""The level-calibration benchmarks stay runnable: the beginner, easy's calibration,
the time per decision and the ladder (tiny runs; the figures are the scripts' business)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tablier.ai.arena import run_match
from tablier.ai.players import EXTRA_PLAYERS, make_player, player_names, register_player
from tablier.core.errors import TablierError
from tablier.games import get

from .aitoys import TreeGame

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _module(name: str):
    """Load ``benchmarks/NAME.py`` as its own run would: with its folder on the path, where the
    benchmarks it imports (``beginner``, ``voldetour_stalls``...) are found whichever test ran
    first."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def beginner():
    return _module("beginner")


@pytest.fixture(scope="module")
def mini():
    return get("volo", board="mini")


def run(script: str, *args: str) -> str:
    done = run_script(script, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_refuses_bad_json(tmp_path: Path, script: str, *args: str) -> None:
    """``script`` given ``args`` and a record file that is not JSON: exit 2, one line."""
    (tmp_path / "bad.jsonl").write_text("not json\n")
    done = run_script(script, *args, str(tmp_path / "bad.jsonl"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


def run_script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The benchmark ``script`` run with ``args``, whatever its exit status."""
    return subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_beginner_is_a_player_spec(beginner, mini):
    assert "beginner" in EXTRA_PLAYERS and "beginner" in player_names()
    player = make_player("beginner:noise=0", mini, seed=1)
    assert isinstance(player, beginner.BeginnerPlayer) and player.noise == 0
    with pytest.raises(TablierError):
        make_player("beginner:depth=2", mini)
    with pytest.raises(TablierError):
        make_player("beginner:noise=2", mini)
    with pytest.raises(TablierError):
        register_player("greedy", beginner.make_beginner)


def test_beginner_takes_a_win_but_does_not_look_at_the_answers(beginner, mini, monkeypatch):
    win = mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    player = beginner.BeginnerPlayer(seed=0, noise=0.0)
    assert win.apply(player.choose(win)).outcome is not None
    # Orange's e8-f8 hands Blue a win in one: greedy refuses it, the beginner plays it
    # when its evaluation likes it best.
    trap = mini.position(["e8", "g8", "b2"], ["e5", "e6", "e9"], to_move=0)
    blunder = next(m for m in trap.legal_moves() if str(m) == "e8-f8")
    after = trap.apply_unchecked(blunder)

    class Likes:
        evaluate = object()

        def value(self, state, player):
            return 1.0 if state == after else 0.0

    monkeypatch.setattr(beginner, "knowledge_for", lambda game: Likes())
    assert player.choose(trap) == blunder
    assert make_player("greedy", mini, seed=0).choose(trap) != blunder
    noisy = beginner.BeginnerPlayer(seed=0, noise=1.0)
    assert len({noisy.choose(trap) for _ in range(20)}) > 1  # all random


def _turn_ends(state, me, path=()):
    """Every end of ``me``'s turn from ``state``: (the decisions, the position)."""
    for move in state.legal_moves():
        after = state.apply_unchecked(move)
        if after.outcome is None and after.to_move == me:
            yield from _turn_ends(after, me, (*path, move))
        else:
            yield (*path, move), after


def _turn_position(depth: int = 3):
    """A tree-game position whose mover has a turn of ``depth`` decisions, no win in one
    (a turn that does not start with the first move, which a tie would favour)."""
    for seed in range(200):
        game = TreeGame(seed=seed, depth=8, branching=3)
        state = game.initial_state()
        if any(state.apply_unchecked(m).outcome is not None for m in state.legal_moves()):
            continue
        for path, end in _turn_ends(state, state.to_move):
            if len(path) == depth and end.outcome is None and path[0] != state.legal_moves()[0]:
                return state, path, end
    raise AssertionError("no tree game with such a turn")


def test_beginner_is_greedy_over_whole_turns(beginner, monkeypatch):
    state, path, target = _turn_position()
    seen = []

    class Likes:
        evaluate = object()

        def value(self, s, player):
            seen.append(s)
            return 0.5 if s == target else 0.0

    monkeypatch.setattr(beginner, "knowledge_for", lambda game: Likes())
    # (without the rule guard, which may refuse a turn of this random tree that loses anyway)
    for seed in range(20):  # the first decision of the only turn it likes, whatever the draws
        player = beginner.BeginnerPlayer(seed=seed, noise=0.0, guard=False)
        assert player.choose(state) == path[0]
    # and it follows its plan through the turn
    s = state.apply(path[0])
    assert player.choose(s) == path[1] and player.choose(s.apply(path[1])) == path[2]
    # A budget smaller than the turn tree: every move of the decision is looked at once,
    # and no more positions than the budget are examined.
    seen.clear()
    small = beginner.BeginnerPlayer(
        seed=0, noise=0.0, guard=False, turn_nodes=len(state.legal_moves())
    )
    assert small.choose(state) in state.legal_moves()
    assert len(seen) == len(state.legal_moves())
    with pytest.raises(TablierError):
        make_player("beginner:turn_nodes=0", state.game)
    assert make_player("beginner:turn_nodes=50", state.game).turn_nodes == 50


def test_beginner_plays_arena_matches_in_worker_processes(beginner, mini):
    results = run_match(mini, "beginner", "easy", 2, jobs=2, seed=3)
    assert [r["index"] for r in results] == [0, 1]
    assert {r["first"] for r in results} == {"beginner", "easy"}


def test_easy_mistakes_setting(mini):
    assert make_player("easy:mistakes=0.5", mini).level.mistakes == 0.5
    with pytest.raises(TablierError):
        make_player("easy:mistakes=1.5", mini)
    # All mistakes: no search at all, a random legal move every time.
    player = make_player("easy:mistakes=1", mini, seed=2)
    state = mini.initial_state()
    assert player.choose(state) in state.legal_moves() and player.last_analysis == []


def test_calibrate_easy_runs(tmp_path):
    out = run(
        "calibrate_easy.py",
        "--games", "2",
        "--game-specs", "xobo",
        "--opponents", "easy;medium:iterations=20,seconds=none",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert "| xobo | easy | 2 |" in out
    assert len(list(tmp_path.glob("*.jsonl"))) == 2


def test_level_times_runs(tmp_path):
    out = run(
        "level_times.py",
        "--level", "hard:seconds=0.05,solver_nodes=50",
        "--moves", "2",
        "--copies", "1",
        "--game-specs", "xobo",
        "--json", str(tmp_path / "t.json"),
    )  # fmt: skip
    assert "| xobo | 2 |" in out and (tmp_path / "t.json").exists()
    # the steps of hard's decisions, each timed on both clocks
    assert "| xobo | search |" in out and "| xobo | tactics |" in out
    row = json.loads((tmp_path / "t.json").read_text())["games"]["xobo"]
    steps = row["steps"]
    assert {"tactics", "search", "checks"} <= set(steps)
    # the promise counted on both clocks: 0.05 s decisions spend far less than 2 s of CPU
    assert "over 2 s: wall, CPU" in out and row["over_cpu"] == 0 and row["cpu"][2] < 2
    assert all(len(clocks) == 2 and clocks[0][0] <= clocks[0][1] for clocks in steps.values())


def test_level_ladder_plans_and_plays(tmp_path):
    assert "CPU hours" in run("level_ladder.py", "--plan", "--games", "10")
    out = run(
        "level_ladder.py",
        "--games", "2",
        "--pairs", "easy-random,easy-beginner",
        "--game-specs", "xobo",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert "| xobo | easy | random | 2 |" in out and "| xobo | easy | beginner | 2 |" in out


def test_voldetour_forks_finds_the_recorded_fork():
    """Game 3 of the recorded `medium`–`easy` match: at decision 52 Black could walk its
    Lord to h8 and fork; only the question with forks finds that turn."""
    record = BENCH / "records" / "2026-11-30-voldetour-medium-easy.jsonl"
    out = run("voldetour_forks.py", "--games", "4", str(record))
    assert "forks: 1\n" in out
    assert "game 3 decision 52: B112 B112@g7+2:1x2x1 Lg6-g7-g8-h8" in out
    assert "ratio of the totals" in out


def test_voldetour_losses_sees_the_five_decision_win_only_with_the_larger_budget():
    """Game 1 of the recorded `expert`-`hard` match: `expert`'s last turn leaves `hard` a
    winning turn of five decisions (a stair stood up on i8, a block on it, the Lord up),
    which the unstoppable question finds in about 9,000 positions, not in the levels'
    1,000; a defence existed (a block stood on j8, a stair on h8)."""
    record = str(BENCH / "records" / "2026-11-30-voldetour-expert-hard.jsonl")
    common = ("--player", "expert", "--limit", "1", "--turns", "1", "--scale", "1")
    out = run("voldetour_losses.py", *common, "--danger-nodes", "1000", record)
    assert "game 1 (75 decisions): -1: played safe, any safe" in out
    assert "won by S S@i8:u B112 B112@i8+1:1x1x2 Li7-i8-i9" in out
    assert "winning turns by decisions: 5: 1; a stair stood up and a block put on it: 1" in out
    out = run(
        "voldetour_losses.py", *common, "--danger-nodes", "20000",
        "--replay", "hard:iterations=10,seconds=none", record,
    )  # fmt: skip
    assert "game 1 (75 decisions): -1: played lost, any safe" in out
    assert "1 games lost by expert; the latest turn start with a defence found" in out
    assert "hard:iterations=10,seconds=none: the opponent wins at once after" in out


def _greedy_mini_loss() -> tuple[dict[str, Any], int]:
    """A mini-board game between two `greedy` players (seed 2), won at the tower, as a
    record whose loser is named `random`, and the loser's side."""
    stalls = _module("voldetour_stalls")
    game = get("voldetour", pieces="mini")
    played = stalls.play_on(game.initial_state(), "greedy", "greedy", seed=2, max_plies=400)
    state = game.initial_state()
    for text in played["moves"]:
        state = state.apply(game.parse_move(state, text))
    assert state.outcome is not None and state.outcome.winner is not None
    winner = state.outcome.winner
    names = ["greedy", "random"] if winner == 0 else ["random", "greedy"]
    record = {"index": 8, "game": game.spec, "first": names[0], "second": names[1]}
    record |= {"moves": played["moves"], "plies": played["plies"], "reason": "tower"}
    record["winner"] = winner
    return record, 1 - winner


def test_voldetour_losses_asks_every_end_of_the_last_turns(tmp_path):
    """A mini-board game between two `greedy` players (seed 2, won at the tower): every end
    of the loser's last two turns counted as the finishes benchmark enumerates them, one
    sequence of decisions at a time, and each asked for the winner's winning turn."""
    from tablier.games.voldetour import turnwin

    losses = _module("voldetour_losses")
    finishes = _module("voldetour_finishes")
    record, loser = _greedy_mini_loss()
    figures = []
    for back in (1, 2):
        start = losses.turns(record, loser)[-back][0][0]
        ends = set(finishes.turn_ends(start, None))
        held = sum(
            end.outcome.winner == loser
            if end.outcome is not None
            else turnwin.search(end, 20_000).line is None
            for end in ends
        )
        found = losses.every_end(start, 20_000)
        assert (found.ends, found.held, found.complete) == (len(ends), held, True)
        figures.append(found)
    # the turn the loser played last left the winner its winning turn, so not every end held
    assert figures[0].held < figures[0].ends
    cut = losses.every_end(losses.turns(record, loser)[-1][0][0], 20_000, seconds=0.01)
    assert not cut.complete and cut.ends < figures[0].ends

    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    out = run(
        "voldetour_losses.py", "--player", "random", "--turns", "1", "--every-end", "60",
        "--judge-nodes", "20000", str(path),
    )  # fmt: skip
    last = figures[0]
    verdict = "held" if last.held else "proved lost"
    assert f"every end: {last.ends}, {last.held} hold, {verdict}" in out
    assert "every end of the last turn asked at 1 turn starts: proved lost at " in out
    # unreadable files, not JSON, a lost game with a bad move: one line naming it, exit 2
    (tmp_path / "bad.jsonl").write_text("not json\n")
    broken = record | {"moves": [*record["moves"][:-1], "Lz9"]}
    (tmp_path / "broken.jsonl").write_text(json.dumps(broken) + "\n")
    for bad in ("missing.jsonl", "bad.jsonl", "broken.jsonl"):
        done = run_script("voldetour_losses.py", "--player", "random", str(tmp_path / bad))
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"error: cannot read the records in {tmp_path / bad}")
        assert done.stderr.count("\n") == 1
    assert "game 8: " in done.stderr and "'z9'" in done.stderr


def test_voldetour_losses_samples_the_ends_of_the_turn_before_last(tmp_path):
    """The mini-board game above: drawing more ends than the loser's turn before last has
    draws each once (the finishes benchmark's enumeration, one sequence at a time, finds
    the same positions), and each is sorted as asking it directly sorts it; a smaller
    draw is a subset, the same for a seed."""
    from tablier.games.voldetour import turnwin

    losses = _module("voldetour_losses")
    finishes = _module("voldetour_finishes")
    record, loser = _greedy_mini_loss()
    start = losses.turns(record, loser)[-2][0][0]
    ends = set(finishes.turn_ends(start, None))
    assert set(losses.distinct_ends(start)) == ends
    assert len(list(losses.distinct_ends(start))) == len(ends)
    at_once = lasting = won = 0
    for end in ends:
        if end.outcome is not None:
            won += end.outcome.winner == loser
            at_once += end.outcome.winner != loser
        elif turnwin.search(end, 1000).line is not None:
            at_once += 1
        elif turnwin.lasting(end, 200, None) is not None:
            lasting += 1
    whole = losses.sample_ends(start, len(ends) + 5, 1, 1000, 200)
    assert (whole.ends, whole.sampled) == (len(ends), len(ends))
    assert (whole.won, whole.at_once, whole.lasting) == (won, at_once, lasting)
    part = losses.sample_ends(start, 3, 7, 1000, 200)
    assert part.sampled == 3 and part.won + part.at_once + part.lasting <= 3
    assert part == losses.sample_ends(start, 3, 7, 1000, 200)._replace(seconds=part.seconds)

    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    out = run(
        "voldetour_losses.py", "--player", "random", "--sample-ends", "3", "--seed", "7",
        "--judge-nodes", "1000", "--lasting", "200", str(path),
    )  # fmt: skip
    neither = 3 - part.won - part.at_once - part.lasting
    assert (
        f"game 8: the turn before last has {len(ends)} ends; of 3 drawn, {part.won} win,"
        f" {part.at_once} lose at once, {part.lasting} leave a lasting threat, {neither} neither"
    ) in out
    assert "1 games lost by random: at the turn start before last, every end drawn" in out
    other = run("voldetour_losses.py", "--player", "random", "--sample-ends", "3", "--games",
                "9,10", str(path))  # fmt: skip
    assert "game 8" not in other and "0 games lost by random" in other
    wrong = run_script(
        "voldetour_losses.py", "--player", "random", "--sample-ends", "3", "--games", "8,x",
        str(path),
    )  # fmt: skip
    assert wrong.returncode == 2 and "not game indices separated by commas: '8,x'" in wrong.stderr
    assert_refuses_bad_json(
        tmp_path, "voldetour_losses.py", "--player", "random", "--sample-ends", "3"
    )


def test_voldetour_losses_counts_the_lasting_threats(tmp_path):
    """Games 0 (won by `expert`) and 4 (lost) of the match of 2026-12-01: the lasting-threat
    question answers after `expert`'s last turn but one of game 4, with the block `hard`
    then put on c2, and a turn before (the 1x2x2 there), never in game 0."""
    source = BENCH / "records" / "2026-12-01-voldetour-expert-hard-stopped.jsonl"
    kept = [line for line in source.read_text().splitlines() if json.loads(line)["index"] in (0, 4)]
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(kept) + "\n")
    out = run("voldetour_losses.py", "--player", "expert", "--lasting", "2000", str(path))
    assert "game 4 (lost), after turn 9 of 10: B112 B112@c2:1x1x2 end" in out
    assert "game 4 (lost), after turn 8 of 10: B122 B122@c2:1x2x2 end" in out
    assert "game 0 " not in out
    assert "2 answers after " in out
    assert "in 1 of the 1 games it did not win and 0 of the 1 it won" in out
    assert_refuses_bad_json(
        tmp_path, "voldetour_losses.py", "--player", "expert", "--lasting", "2000"
    )


def test_voldetour_race_finds_the_first_lord_perched_and_the_idle_turns(tmp_path):
    """Perched: at the towers' height within two squares of the enemy tower.  Games 0 and 6
    of the match of 2026-12-02, read by hand from their records: in game 0 `expert` (Black)
    perched first, on its eighth turn, neither side idle before; in game 6 `hard` (White) on
    its seventh, after `expert`'s seventh turn put two pieces and ended with its Lord free to
    move (its first, which carries the opening, does not count), and the Lords stood side by
    side; game 0 cut after twelve decisions, before either perched."""
    race = _module("voldetour_race")
    game = get("voldetour")
    black_by_i9 = game.parse_position_body("turn=9 lords=h8,c5 black=B113@h8:1x1x3 white=-")
    assert race.perched(black_by_i9, 0) and not race.perched(black_by_i9, 1)
    for body in (
        "turn=9 lords=g8,c5 black=B113@g8:1x1x3 white=-",  # three squares away
        "turn=9 lords=h8,c5 black=B112@h8:1x1x2 white=-",  # below the towers' height
    ):
        assert not race.perched(game.parse_position_body(body), 0)
    source = BENCH / "records" / "2026-12-02-voldetour-expert-hard-lasting.jsonl"
    kept = [json.loads(line) for line in source.read_text().splitlines()]
    kept = [record for record in kept if record["index"] in (0, 6)]
    assert race.race(kept[0]) == race.Race(0, 8, (0, 0), (0, 0), met=False)
    # (in game 6 `hard`'s Lord came to d5, beside `expert`'s on d6)
    assert race.race(kept[1]) == race.Race(1, 7, (0, 0), (1, 0), met=True, pinned=(True, True))
    cut = {"index": 9, "game": kept[0]["game"], "first": "expert", "second": "hard"}
    cut |= {"moves": kept[0]["moves"][:12], "plies": 12, "reason": "move-limit"}
    assert race.race(cut) == race.Race(None, 0, (0, 0), (0, 0), met=False)
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in [*kept, cut]))
    out = run("voldetour_race.py", "--player", "expert", str(path))
    assert "game 0 (won): player perched first on its turn 8; idle turns 0+0, opponent 0+0" in out
    assert "game 6 (lost): opponent perched first on its turn 7; idle turns 0+1, opponent 0+0" in (
        out
    )
    assert "game 9 (lost): nobody perched first; idle turns 0+0, opponent 0+0" in out
    assert "3 games of expert: 1 won, 2 not won" in out
    assert "expert perched first in 1: expert won 1, median own turn 8" in out
    assert "the opponent perched first in 1: expert won 0, median own turn 7" in out
    assert "no Lord perched in 1: expert won 0" in out
    assert "the first to perch won 2 of 2 (100%)" in out
    assert "in the 2 where neither idled, the side that began perched first in 1" in out
    assert "the Lords met before the first perch in 1: expert won 0" in out
    assert "in the 1 where one side alone idled, the idler lost 1" in out
    assert "in the 2 games expert did not win: expert idled before the first perch in 1" in out
    quiet = run("voldetour_race.py", "--player", "expert", "--quiet", str(path))
    assert "game 0 " not in quiet and "the first to perch won 2 of 2" in quiet
    other = tmp_path / "volo.jsonl"
    other.write_text(json.dumps({"index": 1, "game": "volo", "first": "expert",
                                 "second": "hard", "moves": ["e5"]}) + "\n")  # fmt: skip
    done = run_script("voldetour_race.py", "--player", "expert", str(other))
    assert done.returncode == 2 and "game 1" in done.stderr and done.stderr.count("\n") == 1
    assert_refuses_bad_json(tmp_path, "voldetour_race.py", "--player", "expert")


def test_voldetour_race_names_the_side_a_tempo_ahead_and_the_openings_won_twice(tmp_path):
    """Games 0-3 and 14 of the match of 2026-12-02, read from their records: Black's first
    turn in games 0-3 stood its 1x2x3 beside the tower and took its Lord two squares on
    (Black a tempo ahead), in game 14 it put a 1x2x2 and ended (White ahead).  `expert` was
    Black in games 0 and 2 and perched first in both, White in 1 (lost) and 3 (perched first
    from behind); opening 0 (games 0, 1) went to Black twice, opening 1 to `expert`."""
    race = _module("voldetour_race")
    source = BENCH / "records" / "2026-12-02-voldetour-expert-hard-lasting.jsonl"
    records = {r["index"]: r for r in map(json.loads, source.read_text().splitlines())}
    assert [race.leader(records[i]) for i in (0, 1, 2, 3, 14)] == [0, 0, 0, 0, 1]
    assert records[14]["moves"][:4] == ["B122", "B122@h6:2x1x2", "end", "B123"]
    path = tmp_path / "four.jsonl"
    path.write_text("".join(json.dumps(records[i]) + "\n" for i in range(4)))
    out = run("voldetour_race.py", "--player", "expert", "--quiet", str(path))
    assert "Black a tempo ahead after Black's first turn in 4: Black perched first in 3" in out
    assert "White a tempo ahead" not in out
    assert "expert a tempo ahead in 2: expert perched first in 2" in out
    assert "expert a tempo behind in 2: expert perched first in 1" in out
    assert (
        "2 openings played with both colours: the same colour won both in 1 (the colour a tempo"
        " ahead in 1); expert won both in 1, the opponent in 0"
    ) in out
    assert (
        "expert a tempo ahead and stayed at the towers' height before the first perch in 2:"
        " perched first in 2"
    ) in out
    # game 3 the only one with one side alone pinned (game 1 both, 0 and 2 neither)
    assert (
        "in the 1 where one side alone stood pinned (its pillars all blocked), it perched"
        " first in 0"
    ) in out
    lone = tmp_path / "lone.jsonl"  # an opening played once: no pair to count
    lone.write_text(json.dumps(records[14]) + "\n")
    out = run("voldetour_race.py", "--player", "expert", "--quiet", str(lone))
    assert "White a tempo ahead after Black's first turn in 1" in out
    assert "openings played with both colours" not in out
    # game 7: `expert` (White, a tempo ahead) stood its 1x2x3 lying on f3, two levels high,
    # and walked down onto it on its fifth turn; `hard` perched first, on its ninth
    assert race.race(records[7]) == race.Race(0, 9, (0, 0), (0, 0), True, (False, True))
    assert records[7]["moves"][31:35] == ["B123", "B123@f3:1x3x2", "Se1", "S@f5+2:n"]
    assert race.race(records[0]).down == (False, False)
    # game 3: `hard` (Black) pinned from `expert`'s fifth turn on, its 1x2x3 under its own
    # Lord on f6, its 1x1x3 under `expert`'s, which stepped onto e5; `expert` never was
    assert [race.race(records[i]).pinned for i in (0, 3)] == [(False, False), (True, False)]
    assert "Lg5-f5-e5" in records[3]["moves"]
    lone.write_text(json.dumps(records[7]) + "\n")
    out = run("voldetour_race.py", "--player", "expert", "--quiet", str(lone))
    assert (
        "expert a tempo ahead and went below the towers' height before the first perch in 1:"
        " perched first in 0"
    ) in out
    # --descents plays that turn again from its start: `hard` at 100 simulations leapfrogs
    down = race.first_descent(records[7])
    assert (down.mover, down.own) == (1, 5) and race.first_descent(records[0]) is None
    assert down.decisions == ["B123", "B123@f3:1x3x2", "Se1", "S@f5+2:n", "Lf6-f4-f3"]
    spec = "hard:iterations=100,seconds=none"
    out = run("voldetour_race.py", "--player", "expert", "--descents", spec, "--seeds", "1",
              str(lone))  # fmt: skip
    assert "game 7: expert walked down on its turn 5 (B123 B123@f3:1x3x2" in out
    assert f"1 first descents of the side a tempo ahead, {spec} from their starts: 0 of 1" in out
    for bad, said in ((["--descents", "nosuch"], "unknown player 'nosuch'"),):
        done = run_script("voldetour_race.py", "--player", "expert", *bad, str(lone))
        assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1


def test_voldetour_race_plays_on_after_an_idle_turn_and_after_the_leapfrog(tmp_path):
    """The leapfrog beside a turn: the position of `turnwin.threat`'s docstring (White on its
    1x2x3 pillar four squares from Black's tower) stands the 1x1x3 on d2 and walks onto it,
    two squares from the tower at its height; a Lord on the ground has none.  The first idle
    turns by choice of games 3 (won) and 6 (lost) of the match of 2026-12-02, read from
    their records; game 0 has none.  ``--play-on`` plays on from both positions."""
    race = _module("voldetour_race")
    game = get("voldetour")
    pillar = game.position(white=["B113@f6:1x1x3", "B123@d3:1x2x3"], lords=("h8", "d4"), turn=10)
    leap = race.advance(pillar)
    assert [str(move) for move in leap] == ["B113", "B113@d2:1x1x3", "Ld4-d3-d2"]
    ground = game.parse_position_body("turn=9 lords=c5,h8 black=- white=B113@h8:1x1x3")
    assert race.advance(ground) is None
    source = BENCH / "records" / "2026-12-02-voldetour-expert-hard-lasting.jsonl"
    kept = [json.loads(line) for line in source.read_text().splitlines()]
    kept = [record for record in kept if record["index"] in (0, 3, 6)]
    sides = [0 if record["first"].startswith("expert") else 1 for record in kept]
    assert race.first_idle(kept[0], sides[0]) is None
    three = race.first_idle(kept[1], sides[1])
    assert three.won and three.played_line == "S S@h5:w B122 B122@d2:2x1x2 end"
    assert three.instead_line == "B123 B123@e3:1x2x3 Le5-e4-e3"
    six = race.first_idle(kept[2], sides[2])
    assert not six.won and six.instead_line == "B113 B113@f7:1x1x3 Le7-f7"
    for idle, side in ((three, sides[1]), (six, sides[2])):  # the opponent to move in both
        assert idle.played.to_move == idle.instead.to_move == 1 - side
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in kept))
    out = run(
        "voldetour_race.py", "--player", "expert", "--play-on", "random", "--seeds", "2",
        "--max-plies", "6", str(path),
    )  # fmt: skip
    assert "game 3 (won): idle 1, leapfrog 1 of 2 | S S@h5:w" in out  # 6 plies: no winner
    assert "game 0 " not in out and "game 6 (lost): idle 1, leapfrog 1 of 2" in out
    assert "2 first idle turns by choice with a leapfrog beside them, random on both" in out
    assert "expert scored 2 after the turn played, 2 after the leapfrog, of 4" in out
    assert "the leapfrog better in 0, worse in 0, equal in 2" in out
    assert_refuses_bad_json(tmp_path, "voldetour_race.py", "--player", "expert", "--play-on", "x")
    for bad, said in (
        (["--play-on", "nosuch"], "unknown player 'nosuch'"),
        (["--play-on", "random", "--seeds", "0"], "--seeds and --max-plies must be 1 or more"),
    ):
        done = run_script("voldetour_race.py", "--player", "expert", *bad, str(path))
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    # --predict: at each turn end before the first perch, who the evaluation and the Lords'
    # squares name; game 0 perched on Black's eighth turn (turn end 15), game 6 on White's
    # seventh (14), game 3 later: its ends fill every round to 8+
    lines = {}
    for tempo in ("0", "2"):
        lines[tempo] = run(
            "voldetour_race.py", "--player", "expert", "--predict", "--tempo", tempo, str(path)
        ).splitlines()  # fmt: skip
        assert (
            lines[tempo][1]
            == f"tempo {tempo}: who perched first, named at the turn ends of each round"
        )
        assert lines[tempo][2].startswith("  round 0: 3 turn ends; the evaluation ")
        assert lines[tempo][-1].startswith("  round 8+: ")
        assert all(" turn ends; the evaluation " in line for line in lines[tempo][2:])
    # the Lords' squares do not depend on the tempo; the evaluation's sign does
    squares = [[line.split("squares")[1] for line in lines[t][2:]] for t in ("0", "2")]
    assert squares[0] == squares[1] and lines["0"] != lines["2"]
    assert_refuses_bad_json(tmp_path, "voldetour_race.py", "--player", "expert", "--predict")


def test_voldetour_turns_lists_every_one_action_turn_and_the_search(tmp_path):
    turns = _module("voldetour_turns")
    game = get("voldetour", pieces="mini")
    state = game.initial_state()
    for text in ("B111", "B111@b3:1x1x1", "end"):  # Black's first turn: a block by the tower
        state = state.apply(game.parse_move(state, text))
    listed = turns.one_action_turns(state)
    # every decision of the mover, a taken piece once per square it can go to
    expected = 0
    for move in state.legal_moves():
        after = state.apply(move)
        expected += len(after.legal_moves()) if after.hand is not None else 1
    assert len(listed) == expected and listed == sorted(listed)
    record = tmp_path / "games.jsonl"
    moves = ["B111", "B111@b3:1x1x1", "end"]
    record.write_text(json.dumps({"index": 3, "game": game.spec, "moves": moves}) + "\n")
    out = run(
        "voldetour_turns.py",
        "--record", str(record), "--index", "3", "--ply", "3",
        "--level", "hard:iterations=30,seconds=none", "--top", "3", "--seeds", "2",
    )  # fmt: skip
    assert f"{len(listed)} one-action turns" in out and "hard:iterations=30" in out
    assert "plays " in out
    assert "seed 1: the turn " in out and "seed 2: the turn " in out


def test_voldetour_turns_plays_the_searchs_playouts_after_a_turn(tmp_path):
    from tablier.games.voldetour import ai as vold_ai

    turns = _module("voldetour_turns")
    game = get("voldetour", pieces="mini")
    state = game.initial_state()
    for text in ("B111", "B111@b3:1x1x1", "end"):
        state = state.apply(game.parse_move(state, text))
    if vold_ai.playout(state, 0, 0, False, False) is None:
        pytest.skip("the playouts are the compiled core's")
    # White's turn: a block beside its tower, then end
    take = next(m for m in state.legal_moves() if str(m).startswith("B"))
    taken = state.apply(take)
    put = taken.legal_moves()[0]
    after = taken.apply(put)
    after = after.apply(game.parse_move(after, "end"))
    seen = turns.playouts(after, 1, 20, seed=3)
    assert 0.0 <= seen["reward"] <= 1.0 and -1.0 <= seen["evaluation"] <= 1.0
    assert seen["evaluation"] == -vold_ai.evaluate(after)  # Black to move there
    assert 0 <= seen["takes"] <= 20
    # both Lords are within the cap at the start: nobody can be freed
    assert vold_ai.path_distance(after, 0) < vold_ai._CAP and seen["freed"] == 0
    assert turns.playouts(after, 1, 20, seed=3) == seen  # seeded
    record = tmp_path / "games.jsonl"
    moves = ["B111", "B111@b3:1x1x1", "end"]
    record.write_text(json.dumps({"index": 3, "game": game.spec, "moves": moves}) + "\n")
    common = ["--record", str(record), "--index", "3", "--ply", "3"]
    common += ["--level", "hard:iterations=30,seconds=none", "--top", "1", "--playouts", "5"]
    out = run("voldetour_turns.py", *common, "--turn", f"{take} {put} end")
    assert f"5 playouts after '{take} {put} end' (for 1)" in out and "mean reward" in out
    bad = subprocess.run(
        [sys.executable, str(BENCH / "voldetour_turns.py"), *common, "--turn", f"{take}"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "--turn must end the mover's turn" in bad.stderr


def test_voldetour_stalls_plays_on_from_a_recorded_game(tmp_path):
    stalls = _module("voldetour_stalls")
    game = get("voldetour", pieces="mini")
    moves = ["B111", "B111@b3:1x1x1", "end"]
    record = tmp_path / "games.jsonl"
    record.write_text(json.dumps({"index": 5, "game": game.spec, "moves": moves}) + "\n")
    start = _module("voldetour_turns").recorded(str(record), 5, 3)
    assert start.to_move == 1  # White to move after Black's first turn
    played = stalls.play_on(start, "random", "greedy", seed=1, max_plies=6)
    # A (random) takes White's side; the rest replays legally from the start
    state = start
    for text in played["moves"]:
        state = state.apply(game.parse_move(state, text))
    assert played["plies"] == len(played["moves"]) <= 6
    assert played["reason"] == (state.outcome.reason if state.outcome else "move-limit")
    out = run(
        "voldetour_stalls.py",
        "--record", str(record), "--index", "5", "--ply", "3", "--games", "2",
        "--a", "random", "--b", "random", "--max-plies", "4",
    )  # fmt: skip
    assert "from decision 3 of game 5" in out and "game 1: " in out
    assert "random vs random: " in out


def test_voldetour_lord_weight_plays_each_side_with_its_weight(tmp_path, monkeypatch):
    from tablier.games.voldetour import ai as vold_ai

    bench = _module("voldetour_lord_weight")
    seen: list[tuple[str, float]] = []
    real = vold_ai._set_lord_weight

    def spy(weight: float) -> float:
        seen.append(("set", weight))
        return real(weight)

    tempos: list[float] = []
    real_tempo = vold_ai._set_tempo

    def spy_tempo(tempo: float) -> float:
        tempos.append(tempo)
        return real_tempo(tempo)

    monkeypatch.setattr(vold_ai, "_set_lord_weight", spy)
    monkeypatch.setattr(vold_ai, "_set_tempo", spy_tempo)
    kept, kept_tempo = vold_ai._LORD, vold_ai._TEMPO
    out = tmp_path / "ab.jsonl"
    assert bench.main(
        ["--a", "3", "--b", "0.5", "--a-tempo", "2", "--spec", "greedy", "--pieces", "mini",
         "--games", "2", "--max-plies", "12", "--out", str(out)]
    ) == 0  # fmt: skip
    assert kept == vold_ai._LORD and kept_tempo == vold_ai._TEMPO  # put back afterwards
    weights = {w for _, w in seen}
    assert {3.0, 0.5} <= weights  # each player set its own before deciding
    assert {2.0, 0.0} <= set(tempos)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    assert records[0]["first"] == "greedy#a" and records[1]["first"] == "greedy#b"
    summary = run("voldetour_lord_weight.py", "--summary", str(out))
    assert "over 2 games" in summary and "SPRT 0/100" in summary
    done = subprocess.run(
        [sys.executable, str(BENCH / "voldetour_lord_weight.py"), "--summary", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "cannot read the records" in done.stderr


def test_voldetour_stalls_counts_the_turn_starts_of_a_cycle():
    stalls = _module("voldetour_stalls")
    path = BENCH / "records" / "2026-11-29-voldetour-hard-greedy.jsonl"
    records = {r["index"]: r for r in map(json.loads, path.read_text().splitlines())}
    # game 13 ends in cycles of sixteen decisions, four turns a side (hard's Lord g7-g6 and
    # back, greedy's block to and fro): from its second half on, every turn start came before
    cycle = records[13]
    assert stalls.repeats(cycle) == 1.0
    # as the cycle's positions say: the last turn starts are those of sixteen decisions before
    game = get(cycle["game"].split(":")[0])
    states = [game.initial_state()]
    for text in cycle["moves"]:
        states.append(states[-1].apply(game.parse_move(states[-1], text)))
    assert states[-16].to_text().split()[2:] == states[-32].to_text().split()[2:]
    # the shortest win repeats nothing; game 0 was a cycle for a while before hard won it
    won = min((r for r in records.values() if r["reason"] == "tower"), key=lambda r: r["plies"])
    assert stalls.repeats(won) == 0.0
    assert 0.5 < stalls.repeats(records[0]) < 1.0


def _capped_mini_game(stalls):
    """A mini-board game between two `greedy` players stopped after 30 decisions, recorded as
    capped (game 7), and the same marked won at the tower (game 8); the decisions played."""
    game = get("voldetour", pieces="mini")
    played = stalls.play_on(game.initial_state(), "greedy", "greedy", seed=3, max_plies=30)
    capped = {"index": 7, "game": game.spec, "first": "greedy", "second": "random"}
    capped |= {"moves": played["moves"], "reason": "move-limit"}
    won = capped | {"index": 8, "reason": "tower"}
    return game, played, capped, won


def test_voldetour_stalls_summary_reads_the_capped_games(tmp_path):
    from tablier.games.voldetour import ai as vold_ai

    stalls = _module("voldetour_stalls")
    game, played, capped, won = _capped_mini_game(stalls)
    record = tmp_path / "games.jsonl"
    record.write_text(json.dumps(capped) + "\n" + json.dumps(won) + "\n")
    sides = stalls.lords(capped)
    state = game.initial_state()
    for text in played["moves"]:
        state = state.apply(game.parse_move(state, text))
    towers = game.pieceset.towers
    for p in (0, 1):
        assert 0.0 <= sides[p]["home"] <= 1.0 and 0.0 <= sides[p]["enemy_near"] <= 1.0
        assert sides[p]["own"] == stalls._squares(state, state.lords[p], towers[p])
        assert 0.0 <= sides[p]["high"] <= 1.0
        assert sides[p]["height"] == state.board.height(state.lords[p])
        assert sides[p]["path"] == vold_ai.path_distance(state, p)
        assert sides[p]["stairs"] == state.reserve_stairs(p)
        assert sides[p]["blocks"] == len(state.reserve_blocks(p))
    # walks: by the notation, the turns ended in the second half with a Lord move ("L...")
    # and high: the second half's positions with the Lord at the towers' height
    replay, turn, ended = game.initial_state(), [], {0: [], 1: []}
    half, top, at_top = len(played["moves"]) // 2, game.pieceset.tower_height, [0, 0]
    for i, text in enumerate(played["moves"]):
        mover = replay.to_move
        turn.append(text)
        replay = replay.apply(game.parse_move(replay, text))
        if replay.to_move != mover:
            if i >= half:
                ended[mover].append(any(t.startswith("L") for t in turn))
            turn = []
        if i >= half:
            for p in (0, 1):
                at_top[p] += replay.board.height(replay.lords[p]) == top
    for p in (0, 1):
        assert ended[p], "the thirty decisions hold whole turns of both"
        assert sides[p]["walks"] == sum(ended[p]) / len(ended[p])
        assert sides[p]["high"] == at_top[p] / (len(played["moves"]) - half)
    out = run("voldetour_stalls.py", "--summary", str(record))
    assert "games.jsonl game 7: " in out and "game 8" not in out
    assert "1 of 2 games capped" in out
    share = stalls.repeats(capped)
    assert f"{100 * share:.0f}% of the second half's turn starts repeat one before" in out
    assert f"repeat one before): {int(share >= stalls.CYCLE_SHARE)}" in out
    # unreadable files, not JSON, a capped game with a bad move: one line, exit 2
    (tmp_path / "bad.jsonl").write_text("not json\n")
    broken = capped | {"moves": ["B111", "nonsense"]}
    (tmp_path / "broken.jsonl").write_text(json.dumps(broken) + "\n")
    for bad in ("missing.jsonl", "bad.jsonl", "broken.jsonl"):
        refused = subprocess.run(
            [sys.executable, str(BENCH / "voldetour_stalls.py"), "--summary", str(tmp_path / bad)],
            capture_output=True,
            text=True,
        )
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.startswith(f"error: cannot read the records in {tmp_path / bad}")
        assert refused.stderr.count("\n") == 1
    # the kinds: idling at home only when nobody comes near; a Lord near the goal; else blockade
    home = {"home": 1.0, "enemy_near": 0.0, "own": 1, "enemy": 13}
    far = {"home": 0.0, "enemy_near": 0.0, "own": 8, "enemy": 6}
    assert stalls.kind([home, far]) == "home"
    assert stalls.kind([home | {"enemy_near": 0.8}, far | {"enemy": 2}]) == "finish"
    assert stalls.kind([far, far]) == "blockade"
    # stranded: the second half at the towers' height and no stair left in the reserve
    top = {"high": 1.0, "stairs": 0}
    assert stalls.stranded(top) and not stalls.stranded(top | {"stairs": 1})
    assert not stalls.stranded(top | {"high": 0.5})


def test_voldetour_stalls_summary_scores_each_pair_of_players(tmp_path):
    """A's score over its games, whichever side it took, and the sequential test on the
    complete pairs (games 2k and 2k + 1); bounds it cannot take: one line, exit 2."""
    games = [
        (0, True, 1.0),  # expert first, won
        (1, False, 1.0),  # hard first, expert won
        (2, True, 0.0),
        (3, False, 0.5),
        (4, True, 1.0),  # a pair not complete: scored, not in the test
    ]
    lines = [
        json.dumps(
            {"index": i, "a_first": a_first, "score_a": score, "reason": "tower"}
            | (
                {"first": "expert", "second": "hard"}
                if a_first
                else {"first": "hard", "second": "expert"}
            )
        )
        for i, a_first, score in games
    ]
    other = {"index": 0, "a_first": True, "score_a": 0.0, "first": "medium", "second": "easy"}
    record = tmp_path / "games.jsonl"
    record.write_text("\n".join([*lines, json.dumps(other)]) + "\n")
    out = run("voldetour_stalls.py", "--summary", str(record))
    assert "expert vs hard: 5 games, +3 =1 -1, score 70.0%" in out
    assert "after 2 pairs (0-0.5-1-1.5-2: 0-1-0-0-1)" in out
    assert "medium vs easy: 1 games, +0 =0 -1, score 0.0%" in out
    assert "elo0=0 elo1=108" in out
    assert "elo0=-10 elo1=20" in run(
        "voldetour_stalls.py", "--summary", str(record), "--sprt=-10,20"
    )
    for bad in ("1", "108,0", "x,y"):
        refused = subprocess.run(
            [sys.executable, str(BENCH / "voldetour_stalls.py"), "--summary", str(record),
             "--sprt", bad],
            capture_output=True,
            text=True,
        )  # fmt: skip
        assert refused.returncode == 2 and refused.stderr.startswith("error: --sprt: ")
        assert refused.stderr.count("\n") == 1


def test_voldetour_finishes_reads_the_near_lords_of_capped_games(tmp_path):
    from tablier.games.voldetour import ai as vold_ai

    finishes = _module("voldetour_finishes")
    stalls = _module("voldetour_stalls")
    game, played, capped, won = _capped_mini_game(stalls)
    starts = finishes.last_turn_starts(capped)
    assert sorted(starts) == [0, 1] and all(starts[p].to_move == p for p in (0, 1))
    assert all(s.hand is None and s.done == 0 for s in starts.values())
    # every Lord asked (near = the whole board), its figures those of the distances
    rows = finishes.finishes(capped, 99, full=True)
    assert [row["player"] for row in rows] == [0, 1]
    for row in rows:
        state = starts[row["player"]]
        other = state.lords[1 - row["player"]]
        assert row["path"] == vold_ai.path_distance(state, row["player"])
        assert row["wall"] == vold_ai.path_distance(state, row["player"], 1 << other)
        # no piece: the Lord's moves (a turn start: "end" needs an action first)
        lord_moves = [m for m in state.legal_moves() if m[0] == "L"]
        assert len(list(finishes.turn_ends(state, 0))) == len(lord_moves)
        assert row["one_piece_turns"] <= row["any_turns"] and row["any"] <= row["one_piece"]
        ends = list(finishes.turn_ends(state, 1))
        assert len(ends) == row["one_piece_turns"]
        assert all(e.to_move != state.to_move or e.outcome is not None for e in ends)
        wall = 1 << other
        assert row["one_piece"] == min(vold_ai.path_distance(e, row["player"], wall) for e in ends)
    record = tmp_path / "games.jsonl"
    record.write_text(json.dumps(capped) + "\n" + json.dumps(won) + "\n")
    out = run("voldetour_finishes.py", "--near", "99", str(record))
    assert out.count("games.jsonl game 7: ") == 2 and "game 8" not in out
    assert out.strip().endswith(
        f"1 capped games, 2 Lords near the enemy tower: the other Lord a wall for "
        f"{sum(r['wall'] > r['path'] for r in rows)}, a one-piece turn lowering the path "
        f"distance with that wall for {sum(r['one_piece'] < r['wall'] for r in rows)}"
    )
    # --progress: every turn start of the player named, both games read
    starts = 0
    replay = game.initial_state()
    for text in played["moves"]:
        starts += replay.to_move == 0 and replay.hand is None and replay.done == 0
        replay = replay.apply(game.parse_move(replay, text))
    starts += replay.to_move == 0 and replay.hand is None and replay.done == 0
    asked, threats, progress = finishes.progress_turns(capped, "greedy", 2000)
    assert asked == starts and 0 <= threats <= asked and len(progress) <= asked - threats
    out = run("voldetour_finishes.py", "--progress", "--player", "greedy", str(record))
    assert out.count(f"{asked} asked, {threats} threats") == 2
    assert out.strip().endswith(
        f"{2 * asked} turn starts asked: {2 * threats} threats, {2 * len(progress)} progress "
        f"turns (in {2 * bool(progress)} games)"
    )
    # with no time each question finds no threat (the searches end at once); --index
    # reads only the games named
    timed = finishes.progress_turns(capped, "greedy", 2000, 0.0)
    assert timed[0] == asked and timed[1] == 0
    out = run("voldetour_finishes.py", "--progress", "--index", "8", str(record))
    assert "game 8 " in out and "game 7 " not in out
    # unreadable files: one line, exit 2
    (tmp_path / "bad.jsonl").write_text("not json\n")
    for bad in ("missing.jsonl", "bad.jsonl"):
        refused = subprocess.run(
            [sys.executable, str(BENCH / "voldetour_finishes.py"), str(tmp_path / bad)],
            capture_output=True,
            text=True,
        )
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.startswith(f"error: cannot read the records in {tmp_path / bad}")
        assert refused.stderr.count("\n") == 1
        refused = subprocess.run(
            [
                sys.executable,
                str(BENCH / "voldetour_finishes.py"),
                "--progress",
                str(tmp_path / bad),
            ],
            capture_output=True,
            text=True,
        )
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr


def test_root_spread_reports_share_spread_and_agreement(mini):
    spread = _module("root_spread")
    state = spread.position(mini, 3, 6)
    assert state != mini.initial_state() and not state.is_terminal
    move, share, points = spread.measure(state, mini, "hard:iterations=60,seconds=none")
    assert any(str(m) == move for m in state.legal_moves())
    assert 1 / len(state.legal_moves()) <= share <= 1 and 0 <= points <= 100
    out = run(
        "root_spread.py",
        "--game", "volo:board=mini",
        "--positions", "2",
        "--plies", "6",
        "--budgets", "20,40",
    )  # fmt: skip
    # the largest budget's choice is its own: "same move" counts every position there
    assert "| 20 | 2 |" in out and out.rstrip().endswith("| 2 of 2 |")


def test_decisive_tactics_finds_the_move_after_which_the_winner_forces_it(tmp_path):
    decisive = _module("decisive_tactics")
    from tablier.ai.match import play_game
    from tablier.ai.solver import solve
    from tablier.games import from_spec

    mini = get("volo", board="mini")
    records = (play_game(mini, "greedy", "random", index, seed=3) for index in range(6))
    record = next(r for r in records if r["winner"] is not None)
    game = from_spec(record["game"])
    found = decisive.turning_point(game, record["moves"], record["winner"], 3, 20_000)
    assert found["kind"] in ("walked in", "found", "unproved") and 0 <= found["forced"] <= 3
    state = game.initial_state()
    for text in record["moves"][: found["ply"] + 1]:
        state = state.apply(game.parse_move(state, text))
    after = solve(state, 3, max_nodes=20_000)
    # right after the turning point the winner forces the win (or has already won)
    assert state.outcome is not None or (
        after.winner == record["winner"] and after.plies == found["forced"]
    )
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = run("decisive_tactics.py", str(path), "--depth", "3", "--max-nodes", "20000")
    assert f"decision {found['ply']} by" in out and "| turning point | made by | games |" in out


def test_proof_speed_compares_the_two_searches() -> None:
    from tablier.games.volo import rules

    if rules._native is None:
        pytest.skip("Volo's compiled core is not in use")
    out = run(
        "proof_speed.py",
        "--game",
        "volo:board=mini",
        "--positions",
        "2",
        "--depths",
        "1,3",
        "--generic-depths",
        "3",
    )
    rows = [
        line for line in out.splitlines() if line.startswith("| 1 |") or line.startswith("| 3 |")
    ]
    assert len(rows) == 2
    assert "| 4 |" in rows[0] and "not run" in rows[0]  # 2 positions, 2 attackers
    assert "×" in rows[1]
    bad = subprocess.run(
        [sys.executable, str(BENCH / "proof_speed.py"), "--game", "voldetour"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "no compiled proof search" in bad.stdout
