"""The sequential test on game pairs: the ratio checked a second way, error rates, edge cases."""

from __future__ import annotations

import bisect
import json
import math
import random

import pytest

from tablier.ai import arena
from tablier.ai.sprt import (
    PAIR_SCORES,
    bounds,
    elo_to_score,
    llr,
    pair_counts,
    sprt,
    validate,
)
from tablier.games import get


def _constrained_mle(freqs, mean):
    """The pentanomial closest (maximum likelihood) to ``freqs`` whose halved mean is ``mean``.

    Lagrange: p_j = f_j / (1 + lam (x_j - mean)), with lam the root of
    sum f_j (x_j - mean) / (1 + lam (x_j - mean)) = 0, which is decreasing in
    lam on the interval where every denominator is positive: bisection.
    """
    xs = [s / 2 for s in PAIR_SCORES]
    seen = [(f, x - mean) for f, x in zip(freqs, xs, strict=True) if f > 0]
    lo = -1 / max(d for _, d in seen) + 1e-12
    hi = 1 / -min(d for _, d in seen) - 1e-12

    def g(lam):
        return sum(f * d / (1 + lam * d) for f, d in seen)

    for _ in range(300):
        mid = (lo + hi) / 2
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return [f / (1 + lam * (x - mean)) for f, x in zip(freqs, xs, strict=True)]


def _exact_llr(counts, elo0, elo1):
    n = sum(counts)
    freqs = [c / n for c in counts]
    p0 = _constrained_mle(freqs, elo_to_score(elo0))
    p1 = _constrained_mle(freqs, elo_to_score(elo1))
    assert sum(p0) == pytest.approx(1) and sum(p1) == pytest.approx(1)
    xs = [s / 2 for s in PAIR_SCORES]
    assert sum(p * x for p, x in zip(p1, xs, strict=True)) == pytest.approx(elo_to_score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0, strict=True) if c > 0)


@pytest.mark.parametrize(
    "counts, elo0, elo1",
    [
        ([20, 60, 140, 70, 10], 0.0, 10.0),
        ([20, 60, 140, 70, 10], -5.0, 5.0),
        ([5, 100, 700, 150, 45], 0.0, 5.0),
        ([30, 50, 80, 40, 20], 0.0, 20.0),
    ],
)
def test_llr_matches_the_exact_multinomial_ratio(counts, elo0, elo1):
    exact = _exact_llr(counts, elo0, elo1)
    approx = llr(counts, elo0, elo1)
    assert abs(exact) > 0.3  # a sample that says something, so the comparison means something
    assert approx == pytest.approx(exact, rel=0.05, abs=0.02)


def test_bounds_and_verdicts_follow_the_llr():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == -lower
    assert bounds(0.01, 0.1) == pytest.approx((math.log(0.1 / 0.99), math.log(0.9 / 0.01)))
    for counts in ([10, 30, 130, 90, 20], [10, 20, 40, 20, 10], [30, 60, 100, 20, 10]):
        v = sprt(counts, 0.0, 10.0)
        assert v.llr == llr(counts, 0.0, 10.0)
        expected = "H1" if v.llr >= upper else "H0" if v.llr <= lower else "continue"
        assert v.verdict == expected and v.pairs == sum(counts)
    assert sprt([10, 30, 130, 90, 20], 0.0, 10.0).verdict == "H1"
    assert sprt([30, 60, 100, 20, 10], 0.0, 10.0).verdict == "H0"


def _pentanomial(elo, draw=0.4):
    """Pair probabilities when each game is independent: win, draw, loss with mean score s."""
    s = elo_to_score(elo)
    w, loss = s - draw / 2, 1 - s - draw / 2
    game = [loss, draw, w]
    pair = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            pair[i + j] += p * q
    return pair


def _simulate(probs, elo0, elo1, seed, cap=4000):
    rng = random.Random(seed)
    cumulative = [sum(probs[: k + 1]) for k in range(5)]
    counts = [0] * 5
    for _ in range(cap):
        counts[min(4, bisect.bisect_right(cumulative, rng.random()))] += 1
        v = sprt(counts, elo0, elo1)
        if v.decided:
            return v.verdict
    return "continue"


@pytest.mark.parametrize("true_elo, wanted", [(30.0, "H1"), (0.0, "H0")])
def test_error_rates_on_simulated_matches(true_elo, wanted):
    runs = 150
    verdicts = [_simulate(_pentanomial(true_elo), 0.0, 30.0, seed) for seed in range(runs)]
    assert verdicts.count(wanted) >= 0.9 * runs
    assert verdicts.count("continue") == 0


