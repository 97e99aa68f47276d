"""Voldétour's AI knowledge: distances, the leave-the-tower prior, evaluation sanity."""

from __future__ import annotations

import random

import pytest

from tablier.ai.knowledge import knowledge_for
from tablier.games import get
from tablier.games.voldetour import ai as vold_ai


def _label_distance(a: str, b: str) -> int:
    """Reference: Manhattan distance read from the square names (``b2``, ``i9``...)."""
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def _positions(count, seed):
    game = get("voldetour")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 40)):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
        if state.outcome is None:
            out.append(state)
    return out


def test_lord_distance_matches_square_names():
    game = get("voldetour")
    grid = game.pieceset.grid
    towers = [grid.label(t) for t in game.pieceset.towers]
    assert towers == ["b2", "i9"]
    for state in _positions(15, seed=1):
        for p in (0, 1):
            lord = grid.label(state.lords[p])
            assert vold_ai.lord_distance(state, p) == _label_distance(lord, towers[1 - p])


def test_prior_prefers_a_block_level_with_the_lord_next_to_it():
    game = get("voldetour")
    state = game.initial_state()
    state = state.apply(game.parse_move(state, "B123"))
    moves = state.legal_moves()
    prior = dict(zip(map(str, moves), vold_ai.move_prior(state, moves), strict=True))
    # 3 levels high next to Black's tower on b2: the Lord can step onto it; c2 is
    # nearer White's tower (i9) than b2, a2 is not.
    assert prior["B123@c2:2x1x3"] == 4.0
    assert prior["B123@a2:1x2x3"] == 1.5
    assert prior["B123@e5:2x1x3"] == 0.5
    assert max(prior.values()) == 4.0


def test_prior_leapfrogs_the_pillar_behind_the_lord():
    game = get("voldetour")
    state = game.initial_state()
    # Black: a pillar on c2 (behind, once the Lord stands on d2), one on d2; the Lord walks
    # b2-c2-d2 at the tower's height.  White answers with a stair far away.
    for text in (
        "B113",
        "B113@c2:1x1x3",
        "Lb2-c2",
        "S",
        "S@j1:n",
        "end",
        "B123",
        "B123@d2:1x2x3",
        "Lc2-d2",
        "S",
        "S@j2:n",
        "end",
    ):
        state = state.apply(game.parse_move(state, text))
    assert state.to_move == 0
    moves = state.legal_moves()
    prior = dict(zip(map(str, moves), vold_ai.move_prior(state, moves), strict=True))
    assert prior["B113"] == 1.5  # the pillar behind the Lord, free to move ahead
    assert prior["B111"] == 0.6  # a short block from the reserve
    state = state.apply(game.parse_move(state, "B113"))
    moves = state.legal_moves()
    prior = dict(zip(map(str, moves), vold_ai.move_prior(state, moves), strict=True))
    assert prior["B113@e2:1x1x3"] == 4.0  # level, next to the Lord, nearer i9
    assert prior["B113@d1:1x1x3"] == 1.5  # level and next to it, but farther
    assert prior["B113@h8:1x1x3"] == 0.5


def test_evaluation_symmetric_start_and_penalises_staying():
    game = get("voldetour")
    start = game.initial_state()
    assert vold_ai.evaluate(start) == 0.0
    for state in _positions(20, seed=2):
        v = vold_ai.evaluate(state)
        assert -1 < v < 1
    towers = game.pieceset.towers
    assert vold_ai._stuck(start, 0) > 0 and vold_ai._stuck(start, 1) > 0
    left = [s for s in _positions(60, seed=3) if s.lords[0] != towers[0]]
    assert left and all(vold_ai._stuck(s, 0) == 0.0 for s in left)
    assert knowledge_for(game).evaluate is vold_ai.evaluate
    assert knowledge_for(game).playout_depth == vold_ai.PLAYOUT_DEPTH


#: Decision 900 of a `hard`-`medium` game that ran to the decision limit (docs/ai.md,
#: "Stalled games"): both reserves empty, Black (`hard`) to move, path distances 18 and 21.
STALLED = (
    "voldetour:pieces=default,repetition=False,max_turns=none turn=557 lords=d5,h6"
    " black=B111@g9:1x1x1,B112@h9:1x1x2,B113@d9:3x1x1,B122@e6:2x2x1,B123@d4+1:1x3x2,"
    "S@h5:w,S@g6:n,S@g6+1:n,S@e7+1:w,S@g7:s white=B111@c3:1x1x1,B112@c4+1:1x2x1,"
    "B113@d6:1x3x1,B122@c4:2x2x1,B123@h6:1x2x3,S@g6:u,S@g6+1:u,S@e8:w,S@f8:n,S@g9+1:n"
)


def _turn_end(state, player):
    """Play ``player``'s search to the end of its turn; the position then."""
    mover = state.to_move
    while state.to_move == mover and state.outcome is None:
        state = state.apply(player.choose(state))
    return state


def test_turn_prior_looks_past_the_take_to_its_best_put():
    from tablier.games import parse_position

    state = parse_position(STALLED)
    moves = state.legal_moves()
    weights = dict(zip(map(str, moves), vold_ai.turn_prior(state, moves), strict=True))
    # The take ranked first is one whose best put brings Black's Lord nearer; without the
    # look past the take, the Lord's steps (no gain) weighed as much as any take.
    best = max(weights, key=weights.__getitem__)
    taken = state.apply(state.game.parse_move(state, best))
    assert taken.hand is not None
    gains = [vold_ai.path_distance(taken.apply(put), 0) for put in taken.legal_moves()]
    assert min(gains) < vold_ai.path_distance(state, 0) == 18
    assert weights[best] > 3 * weights["Ld5-d4"]


