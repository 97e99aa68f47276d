"""The Ray backend of the arena: the games of a match as Ray tasks, on a cluster or locally.

:func:`tablier.ai.arena.run_match` uses this module for ``backend="ray"``; Ray
itself is an optional extra (``pip install 'tablier[ray]'``), imported only then.
Both play each game with :mod:`tablier.ai.match`; this module never imports the arena.

What it does:

- **connection**: when this process is already connected to Ray
  (``ray.is_initialized()``, e.g. after your own ``ray.init(runtime_env=...)``),
  that connection is used and left open.  Otherwise it connects to ``address``
  (``"auto"``, ``"HOST:PORT"`` of a head node, or ``"ray://HOST:PORT"`` for Ray
  Client), or to ``RAY_ADDRESS`` when that is set, and disconnects at the end;
  with neither it starts a local Ray instance with ``jobs`` CPUs (all of this
  machine's when ``jobs`` is None) and shuts it down at the end.  A
  ``HOST:PORT`` address is checked with a plain TCP connection first (5 s), so
  a wrong address fails at once instead of leaving Ray waiting for its server.
- **tasks**: one task per game (``num_cpus=1``, the search is single-threaded),
  running :func:`tablier.ai.match.play_game` with the same arguments as the
  local backend, so a game with a given index and seed is the same on either
  backend.  The game object is put in the object store once.  At most ``jobs``
  games are in flight when ``jobs`` is given; otherwise all are submitted and
  Ray's scheduler fills every CPU of the cluster.
- **fault tolerance**: ``max_retries=3`` — a game whose worker process or node
  dies is played again from its start (up to three times; a game is only
  recorded when it finished, so a retry cannot produce a half game).  An
  exception raised by the game code itself is not retried: it is deterministic
  and would fail again; it stops the match like on the local backend.
- **results** go to ``on_result`` in the driver as tasks finish.
- **interruption** (Ctrl-C, or any error): an instance this module started is
  shut down, which stops its games; on a cluster it only connected to, the
  games not yet finished are cancelled and it disconnects; the exception goes
  on and the results already received are kept by the caller.  (Cancelling a
  task while it completed crashed Ray's task manager in the driver.)  A local
  instance is started with SIGINT ignored, which its processes inherit, so a
  Ctrl-C in the terminal reaches only the driver.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..core.errors import TablierError, quote
from .match import play_game

__all__ = ["MAX_RETRIES", "RAY_EXTRA_HINT", "check_address", "import_ray", "play_games"]

#: Times a game is played again after its worker process or node died.
MAX_RETRIES = 3

#: How to install what the backend needs.
RAY_EXTRA_HINT = "pip install 'tablier[ray]'"

#: Seconds to wait for a TCP connection to a ``HOST:PORT`` address.
CONNECT_TIMEOUT = 5.0

#: Seconds between checks for finished games (Ctrl-C is seen at least this often).
POLL_SECONDS = 0.5


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`TablierError` naming the extra to install."""
    try:
        import ray
    except ImportError as exc:
        raise TablierError(
            f"the ray backend needs Ray, which is not installed ({exc}): {RAY_EXTRA_HINT}"
        ) from None
    return ray


def _play(
    game: Any, a: str, b: str, index: int, seed: int, opening_plies: int, max_plies: int
) -> dict[str, Any]:
    """Body of a Ray task: one game of the match (see :func:`tablier.ai.match.play_game`)."""
    return play_game(game, a, b, index, seed, opening_plies, max_plies)


def _host_port(address: str) -> tuple[str, int] | None:
    """Host and port of a ``HOST:PORT`` or ``ray://HOST:PORT`` address (None for ``auto``).

    Raises :class:`TablierError` for anything else.
    """
    if address == "auto":
        return None
    rest = address[len("ray://") :] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")  # [::1]:6379
    if (
        not sep
        or not host
        or not (port.isascii() and port.isdigit() and len(port) <= 5)  # not '²' or '٣'
        or not 0 < int(port) < 65536
        or "/" in rest
    ):
        raise TablierError(
            f"bad Ray address {quote(address)}: expected auto, HOST:PORT (the head node's GCS "
            "port, 6379 by default) or ray://HOST:PORT (Ray Client, 10001 by default)"
        )
    return host, int(port)


