"""Players: tactical safety at every level above easy, greedy, specs, errors."""

from __future__ import annotations

import random

import pytest

from tablier.ai.players import (
    LEVELS,
    GreedyPlayer,
    MCTSPlayer,
    RandomPlayer,
    make_player,
    player_names,
)
from tablier.ai.tactics import losing_moves, safe_moves, winning_moves
from tablier.core.errors import GameOverError, TablierError
from tablier.games import get

from .aitoys import TreeGame

FAST = "iterations=40,seconds=none"


@pytest.fixture(scope="module")
def mini():
    return get("volo", board="mini")


@pytest.fixture(scope="module")
def win_in_one(mini):
    return mini.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)


@pytest.fixture(scope="module")
def trap(mini):
    # Orange's bird on e8 blocks Blue's e9-e7; flying it to f8 hands Blue the win.
    return mini.position(["e8", "g8", "b2"], ["e5", "e6", "e9"], to_move=0)


def test_tactics_on_constructed_positions(win_in_one, trap):
    assert sorted(map(str, winning_moves(win_in_one))) == ["e5:e6-e7", "e9-e7"]
    assert list(map(str, losing_moves(trap))) == ["e8-f8"]
    assert "e8-f8" not in map(str, safe_moves(trap))
    after = trap.apply(trap.game.parse_move(trap, "e8-f8"))
    assert sorted(str(m) for m in winning_moves(after)) == ["e5:e6-e7", "e9-e7"]


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "greedy"])
def test_levels_above_easy_take_the_win(level, win_in_one):
    spec = level if level == "greedy" else f"{level}:{FAST}"
    player = make_player(spec, win_in_one.game, seed=5)
    move = player.choose(win_in_one)
    assert win_in_one.apply(move).outcome.winner == 0


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "greedy"])
def test_levels_above_easy_avoid_handing_over_a_win(level, trap):
    spec = level if level == "greedy" else f"{level}:iterations=5,seconds=none"
    for seed in range(3):
        player = make_player(spec, trap.game, seed=seed)
        assert str(player.choose(trap)) != "e8-f8"


def test_every_move_loses_then_any_is_played():
    # A tree position where every move hands the opponent a win in one.
    for seed in range(2000):
        state = TreeGame(seed=seed, depth=4, branching=3).initial_state()
        moves = state.legal_moves()
        if len(moves) > 1 and len(losing_moves(state)) == len(moves):
            break
    else:  # pragma: no cover
        pytest.fail("no such tree")
    assert safe_moves(state) == moves
    assert make_player("medium:" + FAST, state.game).choose(state) in moves


def test_greedy_follows_the_evaluation(mini):
    from tablier.games.volo.ai import evaluate

    state = mini.position(["e5", "e6", "j9", "b2"], ["b4", "k9"], to_move=0)
    move = GreedyPlayer(seed=0).choose(state)
    values = {m: -evaluate(state.apply_unchecked(m)) for m in state.legal_moves()}
    assert values[move] == pytest.approx(max(values.values()))


def test_greedy_without_evaluation_is_random_among_safe_moves():
    state = TreeGame(seed=11, depth=6).initial_state()
    move = GreedyPlayer(seed=1).choose(state)
    assert move in safe_moves(state)


def test_random_player_is_seeded(mini):
    state = mini.initial_state()
    a = [RandomPlayer(seed=3).choose(state) for _ in range(2)]
    assert a[0] == a[1] and a[0] in state.legal_moves()


def test_mcts_player_deterministic_and_reuses_tree(mini):
    state = mini.initial_state()
    first = make_player("medium:" + FAST, mini, seed=9)
    second = make_player("medium:" + FAST, mini, seed=9)
    assert first.choose(state) == second.choose(state)
    move = first.choose(state)
    after = state.apply(move)
    reply = after.legal_moves()[0]
    first.choose(after.apply(reply))
    assert first.last_analysis and sum(s.visits for s in first.last_analysis) >= 40


