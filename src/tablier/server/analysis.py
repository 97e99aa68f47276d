"""Analysis where players are: the analysis board's searches, the computer review, hints.

Three searches run in the AI worker processes (:meth:`.ai.AIPool.run`), never on the event
loop, through the core protocol only (``State``, ``legal_moves``, the game's notation), so
every game has them:

- **Analysis** of one position (:func:`analyse_task`): an MCTS search of at most
  :data:`ANALYSIS_SECONDS_MAX` seconds (and :data:`ANALYSIS_SIMULATIONS_MAX` simulations)
  that answers the evaluation (the first player's win probability), the :data:`TOP_MOVES`
  best moves with their visits and win estimates, and the principal line (the most visited
  reply after each move, at most :data:`LINE_LENGTH` decisions).
- **Review** of a whole game (:func:`review_task`): every position searched with a small
  fixed budget (:data:`REVIEW_SIMULATIONS` simulations, at most :data:`REVIEW_SECONDS`
  seconds), the evaluation over the game, and the decisions that lowered their mover's win
  probability most marked as lichess does (:func:`judge`): a drop of at least
  :data:`INACCURACY` is an inaccuracy (``?!``), :data:`MISTAKE` a mistake (``?``),
  :data:`BLUNDER` a blunder (``??``), each with the better move the search found.
- **Hints** (:func:`hint_task`): the move the search prefers, for a player against the
  computer (``routers/analysis.py`` decides who may ask).

:class:`AnalysisJobs` keeps the searches under way in this process: each is started by a
``POST`` whose answer is one streamed response (NDJSON: progress lines, then the result or
an error, :meth:`AnalysisJobs.follow`), so nothing about it is asked again, and any server
process of a deployment can serve it.  The job is cancelled (its search stopped in the
worker) when its stream ends early: the client went away or aborted.  A client (address)
has at most ``settings.ai_queue_limit`` jobs queued or running (``429 analysis_busy``), a
process at most :data:`MAX_JOBS`.  Reviews are cached in memory per process
(:data:`REVIEW_CACHE` of them, least recently used dropped), keyed by the game's spec and
moves: a game and its record share one entry; another process, or a restart, computes them
again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ANALYSIS_SECONDS_MAX",
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "AnalysisJobs",
    "analyse_task",
    "hint_task",
    "judge",
    "review_task",
]

#: Longest analysis of one position (seconds), and its default.
ANALYSIS_SECONDS_MAX = 10.0
ANALYSIS_SECONDS = 3.0
#: Most simulations of one analysis.
ANALYSIS_SIMULATIONS_MAX = 200_000
#: Moves listed by an analysis, decisions in its principal line.
TOP_MOVES = 8
LINE_LENGTH = 12
#: The review's fixed budget per position.
REVIEW_SIMULATIONS = 3000
REVIEW_SECONDS = 0.3
#: Simulations the move played gets at least, in the review's tree of its position.
REVIEW_PLAYED = 100
#: Decisions reviewed by one worker job: a long review takes its turns in the fair queue
#: between them, so the AI's moves in the games being played do not wait for it.
REVIEW_CHUNK = 8
#: A hint's search.
HINT_SECONDS = 1.0
HINT_SIMULATIONS = 3000
#: Drops of the mover's win probability (0..1) that mark a decision (as lichess does).
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: Jobs running at once in one process, reviews cached.
MAX_JOBS = 500
REVIEW_CACHE = 256
#: Most seconds between two lines of a stream (a progress line repeated while queued).
HEARTBEAT = 10.0
#: Seconds after which a job that no stream follows is cancelled.
UNFOLLOWED = 5.0

Report = Callable[[float, int, "str | None"], None]


# -- the worker side ---------------------------------------------------------------------


def _replay(spec: str, moves: list[str]) -> list[Any]:
    """The states of ``spec``'s game from its start through ``moves`` (notations)."""
    from tablier import games

    game = games.from_spec(spec)
    states = [game.initial_state()]
    for text in moves:
        state = states[-1]
        states.append(state.apply(game.parse_move(state, text)))
    return states


def _first_player_value(state: Any, to_move_score: float) -> float:
    """The first player's win probability from the side to move's score."""
    return to_move_score if state.to_move == 0 else 1.0 - to_move_score


def _outcome_value(state: Any) -> float:
    return float(state.outcome.score(0))


