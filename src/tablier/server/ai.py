"""The AI in worker processes.

:class:`AIPool` runs :func:`tablier.ai.players.make_player` searches in a
:class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start method), so a search never
holds the server's event loop or its GIL.  A job receives the position string and the player
spec; the search's progress callback puts ``(job, fraction, simulations, best)`` on a
multiprocessing queue, at most every ``interval`` seconds; a thread in the server reads the
queue and hands each report to the event loop, which sends it to the game's WebSockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["AIPool"]

log = logging.getLogger("tablier.server.ai")

_queue: Any = None


def _init_worker(queue: Any) -> None:
    global _queue
    _queue = queue
    import tablier.ai.players  # noqa: F401  (import once, before the first job)


def _think(job: str, position: str, spec: str, seed: int, interval: float) -> str:
    """Worker side: search ``position`` with the player ``spec``; return the move's notation."""
    from tablier import games
    from tablier.ai.players import make_player

    state = games.parse_position(position)
    game = state.game
    player = make_player(spec, game, seed=seed)
    last = 0.0

    def progress(report: Any) -> None:
        nonlocal last
        moment = time.monotonic()
        if moment - last < interval or _queue is None:
            return
        last = moment
        best = report.best.move if report.best is not None else None
        text = game.move_text(state, best) if best is not None else None
        _queue.put((job, float(report.fraction), int(report.iterations), text))

    move = player.choose(state, progress)
    return game.move_text(state, move)


class AIPool:
    """Worker processes that choose the AI's moves (see the module docstring)."""

    def __init__(self, workers: int, interval: float = 0.1) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.interval = interval
        self._queue = ctx.Queue()
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(self._queue,),
        )
        self._listeners: dict[str, Callable[[float, int, str | None], None]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader = threading.Thread(target=self._read, name="tablier-ai-progress", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                item = self._queue.get()
            except (EOFError, OSError):  # pragma: no cover - the queue was closed
                return
            if item is None:
                return
            job, fraction, simulations, best = item
            listener = self._listeners.get(job)
            loop = self._loop
            if listener is not None and loop is not None and not loop.is_closed():
                try:
                    loop.call_soon_threadsafe(listener, fraction, simulations, best)
                except RuntimeError:  # pragma: no cover - the loop stopped meanwhile
                    return

    async def think(
        self,
        job: str,
        position: str,
        spec: str,
        seed: int,
        progress: Callable[[float, int, str | None], None] | None = None,
    ) -> str:
        """Search in a worker; return the chosen move's notation."""
        self._loop = asyncio.get_running_loop()
        if progress is not None:
            self._listeners[job] = progress
        try:
            future = self._executor.submit(_think, job, position, spec, seed, self.interval)
            return await asyncio.wrap_future(future)
        finally:
            self._listeners.pop(job, None)

    def shutdown(self) -> None:
        """Stop the workers now (a search in progress is abandoned) and the reader thread."""
        processes = list(getattr(self._executor, "_processes", {}).values())
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # searches may run for seconds: do not wait for them
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
        with contextlib.suppress(OSError, ValueError):
            self._queue.put(None)
        self._reader.join(timeout=2)
        self._queue.close()
