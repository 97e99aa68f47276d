"""No player loses by a rule it could have obeyed: the rule guard, on trees and in real games.

A move is *lost* when, after it, every line of decisions (the mover's own,
the rest of its turn included, and the opponent's) ends in the mover's loss
within the guard's horizon: the tower deadline of Voldétour, a blocus or an
exhaustion in XoBo, a clearing that leaves the opponent one flock in Volo.
"""

from __future__ import annotations

import random

import pytest

from tablier.ai.players import avoidable_rule_loss, make_player, rule_guard
from tablier.ai.tactics import LOST, RULE_HORIZON, SAFE, UNKNOWN, RuleGuard
from tablier.core.errors import TablierError
from tablier.games import from_spec

from .aitoys import TreeGame

#: Outcome reasons by which the loser lost through the rules rather than by the winner's
#: goal (docs/rules/*.md): Voldétour ``stayed``; Volo ``opponent-flock`` and ``last-action``
#: (2010 edition); XoBo ``blocus`` and ``exhaustion``.  The real wins are ``tower``,
#: ``flock`` and ``connection``.
RULE_LOSSES = frozenset({"stayed", "opponent-flock", "last-action", "blocus", "exhaustion"})
REAL_WINS = frozenset({"tower", "flock", "connection"})

#: Every level and player, with small fixed budgets (the guard does not depend on them).
SPECS = [
    "random",
    "greedy",
    "easy:iterations=8",
    "medium:iterations=8,seconds=none",
    "hard:iterations=8,seconds=none,solver_depth=2,solver_nodes=40,safety_checks=2",
    "expert:iterations=8,seconds=none,solver_depth=2,solver_nodes=40,safety_checks=3",
]


def _escapes(state, player, turns):
    """Reference: a line where ``player`` has not lost within ``turns`` turn boundaries?

    Full tree, no table, no budget (deliberately unlike the guard).
    """
    outcome = state.outcome
    if outcome is not None:
        return outcome.winner != 1 - player
    if turns <= 0:
        return True
    for m in state.legal_moves():
        child = state.apply_unchecked(m)
        if _escapes(child, player, turns - (child.to_move != state.to_move)):
            return True
    return False


def _truth(state, move, horizon=RULE_HORIZON):
    child = state.apply_unchecked(move)
    return _escapes(child, state.to_move, horizon - (child.to_move != state.to_move))


def _tree_positions(count, seed, depth=8, branching=3):
    """Positions along random paths of random trees, with at least two moves."""
    rng = random.Random(seed)
    out = []
    tree = 0
    while len(out) < count:
        tree += 1
        state = TreeGame(seed=seed * 1000 + tree, depth=depth, branching=branching).initial_state()
        while state.outcome is None:
            moves = state.legal_moves()
            if len(moves) > 1:
                out.append(state)
            state = state.apply(moves[rng.randrange(len(moves))])
    return out


def _mixed(states, horizon=RULE_HORIZON):
    """The states with both a lost and a safe move (by the reference)."""
    out = []
    for state in states:
        truth = {m: _truth(state, m, horizon) for m in state.legal_moves()}
        if any(truth.values()) and not all(truth.values()):
            out.append((state, truth))
    return out


# -- the guard against the reference ---------------------------------------------------------


@pytest.mark.parametrize("horizon", [1, 2, 3, 4])
def test_guard_matches_the_full_tree_reference(horizon):
    guard = RuleGuard(horizon=horizon, nodes=10**7, move_nodes=10**7)
    seen = {SAFE: 0, LOST: 0}
    for state in _tree_positions(150, seed=horizon):
        for move in state.legal_moves():
            verdict = guard.fate(state, move)
            assert verdict == (SAFE if _truth(state, move, horizon) else LOST), (state, move)
            seen[verdict] += 1
    assert seen[SAFE] > 50 and seen[LOST] > 20


def test_a_small_budget_says_unknown_and_never_wrong():
    guard = RuleGuard(nodes=10**7, move_nodes=2)
    verdicts = set()
    for state in _tree_positions(150, seed=7):
        for move in state.legal_moves():
            verdict = guard.fate(state, move)
            verdicts.add(verdict)
            if verdict != UNKNOWN:
                assert verdict == (SAFE if _truth(state, move) else LOST)
    assert verdicts == {SAFE, LOST, UNKNOWN}