def _search(
    state: Any,
    simulations: int,
    seconds: float,
    seed: int,
    report: Report | None,
    stop: Callable[[], bool],
    done: int = 0,
    fraction: Callable[[float], float] = lambda f: f,
) -> tuple[Any, int]:
    """A fresh MCTS tree of ``state`` searched within the budget; (tree, simulations)."""
    from tablier.ai.mcts import MCTS

    game = state.game
    tree = MCTS(state, seed=seed)

    def progress(p: Any) -> None:
        if report is not None:
            best = game.move_text(state, p.best.move) if p.best is not None else None
            report(fraction(float(p.fraction)), done + int(p.iterations), best)

    tree.search(simulations, seconds, progress, progress_every=0.1, stop=stop)
    return tree, int(tree.root.n)


def _principal_line(state: Any, tree: Any, first: Any) -> list[str]:
    """The notations of ``first`` (a root move) and the most visited replies after it."""
    game = state.game
    line = [game.move_text(state, first)]
    node = next((c for c in tree.root.children or () if c.move == first), None)
    current = state.apply_unchecked(first)
    while node is not None and node.children and len(line) < LINE_LENGTH:
        visited = [c for c in node.children if c.n > 0]
        if not visited or current.outcome is not None:
            break
        node = max(visited, key=lambda c: c.n)
        line.append(game.move_text(current, node.move))
        current = current.apply_unchecked(node.move)
    return line


def _evaluate(state: Any, tree: Any) -> dict[str, Any]:
    """What an analysis answers of a searched ``tree``."""
    game = state.game
    stats = tree.analysis(TOP_MOVES)
    moves = [
        {
            "move": game.move_text(state, s.move),
            "visits": int(s.visits),
            "win": round(float(s.score), 4),
            "proven": s.proven,
        }
        for s in stats
    ]
    score = float(stats[0].score) if stats else 0.5
    return {
        "to_move": state.to_move,
        "eval": round(_first_player_value(state, score), 4),
        "moves": moves,
        "line": _principal_line(state, tree, stats[0].move) if stats else [],
        "simulations": int(tree.root.n),
    }


def _over(state: Any) -> dict[str, Any]:
    return {
        "to_move": state.to_move,
        "eval": _outcome_value(state),
        "moves": [],
        "line": [],
        "simulations": 0,
        "over": True,
    }


def analyse_task(payload: dict[str, Any], report: Report, stop: Callable[[], bool]) -> dict:
    """Analyse the position after ``payload["moves"]`` (run in a worker)."""
    state = _replay(payload["spec"], payload["moves"])[-1]
    if state.outcome is not None:
        return _over(state)
    tree, _ = _search(
        state, payload["simulations"], payload["seconds"], payload["seed"], report, stop
    )
    return _evaluate(state, tree)


def hint_task(payload: dict[str, Any], report: Report, stop: Callable[[], bool]) -> dict:
    """The move the search prefers in ``payload["position"]`` (run in a worker)."""
    from tablier import games

    state = games.parse_position(payload["position"])
    tree, _ = _search(state, HINT_SIMULATIONS, HINT_SECONDS, payload["seed"], report, stop)
    return _evaluate(state, tree)


def judge(drop: float) -> str | None:
    """The mark of a decision that lowered its mover's win probability by ``drop``.

    >>> [judge(d) for d in (0.05, 0.1, 0.25, 0.5)]
    [None, '?!', '?', '??']
    """
    if drop >= BLUNDER - 1e-9:
        return "??"
    if drop >= MISTAKE - 1e-9:
        return "?"
    if drop >= INACCURACY - 1e-9:
        return "?!"
    return None


