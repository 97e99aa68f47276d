"""Matches between two players: parallel games, JSON lines, Elo with a confidence interval.

:func:`run_match` plays ``games`` games between players ``a`` and ``b``
(specs for :func:`~tablier.ai.players.make_player`), each with
:func:`tablier.ai.match.play_game` (colours alternate by game index, and each
random opening is played once with each colour).  Games run in worker
processes (``jobs``) on this machine, or as Ray tasks on a Ray cluster or a
local Ray instance (``backend="ray"``, see :mod:`tablier.ai.ray_backend`; same
games, same results); each finished game's record (see :mod:`tablier.ai.match`)
is appended to the JSON-lines file at once, and a later run with the same file
skips the game indices already there (resuming after an interruption).

:func:`summarise` turns the lines into wins/draws/losses of ``a``, its score,
and the Elo difference with a 95% confidence interval (Wilson score interval).

With ``sprt=(elo0, elo1[, alpha, beta])`` the match is a sequential test
(:mod:`tablier.ai.sprt`): after each finished game pair (games ``2k`` and
``2k + 1``, one opening with both colours) the test is run on the pairs so far,
and the match stops as soon as it accepts H0 or H1; ``games`` is then the most
games played.  :func:`sprt_result` gives the verdict of a list of results.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import TablierError
from ..core.game import Game
from . import ray_backend
from .match import GameTask, play_game, play_task
from .players import make_player
from .sprt import SprtResult, pair_counts, validate
from .sprt import sprt as sequential_test

__all__ = [
    "BACKENDS",
    "MatchSummary",
    "elo_difference",
    "play_game",
    "read_results",
    "run_match",
    "score_interval",
    "sprt_result",
    "summarise",
]


#: Where :func:`run_match` plays its games: worker processes here, or Ray tasks.
BACKENDS = ("local", "ray")


class _Decided(Exception):
    """Raised from the result callback when the sequential test has decided."""


def _sprt_params(params: Sequence[float]) -> tuple[float, float, float, float]:
    """``(elo0, elo1, alpha, beta)`` from 2 or 4 numbers (α = β = 0.05 by default)."""
    values = tuple(params)
    if len(values) not in (2, 4):
        raise TablierError("the SPRT takes elo0,elo1 or elo0,elo1,alpha,beta")
    elo0, elo1, alpha, beta = (*values, 0.05, 0.05) if len(values) == 2 else values
    try:
        validate(elo0, elo1, alpha, beta)
    except ValueError as exc:
        raise TablierError(f"SPRT: {exc}") from None
    return elo0, elo1, alpha, beta


def sprt_result(results: Iterable[dict[str, Any]], params: Sequence[float]) -> SprtResult:
    """The sequential test on the finished game pairs of ``results``.

    ``params`` is ``(elo0, elo1)`` or ``(elo0, elo1, alpha, beta)``.
    """
    return sequential_test(pair_counts(results), *_sprt_params(params))


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The game lines of a results file (a truncated last line is ignored)."""
    p = Path(path)
    try:
        if not p.exists():
            return []
        text = p.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8, a NUL in the name
        raise TablierError(f"cannot read the results file {p}: {exc}") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue  # an interrupted write: the game is played again
        except (ValueError, RecursionError):  # 5,000-digit numbers, nesting thousands deep
            raise TablierError(f"{p}:{n}: not an arena result line") from None
        if not _is_result(item):
            raise TablierError(f"{p}:{n}: not an arena result line")
        out.append(item)
    return out


def _is_result(item: Any) -> bool:
    """Whether a line read from a results file has the fields, of the types, that are used."""
    if not isinstance(item, dict):
        return False
    index, score, plies = item.get("index"), item.get("score_a"), item.get("plies")
    return (
        type(index) is int
        and index >= 0
        and type(plies) is int
        and type(score) in (int, float)
        and score in (0, 0.5, 1)
        and all(isinstance(item.get(k), str) for k in ("game", "first", "second", "result"))
        and isinstance(item.get("reason"), str | None)
    )