def test_pick_replaces_a_lost_move_and_keeps_a_safe_one():
    mixed = _mixed(_tree_positions(200, seed=8))
    assert len(mixed) >= 20
    for state, truth in mixed:
        guard = RuleGuard()
        lost = next(m for m, ok in truth.items() if not ok)
        safe = next(m for m, ok in truth.items() if ok)
        assert truth[guard.pick(state, [lost])]
        assert guard.pick(state, [safe, lost]) == safe


def test_pick_plays_the_preferred_move_when_every_move_is_lost():
    for state in _tree_positions(300, seed=9):
        moves = state.legal_moves()
        if not any(_truth(state, m) for m in moves):
            assert RuleGuard().pick(state, [moves[-1]]) == moves[-1]
            return
    pytest.fail("no position where every move is lost")  # pragma: no cover


def test_turns_of_several_decisions_are_searched_to_their_end():
    # A same-player decision does not count as a turn boundary: with horizon 1 the guard
    # still searches the rest of the mover's turn, however many decisions it has.
    guard = RuleGuard(horizon=1, nodes=10**7, move_nodes=10**7)
    deep = 0
    for state in _tree_positions(200, seed=10, depth=10):
        for move in state.legal_moves():
            child = state.apply_unchecked(move)
            if child.outcome is None and child.to_move == state.to_move:
                deep += 1
                assert (guard.fate(state, move) == SAFE) == _truth(state, move, 1)
    assert deep > 30


@pytest.mark.parametrize("spec", [*SPECS, "mcts:iterations=12,tactics=no"])
def test_every_player_refuses_lost_moves_on_trees(spec):
    mixed = _mixed(_tree_positions(120, seed=11))
    assert len(mixed) >= 10
    for i, (state, truth) in enumerate(mixed):
        move = make_player(spec, state.game, seed=i).choose(state)
        assert truth[move], (spec, state.to_text(), str(move))


def test_without_the_guard_lost_moves_are_played():
    # The test above can fail: with the guard off, the players walk into lost moves.
    mixed = _mixed(_tree_positions(120, seed=11))
    for spec in ("random:rule_guard=no", "easy:rule_guard=no"):
        chosen = [
            truth[make_player(spec, state.game, seed=i).choose(state)]
            for i, (state, truth) in enumerate(mixed)
        ]
        assert not all(chosen), spec


def test_guard_settings():
    assert not make_player("random:rule_guard=no").guard
    assert make_player("greedy:rule_nodes=50").rule_nodes == 50
    assert make_player("easy").level.rule_guard
    assert not make_player("hard:rule_guard=off").level.rule_guard
    with pytest.raises(TablierError, match="rule_guard"):
        make_player("random:iterations=3")
    with pytest.raises(TablierError, match="yes or no"):
        make_player("random:rule_guard=perhaps")


# -- real games ------------------------------------------------------------------------------

#: Each game with its main option sets.
GAMES = [
    "voldetour:pieces=mini",
    "voldetour",
    "volo:board=mini",
    "volo:board=mini,edition=2010",
    "xobo",
    "xobo:stack=three,exhaustion=cubes",
]


def _loses_at_once(state, move):
    outcome = state.apply_unchecked(move).outcome
    return outcome is not None and outcome.winner == 1 - state.to_move


def _game_positions(spec, count, seed, plies=60):
    """Positions of random games where a move loses at once by a rule and another is safe.

    "Safe" by the reference: the players' guard with a budget far above theirs.
    """
    game = from_spec(spec)
    rng = random.Random(seed)
    out = []
    for _ in range(300):
        state = game.initial_state()
        for _ in range(plies):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            if len(moves) > 1 and any(_loses_at_once(state, m) for m in moves):
                reference = rule_guard(state, 200_000)
                if any(reference.fate(state, m) == SAFE for m in moves):
                    out.append(state)
                    break
            state = state.apply(moves[rng.randrange(len(moves))])
        if len(out) >= count:
            break
    return out