def test_easy_level_is_weak_and_documented(win_in_one, trap):
    easy = LEVELS["easy"]
    assert not easy.tactics and 0 < easy.mistakes < 1 and easy.iterations <= 50
    # easy searches decision by decision, as calibrated; from medium up the search looks
    # each action to its end (docs/ai.md, "The levels")
    assert not easy.config.turn_prior and LEVELS["medium"].config.turn_prior
    assert LEVELS["hard"].config.turn_prior and LEVELS["expert"].config.turn_prior
    assert LEVELS["hard"].seconds <= 2.0
    # Beatable by a beginner: over a few seeds it misses a win in one and walks into a loss.
    missed = sum(
        win_in_one.apply(make_player("easy", win_in_one.game, seed=s).choose(win_in_one)).outcome
        is None
        for s in range(40)
    )
    assert missed >= 4
    # In the trap only one move of 65 loses, so count over seeds that easy can pick it at all:
    # the tactical filter is off, so the move is among its candidates.
    player = make_player("easy:mistakes=0", trap.game, seed=0)
    player.choose(trap)
    assert "e8-f8" in {str(s.move) for s in player.last_analysis}


def test_easy_draws_its_mistakes_once_a_turn():
    """In Voldétour a turn is several decisions: each of easy's turns is played whole at
    random or whole searched, as a turn is in a game of one decision a turn."""
    game = get("voldetour", pieces="mini")
    easy = make_player("easy:mistakes=0.5,iterations=4", game, seed=3)
    other = make_player("random", game, seed=4)
    asked: dict[int, list[bool]] = {}  # turn -> whether each of its decisions is a mistake
    turn = [0]
    real = easy._mistake_turn

    def spy() -> bool:
        mistaken = real()
        asked.setdefault(turn[0], []).append(mistaken)
        return mistaken

    easy._mistake_turn = spy
    state = game.initial_state()
    for _ in range(120):
        if state.outcome is not None:
            break
        turn[0] = state.turn
        player = easy if state.to_move == 0 else other
        state = state.apply(player.choose(state))
    turns = list(asked.values())
    assert all(len(set(kinds)) == 1 for kinds in turns)  # one draw for the whole turn
    assert sum(len(kinds) >= 2 for kinds in turns) >= 3  # turns of several decisions
    assert {kinds[0] for kinds in turns} == {True, False}


def test_analyse_returns_sorted_stats(mini):
    player = make_player("mcts:iterations=80", mini, seed=1)
    stats = player.analyse(mini.initial_state(), top=5)
    assert len(stats) == 5
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    assert all(0.0 <= s.score <= 1.0 for s in stats)


def test_specs_and_errors(mini):
    assert set(player_names()) >= {"random", "greedy", "easy", "medium", "hard", "expert"}
    p = make_player("hard:iterations=50,seconds=none,rave=no,exploration=1.2", mini)
    assert isinstance(p, MCTSPlayer)
    assert p.level.iterations == 50 and p.level.seconds is None
    assert not p.level.config.rave and p.level.config.exploration == 1.2
    for bad, match in [
        ("", "name a player"),
        ("grandmaster", "unknown player"),
        ("hard:speed=3", "unknown player setting"),
        ("hard:iterations", "key=value"),
        ("hard:iterations=lots", "number"),
        ("hard:rave=maybe", "yes or no"),
        ("hard:iterations=-3", "negative"),
        ("mcts:iterations=none", "budget"),
        ("random:iterations=3", "no settings"),
    ]:
        with pytest.raises(TablierError, match=match):
            make_player(bad, mini)


