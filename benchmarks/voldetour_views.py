"""Cost of the Voldetour web views: state_view and every move_view of a decision point.

The server builds ``state_view`` and a ``move_view`` per legal move at each decision
(``GET /api/games/<id>/legal``).  A take's view lists every placement the piece would have
once taken, so start-of-turn decision points are the costly ones.  This measures, on
random mid-game positions (the generator of the Voldetour tests, fixed seed), the time to
build all the views of one decision point and the size of their JSON.

    .venv/bin/python benchmarks/voldetour_views.py [--positions 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from games.voldetour.helpers import built_position
from tablier.games.voldetour import Voldetour


def measure(game: Voldetour, positions: int, seed: int) -> dict[str, list]:
    """Per kind of decision point: (milliseconds, number of moves, JSON bytes) rows."""
    import random

    rng = random.Random(seed)
    rows: dict[str, list] = {"start of turn": [], "piece in hand": []}
    while sum(len(v) for v in rows.values()) < positions:
        state = built_position(game, rng)
        if state.outcome is not None:
            continue
        state = game.parse_position(state.to_text())  # fresh: no cached moves
        t0 = time.perf_counter()
        views = [game.move_view(state, m) for m in state.legal_moves()]
        views.append(game.state_view(state))
        ms = (time.perf_counter() - t0) * 1000
        kind = "piece in hand" if state.hand is not None else "start of turn"
        rows[kind].append((ms, len(views) - 1, len(json.dumps(views))))
    return rows


def main() -> None:
    """Print the median and worst figures per piece set and kind of decision point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for pieces in ("default", "mini"):
        rows = measure(Voldetour(pieces=pieces), args.positions, args.seed)
        for kind, data in rows.items():
            if not data:
                continue
            ms = [r[0] for r in data]
            worst = max(data)
            print(
                f"{pieces:8} {kind:14} n={len(data):4}  median {statistics.median(ms):6.2f} ms"
                f"  max {worst[0]:6.2f} ms ({worst[1]} moves, {worst[2] / 1024:.0f} KiB)"
                f"  largest JSON {max(r[2] for r in data) / 1024:.0f} KiB"
            )


if __name__ == "__main__":
    main()
