"""Losses by a rule the player could have obeyed: counts per game, option set and level.

Usage::

    python benchmarks/ai_rule_losses.py --games 20 [--levels random,easy,medium]
        [--game-specs voldetour,xobo:exhaustion=cubes] [--guard both] [--max-plies 400]

Each level plays itself (colours alternate with the seed) from the initial
position, every decision made with ``tablier.ai.players.make_player``.  A
game ends by the rules or is cut at ``--max-plies`` decisions (``limit``).
The table counts the games by how they ended: real wins (``tower``,
``flock``, ``connection``), losses by a rule (``stayed``, ``opponent-flock``,
``blocus``, ``exhaustion``, ``last-action``), draws and cut games.  For each
loss by a rule it then checks the loser's decisions over its last turns: a
decision whose move lost whatever anyone decided while another move did not
is an **avoidable** rule loss (the check is the players' own
:class:`tablier.ai.tactics.RuleGuard` with a budget ten times larger, ``REFERENCE_NODES``).
``--guard off`` plays with the guard switched off (``rule_guard=no``), which
shows what it prevents; ``both`` runs each level both ways.

Levels use small fixed budgets (see ``LEVEL_SPECS``) so that runs are
reproducible and affordable; the guard does not depend on the search budget.
``--real`` plays the levels as they are (time budgets included); a level
name with settings after a colon (``medium:iterations=300``) is used as given.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import tablier.games
from tablier.ai.players import avoidable_rule_loss, make_player
from tablier.core.game import Game, Move, State

#: Outcome reasons of each engine, by kind (docs/rules/*.md).
REAL_WINS = frozenset({"tower", "flock", "connection"})
RULE_LOSSES = frozenset({"stayed", "opponent-flock", "blocus", "exhaustion", "last-action"})
DRAWS = frozenset({"no-action", "repetition", "move-limit", "double-pass"})

#: The levels with fixed, small budgets (the guard's own budget is the level's).
LEVEL_SPECS = {
    "random": "random",
    "greedy": "greedy",
    "easy": "easy",
    "medium": "medium:iterations=60,seconds=none",
    "hard": "hard:iterations=80,seconds=none,solver_nodes=200,safety_checks=2",
    "expert": "expert:iterations=120,seconds=none,solver_nodes=400,safety_checks=3",
}

DEFAULT_GAMES = (
    "voldetour,voldetour:pieces=mini,volo:board=mini,volo:board=mini,edition=2010,"
    "volo,xobo,xobo:stack=three,exhaustion=cubes"
)


def split_specs(text: str) -> list[str]:
    """Game specs separated by commas; a part with ``=`` but no ``:`` continues the last one."""
    out: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


#: Positions the reference guard may expand per decision checked.
REFERENCE_NODES = 30_000


def play(game: Game, spec: str, seed: int, max_plies: int):
    """One self-play game: (reason or 'limit', loser or None, history)."""
    players = [make_player(spec, game, seed=2 * seed + k) for k in (0, 1)]
    if seed % 2:
        players.reverse()
    state = game.initial_state()
    history: list[tuple[State, Move]] = []
    while state.outcome is None and len(history) < max_plies:
        move = players[state.to_move].choose(state)
        history.append((state, move))
        state = state.apply(move)
    outcome = state.outcome
    if outcome is None:
        return "limit", None, history
    loser = None if outcome.winner is None else 1 - outcome.winner
    return outcome.reason, loser, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game spec and level")
    parser.add_argument("--levels", default="random,greedy,easy,medium,hard")
    parser.add_argument("--game-specs", default=DEFAULT_GAMES)
    parser.add_argument("--guard", choices=("on", "off", "both"), default="on")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--real", action="store_true", help="the levels as they are")
    args = parser.parse_args()
    guards = {"on": ["yes"], "off": ["no"], "both": ["no", "yes"]}[args.guard]
    print(f"{args.games} self-play games a row, up to {args.max_plies} decisions, seed {args.seed}")
    print(
        f"{'game':<56} {'level':<8} {'guard':<5} {'wins':>4} {'draw':>4} {'limit':>5}"
        f" {'rule losses (avoidable)':<32} {'s/game':>6}"
    )
    for game_spec in split_specs(args.game_specs):
        game = tablier.games.from_spec(game_spec)
        for level in args.levels.split(","):
            level = level.strip()
            base = level if args.real or ":" in level else LEVEL_SPECS[level]
            for guard in guards:
                spec = base + ("," if ":" in base else ":") + f"rule_guard={guard}"
                counts: Counter[str] = Counter()
                rule: Counter[str] = Counter()
                bad: Counter[str] = Counter()
                start = time.perf_counter()
                for i in range(args.games):
                    reason, loser, history = play(game, spec, args.seed + i, args.max_plies)
                    if reason in RULE_LOSSES:
                        rule[reason] += 1
                        if loser is not None and avoidable_rule_loss(
                            history, loser, nodes=REFERENCE_NODES
                        ):
                            bad[reason] += 1
                    elif reason in REAL_WINS:
                        counts["wins"] += 1
                    elif reason == "limit":
                        counts["limit"] += 1
                    else:
                        counts["draw"] += 1
                seconds = (time.perf_counter() - start) / max(1, args.games)
                losses = ", ".join(f"{r} {n} ({bad[r]})" for r, n in sorted(rule.items())) or "-"
                print(
                    f"{game.spec:<56} {level:<8} {'on' if guard == 'yes' else 'off':<5}"
                    f" {counts['wins']:>4} {counts['draw']:>4} {counts['limit']:>5}"
                    f" {losses:<32} {seconds:>6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
