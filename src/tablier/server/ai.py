"""The AI in worker processes.

:class:`AIPool` runs :func:`tablier.ai.players.make_player` searches in ``workers`` processes
(``spawn`` start method), so a search never holds the server's event loop or its GIL.  The
server talks to each worker over a pipe of its own; no multiprocessing queue, lock or manager
is used.

- **Jobs.**  A job is a game id, a position string and a player spec.  Jobs wait in a fair
  queue: round-robin between clients, then between the games of a client, first come first
  served within a game.  A job goes to an idle worker: the one that handled its game last
  when it is idle (*game affinity*), else the one that keeps the fewest games.
- **Kept trees.**  A worker keeps the player of each of its last ``kept_games`` games, so the
  search of the AI's next move starts from the tree of its previous one (as in the arena); a
  game whose job lands on another worker (its own was busy) starts a fresh tree there and
  its old one is dropped.  :meth:`AIPool.forget` drops a finished game's tree.  A job
  carries its game's decisions so far: a player made afresh that remembers positions (a
  level that scores repetitions as draws) replays them first, so a restarted server or a
  moved game searches as the kept player would.
- **Cancellation.**  Cancelling the task that awaits :meth:`AIPool.think` removes a waiting
  job from the queue, or tells the worker to stop the running search: the player's ``stop``
  hook ends it at the next simulation or solver node and the worker takes its next job.  A
  worker that does not answer within ``cancel_grace`` seconds is killed and replaced.
- **Tasks.**  :meth:`AIPool.run` sends another search than a move's to a worker: a
  function named ``module:function`` (the server's own, e.g. :mod:`.analysis`) called there
  with a payload, a progress callback and the stop hook; its answer must pickle.  Such a job
  takes its place in the same fair queue and is cancelled the same way.
- **Progress.**  The search's progress callback sends ``(fraction, simulations, best)`` at
  most every ``interval`` seconds; a thread per worker reads the pipe and hands each report
  to the event loop.
- **No orphans.**  A worker ends as soon as the server is gone, however it ended (``kill -9``
  included): its pipe to the server reaches end-of-file, a thread also checks every second
  that its parent is still the server, and on Linux the kernel sends it ``SIGKILL`` when
  the server dies (``PR_SET_PDEATHSIG``).  multiprocessing's resource tracker then loses its
  last writer and ends too.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AIPool", "AIWorkerLost", "ClientAddress", "Thought", "current_client"]

log = logging.getLogger("tablier.server.ai")

#: The address of the client whose request is being handled (set by :class:`ClientAddress`);
#: the AI jobs a request starts are counted against it.
current_client: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tablier_client", default=None
)


class ClientAddress:
    """ASGI middleware: sets :data:`current_client` to the peer's address for each request.

    Behind a reverse proxy the address is the one uvicorn takes from the forwarded headers.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            current_client.set(str(client[0]) if client else None)
        await self.app(scope, receive, send)


class AIWorkerLost(RuntimeError):
    """The worker running a search ended before answering (it crashed or was killed)."""


@dataclass(frozen=True)
class Thought:
    """A search's answer: the move's notation and what the search did.

    ``simulations``: MCTS simulations of this search (0 for players without a search).
    ``reused``: simulations already at the root when it began (a tree kept from the game's
    earlier moves; 0 for a fresh tree).  ``worker``: the index of the worker.
    ``seconds``: time spent in the worker.
    """

    move: str
    simulations: int = 0
    reused: int = 0
    worker: int = 0
    seconds: float = 0.0


# -- the worker side ---------------------------------------------------------------------