def _played_value(
    tree: Any, states: list[Any], i: int, move: Any, stop: Callable[[], bool], target: int
) -> float:
    """The win probability of the move played at position ``i``, for its mover.

    Its estimate in the tree of position ``i`` (the same search as the best move's, so the
    two compare without the side-to-move bias of two separate searches), after
    :data:`REVIEW_PLAYED` more simulations restricted to it when it had fewer visits; a
    fresh search of the next position when the tree cannot give it (its root is proven).
    """
    state = states[i]

    def stat() -> Any:
        return next((s for s in tree.analysis() if s.move == move), None)

    found = stat()
    if found is not None and found.proven is None and found.visits < target:
        tree.restrict_root([move])
        with contextlib.suppress(Exception):  # a proven root searches no more
            tree.search(target - found.visits, 2 * REVIEW_SECONDS, stop=stop)
        tree.restrict_root(None)
        found = stat()
    if found is not None and (found.proven is not None or found.visits >= REVIEW_PLAYED // 2):
        return float(found.score)
    after = states[i + 1]
    if after.outcome is not None:
        return float(after.outcome.score(state.to_move))
    fresh, _ = _search(after, REVIEW_SIMULATIONS, REVIEW_SECONDS, i, None, stop)
    stats = fresh.analysis(1)
    score = float(stats[0].score) if stats else 0.5
    return score if after.to_move == state.to_move else 1.0 - score


def _share(done: int, total: int, fraction: float) -> float:
    """The review's progress: ``done`` positions of ``total``, and ``fraction`` of the next."""
    return (done + fraction) / total


def review_task(payload: dict[str, Any], report: Report, stop: Callable[[], bool]) -> dict:
    """Review decisions ``first`` to ``last`` (all by default) of a game (in a worker).

    At each position the search gives the mover's win probability with its best move and
    with the move played (:func:`_played_value`); the drop between the two marks the
    decision (:func:`judge`).  ``evals``: the first player's win probability at positions
    ``first + 1`` to ``last`` (from the move that led there; the end of a finished game
    from its outcome), preceded by the start's (from its best move) when ``first`` is 0.
    ``marks``: per decision marked, its ply, move, mover, mark, drop and the better move
    (the search's choice).  :func:`merge_reviews` puts the parts of a game together.
    """
    states = _replay(payload["spec"], payload["moves"])
    moves = payload["moves"]
    first = payload.get("first", 0)
    last = min(payload.get("last", len(moves)), len(moves))
    game = states[0].game
    evals: list[float] = []
    best: list[str | None] = []
    marks: list[dict[str, Any]] = []
    done = 0
    if first == 0 and not moves and states[0].outcome is None:  # a game of no decision
        tree, done = _search(states[0], REVIEW_SIMULATIONS, REVIEW_SECONDS, 0, None, stop)
        stats = tree.analysis(1)
        evals.append(round(_first_player_value(states[0], stats[0].score), 4) if stats else 0.5)
    for i in range(first, last):
        state = states[i]
        if stop():
            break
        tree, n = _search(
            state,
            REVIEW_SIMULATIONS,
            REVIEW_SECONDS,
            payload["seed"] + i,
            report,
            stop,
            done,
            functools.partial(_share, i - first, max(1, last - first)),
        )
        done += n
        stats = tree.analysis(1)
        top = float(stats[0].score) if stats else 0.5
        if i == 0:
            evals.append(round(_first_player_value(state, top), 4))
        move = game.parse_move(state, moves[i])
        # the move played as deep as the best one (values of unequal depths do not compare)
        target = max(REVIEW_PLAYED, stats[0].visits if stats else 0)
        played = _played_value(tree, states, i, move, stop, target)
        evals.append(round(_first_player_value(state, played), 4))
        better = game.move_text(state, stats[0].move) if stats else None
        best.append(better)
        mark = judge(top - played)
        if mark is not None and better is not None and better != moves[i]:
            marks.append(
                {
                    "ply": i,
                    "move": moves[i],
                    "mover": state.to_move,
                    "mark": mark,
                    "drop": round(top - played, 4),
                    "better": better,
                }
            )
        report((i + 1 - first) / max(1, last - first), done, None)
    end = states[last]
    if last == len(moves) and end.outcome is not None and len(evals) and not stop():
        evals[-1] = _outcome_value(end)  # the end: its exact value
    return {"evals": evals, "best": best, "marks": marks, "simulations": done}


def merge_reviews(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One review from the reviews of consecutive parts of a game (:func:`review_task`)."""
    merged: dict[str, Any] = {"evals": [], "best": [], "marks": [], "simulations": 0}
    for part in parts:
        for key in ("evals", "best", "marks"):
            merged[key].extend(part[key])
        merged["simulations"] += part["simulations"]
    return merged


# -- the server side -----------------------------------------------------------------------


@dataclass(eq=False)
class Job:
    """One analysis or review under way in this process, and the streams that follow it."""

    id: str
    kind: str  # "analysis" or "review"
    client: str | None
    status: str = "queued"  # "running", "done", "failed", "cancelled"
    fraction: float = 0.0
    simulations: int = 0
    best: str | None = None
    result: Any = None
    error: str | None = None
    key: str | None = None  # a review's cache key
    task: asyncio.Task | None = field(default=None, repr=False)
    #: One event per stream following the job, set at each change.
    listeners: set[asyncio.Event] = field(default_factory=set, repr=False)
    followed: bool = False

    @property
    def active(self) -> bool:
        return self.status in ("queued", "running")

    def changed(self) -> None:
        for event in self.listeners:
            event.set()

    def progress(self) -> dict[str, Any]:
        """A progress line of the job's stream (docs/web.md, "Streams")."""
        return {
            "type": "progress",
            "kind": self.kind,
            "status": self.status,
            "fraction": round(min(max(self.fraction, 0.0), 1.0), 3),
            "simulations": self.simulations,
            "best": self.best,
        }

    def last(self) -> dict[str, Any]:
        """The last line of the job's stream: its answer, or an error with its code."""
        if self.status == "done":
            return answer(self.kind, self.result)
        message = self.error or "the search was stopped"
        return {"type": "error", "code": "analysis_failed", "message": message}


def answer(kind: str, result: Any) -> dict[str, Any]:
    """The result line of a stream."""
    return {"type": "result", "kind": kind, "result": result}


def line(message: dict[str, Any]) -> bytes:
    """One NDJSON line."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def review_key(spec: str, moves: list[str]) -> str:
    """The cache key of a game's review: its spec and moves."""
    digest = hashlib.sha256(spec.encode())
    for move in moves:
        digest.update(b"\0" + move.encode())
    return digest.hexdigest()


class AnalysisJobs:
    """The searches under way in this process and the review cache (see the module docstring)."""

    def __init__(self) -> None:
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.reviews: OrderedDict[str, dict] = OrderedDict()

    def busy(self, client: str | None) -> int:
        """Jobs of ``client`` queued or running."""
        return sum(1 for job in self.jobs.values() if job.client == client and job.active)

    def full(self) -> bool:
        """Whether this process runs :data:`MAX_JOBS` jobs already."""
        return len(self.jobs) >= MAX_JOBS

    def running_review(self, key: str) -> Job | None:
        """The review of ``key`` under way, if any (a second stream follows it)."""
        return next((j for j in self.jobs.values() if j.key == key and j.active), None)

    def cached_review(self, key: str) -> dict | None:
        review = self.reviews.get(key)
        if review is not None:
            self.reviews.move_to_end(key)
        return review

    def start(
        self,
        kind: str,
        client: str | None,
        work: Callable[[Report], Any],
        cache: str | None = None,
    ) -> Job:
        """Start ``work(report)`` (a coroutine function running a pool task) as a job.

        The job is cancelled when its last stream ends (:meth:`follow`), and when no stream
        has followed it :data:`UNFOLLOWED` seconds after it started (a client gone before
        the answer's first line).
        """
        job = Job(secrets.token_urlsafe(12), kind, client, key=cache)
        self.jobs[job.id] = job

        def report(fraction: float, simulations: int, best: str | None) -> None:
            job.status = "running" if job.status == "queued" else job.status
            job.fraction, job.simulations = fraction, simulations
            if best is not None:
                job.best = best
            job.changed()

        async def run() -> None:
            try:
                job.result = await work(report)
                job.status, job.fraction = "done", 1.0
                if cache is not None:
                    self.reviews[cache] = job.result
                    while len(self.reviews) > REVIEW_CACHE:
                        self.reviews.popitem(last=False)
            except asyncio.CancelledError:
                job.status = "cancelled"
                raise
            except Exception as exc:  # a failed search is the stream's last line, not a 500
                job.status, job.error = "failed", str(exc)[:200]
            finally:
                self.jobs.pop(job.id, None)
                job.changed()

        job.task = asyncio.create_task(run())
        loop = asyncio.get_running_loop()
        loop.call_later(UNFOLLOWED, lambda: None if job.followed else self.cancel(job))
        return job

    async def follow(self, job: Job) -> AsyncIterator[bytes]:
        """The job's stream: a progress line at once and at each report (or every
        :data:`HEARTBEAT` seconds), then its last line (:meth:`Job.last`).  A stream that
        ends early (the client went away) cancels the job when no other stream follows it:
        its search stops in the worker."""
        changed = asyncio.Event()
        job.listeners.add(changed)
        job.followed = True
        try:
            yield line(job.progress())
            while job.active:
                if not changed.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), HEARTBEAT)
                changed.clear()
                if job.active:
                    yield line(job.progress())
            yield line(job.last())
        finally:
            job.listeners.discard(changed)
            if not job.listeners:
                self.cancel(job)

    def cancel(self, job: Job) -> None:
        """Stop ``job`` (its search ends in the worker) and free its client's place."""
        if job.task is not None and job.active:
            job.task.cancel()
        if job.active:
            job.status = "cancelled"
            self.jobs.pop(job.id, None)
            job.changed()

    async def close(self) -> None:
        for job in list(self.jobs.values()):
            if job.task is not None and not job.task.done():
                job.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await job.task


async def once(message: dict[str, Any]) -> AsyncIterator[bytes]:
    """A stream of one line (an answer known at once: a cached review, a finished game)."""
    yield line(message)