def test_normalize_is_yes_no_or_the_games_choice(mini):
    # hard and expert leave it to the game; a spec may force it either way or give it back
    assert LEVELS["hard"].config.normalize is None and LEVELS["expert"].config.normalize is None
    assert LEVELS["medium"].config.normalize is False
    for text, value in [("yes", True), ("off", False), ("auto", None), (" AUTO ", None)]:
        player = make_player(f"medium:normalize={text}", mini)
        assert isinstance(player, MCTSPlayer) and player.level.config.normalize is value
    for bad in ("hard:normalize=maybe", "hard:normalize=", "hard:normalize=none"):
        with pytest.raises(TablierError, match="yes, no or auto"):
            make_player(bad, mini)
    with pytest.raises(TablierError, match="yes or no"):
        make_player("hard:rave=auto", mini)


def test_checks_share_and_danger_calls_settings(mini):
    hard = make_player("hard", mini)
    assert isinstance(hard, MCTSPlayer)
    assert hard.level.checks_share is None and hard.level.danger_calls == 32
    tuned = make_player("hard:checks_share=0.5,danger_calls=128", mini)
    assert isinstance(tuned, MCTSPlayer)
    assert tuned.level.checks_share == 0.5 and tuned.level.danger_calls == 128
    back = make_player("hard:checks_share=none", mini)
    assert isinstance(back, MCTSPlayer) and back.level.checks_share is None
    for bad, match in [
        ("hard:checks_share=1", "below 1"),
        ("hard:danger_share=1.5", "below 1"),
        ("hard:checks_share=-0.1", "negative"),
        ("hard:danger_calls=2.5", "number"),
    ]:
        with pytest.raises(TablierError, match=match):
            make_player(bad, mini)


def test_the_checks_share_is_the_levels_where_it_has_one(monkeypatch, trap):
    """A timed level keeps its ``checks_share`` of the budget for the checks, and the
    checks ask the ``unstoppable`` hook at most ``danger_calls`` times."""
    import tablier.ai.players as players

    shares: list[float] = []
    calls: list[int] = []
    real_seconds, real_safety = players.search_seconds, players.TurnSafety

    def seconds(*args, **kwargs):
        shares.append(args[5] if len(args) > 5 else kwargs["share"])
        return real_seconds(*args, **kwargs)

    def safety(*args, **kwargs):
        calls.append(kwargs["danger_calls"])
        return real_safety(*args, **kwargs)

    monkeypatch.setattr(players, "search_seconds", seconds)
    monkeypatch.setattr(players, "TurnSafety", safety)
    for spec, share, danger in [
        ("hard:seconds=0.3", players.CHECKS_SHARE, 32),
        ("hard:seconds=0.3,checks_share=0.6,danger_calls=7", 0.6, 7),
        # Volo asks no unstoppable question: the danger share does not apply
        ("hard:seconds=0.3,danger_share=0.7", players.CHECKS_SHARE, 32),
    ]:
        shares.clear(), calls.clear()
        make_player(spec, trap.game, seed=1).choose(trap)
        assert shares == [share]
        assert calls and set(calls) == {danger}


def test_the_danger_share_applies_where_the_checks_look_a_turn_further(monkeypatch):
    """``expert`` keeps half its time for its checks where the game has the ``unstoppable``
    question (Voldétour), as elsewhere where it has not; ``checks_share`` wins over it."""
    import tablier.ai.players as players

    shares: list[float] = []
    real_seconds = players.search_seconds

    def seconds(*args, **kwargs):
        shares.append(args[5] if len(args) > 5 else kwargs["share"])
        return real_seconds(*args, **kwargs)

    monkeypatch.setattr(players, "search_seconds", seconds)
    assert LEVELS["expert"].danger_share == 0.5 and LEVELS["hard"].danger_share is None
    game = get("voldetour")
    state = game.initial_state()
    for spec, share in [
        ("expert:seconds=0.4", 0.5),
        ("expert:seconds=0.4,checks_share=0.2", 0.2),
        ("expert:seconds=0.4,unstoppable_nodes=0", players.CHECKS_SHARE),
        ("hard:seconds=0.4,danger_share=0.4", 0.4),
    ]:
        shares.clear()
        make_player(spec, game, seed=1).choose(state)
        assert shares == [share], spec