class _Control:
    """What a worker's reader thread shares with its searching thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current: int | None = None
        self.stop = threading.Event()
        self.early: set[int] = set()  # cancelled before they started


def _watch_parent(parent: int, deathsig: bool) -> None:
    """End this process as soon as the server ``parent`` is gone (see the module docstring)."""
    if deathsig and sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before we watched
        os._exit(0)

    def poll() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=poll, name="tablier-ai-parent", daemon=True).start()


def _worker_main(conn: Any, index: int, parent: int, deathsig: bool, kept: int) -> None:
    """A worker: run the jobs sent over ``conn`` one at a time until told to stop."""
    import queue

    # Ctrl-C in a terminal reaches the whole process group: the server stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(parent, deathsig)
    control = _Control()
    inbox: queue.SimpleQueue = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                os._exit(0)  # the server is gone
            kind = message[0]
            if kind == "cancel":
                with control.lock:
                    if control.current == message[1]:
                        control.stop.set()
                    else:
                        control.early.add(message[1])
            elif kind == "stop":
                os._exit(0)  # nothing to save: skip tearing down the search trees
            else:
                inbox.put(message)

    threading.Thread(target=read, name="tablier-ai-inbox", daemon=True).start()

    import tablier.ai.players  # noqa: F401  (import once, before the first job)

    players: OrderedDict[str, tuple[str, Any]] = OrderedDict()
    while True:
        message = inbox.get()
        if message[0] == "forget":
            players.pop(message[1], None)
            continue
        _, wire, game_id, position, spec, seed, interval, seconds, task, history = message
        with control.lock:
            if wire in control.early:
                control.early = {w for w in control.early if w > wire}
                answer: tuple = ("cancelled", wire)
                conn.send(answer)
                continue
            control.early = {w for w in control.early if w > wire}
            control.current = wire
            control.stop = threading.Event()
            stop = control.stop
        start = time.perf_counter()
        try:
            if task is not None:
                value = _task(conn, wire, task, position, interval, stop)
                answer = ("value", wire, value)
            else:
                move, simulations, reused = _search(
                    conn,
                    wire,
                    game_id,
                    position,
                    spec,
                    seed,
                    interval,
                    stop,
                    players,
                    kept,
                    seconds,
                    history,
                )
                answer = (
                    "done",
                    wire,
                    move,
                    simulations,
                    reused,
                    index,
                    time.perf_counter() - start,
                )
        except Exception as exc:  # a bad job must not end the worker
            answer = ("error", wire, f"{type(exc).__name__}: {exc}")
        with control.lock:
            control.current = None
            if stop.is_set():
                answer = ("cancelled", wire)
        conn.send(answer)


def _task(
    conn: Any, wire: int, task: str, payload: Any, interval: float, stop: threading.Event
) -> Any:
    """Run ``task`` (``module:function``) on ``payload`` (see :meth:`AIPool.run`)."""
    import importlib

    module, _, name = task.partition(":")
    function = getattr(importlib.import_module(module), name)
    last = 0.0

    def progress(fraction: float, simulations: int, best: str | None) -> None:
        nonlocal last
        moment = time.monotonic()
        if moment - last < interval:
            return
        last = moment
        conn.send(("progress", wire, float(fraction), int(simulations), best))

    return function(payload, progress, stop.is_set)


def _search(
    conn: Any,
    wire: int,
    game_id: str | None,
    position: str,
    spec: str,
    seed: int,
    interval: float,
    stop: threading.Event,
    players: OrderedDict[str, tuple[str, Any]],
    kept: int,
    seconds: float | None = None,
    history: tuple[str, ...] | None = None,
) -> tuple[str, int, int]:
    """Choose a move of ``position``; returns (notation, simulations, reused simulations).

    ``seconds``: the most time this search may take (a game's clock), when it is less than
    the player's own budget.  ``history``: the notations of the decisions that led to
    ``position`` from the game's start; a player made here (none kept for the game: a
    restarted server, a takeback, a job on another worker) that remembers positions is
    given them (:meth:`~tablier.ai.players.Player.remember`).
    """
    import dataclasses

    from tablier import games
    from tablier.ai.players import MCTSPlayer, make_player

    state = games.parse_position(position)
    game = state.game
    entry = players.get(game_id) if game_id is not None else None
    if game_id is not None and entry is not None and entry[0] == spec:
        player = entry[1]
        players.move_to_end(game_id)
    else:
        player = make_player(spec, game, seed=seed)
        if history is not None and player.remembers:
            _recall(player, state, history)
        if game_id is not None and kept > 0:
            players[game_id] = (spec, player)
            while len(players) > kept:
                players.popitem(last=False)
    player.stop = stop.is_set
    if isinstance(player, MCTSPlayer):
        # the spec's own budget (a kept player may carry an earlier move's cap), within the
        # share of the game's clock
        base = make_player(spec, game)
        level = base.level if isinstance(base, MCTSPlayer) else player.level
        if seconds is not None and (level.seconds is None or seconds < level.seconds):
            level = dataclasses.replace(level, seconds=seconds)
        player.level = level
    last = 0.0
    simulations = 0

    def progress(report: Any) -> None:
        nonlocal last, simulations
        simulations = int(report.iterations)
        moment = time.monotonic()
        if moment - last < interval:
            return
        last = moment
        best = report.best.move if report.best is not None else None
        text = game.move_text(state, best) if best is not None else None
        conn.send(("progress", wire, float(report.fraction), simulations, text))

    move = player.choose(state, progress)
    return game.move_text(state, move), simulations, int(getattr(player, "reused_visits", 0))


def _recall(player: Any, state: Any, history: tuple[str, ...]) -> None:
    """Have ``player`` remember the positions of ``history`` (notations from the start of
    ``state``'s game); nothing when they do not lead to ``state``."""
    from tablier.core.errors import TablierError

    game = state.game
    seen = [game.initial_state()]
    try:
        for notation in history:
            seen.append(seen[-1].apply(game.parse_move(seen[-1], notation)))
    except TablierError as exc:
        log.warning("an AI job's history does not replay: %s", exc)
        return
    if seen[-1].to_text() != state.to_text():
        log.warning("an AI job's history does not lead to its position")
        return
    for earlier in seen:
        player.remember(earlier)


# -- the server side ---------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    wire: int
    name: str
    game: str | None
    client: str | None
    position: Any  # a position string, or a task's payload
    spec: str
    seed: int
    future: asyncio.Future
    listener: Callable[[float, int, str | None], None] | None = None
    seconds: float | None = None
    task: str | None = None
    history: tuple[str, ...] | None = None
    worker: _Worker | None = None
    cancelled: bool = False


@dataclass(eq=False)
class _Worker:
    index: int
    process: Any
    conn: Any
    lock: threading.Lock = field(default_factory=threading.Lock)
    job: _Job | None = None
    alive: bool = True
    started: float = field(default_factory=time.monotonic)

    def send(self, message: tuple) -> bool:
        """Send a message; False when the worker cannot be reached any more."""
        try:
            with self.lock:
                self.conn.send(message)
            return True
        except (OSError, ValueError):
            self.alive = False
            return False


class AIPool:
    """Worker processes that choose the AI's moves (see the module docstring)."""

    def __init__(
        self,
        workers: int,
        interval: float = 0.1,
        *,
        kept_games: int = 8,
        cancel_grace: float = 5.0,
    ) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self._ctx = multiprocessing.get_context("spawn")
        self.interval = interval
        self.kept_games = kept_games
        self.cancel_grace = cancel_grace
        self._ids = itertools.count(1)
        self._jobs: dict[int, _Job] = {}
        # client -> game -> jobs waiting, in round-robin order at both levels
        self._waiting: OrderedDict[str | None, OrderedDict[str | None, deque[_Job]]] = OrderedDict()
        self._home: OrderedDict[str, int] = OrderedDict()  # game -> worker that has its tree
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._early_deaths = 0
        self._readers: list[threading.Thread] = []
        self._workers = [self._spawn(i) for i in range(workers)]

    # -- workers ------------------------------------------------------------------------

    def _spawn(self, index: int) -> _Worker:
        ours, theirs = self._ctx.Pipe(duplex=True)
        # PR_SET_PDEATHSIG fires when the thread that started the child ends: only ask for it
        # from the main thread, which lives as long as the server.
        deathsig = threading.current_thread() is threading.main_thread()
        process = self._ctx.Process(
            target=_worker_main,
            args=(theirs, index, os.getpid(), deathsig, self.kept_games),
            name=f"tablier-ai-{index}",
            daemon=True,
        )
        process.start()
        theirs.close()  # only the worker holds its end: its reads end when we do
        worker = _Worker(index, process, ours)
        reader = threading.Thread(
            target=self._read, args=(worker,), name=f"tablier-ai-{index}-reader", daemon=True
        )
        reader.start()
        self._readers.append(reader)
        return worker

    def _read(self, worker: _Worker) -> None:
        """A thread per worker: hand its messages to the event loop."""
        while True:
            try:
                message = worker.conn.recv()
            except (EOFError, OSError, ValueError):
                worker.alive = False
                self._post(self._lost, worker)
                return
            if message[0] == "progress":
                _, wire, fraction, simulations, best = message
                job = self._jobs.get(wire)
                if job is not None and job.listener is not None and not job.cancelled:
                    self._post(job.listener, fraction, simulations, best)
            else:
                self._post(self._finished, worker, message)

    def _post(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
            loop.call_soon_threadsafe(fn, *args)

    def _finished(self, worker: _Worker, message: tuple) -> None:
        job = worker.job
        if job is None or job.wire != message[1]:
            return
        worker.job = None
        self._jobs.pop(job.wire, None)
        future = job.future
        if not future.done():
            if message[0] == "done":
                _, _, move, simulations, reused, index, seconds = message
                future.set_result(Thought(move, simulations, reused, index, seconds))
            elif message[0] == "value":
                future.set_result(message[2])
            elif message[0] == "error":
                future.set_exception(RuntimeError(f"the AI failed: {message[2]}"))
            else:
                future.cancel()
        self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        job = worker.job
        worker.job = None
        if job is not None:
            self._jobs.pop(job.wire, None)
            if self._closed:
                job.future.cancel()
            elif not job.future.done():
                job.future.set_exception(
                    AIWorkerLost(f"AI worker {worker.index} ended during a search")
                )
        for game, home in list(self._home.items()):
            if home == worker.index:
                del self._home[game]
        with contextlib.suppress(Exception):
            if worker.process.is_alive():  # unreachable but running: end it
                worker.process.kill()
                worker.process.join(timeout=2)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if self._closed:
            return
        code = worker.process.exitcode
        if time.monotonic() - worker.started < 10.0:
            self._early_deaths += 1
        else:
            self._early_deaths = 0
        if self._early_deaths >= 3:  # workers die as they start: do not loop
            log.error(
                "AI worker %d ended at start-up (exit code %s): not restarted", worker.index, code
            )
            if not any(w.alive for w in self._workers):
                for job in list(self._jobs.values()):
                    self._unqueue(job)
                    self._jobs.pop(job.wire, None)
                    if not job.future.done():
                        job.future.set_exception(AIWorkerLost("no AI worker could start"))
            return
        log.warning("AI worker %d ended (exit code %s): starting another", worker.index, code)
        self._workers[self._workers.index(worker)] = self._spawn(worker.index)
        self._dispatch()

    # -- the queue -----------------------------------------------------------------------

    def _dispatch(self) -> None:
        """Give waiting jobs to idle workers, in the fair order."""
        for worker in list(self._workers):
            if not worker.alive and worker.job is None and not self._closed:
                self._lost(worker)  # it died before the event loop could hear of it
        while self._waiting and not self._closed:
            idle = [w for w in self._workers if w.job is None and w.alive]
            if not idle:
                return
            job = self._pop_next()
            home = self._home.get(job.game) if job.game is not None else None
            chosen = next((w for w in idle if w.index == home), None)
            if chosen is None:  # the idle worker that keeps the fewest games' trees
                homes = list(self._home.values())
                chosen = min(idle, key=lambda w: homes.count(w.index))
            worker = chosen
            if job.game is not None:
                if home is not None and home != worker.index:
                    self._workers[home].send(("forget", job.game))
                self._home[job.game] = worker.index
                self._home.move_to_end(job.game)
                while len(self._home) > 100 * len(self._workers) * max(1, self.kept_games):
                    self._home.popitem(last=False)
            worker.job = job
            job.worker = worker
            message = (
                "job",
                job.wire,
                job.game,
                job.position,
                job.spec,
                job.seed,
                self.interval,
                job.seconds,
                job.task,
                job.history,
            )
            if not worker.send(message):
                worker.job = None
                job.worker = None
                self._jobs.pop(job.wire, None)
                if not job.future.done():
                    job.future.set_exception(AIWorkerLost(f"AI worker {worker.index} is gone"))

    def _pop_next(self) -> _Job:
        client, games = next(iter(self._waiting.items()))
        game, jobs = next(iter(games.items()))
        job = jobs.popleft()
        if jobs:
            games.move_to_end(game)
        else:
            del games[game]
        if games:
            self._waiting.move_to_end(client)
        else:
            del self._waiting[client]
        return job

    def _unqueue(self, job: _Job) -> None:
        games = self._waiting.get(job.client)
        jobs = games.get(job.game) if games is not None else None
        if games is None or jobs is None or job not in jobs:
            return
        jobs.remove(job)
        if not jobs:
            del games[job.game]
            if not games:
                del self._waiting[job.client]

    def _cancel(self, job: _Job) -> None:
        """Drop a waiting job, or stop its search."""
        if job.cancelled:
            return
        job.cancelled = True
        if not job.future.done():
            job.future.cancel()
        worker = job.worker
        if worker is None:
            self._unqueue(job)
            self._jobs.pop(job.wire, None)
            return
        if worker.job is job:
            worker.send(("cancel", job.wire))
            if self._loop is not None and self.cancel_grace > 0:
                self._loop.call_later(self.cancel_grace, self._check_stopped, job)

    def _check_stopped(self, job: _Job) -> None:
        worker = job.worker
        if worker is None or worker.job is not job or self._closed:
            return
        log.warning("AI worker %d did not stop its search: replacing it", worker.index)
        with contextlib.suppress(Exception):
            worker.process.kill()

    # -- the interface ---------------------------------------------------------------------

    def pending(self, *, client: str | None = None, game: str | None = None) -> int:
        """AI jobs waiting or running (cancelled ones left out), of ``client`` or ``game``."""
        return sum(
            1
            for job in self._jobs.values()
            if not job.cancelled
            and (client is None or job.client == client)
            and (game is None or job.game == game)
        )

    async def think(
        self,
        job: str,
        position: str,
        spec: str,
        seed: int,
        progress: Callable[[float, int, str | None], None] | None = None,
        *,
        game: str | None = None,
        client: str | None = None,
        seconds: float | None = None,
        history: tuple[str, ...] | None = None,
    ) -> Thought:
        """Search in a worker; answer the chosen move and what the search did.

        ``job`` names the search in logs; ``game`` keys its kept tree and its place in the
        fair queue, ``client`` its turn among clients; ``seconds`` caps the search's time
        (a game's clock: the player's own budget applies when it is smaller); ``history``
        the notations of the game's decisions up to ``position``, replayed for a player
        that remembers positions when the worker keeps none for ``game``.  Cancelling
        the awaiting task stops the search (see the module docstring).
        """
        return await self._submit(
            job, position, spec, seed, progress, game, client, seconds, history=history
        )

    async def run(
        self,
        job: str,
        task: str,
        payload: Any,
        progress: Callable[[float, int, str | None], None] | None = None,
        *,
        client: str | None = None,
    ) -> Any:
        """Run ``task`` (``"module:function"``) in a worker and answer what it returns.

        The worker calls ``function(payload, progress, stop)``: ``progress(fraction,
        simulations, best)`` reports (sent at most every ``interval`` seconds), ``stop()``
        turns true when the awaiting task is cancelled.  ``payload`` and the answer travel
        pickled.  An exception in the function is a ``RuntimeError`` here.
        """
        return await self._submit(job, payload, "", 0, progress, None, client, None, task)

    async def _submit(
        self,
        job: str,
        position: Any,
        spec: str,
        seed: int,
        progress: Callable[[float, int, str | None], None] | None,
        game: str | None,
        client: str | None,
        seconds: float | None,
        task: str | None = None,
        history: tuple[str, ...] | None = None,
    ) -> Any:
        if self._closed:
            raise RuntimeError("the AI pool is shut down")
        loop = asyncio.get_running_loop()
        self._loop = loop
        entry = _Job(
            next(self._ids),
            job,
            game,
            client,
            position,
            spec,
            seed,
            loop.create_future(),
            progress,
            seconds,
            task,
            history,
        )
        self._jobs[entry.wire] = entry
        self._waiting.setdefault(client, OrderedDict()).setdefault(game, deque()).append(entry)
        self._dispatch()
        try:
            return await entry.future
        except asyncio.CancelledError:
            self._cancel(entry)
            raise

    def forget(self, game: str) -> None:
        """Drop the kept tree of ``game`` (it is over) and its waiting jobs."""
        for job in [j for j in self._jobs.values() if j.game == game and j.worker is None]:
            self._cancel(job)
        home = self._home.pop(game, None)
        if home is not None and home < len(self._workers):
            self._workers[home].send(("forget", game))

    def shutdown(self) -> None:
        """Stop the workers now (a search in progress is abandoned) and the reader threads."""
        self._closed = True
        workers = list(self._workers)
        for worker in workers:
            worker.send(("stop",))
        deadline = time.monotonic() + 2.0
        for worker in workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=2)
        for reader in self._readers:
            reader.join(timeout=2)
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.conn.close()
        loop = self._loop
        jobs = list(self._jobs.values())
        self._jobs.clear()
        self._waiting.clear()
        if loop is not None and not loop.is_closed():
            for job in jobs:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(job.future.cancel)