def test_hard_moves_on_in_a_stalled_endgame():
    from tablier.ai.players import make_player
    from tablier.games import parse_position

    state = parse_position(STALLED)
    for seed in (1, 2):
        player = make_player("hard:iterations=300,seconds=none", state.game, seed=seed)
        end = _turn_end(state, player)
        # the turn brings Black's Lord nearer and walls White's in (the search without the
        # turn prior stepped the Lord one square, or back: a race of 2 to 4 at the end)
        assert vold_ai.path_distance(end, 0) < 18
        assert vold_ai.path_distance(end, 1) - vold_ai.path_distance(end, 0) >= 8


def test_turn_prior_is_the_same_with_and_without_the_compiled_core():
    from tablier.core.native import using

    for state in _positions(6, seed=5):
        moves = state.legal_moves()
        fast = vold_ai.turn_prior(state, moves)
        with using(False):
            pure = vold_ai.turn_prior(state, moves)
        assert fast == pytest.approx(pure, rel=1e-9, abs=1e-12)


# A `hard`–`greedy` game of 2026-11-29 that stopped at the decision limit: White's Lord (hard)
# stepped g7-g6 and back every turn while Black (greedy) moved a block to and fro.
CYCLE = (
    "voldetour:pieces=default,repetition=False,max_turns=none turn=280 lords=d2,g7"
    " black=B111@d2+1:1x1x1,B112@i2:1x2x1,B113@h3:1x3x1,B122@i4:2x2x1,B123@i6:1x3x2,S@e1:w,"
    "S@d2:w,S@f2:w,S@e3:w,S@g5+2:n white=B112@g5:1x1x2,B113@g1:1x3x1,B122@c2:1x2x2,"
    "B123@g6:1x2x3,S@c2+2:w,S@d2:u,S@d3:s,S@h4+1:n,S@g5+2:u"
)


def test_hard_steps_out_of_a_cycle_it_remembers():
    from tablier.ai.players import MCTSPlayer, make_player
    from tablier.games import parse_position

    state = parse_position(CYCLE)
    game = state.game
    back = game.parse_move(state, "Lg7-g6")
    for seed in (1, 2):
        player = make_player("hard:iterations=300,seconds=none", game, seed=seed)
        assert isinstance(player, MCTSPlayer)
        player.remember(state.apply(back))  # the position that step led to, turns ago
        stats = {s.move: s for s in player.analyse(state)}
        assert stats[back].score == 0.5
        assert player.choose(state) != back
        # the player remembers its game's positions, and forgets them for a new game
        assert vold_ai.position_key(state) in player._seen
        player.reset()
        assert not player._seen


def test_a_level_without_repeat_draw_remembers_nothing():
    from tablier.ai.players import make_player
    from tablier.games import parse_position

    state = parse_position(CYCLE)
    assert make_player("hard").level.config.repeat_draw
    player = make_player("hard:iterations=50,seconds=none,repeat_draw=off", state.game)
    player.choose(state)
    assert not player._seen


def test_expert_plays_with_its_knobs_and_sets_them_back(monkeypatch):
    # expert's profile (Level.knobs "expert") sets Voldétour's LEVEL_KNOBS["expert"] (a
    # pillar is one put) around each decision and what was set before after it; a level
    # without a profile, or with knobs=none, leaves the defaults; a game without the profile
    # (Volo) plays its own (docs/ai.md, "Per-game knowledge: the interface").
    from tablier.ai.players import LEVELS, make_player
    from tablier.core.errors import TablierError

    assert LEVELS["expert"].knobs == "expert" and LEVELS["hard"].knobs is None
    assert vold_ai.LEVEL_KNOBS["expert"] == {"pillar": 1.0}
    seen: list[float] = []
    real = vold_ai._set_pillar

    def spy(cost: float) -> float:
        seen.append(cost)
        return real(cost)

    monkeypatch.setattr(vold_ai, "_set_pillar", spy)
    during: list[float] = []
    real_evaluate = vold_ai._evaluate

    def watch(state):
        during.append(vold_ai._PILLAR)
        return real_evaluate(state)

    monkeypatch.setattr(vold_ai, "_evaluate", watch)
    game = get("voldetour")
    state = game.initial_state()
    for spec, pillar in (
        ("hard:iterations=30,seconds=none,knobs=expert", 1.0),
        ("hard:iterations=30,seconds=none", -1.0),
        ("expert:iterations=30,seconds=none,knobs=none", -1.0),
    ):
        seen.clear()
        during.clear()
        make_player(spec, game).choose(state)
        assert during and set(during) == {pillar}, spec  # the evaluation saw the profile's
        assert seen == ([1.0, -1.0] if pillar == 1.0 else []), spec
        assert vold_ai._PILLAR == -1.0  # set back
    assert make_player("expert", game).level.knobs == "expert"
    volo = get("volo", board="mini")
    assert knowledge_for(volo).level_knobs == {}
    volo_player = make_player("hard:iterations=20,seconds=none,knobs=expert", volo)
    assert volo_player.choose(volo.initial_state()) in volo.initial_state().legal_moves()
    with pytest.raises(TablierError, match="knobs"):
        make_player("hard:knobs=a-b", game)