def _ends_inside_a_line(path: str | os.PathLike[str]) -> bool:
    """Whether the file is not empty and its last byte is not a newline."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"


def run_match(
    game: Game[Any, Any],
    a: str,
    b: str,
    games: int,
    *,
    jobs: int | None = None,
    seed: int = 0,
    opening_plies: int = 2,
    max_plies: int = 1000,
    out: str | os.PathLike[str] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    sprt: Sequence[float] | None = None,
) -> list[dict[str, Any]]:
    """Play the missing games of a match; return every result (old and new) by index.

    ``backend`` is ``"local"`` (``jobs`` worker processes, 1 when None) or
    ``"ray"`` (one Ray task per game; ``jobs`` caps the games in flight, and is
    the CPU count of the local Ray instance started when there is no
    ``address``; see :mod:`tablier.ai.ray_backend`).  ``address`` (Ray only):
    ``"auto"``, ``"HOST:PORT"`` or ``"ray://HOST:PORT"``.  Both backends call
    :func:`play_game` with the same arguments, so their results differ only in
    the timing fields, and both write each result as it arrives.

    ``sprt``: ``(elo0, elo1[, alpha, beta])`` stops the match once the
    sequential test on the finished pairs decides (see :func:`sprt_result`);
    games in flight then are dropped, not recorded.  A resumed match that
    has already decided plays nothing.
    """
    if backend not in BACKENDS:
        raise TablierError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise TablierError("an address is only used by the ray backend")
    if not isinstance(games, int) or games < 1:
        raise TablierError("the number of games must be at least 1")
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise TablierError("the number of jobs must be at least 1")
    params = _sprt_params(sprt) if sprt is not None else None
    for spec in (a, b):
        make_player(spec, game)  # validate both specs before starting
    if backend == "ray":
        ray_backend.import_ray()  # a missing extra is reported before anything else happens
    done: dict[int, dict[str, Any]] = {}
    if out is not None:
        for item in read_results(out):
            if item.get("game") != game.spec:
                raise TablierError(f"{out} holds results of {item.get('game')}, not {game.spec}")
            if {item.get("first"), item.get("second")} != {a, b}:
                raise TablierError(f"{out} holds results of another pairing")
            done[item["index"]] = item
    todo = [i for i in range(games) if i not in done]
    if params is not None and sprt_result(done.values(), params).decided:
        todo = []
    try:
        handle = open(out, "a", encoding="utf-8") if out is not None else None  # noqa: SIM115
        if handle is not None and out is not None and _ends_inside_a_line(out):
            handle.write("\n")  # close a half-written line: new results start on their own
    except OSError as exc:
        raise TablierError(f"cannot write the results to {out}: {exc.strerror}") from None

    def record(item: dict[str, Any]) -> None:
        done[item["index"]] = item
        if handle is not None:
            handle.write(json.dumps(item) + "\n")
            handle.flush()
        if on_result is not None:
            on_result(item)
        if (
            params is not None
            and (item["index"] ^ 1) in done
            and sprt_result(done.values(), params).decided
        ):
            raise _Decided

    try:
        tasks = [GameTask(a, b, i, seed, opening_plies, max_plies) for i in todo]
        if tasks and backend == "ray":
            ray_backend.play_games(game, tasks, record, jobs=jobs, address=address)
        elif tasks:
            _play_local(game, tasks, record, jobs or 1)
    except _Decided:
        pass  # the sequential test has decided: the games not played are not needed
    finally:
        if handle is not None:
            handle.close()
    return [done[i] for i in sorted(done) if i < games]


def _play_local(
    game: Game[Any, Any],
    tasks: list[GameTask],
    record: Callable[[dict[str, Any]], None],
    jobs: int,
) -> None:
    """The local backend: the games in this process (``jobs == 1``) or in a process pool."""
    if jobs == 1 or len(tasks) <= 1:
        for t in tasks:
            record(play_task(game, t))
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(play_task, game, t) for t in tasks]
        for f in as_completed(futures):
            record(f.result())
    finally:
        # On an error or Ctrl-C, games not started yet are dropped instead of played
        # for nothing; the results already recorded stay in the file.
        pool.shutdown(wait=True, cancel_futures=True)


def elo_difference(score: float) -> float:
    """The Elo difference that a score fraction in (0, 1) corresponds to (±inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a score fraction over ``games`` games (95% for z=1.96).

    The bounds are the two scores ``s`` with ``|score - s| = z·sqrt(s(1 - s)/games)``.
    Draws count ½ in ``score``; since a draw varies less than a win or a loss,
    the interval is then slightly conservative.
    """
    n = games
    z2 = z * z
    centre = (score + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(score * (1 - score) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class MatchSummary:
    """Wins, draws and losses of player ``a``, its score and Elo difference with a 95% CI."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_low: float
    elo_high: float

    def describe(self) -> str:
        """A few lines for the terminal and the docs."""

        def fmt(x: float) -> str:
            if math.isinf(x):
                return "+inf" if x > 0 else "-inf"
            return "0" if abs(x) < 0.5 else f"{x:+.0f}"

        return (
            f"{self.a} vs {self.b}: {self.games} games, "
            f"+{self.wins} ={self.draws} -{self.losses}, score {100 * self.score:.1f}%, "
            f"Elo {fmt(self.elo)} (95% CI {fmt(self.elo_low)} to {fmt(self.elo_high)})"
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (infinite Elo values as strings)."""
        out: dict[str, Any] = dict(self.__dict__)
        for k in ("elo", "elo_low", "elo_high"):
            if math.isinf(out[k]):
                out[k] = "+inf" if out[k] > 0 else "-inf"
        return out


def summarise(results: Iterable[dict[str, Any]], a: str = "A", b: str = "B") -> MatchSummary:
    """Summarise results (``score_a`` of each game) for player ``a``.

    The score is the mean of the per-game scores (1, ½, 0).  Its 95% interval
    is the Wilson score interval (see :func:`score_interval`), mapped to Elo;
    unlike the plain normal interval it stays finite on one side after a
    clean sweep (20 wins out of 20 still only proves about +285 Elo).
    """
    scores = [float(r["score_a"]) for r in results]
    n = len(scores)
    if n == 0:
        raise TablierError("no games to summarise")
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    losses = n - wins - draws
    mean = sum(scores) / n
    low, high = score_interval(mean, n)
    return MatchSummary(
        a,
        b,
        n,
        wins,
        draws,
        losses,
        mean,
        elo_difference(mean),
        elo_difference(low),
        elo_difference(high),
    )