def test_far_from_both_hypotheses_decides_fast_and_right():
    assert _simulate(_pentanomial(150.0), 0.0, 30.0, 1, cap=200) == "H1"
    assert _simulate(_pentanomial(-150.0), 0.0, 30.0, 1, cap=200) == "H0"


@pytest.mark.parametrize("cell", range(5))
def test_all_pairs_equal_has_no_division_by_zero(cell):
    for n in (1, 2, 50, 10_000):
        counts = [0] * 5
        counts[cell] = n
        v = sprt(counts, 0.0, 10.0)
        assert math.isfinite(v.llr)
        assert math.isfinite(v.elo) or cell in (0, 4)
    assert sprt([0, 0, 0, 0, 1], 0.0, 10.0).verdict == "continue"  # one pair proves little
    assert sprt([0, 0, 0, 0, 50], 0.0, 10.0).verdict == "H1"
    assert sprt([50, 0, 0, 0, 0], 0.0, 10.0).verdict == "H0"
    assert sprt([0, 0, 50, 0, 0], 0.0, 10.0).verdict == "H0"  # all even: no gain
    assert sprt([0, 0, 50, 0, 0], -10.0, 10.0).verdict == "continue"  # right between


def test_empty_sample_and_bad_parameters():
    v = sprt([0, 0, 0, 0, 0], 0.0, 10.0)
    assert (v.verdict, v.llr, v.pairs) == ("continue", 0.0, 0)
    json.dumps(v.as_dict())
    for bad in [(5.0, 0.0), (0.0, 0.0), (0.0, 5.0, 0.0, 0.05), (0.0, 5.0, 0.6, 0.5)]:
        with pytest.raises(ValueError):
            validate(*bad)
    with pytest.raises(ValueError):
        validate(0.0, math.nan)
    with pytest.raises(ValueError):
        llr([1, 2, 3], 0.0, 5.0)
    with pytest.raises(ValueError):
        llr([1, 2, 3, -1, 0], 0.0, 5.0)


def test_pair_counts_use_finished_pairs_only():
    results = [
        {"index": 3, "score_a": 0.5},
        {"index": 0, "score_a": 1.0},
        {"index": 1, "score_a": 1.0},
        {"index": 2, "score_a": 0.0},
        {"index": 4, "score_a": 1.0},  # its partner, game 5, is not there
    ]
    assert pair_counts(results) == [0, 1, 0, 0, 1]


def _fake_task(score_of):
    def play(game, task):
        index = task[2]
        a_first = index % 2 == 0
        score = score_of(index)
        return {
            "index": index,
            "game": game.spec,
            "first": task[0] if a_first else task[1],
            "second": task[1] if a_first else task[0],
            "a_first": a_first,
            "result": "x",
            "reason": None,
            "score_a": score,
            "plies": 1,
        }

    return play


def test_arena_stops_when_the_test_decides(tmp_path, monkeypatch):
    game = get("xobo")
    monkeypatch.setattr(arena, "play_task", _fake_task(lambda i: 1.0))  # A wins every game
    out = tmp_path / "r.jsonl"
    results = arena.run_match(game, "greedy", "random", 200, out=out, sprt=(0.0, 10.0))
    verdict = arena.sprt_result(results, (0.0, 10.0))
    assert verdict.verdict == "H1" and len(results) < 200
    assert len(results) == 2 * verdict.pairs  # it stopped on the pair that decided
    assert not arena.sprt_result(results[:-2], (0.0, 10.0)).decided
    assert len(out.read_text().splitlines()) == len(results)
    # Resuming a decided match plays nothing more.
    again = arena.run_match(game, "greedy", "random", 200, out=out, sprt=(0.0, 10.0))
    assert again == results
    # Without the test, the same match plays every game.
    assert len(arena.run_match(game, "greedy", "random", 30)) == 30


def test_arena_sprt_accepts_h0_and_refuses_bad_parameters(monkeypatch):
    game = get("xobo")
    monkeypatch.setattr(arena, "play_task", _fake_task(lambda i: 0.5))  # every game drawn
    results = arena.run_match(game, "greedy", "random", 400, sprt=(0.0, 10.0, 0.05, 0.1))
    assert arena.sprt_result(results, (0.0, 10.0, 0.05, 0.1)).verdict == "H0"
    assert len(results) < 400
    for bad in [(10.0, 0.0), (0.0,), (0.0, 5.0, 0.05), (0.0, 5.0, 2.0, 0.05)]:
        with pytest.raises(arena.TablierError):
            arena.run_match(game, "greedy", "random", 4, sprt=bad)