def check_address(address: str) -> None:
    """Raise :class:`TablierError` unless ``address`` is well formed and its port answers."""
    target = _host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise TablierError(
            f"no Ray cluster answers at {address} ({reason}); start one with "
            "`ray start --head` on the head node, or check the host and port"
        ) from None


def _connect(ray: Any, address: str | None, jobs: int | None) -> bool:
    """Connect to Ray as described in the module docstring; True if we must disconnect."""
    if address is not None:
        check_address(address)
    if ray.is_initialized():
        if address is not None:
            raise TablierError(
                f"this process is already connected to Ray; leave out the address "
                f"({address}) to use that connection, or call ray.shutdown() first"
            )
        return False
    target = address or os.environ.get("RAY_ADDRESS") or None
    kwargs: dict[str, Any] = {"logging_level": logging.WARNING}
    if target is None:
        kwargs.update(include_dashboard=False)
        if jobs is not None:
            kwargs["num_cpus"] = jobs
    else:
        if address is None:
            try:
                check_address(target)
            except TablierError as exc:
                raise TablierError(f"RAY_ADDRESS: {exc}") from None
        kwargs["address"] = target
    try:
        with _children_ignore_sigint(local=target is None):
            ray.init(**kwargs)
    except (ConnectionError, ValueError, RuntimeError, OSError) as exc:
        where = f"at {target}" if target else "locally"
        message = f"cannot start or reach Ray {where}: {exc}"
        if _auth_failure(exc):
            message += (
                " (the cluster uses token authentication: set RAY_AUTH_MODE=token and give "
                "this machine the cluster's token in ~/.ray/auth_token or RAY_AUTH_TOKEN)"
            )
        raise TablierError(message) from None
    return True


@contextlib.contextmanager
def _children_ignore_sigint(local: bool) -> Any:
    """While starting a local Ray instance, ignore SIGINT so that its processes (which
    inherit the setting) leave Ctrl-C to this one; restored afterwards."""
    if not local or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _auth_failure(exc: BaseException) -> bool:
    """Whether Ray refused the connection for want of the cluster's token."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if type(cur).__name__ == "AuthenticationError" or "InvalidAuthToken" in str(cur):
            return True
        cur = cur.__cause__ or cur.__context__
    return False


def _disconnect(ray: Any) -> None:
    try:
        ray.shutdown()
    except Exception:  # shutting down must not hide the error that got us here
        logging.getLogger(__name__).warning("ray.shutdown() failed", exc_info=True)


def play_games(
    game: Any,
    tasks: Sequence[tuple[Any, ...]],
    record: Callable[[dict[str, Any]], None],
    *,
    jobs: int | None = None,
    address: str | None = None,
) -> None:
    """Play ``tasks`` (:class:`~tablier.ai.match.GameTask` each) as Ray tasks.

    ``record`` is called in this process with each result as it arrives.
    Raises :class:`TablierError` when Ray is missing, the address is bad or a
    worker died more than :data:`MAX_RETRIES` times; an exception raised inside
    a game is raised again here.
    """
    ray = import_ray()
    from ray.exceptions import RayError, RayTaskError

    owned = _connect(ray, address, jobs)
    pending: dict[Any, int] = {}
    try:
        remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_play)
        game_ref = ray.put(game)
        window = jobs if jobs is not None else len(tasks)
        queue = list(tasks)
        queue.reverse()  # pop() from the end hands out the lowest index first
        while queue or pending:
            while queue and len(pending) < window:
                args = queue.pop()
                pending[remote.remote(game_ref, *args)] = args[2]
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
            for ref in ready:
                index = pending.pop(ref)
                try:
                    item = ray.get(ref)
                except RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, BaseException):
                        raise cause from None
                    raise TablierError(f"game {index} failed: {exc}") from None
                except RayError as exc:
                    raise TablierError(
                        f"game {index} could not be played on Ray "
                        f"(after {MAX_RETRIES} retries): {exc}"
                    ) from None
                record(item)
    finally:
        if owned:  # shutting our own instance down stops its games; cancelling a task
            _disconnect(ray)  # that is completing at that moment crashes Ray's driver
        else:
            for ref in pending:
                with contextlib.suppress(Exception):  # already finished, or its worker is gone
                    ray.cancel(ref, force=True)
