"""Published perft tables: golden counts for every game and option set, and docs/perft.md.

For every registered game and each of its example option sets
(``Game.example_options()``) the table holds the initial position and five mid-game
positions.  Mid-game position ``i`` (1 to 5) comes from a seeded random playout
(``random.Random(seed).choice(state.legal_moves())`` at each step, the seed being the text
``"<spec>#<i>"``) played to the end of the game, ``n`` decisions: it is the position after
``k = round(f * n)`` decisions, ``f`` the ``i``-th of :data:`FRACTIONS`, so every game is
sampled from its opening to its late middle game whatever its length.
The position strings are recorded, so the table does not depend on the order in which an
engine lists its moves.  Counts are computed from the position string read back
(``tablier.games.parse_position``), for depths 1, 2, ... up to :data:`MAX_DEPTH`, as long
as the next count is expected to take under ``--seconds`` (10 by default) of processor time
on the machine that writes the table; the depths written are then fixed by the data file.

    python tools/perft_table.py --write [--jobs N]   # choose positions, count, write both files
    python tools/perft_table.py --write --game xobo  # only this game's sets; others kept as is
    python tools/perft_table.py --check [--jobs N]   # recount every figure of the data file
    python tools/perft_table.py --doc                # rewrite docs/perft.md from the data file

``--check`` exits with status 1 and lists the differences when the engine disagrees with
the data file.  The test suite checks the shallow depths (``tests/core/test_perft_golden.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "core" / "perft_golden.json"
DOC = ROOT / "docs" / "perft.md"

#: where in its random playout each mid-game position is taken (fraction of the game's length)
FRACTIONS = (0.15, 0.3, 0.45, 0.6, 0.75)
#: a random playout longer than this many decisions is cut there (a game that may not end)
LONGEST = 1000
#: the deepest count in the tables
MAX_DEPTH = 4
FORMAT = 1


def _games() -> Any:
    import tablier.games

    return tablier.games


def mid_game_position(game: Any, index: int) -> tuple[str, int, int, str]:
    """``(seed, k, n, position string)``: mid-game position ``index`` (1 to 5) of ``game``."""
    seed = f"{game.spec}#{index}"
    rng = random.Random(seed)
    states = [game.initial_state()]
    while states[-1].outcome is None and len(states) <= LONGEST:
        states.append(states[-1].apply(rng.choice(states[-1].legal_moves())))
    n = len(states) - 1
    k = max(1, min(n - 1, round(FRACTIONS[index - 1] * n)))
    return seed, k, n, states[k].to_text()


def read_position(text: str) -> Any:
    """The state of a recorded position string (checked to read back to the same string)."""
    from tablier.core.errors import TablierError

    state = _games().parse_position(text)
    if state.to_text() != text:
        raise TablierError(f"position string does not read back to itself: {text!r}")
    return state


def count(text: str, seconds: float, max_depth: int = MAX_DEPTH) -> list[int]:
    """perft 1, 2, ... of a position, while the next count is expected to take < ``seconds``."""
    from tablier.core.perft import perft

    state = read_position(text)
    counts: list[int] = []
    took = 0.0
    for depth in range(1, max_depth + 1):
        if depth > 2:
            # The work of depth d is about (paths of d-1) move generations; scale the last time.
            branching = counts[-1] / max(counts[-2], 1)
            if took * branching > seconds:
                break
        start = time.process_time()  # processor time: the choice does not depend on load
        counts.append(perft(state, depth))
        took = time.process_time() - start
    return counts


def _count_job(job: tuple[str, float]) -> list[int]:
    return count(*job)


def _check_job(job: tuple[str, list[int]]) -> list[str]:
    from tablier.core.perft import perft

    text, expected = job
    state = read_position(text)
    errors = []
    for depth, want in enumerate(expected, start=1):
        got = perft(state, depth)
        if got != want:
            errors.append(f"perft({depth}) = {got}, table says {want}: {text}")
    return errors


def _map(func: Any, items: list[Any], jobs: int) -> list[Any]:
    if jobs <= 1:
        return [func(item) for item in items]
    with Pool(jobs) as pool:
        return pool.map(func, items, chunksize=1)


def build(seconds: float, jobs: int, only: set[str] | None = None) -> dict[str, Any]:
    """Choose the positions and count them: the data file's contents.

    With ``only``, the option sets of those games alone (the file's other entries are
    kept by :func:`merge`).
    """
    registry = _games()
    sets = []
    for name in registry.names():
        if only is not None and name not in only:
            continue
        cls = registry.game_class(name)
        for options in cls.example_options():
            game = cls(**options)
            positions = [
                {
                    "label": "initial",
                    "seed": None,
                    "plies": 0,
                    "position": game.initial_state().to_text(),
                }
            ]
            for index in range(1, len(FRACTIONS) + 1):
                seed, k, n, text = mid_game_position(game, index)
                positions.append(
                    {
                        "label": f"after {k} of {n} random decisions",
                        "seed": seed,
                        "plies": k,
                        "position": text,
                    }
                )
            sets.append(
                {"game": name, "options": options, "spec": game.spec, "positions": positions}
            )
    flat = [p for s in sets for p in s["positions"]]
    results = _map(_count_job, [(p["position"], seconds) for p in flat], jobs)
    for p, counts in zip(flat, results, strict=True):
        p["perft"] = counts
    return {
        "format": FORMAT,
        "max_depth": MAX_DEPTH,
        "seconds": seconds,
        "fractions": list(FRACTIONS),
        "sets": sets,
    }


def merge(old: dict[str, Any], new: dict[str, Any], only: set[str]) -> dict[str, Any]:
    """``old`` with the option sets of the games ``only`` replaced by those of ``new``."""
    if old.get("seconds") != new["seconds"]:
        raise SystemExit(f"--game: the file was written with --seconds {old.get('seconds')}")
    registry = _games()
    sets = []
    for name in registry.names():
        source = new if name in only else old
        sets += [s for s in source["sets"] if s["game"] == name]
    return {**old, "sets": sets}


def check(data: dict[str, Any], jobs: int, max_depth: int | None = None) -> list[str]:
    """Every difference between the engine and the data file (empty when they agree)."""
    flat = [p for s in data["sets"] for p in s["positions"]]
    work = [(p["position"], p["perft"][:max_depth]) for p in flat]
    results = _map(_check_job, work, jobs)
    return [e for errors in results for e in errors]


def reproduced(data: dict[str, Any]) -> tuple[int, int]:
    """How many mid-game positions the documented playouts give again, out of how many.

    They differ only if an engine lists its moves in another order than when the file was
    written; the counts stay valid either way, since the position strings are recorded.
    """
    same = total = 0
    for s in data["sets"]:
        game = _games().from_spec(s["spec"])
        for index, p in enumerate(s["positions"][1:], start=1):
            total += 1
            same += mid_game_position(game, index)[3] == p["position"]
    return same, total


def _depth_header(n: int) -> str:
    return " | ".join(f"perft({d})" for d in range(1, n + 1))


def render(data: dict[str, Any]) -> str:
    """docs/perft.md, from the data file alone."""
    depth = data["max_depth"]
    by_game: dict[str, list[dict[str, Any]]] = {}
    for s in data["sets"]:
        by_game.setdefault(s["game"], []).append(s)
    n_sets = len(data["sets"])
    n_positions = sum(len(s["positions"]) for s in data["sets"])
    out = [
        "# Perft tables",
        "",
        "Move-path counts (perft) for every game and option set, from the initial position",
        "and from five mid-game positions each, so that any other implementation of these",
        "rules can check its move generation against Tablier's. This file is generated by",
        "`tools/perft_table.py` from `tests/core/perft_golden.json`; the test suite checks",
        "the shallow depths of every position against the engine "
        "(`tests/core/test_perft_golden.py`),",
        "and `python tools/perft_table.py --check` recounts every figure.",
        "",
        f"{n_sets} option sets, {n_positions} positions.",
        "",
        "## What is counted",
        "",
        "`perft(position, d)` is the number of sequences of `d` legal *decisions* starting from",
        "the position: `perft(p, 0) = 1`, `perft(p, d) = sum(perft(p after m, d - 1) for each",
        "legal decision m)`, and a finished game (an outcome is set) has no decisions, so a path",
        "that ends the game early contributes nothing to deeper counts. A decision is one",
        "element of `state.legal_moves()`: in Voldétour, whose turns hold several decisions",
        "(take a piece, put it, move the Lord, end the turn; see I-1 in its rules), depth",
        "counts decisions, not turns; in Volo a move that divides the opponent includes the",
        "region kept (`e5-e8/c3`), so each choice of region is a decision of its own.",
        "",
        "Positions are written as Tablier position strings (the game spec, then the board; see",
        "each game's rules page: [Volo](rules/volo.md), [XoBo](rules/xobo.md),",
        "[Voldétour](rules/voldetour.md)). A position string carries everything the rules need",
        "from that point on (Voldétour's, with `repetition=True`, the keys of the positions",
        "seen, `rep=`); the counts below are those of the position read back from its string.",
        "",
        "## How the positions were chosen",
        "",
        "For each option set: the initial position (0), then five positions (1 to 5) from",
        "seeded random playouts. Playout `i` draws `random.Random(seed).choice(moves)` from",
        '`moves = state.legal_moves()` at each step, with the seed `"<spec>#<i>"` (Python\'s',
        "`random` seeded with that text), until the game ends after `n` decisions; position `i`",
        "is the one after `k = round(f * n)` of them, with `f` = "
        + ", ".join(f"{f:g}" for f in data["fractions"])
        + " for `i` = 1 to 5,",
        "so each game is sampled from its opening to its late middle game whatever its length.",
        "The strings are recorded, so the tables do not depend on the order in which an engine",
        "lists its moves.",
        "",
        f"Depths go from 1 to at most {depth}: a deeper count is given only while it took under",
        f"about {data['seconds']:g} s of processor time with Tablier's Python engine (estimated "
        "from the",
        "previous depth); a dash marks a count not given.",
        "",
        "## How to check another implementation",
        "",
        "1. Read each position string below (or from `tests/core/perft_golden.json`: one object",
        "   per option set with its `spec` and `positions`, each with `position` and `perft`, the",
        "   counts for depths 1, 2, ...).",
        "2. Count the paths with your move generator, depth by depth, and compare. Start with the",
        "   initial positions, then the mid-game ones, which reach rules a young game does not",
        "   (flights of lines and region choices in Volo, stacking and distribution in XoBo,",
        "   stairs and the Lord's climbs in Voldétour).",
        "3. Where a count differs, split it by first decision and compare the parts, then",
        "   descend into the first decision whose count differs:",
        "",
        "   ```sh",
        '   tablier perft "POSITION" 3 --divide     # one line per first decision, then the total',
        "   ```",
        "",
        "   or in Python `tablier.core.perft.divide(state, depth)`, a dict from each decision's",
        "   notation to its count.",
        "",
        "A quick check of one figure from the command line:",
        "",
        "```sh",
        f"tablier perft {data['sets'][0]['spec']} 2     "
        f"# prints {data['sets'][0]['positions'][0]['perft'][1]}",
        "```",
        "",
    ]
    titles = {"volo": "Volo", "xobo": "XoBo", "voldetour": "Voldétour"}
    for name, sets in by_game.items():
        out += [f"## {titles.get(name, name)}", ""]
        for s in sets:
            out += [f"### `{s['spec']}`", ""]
            out += [f"| # | position | {_depth_header(depth)} |", "|---|---|" + "---:|" * depth]
            for i, p in enumerate(s["positions"]):
                cells = [f"{n:,}".replace(",", " ") for n in p["perft"]]
                cells += ["—"] * (depth - len(cells))
                out.append(f"| {i} | {p['label']} | " + " | ".join(cells) + " |")
            out += ["", "```text"]
            for i, p in enumerate(s["positions"]):
                out.append(f"{i}  {p['position']}")
            out += ["```", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="choose positions, count, write")
    mode.add_argument("--check", action="store_true", help="recount every figure of the file")
    mode.add_argument("--doc", action="store_true", help="rewrite docs/perft.md from the file")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="--write: the longest expected time of one count (default 10)",
    )
    parser.add_argument(
        "--max-depth", type=int, default=None, help="--check: recount only up to this depth"
    )
    parser.add_argument(
        "--game",
        action="append",
        default=None,
        help="--write: rebuild only this game's option sets, keep the others (repeatable)",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.write:
        only = set(args.game) if args.game else None
        unknown = sorted((only or set()) - set(_games().names()))
        if unknown:
            parser.error(f"--game: no game named {', '.join(unknown)}")
        data = build(args.seconds, args.jobs, only)
        if only is not None:
            data = merge(json.loads(GOLDEN.read_text(encoding="utf-8")), data, only)
        GOLDEN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        DOC.write_text(render(data), encoding="utf-8")
        print(f"wrote {GOLDEN.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")
    else:
        data = json.loads(GOLDEN.read_text(encoding="utf-8"))
        if args.doc:
            DOC.write_text(render(data), encoding="utf-8")
            print(f"wrote {DOC.relative_to(ROOT)}")
        else:
            errors = check(data, args.jobs, args.max_depth)
            figures = sum(
                len(p["perft"][: args.max_depth]) for s in data["sets"] for p in s["positions"]
            )
            for line in errors:
                print(line)
            if args.max_depth is None:
                same, total = reproduced(data)
                print(f"{same} of {total} mid-game positions reproduce from their seeds")
            print(
                f"{figures - len(errors)} of {figures} counts agree "
                f"({time.perf_counter() - start:.0f} s)"
            )
            if errors:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