@pytest.mark.parametrize("spec", GAMES)
def test_every_level_refuses_a_rule_loss_in_each_game(spec):
    states = _game_positions(spec, 3, seed=len(spec))
    assert states, "random play never met a move that loses by the rules"
    for i, state in enumerate(states):
        reference = rule_guard(state, 200_000)
        for level in SPECS:
            move = make_player(level, state.game, seed=i).choose(state)
            assert reference.fate(state, move) == SAFE, (level, state.to_text(), str(move))


def _avoidable(history, loser):
    """Did ``loser``, over its last turns, play a lost move while another move was safe?"""
    bad = avoidable_rule_loss(history, loser)
    return None if bad is None else (str(bad[0]), bad[1].to_text())


def _self_play(spec, level, games, max_plies):
    """Self-play games of ``level``: the reasons they ended by (``limit`` when cut)."""
    game = from_spec(spec)
    reasons = []
    for i in range(games):
        players = [make_player(level, game, seed=2 * i + k) for k in (0, 1)]
        state = game.initial_state()
        history = []
        while state.outcome is None and len(history) < max_plies:
            move = players[state.to_move].choose(state)
            history.append((state, move))
            state = state.apply(move)
        outcome = state.outcome
        if outcome is None:
            reasons.append("limit")
            continue
        reasons.append(outcome.reason)
        if outcome.reason in RULE_LOSSES and outcome.winner is not None:
            bad = _avoidable(history, 1 - outcome.winner)
            assert bad is None, (spec, level, i, outcome.reason, bad)
    return reasons


#: Self-play per game and level: (game, games, decisions).  Voldétour's deadline falls in
#: each player's third turn, so its games are cut after about seven turns each.
PLAY = [
    ("voldetour:pieces=mini", 4, 45),
    ("volo:board=mini", 2, 200),
    ("volo:board=mini,edition=2010", 2, 200),
    ("xobo", 2, 200),
    ("xobo:stack=three,exhaustion=cubes", 2, 200),
]


@pytest.mark.parametrize(
    "level",
    [
        pytest.param(s, marks=pytest.mark.slow) if s.startswith(("hard", "expert")) else s
        for s in SPECS
    ],
)
@pytest.mark.parametrize(("spec", "games", "plies"), PLAY)
def test_self_play_never_loses_by_a_rule_it_could_obey(spec, games, plies, level):
    reasons = _self_play(spec, level, games, plies)
    if spec.startswith("voldetour"):
        assert "stayed" not in reasons


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "easy", "medium:iterations=8,seconds=none"])
def test_default_voldetour_leaves_the_tower(level):
    reasons = _self_play("voldetour", level, 2, 40)
    assert "stayed" not in reasons


#: Black's third turn on the default set, its Lord still on its tower (b2): leaving takes a
#: take, a put next to the tower at its height and the Lord's move, three decisions.
THIRD_TURN = (
    "voldetour:pieces=default,repetition=False,max_turns=none"
    " turn=5 lords=b2,i9 black=B111@f6:1x1x1 white=B112@h9:1x1x2"
)


@pytest.mark.parametrize("level", SPECS)
def test_every_level_leaves_the_tower_on_its_third_turn(level):
    start = from_spec("voldetour").parse_position(THIRD_TURN)
    tower = start.lords[0]
    for seed in range(2):
        player = make_player(level, start.game, seed=seed)
        state = start
        while state.outcome is None and state.to_move == 0:
            state = state.apply(player.choose(state))
        assert state.outcome is None and state.lords[0] != tower, (level, seed, state.to_text())
    # Without the guard the same players end the turn on the tower.
    if level.startswith(("random", "easy")):
        spec = level + ("," if ":" in level else ":") + "rule_guard=no"
        stayed = 0
        for seed in range(4):
            player = make_player(spec, start.game, seed=seed)
            state = start
            while state.outcome is None and state.to_move == 0:
                state = state.apply(player.choose(state))
            stayed += state.outcome is not None and state.outcome.reason == "stayed"
        assert stayed
