"""Voldétour's evaluation with two Lord weights played against each other, in one process.

The evaluation counts each square a Lord stands nearer the enemy tower as a weight on the
race's scale, beside the Lords' path distances (``_LORD`` in
:mod:`tablier.games.voldetour.ai`; docs/ai.md, "The Lord's own squares").  This plays
``--spec`` evaluating with weight ``--a`` against the same spec evaluating with ``--b``: the
arena's games (:func:`tablier.ai.match.play_game`: colours alternating, each opening two
random decisions played once with each colour), each player's decisions made with its own
weight.  Each game is a JSON line of ``--out``; ``--summary`` reads such files and prints
A's score and the sequential test on the game pairs (:mod:`tablier.ai.sprt`)::

    .venv/bin/python benchmarks/voldetour_lord_weight.py --a 2 --b 0 --games 30 \\
        --first 0 --out FILE          # and --first 30 in a second process
    .venv/bin/python benchmarks/voldetour_lord_weight.py --summary FILE

With ``--a-tempo T`` and ``--b-tempo T`` (0 by default) each player also evaluates with the
side to move's lead ``T`` on the race's scale (``_TEMPO``; docs/ai.md "Tempo"), and with
``--a-pin P`` and ``--b-pin P`` (0 by default) with what a Lord whose pillars are all blocked
costs its side (``_PIN``; docs/ai.md "Pinned pillars"), and with ``--a-pillar C`` and
``--b-pillar C`` (-1, none, by default) with the most that raising a square to the towers'
height adds to a Lord's step there in the path distance (``_PILLAR``; docs/ai.md "A pillar is
one put").

The knobs are globals of the evaluation (of the compiled core too), set before
each of a player's decisions, so the two players must not think at the same time: one game
at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablier.ai.arena import read_results, summarise
from tablier.ai.match import play_game
from tablier.ai.players import Player, Progress, make_player
from tablier.ai.sprt import pair_counts, sprt
from tablier.core.errors import TablierError
from tablier.core.game import Game, Move, State
from tablier.games import get
from tablier.games.voldetour import ai

#: The evaluation's knobs a player may set (``ai._set_<knob>``), with each one's default.
KNOBS = {"lord_weight": ai._LORD, "tempo": ai._TEMPO, "pin": ai._PIN, "pillar": ai._PILLAR}


class Weighted(Player):
    """A player whose decisions are made with the evaluation's knobs set as ``knobs`` says
    (the Lord weight ``lord_weight``, the ``tempo``, the ``pin``, the ``pillar`` cost; each
    left out: its default in :data:`KNOBS`)."""

    def __init__(self, inner: Player, knobs: dict[str, float]) -> None:
        self.inner = inner
        self.knobs = {**KNOBS, **knobs}
        self.name = f"{inner.name}@{self.knobs['lord_weight']:g}" + "".join(
            f"+{knob}{value:g}"
            for knob, value in self.knobs.items()
            if knob != "lord_weight" and value != KNOBS[knob]
        )

    def choose(self, state: State[Any], progress: Progress | None = None) -> Move:
        ai.set_knobs(self.knobs)
        return self.inner.choose(state, progress)

    def reset(self) -> None:
        self.inner.reset()

    def remember(self, state: State[Any]) -> None:
        self.inner.remember(state)


def _weights(a: dict[str, float], b: dict[str, float]) -> Any:
    """A ``make`` for :func:`play_game`: the spec ``SPEC#a`` or ``SPEC#b`` gets the knobs
    ``a`` or ``b``."""

    def make(spec: str, game: Game[Any, Any], seed: int = 0) -> Player:
        base, side = spec.rsplit("#", 1)
        return Weighted(make_player(base, game, seed=seed), a if side == "a" else b)

    return make


def _summary(paths: list[str], elo1: float) -> int:
    records = [record for path in paths for record in read_results(path)]
    if not records:
        print("error: no games in the files", file=sys.stderr)
        return 2
    match = summarise(records)
    capped = sum(r["reason"] == "move-limit" for r in records)
    print(
        f"{records[0]['first'].split('#')[0]}: A +{match.wins} ={match.draws} -{match.losses}"
        f" ({100 * match.score:.1f}%) over {match.games} games, {capped} at the decision limit"
    )
    result = sprt(pair_counts(records), 0.0, elo1)
    print(
        f"pairs {result.counts}: SPRT 0/{elo1:g} {result.verdict} (LLR {result.llr:.2f}),"
        f" Elo {result.elo:+.0f} ({result.elo_low:+.0f} to {result.elo_high:+.0f})"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", type=float, default=ai._LORD, help="A's Lord weight")
    parser.add_argument("--b", type=float, default=0.0, help="B's Lord weight")
    parser.add_argument("--a-tempo", type=float, default=ai._TEMPO, help="A's tempo")
    parser.add_argument("--b-tempo", type=float, default=ai._TEMPO, help="B's tempo")
    parser.add_argument("--a-pin", type=float, default=ai._PIN, help="A's pin")
    parser.add_argument("--b-pin", type=float, default=ai._PIN, help="B's pin")
    parser.add_argument("--a-pillar", type=int, default=int(ai._PILLAR), help="A's pillar cost")
    parser.add_argument("--b-pillar", type=int, default=int(ai._PILLAR), help="B's pillar cost")
    parser.add_argument("--spec", default="hard:iterations=200,seconds=none")
    parser.add_argument("--pieces", default="default")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--out", help="append each game's record here (JSON lines)")
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="read recorded games")
    parser.add_argument("--elo1", type=float, default=100.0, help="the test's H1 (Elo)")
    args = parser.parse_args(argv)
    if args.summary:
        try:
            return _summary(args.summary, args.elo1)
        except (TablierError, KeyError) as error:
            print(f"error: cannot read the records: {error}", file=sys.stderr)
            return 2
    game = get("voldetour", pieces=args.pieces)
    make = _weights(
        {"lord_weight": args.a, "tempo": args.a_tempo, "pin": args.a_pin, "pillar": args.a_pillar},
        {"lord_weight": args.b, "tempo": args.b_tempo, "pin": args.b_pin, "pillar": args.b_pillar},
    )
    kept = ai.set_knobs(KNOBS)  # the defaults, and what was set before to put back after
    try:
        for i in range(args.first, args.first + args.games):
            record = play_game(
                game,
                f"{args.spec}#a",
                f"{args.spec}#b",
                i,
                seed=args.seed,
                max_plies=args.max_plies,
                make=make,
            )
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(record) + "\n")
            print(f"game {i}: {record['reason']} after {record['plies']}, A {record['score_a']}")
    finally:
        ai.set_knobs(kept)
    return 0


if __name__ == "__main__":
    sys.exit(main())
