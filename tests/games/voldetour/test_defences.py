"""Voldétour's ``defences`` hook: the whole-turn safety check aimed at the threat."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

from tablier.ai.players import _prior_order, make_player, safest_move
from tablier.ai.solver import Solver
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.games import from_spec, get
from tablier.games.voldetour import ai as vold_ai

_SPEC = "voldetour:pieces=default,repetition=False,max_turns=none "

#: White to move in a ``hard``–``medium`` game (benchmarks/level_ladder.py, seed 1, game
#: 17): Black's Lord stands at h8, three high, beside White's tower (i9); White's own
#: block at h9 (two high) is all that keeps it off, and Black has a one-high block to
#: put on it.  One turn holds: lift the block from h9, put it anywhere, and stand a stair
#: on h9 (nothing goes on a stair).  ``hard`` took a far stair instead and lost; the
#: check, out of its 200 positions among the hundreds of puts, had answered *unknown*.
ONLY_DEFENCE = (
    _SPEC + "turn=40 lords=h8,i8 black=B111@h7+2:1x1x1,B112@d4+1:1x1x2,B113@a9:1x1x3,"
    "B122@f5:1x2x2,B123@h7:3x1x2,S@c1:s,S@b4+2:w,S@b9:n white=B111@d1:1x1x1,"
    "B112@h9:1x1x2,B113@c4:3x1x1,B122@b3:1x2x2,B123@h8:2x1x3,S@b1:e,S@g6:n,S@j6:w,"
    "S@i7+2:w,S@j8:w"
)


#: White to put the stair it holds, in game 7 of the second ``hard``–``medium`` match
#: (seed 2): Black's Lord at h8 stands a pillar on h9 and walks on unless a stair stands
#: there; every other put loses.  ``hard``'s own checks proved its put lost, then ran out
#: of time among the others and played it.
STAIR_ON_H9 = (
    _SPEC + "turn=176 lords=h8,i8 black=B111@f6:1x1x1,B112@h3:1x1x2,B113@h7:1x1x3,"
    "B122@d6:2x2x1,B123@i6:1x2x3,S@f5:e white=B111@f7:1x1x1,B112@b3:1x1x2,B113@g7:1x3x1,"
    "B122@b4:2x2x1,B123@h8:2x1x3,S@b3+2:s,S@b4+1:s,S@d5:w,S@g7+1:e hand=S@g1:n"
)


def _position(text):
    return from_spec(text.split(" ", 1)[0]).parse_position(text)


def _moves(game, state, texts):
    return [game.parse_move(state, t) for t in texts]


def test_the_squares_a_line_uses():
    game = get("voldetour")
    # White's Lord on a pillar beside Black's tower (b2); its winning line lifts the
    # pillar from f5-f6, stands it on b3-c3 and walks b4-b3-b2
    threat = game.position(white=["B113@b4:1x1x3", "B123@f5:1x2x3"], lords=("e5", "b4"), turn=10)
    line, after = [], threat
    for text in ("B123", "B123@b3:2x1x3", "Lb4-b3-b2"):
        line.append(game.parse_move(after, text))
        after = after.apply(line[-1])
    assert after.outcome is not None and after.outcome.winner == 1
    now = game.position(
        black=["B111@f7:1x1x1", "B112@a1:1x1x2"],
        white=["B113@b4:1x1x3", "B123@f5:1x2x3"],
        lords=("e5", "b4"),
        turn=9,
    )
    # a Lord move counts where it ends; takes where the piece stood
    lord = _moves(game, now, ["Le5-e6", "Le5-d5-c5", "Le5-e4-d4-c4"])
    assert vold_ai.defences(now, lord, threat, line) == [False, False, False]
    takes = _moves(game, now, ["B111", "B112", "B113"])
    assert vold_ai.defences(now, takes, threat, line) == [False, False, False]
    held = now.apply(game.parse_move(now, "B113"))
    texts = ["B113@c3:1x1x3", "B113@a3:3x1x1", "B113@a2:1x1x3", "B113@g5:1x1x3"]
    puts = _moves(game, held, texts)
    # c3, and b3 under a3-c3 lying, are on the line; a2 beside the tower and g5 are not
    assert vold_ai.defences(held, puts, threat, line) == [True, True, False, False]


def test_the_only_defence_is_found_within_the_checks_budget():
    state = _position(ONLY_DEFENCE)
    game = state.game
    take = game.parse_move(state, "B112")
    safety = TurnSafety(
        3,
        20_000,
        turn_nodes=200,
        order=_prior_order(state),
        clock=time.process_time,
        prove=vold_ai.prove,
        defences=vold_ai.defences,
    )
    assert safety.fate(state, take) == SAFE
    # and it is right: the line ends with a stair on h9, after which Black cannot win
    end = state
    line = []
    while end.to_move == state.to_move:
        for m in _prior_order(end)(end, end.legal_moves()):
            if safety.fate(end, m) == SAFE:
                line.append(str(m))
                end = end.apply(m)
                break
        else:
            raise AssertionError(f"no safe decision after {line}")
    assert line[0] == "B112" and any(t.startswith("S@h9") for t in line)
    assert Solver(max_nodes=10**6, prove=vold_ai.prove).forces_win(end, 0, 3) is False
    # while taking the far stair first loses whatever follows
    stair = game.parse_move(state, "Sb1")
    deep = TurnSafety(3, 10**7, turn_nodes=10**5, prove=vold_ai.prove, prove_nodes=10**9)
    assert deep.fate(state, stair) == LOST


def test_hard_keeps_the_threat_out_at_a_small_budget():
    # without the hook, seeds 0 and 2 took a far stair first and lost (the search's
    # favourite, its check cut short), as ``hard`` did in the game
    state = _position(ONLY_DEFENCE)
    me = state.to_move
    for seed in range(3):
        player = make_player("hard:iterations=1000,seconds=none", state.game, seed=seed)
        end = state
        while end.to_move == me and end.outcome is None:
            end = end.apply(player.choose(end))
        assert end.outcome is None
        solver = Solver(max_nodes=10**6, prove=vold_ai.prove)
        assert solver.forces_win(end, 1 - me, 3) is False, seed


def test_the_benchmark_compares_the_check_with_and_without_the_hook(tmp_path):
    bench = Path(__file__).resolve().parents[3] / "benchmarks"
    spec = importlib.util.spec_from_file_location("turnsafety", bench / "voldetour_turnsafety.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # game 17's position: the aimed check finds the one defence, the plain one runs out
    state = _position(ONLY_DEFENCE)
    assert module.check(state, vold_ai.defences)[0] == "safe"
    assert module.check(state, None)[0] == "unknown"
    game = get("voldetour", pieces="mini")
    state, moves = game.initial_state(), []
    player = make_player("greedy", game, seed=5)
    while len(moves) < 16 and state.outcome is None:
        move = player.choose(state)
        moves.append(str(move))
        state = state.apply(move)
    record = {"index": 3, "game": game.spec, "first": "greedy", "second": "hard", "moves": moves}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    args = ["--player", "hard", "--every", "--near", "20", str(path)]
    done = subprocess.run(
        [sys.executable, str(bench / "voldetour_turnsafety.py"), *args],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert "games.jsonl game 3: " in done.stdout and "answers differ in " in done.stdout
    assert done.stdout.count(" positions: a safe decision in ") == 2


def test_the_candidates_that_stop_the_threat_are_checked_next():
    state = _position(STAIR_ON_H9)
    first = [state.game.parse_move(state, "S@d1:e")]  # the search's choice, lost
    order = _prior_order(state)
    args = (state, first, 3, 20_000, order, None)
    kw = {"prove": vold_ai.prove, "prove_nodes": 200_000}
    aimed = safest_move(*args, **kw, defences=vold_ai.defences)
    assert str(aimed).startswith("S@h9")
    # in the prior's order the budget runs out first: an unproved put is played
    plain = safest_move(*args, **kw)
    assert not str(plain).startswith("S@h9")
    end = state.apply(aimed)
    while end.to_move == state.to_move:
        end = end.apply(end.game.parse_move(end, "end"))
    assert Solver(max_nodes=10**6, prove=vold_ai.prove).forces_win(end, 0, 3) is False
