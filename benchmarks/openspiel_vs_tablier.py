"""Tablier's AI against OpenSpiel's MCTS bot, at equal and at F times Tablier's CPU time.

Usage::

    python benchmarks/openspiel_vs_tablier.py [--game volo:board=mini]
        [--tablier-spec hard] [--games 20] [--os-factor 1 | --factors 1,8]
        [--rollouts 1] [--rollout-cap 200] [--max-decisions 1000] [--seed 1]

Needs the ``openspiel`` extra.  Tablier plays ``--tablier-spec`` (a player spec,
default ``hard`` with its own time limit; ``hard:seconds=0.3`` for a short run).
OpenSpiel plays ``MCTSBot`` (UCT constant 2, random-rollout evaluator) through
:mod:`tablier.adapters.openspiel`.

Time: the CPU time (``time.process_time()``) of every Tablier decision is
measured, and OpenSpiel's number of simulations per step is set so that its CPU
time per move is F times Tablier's mean so far (F is ``--os-factor``, default 1;
``--factors 1,8`` plays a row for each factor in one run).  MCTSBot has only a
number of simulations, no time limit: before the games, one Tablier decision on
the start position gives a first mean and one timed search of 20 simulations
a first number of simulations; after every OpenSpiel move (all its steps: a
Volo flight is 3 or 4 OpenSpiel actions) that number is scaled by the ratio of
the target to the move's CPU time (at most by 2 either way).  The number carries
over from game to game of a row.

Forced steps: a Tablier decision with a single legal move, and an OpenSpiel step
with a single legal action, are played without searching, and are not counted
in the times per move.

Rollout cap: OpenSpiel's random rollouts stop after ``--rollout-cap`` actions
(default 200; unbounded Voldetour rollouts run for thousands of actions).  An
unfinished rollout scores 0 for both players (the adapter's ``returns()`` of an
unfinished game), like a draw.

Decision cap: a game still running after ``--max-decisions`` decisions (default
1000, both sides') is stopped and counts as a draw: Voldetour without its optional
repetition rule or turn limit can otherwise go on for hours.

Colours alternate; the score is Tablier's (win 1, draw 1/2), printed for each
factor with both sides' mean CPU seconds per searched move.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from open_spiel.python.algorithms import mcts

import tablier.adapters
from tablier.adapters.openspiel import load
from tablier.ai import make_player
from tablier.games import from_spec

#: Clamp on the rescaling of OpenSpiel's simulations after one move.
MAX_RESCALE = 2.0


def make_bot(sgame, sims: int, rollouts: int, cap: int, rng) -> mcts.MCTSBot:
    """OpenSpiel's MCTSBot with random rollouts capped at ``cap`` actions."""
    evaluator = mcts.RandomRolloutEvaluator(rollouts, rng, max_length=cap)
    return mcts.MCTSBot(sgame, 2.0, sims, evaluator, random_state=rng)


def first_target(tgame, spec: str, seed: int) -> float:
    """CPU seconds of one Tablier decision on the start position."""
    player = make_player(spec, tgame, seed=seed)
    start = time.process_time()
    player.choose(tgame.initial_state())
    return time.process_time() - start


def first_sims(sgame, target: float, rollouts: int, cap: int, seed: int) -> int:
    """Simulations of OpenSpiel's MCTS that take about ``target`` CPU seconds at the start."""
    probe = 20
    bot = make_bot(sgame, probe, rollouts, cap, np.random.RandomState(seed))
    start = time.process_time()
    bot.mcts_search(sgame.new_initial_state())
    per_sim = max(time.process_time() - start, 1e-6) / probe
    return max(2, int(target / per_sim))


class Budget:
    """OpenSpiel's simulations per step, following F times Tablier's mean CPU time."""

    def __init__(self, factor: float, first_time: float, sims: int) -> None:
        self.factor = factor
        self.tablier_times = [first_time]
        self.sims = sims

    @property
    def target(self) -> float:
        return self.factor * statistics.mean(self.tablier_times)

    def rescale(self, took: float) -> None:
        ratio = min(MAX_RESCALE, max(1 / MAX_RESCALE, self.target / max(took, 1e-6)))
        self.sims = max(2, int(self.sims * ratio))