def test_no_move_from_a_finished_game(win_in_one):
    done = win_in_one.apply(win_in_one.game.parse_move(win_in_one, "e9-e7"))
    for spec in ("random", "greedy", "medium:" + FAST):
        with pytest.raises(GameOverError):
            make_player(spec, done.game).choose(done)


def _loses_within(state, move, depth):
    """Reference (full-tree minimax): the opponent forces a win within ``depth`` after ``move``."""
    from .aitoys import exact

    truth = exact(state.apply(move), 1 - state.to_move)
    return truth is not None and truth <= depth


def test_safety_checks_avoid_a_forced_loss_when_a_safe_move_exists():
    seen_trap = 0
    for seed in range(60):
        game = TreeGame(seed=seed, depth=7, branching=4)
        state = game.initial_state()
        moves = state.legal_moves()
        if state.outcome is not None or len(moves) < 2:
            continue
        safe = [m for m in moves if not _loses_within(state, m, 3)]
        if not safe or len(safe) == len(moves):
            continue
        seen_trap += 1
        player = make_player(
            "hard:iterations=5,seconds=none,solver_depth=3,safety_checks=8", game, seed=seed
        )
        move = player.choose(state)
        assert move in safe, (seed, str(move), [str(m) for m in safe])
    assert seen_trap >= 5


def test_safety_checks_are_off_below_hard():
    assert LEVELS["medium"].safety_checks == 0
    assert LEVELS["hard"].safety_checks > 0 and LEVELS["hard"].solver_depth > 1
    player = make_player("hard:safety_checks=2,iterations=10,seconds=none")
    assert player.level.safety_checks == 2
    with pytest.raises(TablierError):
        make_player("hard:safety_checks=x")


@pytest.mark.parametrize(
    "spec",
    ["hard:widen_first=0", "hard:widen_visits=0", "hard:widen_rate=1", "hard:widen_rate=0.5"],
)
def test_widening_settings_that_would_stop_the_search_are_refused(spec):
    with pytest.raises(TablierError, match="widen"):
        make_player(spec)


def test_safety_checks_take_the_searched_moves_by_visits_before_the_prior(monkeypatch):
    """After the search's choice and its best moves, the checks try the other moves the
    search visited, most visited first (the escape from a deep threat is often a quiet
    move the prior ranks last); the unvisited ones come after, in the prior's order."""
    from tablier.ai import players

    seen = {}
    real = players.safest_move

    def spy(state, first, *args, **kwargs):
        seen["first"] = list(first)
        return real(state, first, *args, **kwargs)

    monkeypatch.setattr(players, "safest_move", spy)
    game = get("volo", board="mini")
    state = game.initial_state()
    rng = random.Random(4)
    for _ in range(6):
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
    player = make_player("hard:iterations=400,seconds=none,safety_checks=2", game, seed=1)
    player.choose(state)
    analysis = [s for s in player.last_analysis if s.proven != "loss"]
    visited = [s.move for s in analysis if s.visits > 0]
    assert len(visited) > 3
    first = seen["first"]
    assert first[1:3] == [s.move for s in analysis[:2]]
    assert first[3:] == visited[2:]


def test_a_decision_times_its_steps(mini, win_in_one):
    """``last_timing``: each step of a timed decision on both clocks, in the order taken,
    together no longer than the decision."""
    import time

    player = make_player("hard:seconds=0.3", mini, seed=1)
    state = mini.initial_state()
    t0 = time.perf_counter()
    player.choose(state)
    wall = time.perf_counter() - t0
    steps = player.last_timing
    assert list(steps) == ["tactics", "threat", "search", "checks"]
    assert all(w >= 0 and c >= 0 for w, c in steps.values())
    assert sum(w for w, _ in steps.values()) <= wall
    assert steps["search"][0] > 0.05  # the search took its budget, less the steps around it
    # a win in one is played at the first step: the earlier decision's steps are gone
    player.choose(win_in_one)
    assert list(player.last_timing) == ["tactics"]
