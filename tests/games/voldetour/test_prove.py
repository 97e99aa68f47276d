"""Voldétour's compiled proof search (``ai.prove``) against the generic solver, and its use.

The generic :class:`~tablier.ai.solver.Solver` without the hook is the reference: the
compiled search must give its answers on every position, for either attacker, at every
depth it takes (up to ``ai.PROOF_DEPTH``), with both piece sets and a turn limit, in the
middle of a turn too, and with the ``repetition`` option (the state's history and the
turns ended on the way).  It does not take deeper questions: there the hook answers None
and the solver searches itself.  Then its use: the levels ask it their three-decision
questions.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tablier.games
from tablier.ai.knowledge import knowledge_for
from tablier.ai.players import LEVELS, make_player, tactical_depth
from tablier.ai.solver import Solver
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.core.native import using
from tablier.games.voldetour import ai, rules

from .helpers import built_position

#: The tactical suite's positions (tests/ai/test_tactical_suite.py).
SUITE = Path(__file__).parents[2] / "ai" / "data" / "tactics" / "voldetour.json"


@pytest.fixture(autouse=True)
def _native() -> None:
    if rules._native is None:
        if os.environ.get("TABLIER_REQUIRE_NATIVE", "").strip() == "1":
            pytest.fail("Voldetour's compiled core is not built (TABLIER_REQUIRE_NATIVE=1)")
        pytest.skip("Voldetour's compiled core is not built")


def continued(state: rules.VState, seed: int, plies: int) -> rules.VState:
    """The position after ``plies`` random decisions from ``state`` (or the last one
    before the game ended): often in the middle of a turn."""
    rng = random.Random(seed)
    for _ in range(plies if state.outcome is None else 0):
        moves = state.legal_moves()
        after = state.apply(moves[rng.randrange(len(moves))])
        if after.outcome is not None:
            break
        state = after
    return state


def played(spec: str, seed: int, plies: int) -> rules.VState:
    """:func:`continued` from the start of a game of ``spec``."""
    return continued(tablier.games.from_spec(spec).initial_state(), seed, plies)


def at_the_tower() -> rules.VState:
    """Black's Lord beside White's tower, as high as it, Black to move (turn 9)."""
    game = tablier.games.get("voldetour")
    return game.position(black=["B113@i8:1x1x3"], lords=("i8", "e5"), turn=9)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(
        [
            "voldetour",
            "voldetour:pieces=mini",
            "voldetour:max_turns=12",
            "voldetour:pieces=mini,max_turns=8",
        ]
    ),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 160),
    built=st.booleans(),
    depth=st.integers(0, ai.PROOF_DEPTH),
    attacker=st.integers(0, 1),
)
def test_answers_are_the_generic_solvers(
    spec: str, seed: int, plies: int, built: bool, depth: int, attacker: int
) -> None:
    """From the start, or from a random construction (the rules tests' helper: pieces
    on the board, Lords off their towers, mid-turn), then random decisions."""
    game = tablier.games.from_spec(spec)
    start = built_position(game, random.Random(seed)) if built else game.initial_state()
    state = continued(start, seed, plies if not built else plies % 8)
    assume(state.outcome is None)  # (a construction may be won already)
    answer = ai.prove(state, attacker, depth, 10**9, -1.0)
    assert answer is not None
    assert answer[0] is Solver().wins(state, attacker, depth)
    assert answer[1] >= 0


def test_answers_agree_where_wins_exist() -> None:
    """Seeded random games of the mini set, where the Lords often stand near a tower:
    the answers agree on every question, and some of them are forced wins."""
    wins = 0
    for seed in range(12):
        state = played("voldetour:pieces=mini", seed, 40 + 7 * seed)
        for attacker in (0, 1):
            for depth in range(1, ai.PROOF_DEPTH + 1):
                answer = ai.prove(state, attacker, depth, 10**9, -1.0)
                assert answer is not None
                assert answer[0] is Solver().wins(state, attacker, depth)
                wins += bool(answer[0])
    assert wins > 0
    state = at_the_tower()
    assert ai.prove(state, 0, 1, 1000, -1.0) == (True, 1)
    assert ai.prove(state, 1, 3, 1000, -1.0) == (False, 3)  # Black ends it first


def test_the_limits_stop_the_search() -> None:
    state = played("voldetour", 2, 20)  # a thousand positions to settle
    answer = ai.prove(state, 0, 3, 10**9, -1.0)
    assert answer is not None and answer[0] is False and answer[1] > 1000
    assert ai.prove(state, 0, 3, 5, -1.0) == (None, 6)
    assert ai.prove(state, 0, 3, 10**9, 0.0) == (None, 256)  # the clock, every 256


def test_bad_input_is_refused() -> None:
    native = rules._native
    assert native is not None
    state = played("voldetour", 1, 10)
    tables = rules.native_tables(state.game.pieceset)
    with pytest.raises(ValueError, match="attacker"):
        native.prove(tables, 0, False, state, 2, 3, 100, -1.0)
    with pytest.raises(ValueError, match="depth"):
        native.prove(tables, 0, False, state, 0, 16, 100, -1.0)
    with pytest.raises(ValueError, match="depth"):
        native.prove(tables, 0, False, state, 0, -1, 100, -1.0)
    with pytest.raises(TypeError):
        native.prove(tables, 0, False, "not a state", 0, 3, 100, -1.0)
    with pytest.raises(TypeError):
        native.prove("not tables", 0, False, state, 0, 3, 100, -1.0)
    with pytest.raises(ValueError, match="max_turns"):
        native.prove(tables, -1, False, state, 0, 3, 100, -1.0)
    with pytest.raises(TypeError, match="8 arguments"):
        native.prove(tables, 0, False, state, 0, 3)
    assert native.prove(tables, 0, False, state, 0, 3, -5, -1.0)[0] is None  # no nodes at all
    repeating = dataclasses.replace(played("voldetour:repetition=on", 1, 10), history=("x",))
    with pytest.raises(TypeError, match="history"):
        native.prove(tables, 0, True, repeating, 0, 3, 100, -1.0)
    huge = dataclasses.replace(repeating, history=(2**64,))
    with pytest.raises(ValueError, match="history"):
        native.prove(tables, 0, True, huge, 0, 3, 100, -1.0)


def test_where_the_solver_answers_instead() -> None:
    state = played("voldetour", 5, 30)
    assert ai.prove(state, 0, ai.PROOF_DEPTH + 1, 100, -1.0) is None  # too deep
    over = at_the_tower().apply(tablier.games.get("voldetour").parse_move(at_the_tower(), "Li9"))
    assert over.outcome is not None and ai.prove(over, 0, 3, 100, -1.0) is None
    with using(False):
        assert ai.prove(state, 0, 3, 100, -1.0) is None
        assert tactical_depth(state, 3, 3) == (3, None)
    assert knowledge_for(state.game).prove is ai.prove


def test_the_levels_ask_it_three_decisions_deep() -> None:
    """``hard`` (``proof_depth=3``) and ``expert`` (5, which this search does not take:
    it falls back to its ``solver_depth`` of three with the hook, not to five without)."""
    state = played("voldetour", 5, 30)
    assert tactical_depth(state, 3, LEVELS["hard"].proof_depth) == (3, ai.prove)
    assert tactical_depth(state, 3, LEVELS["expert"].proof_depth) == (3, ai.prove)
    repeating = played("voldetour:repetition=on", 5, 30)
    assert tactical_depth(repeating, 3, 5) == (3, ai.prove)


def test_whole_turn_checks_agree_with_the_hook() -> None:
    """The whole-turn safety check gives the same verdict with and without the compiled
    search under its solver, on the tactical suite's first Voldétour position to defend
    (every sixteenth decision, and some the suite names good and bad)."""
    data = json.loads(SUITE.read_text(encoding="utf-8"))
    game = tablier.games.from_spec(data["game"])
    entries = [e for e in data["positions"] if e["kind"] != "win"][:1]  # (368 decisions)
    verdicts: list[str] = []
    for entry in entries:
        state = game.parse_position(entry["position"])
        named = {game.move_text(state, m): m for m in state.legal_moves()}
        texts = entry["good"][:2] + entry["bad"][:3]
        moves = [*state.legal_moves()[::16], *(named[t] for t in texts)]
        plain = TurnSafety(3, nodes=10**6, turn_nodes=10**6)
        hooked = TurnSafety(3, nodes=10**6, turn_nodes=10**6, prove=ai.prove)
        for move in moves:
            verdict = plain.fate(state, move)
            assert hooked.fate(state, move) == verdict, (entry["position"], str(move))
            verdicts.append(verdict)
        assert hooked.solver.proved_nodes > 0 and hooked.solver.nodes < plain.solver.nodes
    assert verdicts.count(LOST) > 10 and verdicts.count(SAFE) >= 2


def test_hard_plays_with_it() -> None:
    """A ``hard`` decision with the hook and without it (the generic solver) keeps the
    same tactical steps: from the tower position both take the win at once."""
    state = at_the_tower()
    for extra in ("", ",proof_depth=0"):
        player = make_player("hard:iterations=30,seconds=none" + extra, state.game, 1)
        outcome = state.apply(player.choose(state)).outcome
        assert outcome is not None and outcome.winner == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, 69),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 6),
    depth=st.integers(1, ai.PROOF_DEPTH),
    attacker=st.integers(0, 1),
)
def test_answers_agree_on_the_suite_s_positions(
    index: int, seed: int, plies: int, depth: int, attacker: int
) -> None:
    """Mid-game positions (the tactical suite's, a few random decisions on): random games
    end early, by the Lord that stays on its tower."""
    data = json.loads(SUITE.read_text(encoding="utf-8"))
    game = tablier.games.from_spec(data["game"])
    root = game.parse_position(data["positions"][index % len(data["positions"])]["position"])
    state = continued(root, seed, plies)
    answer = ai.prove(state, attacker, depth, 10**9, -1.0)
    assert answer is not None
    assert answer[0] is Solver(max_nodes=10**6).wins(state, attacker, depth)


def with_history(state: rules.VState, keys: list[int]) -> rules.VState:
    """``state`` with ``keys`` in its repetition history before its own last key."""
    return dataclasses.replace(state, history=(*state.history[:-1], *keys, state.history[-1]))


def turn_ends(state: rules.VState, depth: int) -> list[int]:
    """The repetition keys of the positions that end a turn within ``depth`` decisions
    (and do not end the game), in the order found."""
    keys: list[int] = []
    if depth <= 0 or state.outcome is not None:
        return keys
    for move in state.legal_moves():
        after = state.apply(move)
        if after.turn != state.turn and after.outcome is None:
            keys.append(after.repetition_key())
        keys += turn_ends(after, depth - 1)
    return keys


def test_a_repetition_draw_refutes_a_win() -> None:
    """White ends its turn with a Lord move (its other actions done), then Black's Lord
    steps onto White's tower.  When White's history already has a position it can end
    its turn in twice, that third time is a draw and Black forces no win; after a turn
    that brought a piece from the reserve (irreversible) the history starts again."""
    text = (
        "voldetour:repetition=on turn=10 lords=i8,e5 black=B113@i8:1x1x3 white=B111@a5:1x1x1 do=bs"
    )
    game = tablier.games.from_spec("voldetour:repetition=on")
    state = game.parse_position(text)
    assert ai.prove(state, 0, 2, 10**6, -1.0) == (True, 26)  # every Lord move loses
    ends = turn_ends(state, 1)
    assert len(ends) == len(state.legal_moves()) == 25
    for key in (ends[0], ends[-1]):  # a Lord move, and "end"
        twice = with_history(state, [key, key])
        assert twice.outcome is None
        assert ai.prove(twice, 0, 2, 10**6, -1.0)[0] is False
        assert Solver().wins(twice, 0, 2) is False
        once = with_history(state, [key])  # a second time is no draw
        assert ai.prove(once, 0, 2, 10**6, -1.0)[0] is True is Solver().wins(once, 0, 2)
    irreversible = game.parse_position(text.replace("do=bs", "do=bsr"))
    twice = with_history(irreversible, [ends[0], ends[0]])
    assert ai.prove(twice, 0, 2, 10**6, -1.0)[0] is True is Solver().wins(twice, 0, 2)
    # the history the native rules keep agrees: the third time is the rules' draw
    third = twice.apply(state.legal_moves()[0])
    assert third.outcome is None and len(third.history) == 1
    drawn = with_history(state, [ends[0], ends[0]]).apply(state.legal_moves()[0])
    assert drawn.outcome is not None and drawn.outcome.reason == "repetition"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(["voldetour:repetition=on", "voldetour:pieces=mini,repetition=on"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 8),
    share=st.floats(0.0, 1.0),
    depth=st.integers(1, ai.PROOF_DEPTH),
    attacker=st.integers(0, 1),
)
def test_answers_with_a_repetition_history_are_the_generic_solvers(
    spec: str, seed: int, plies: int, share: float, depth: int, attacker: int
) -> None:
    """A random construction with its history filled with keys of positions a turn can
    end in within two decisions (once or twice each, a share of them), so that some
    lines of the search end in draws by repetition."""
    game = tablier.games.from_spec(spec)
    rng = random.Random(seed)
    state = continued(built_position(game, rng), seed, plies)
    assume(state.outcome is None)
    keys = turn_ends(state, 2)
    rng.shuffle(keys)
    chosen = keys[: round(share * len(keys))]
    state = with_history(state, [k for k in chosen for _ in range(rng.randint(1, 2))])
    assume(state.outcome is None)
    answer = ai.prove(state, attacker, depth, 10**9, -1.0)
    assert answer is not None
    assert answer[0] is Solver(max_nodes=10**6).wins(state, attacker, depth)