def play(
    tgame,
    spec: str,
    tablier_first: bool,
    budget: Budget,
    rollouts: int,
    cap: int,
    seed: int,
    max_decisions: int,
) -> tuple[float, list[float], list[float]]:
    """One game; Tablier's score and the CPU seconds of each side's searched moves.

    A game still running after ``max_decisions`` decisions (both sides' moves
    counted, a Volo flight as one) is stopped and scores a draw."""
    sgame = load(tgame)
    bot = make_bot(sgame, budget.sims, rollouts, cap, np.random.RandomState(seed))
    player = make_player(spec, tgame, seed=seed)
    tablier_side = 0 if tablier_first else 1
    state = sgame.new_initial_state()
    codec = tablier.adapters.actions_for(tgame)
    t_times: list[float] = []
    s_times: list[float] = []
    decisions = 0
    while not state.is_terminal():
        if decisions >= max_decisions:
            return 0.5, t_times, s_times
        decisions += 1
        current = state.tablier_state
        if current.to_move == tablier_side:
            moves = current.legal_moves()
            if len(moves) == 1:
                move = moves[0]
            else:
                start = time.process_time()
                move = player.choose(current)
                took = time.process_time() - start
                t_times.append(took)
                budget.tablier_times.append(took)
            for step in codec.encode(current, move):
                state.apply_action(step)
        else:
            bot.max_simulations = budget.sims
            searched = False
            start = time.process_time()
            while not state.is_terminal() and state.tablier_state is current:
                legal = state.legal_actions()
                if len(legal) == 1:
                    state.apply_action(legal[0])
                else:
                    state.apply_action(bot.step(state))
                    searched = True
            took = time.process_time() - start
            if searched:
                s_times.append(took)
                budget.rescale(took)
    outcome = state.tablier_state.outcome
    return outcome.score(tablier_side), t_times, s_times


def run_factor(tgame, args, factor: float, first_time: float) -> tuple[float, float, float]:
    """Play ``--games`` games at ``factor``; Tablier's score and both mean s/move."""
    sgame = load(tgame)
    sims = first_sims(sgame, factor * first_time, args.rollouts, args.rollout_cap, args.seed)
    budget = Budget(factor, first_time, sims)
    print(f"OpenSpiel at {factor:g}x Tablier's CPU time, from {sims} simulations per step")
    total = 0.0
    t_all: list[float] = []
    s_all: list[float] = []
    for i in range(args.games):
        first = i % 2 == 0
        score, t_times, s_times = play(
            tgame,
            args.tablier_spec,
            first,
            budget,
            args.rollouts,
            args.rollout_cap,
            args.seed + i,
            args.max_decisions,
        )
        total += score
        t_all += t_times
        s_all += s_times
        print(
            f"  game {i + 1}: Tablier plays {'first' if first else 'second'}, scores {score} "
            f"({len(t_times)} + {len(s_times)} searched moves, "
            f"now {budget.sims} simulations per step)",
            flush=True,
        )
    t_mean = statistics.mean(t_all) if t_all else float("nan")
    s_mean = statistics.mean(s_all) if s_all else float("nan")
    return total, t_mean, s_mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="xobo", help="a game spec, e.g. volo:board=mini")
    parser.add_argument("--tablier-spec", default="hard", help="Tablier's player spec")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--os-factor", type=float, default=1.0, help="OpenSpiel's CPU time / Tablier's"
    )
    parser.add_argument("--factors", help="several factors, e.g. 1,8 (overrides --os-factor)")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--rollout-cap", type=int, default=200, help="actions per rollout")
    parser.add_argument(
        "--max-decisions", type=int, default=1000, help="a longer game is stopped: a draw"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    factors = [float(f) for f in args.factors.split(",")] if args.factors else [args.os_factor]
    tgame = from_spec(args.game)
    first_time = first_target(tgame, args.tablier_spec, args.seed)
    print(
        f"{tgame.spec}: Tablier {args.tablier_spec} vs OpenSpiel MCTS ({args.rollouts} "
        f"rollout(s) of at most {args.rollout_cap} actions), {args.games} games per factor; "
        f"Tablier's first decision took {first_time:.3f} CPU s"
    )
    rows = [(f, *run_factor(tgame, args, f, first_time)) for f in factors]
    print("| OpenSpiel time | score (Tablier - OpenSpiel) | mean CPU s/move Tablier / OpenSpiel |")
    print("|---|---|---|")
    for factor, total, t_mean, s_mean in rows:
        print(
            f"| {factor:g}x | {total:g} - {args.games - total:g} ({args.games} games) "
            f"| {t_mean:.3f} / {s_mean:.3f} |"
        )


if __name__ == "__main__":
    main()
