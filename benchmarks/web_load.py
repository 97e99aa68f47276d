"""Load test of the web server: N concurrent games played the way the browser plays them.

Usage::

    .venv/bin/python benchmarks/web_load.py [--games 200] [--plies 20] [--think 1-3]
        [--clock 5+3] [--listeners 2] [--game all|volo|xobo|voldetour] [--runs 3]
        [--spawn 1 --database sqlite|pg|postgresql://…  |  --servers URL1,URL2]
        [--clients 1] [--json FILE]

Servers: ``--spawn N`` (the default, one) starts N ``tablier serve`` processes (AI off) on
free ports for each run and stops them at the end: on a fresh SQLite file
(``--database sqlite``, one process only: SQLite is the single-process set-up) or on
PostgreSQL (``--database pg`` takes the URL of ``TABLIER_TEST_POSTGRES_URL``, which
``bash tools/with-test-services.sh …`` provides; or give a ``postgresql://`` URL), in a
fresh schema per run, dropped afterwards.  The first process runs the migrations before the
others start; the per-client limit on creating games is off (``TABLIER_RATE_LIMITS``), since
one address stands for all the players.  ``--servers URL1,URL2`` drives servers that are
already running instead (start them with ``TABLIER_RATE_LIMITS='{"create_game": "off"}'``).

Each game *slot* creates an online game over REST (``POST /api/games``, with ``--clock
5+3``: ``{"clock": {"kind": "live", "base": 300, "increment": 3}}``), gets both seats'
tokens, and opens one WebSocket per seat (``--listeners 2``, two browsers; 1: only the
second seat's; 0: none, to keep the client light), each saying hello with its seat's token.
With several servers, seat *s* of slot *i* talks to server *(i + s) mod N* only — its
REST requests and its WebSocket — so every move is made on one process and must reach the
other seat's browser on another (the cross-process broker), and the next ``GET /legal`` is
answered by that other process; with ``--spread request`` each REST request goes to any of
the servers at random (a proxy without sticky sessions; the WebSockets stay put).  Then, as
the browser does: the seat to move fetches
``GET /api/games/<id>/legal?ply=N`` (with its Bearer token; once more after ``409
ply_ahead`` or an older answer, counted in ``legal retries``) when the previous move reaches its
WebSocket, thinks (uniform in ``--think LO-HI`` seconds), and sends a random legal decision
with ``POST /api/games/<id>/moves`` ``{"ply", "move"}``.  A slot stops after ``--plies``
decisions; a game that ends before starts a new one in the same slot (so the load stays
steady).

Measured on the client, per kind: ``create``, ``legal`` and ``move`` (time from sending the
request to having its whole response) and ``ws`` (time from sending a move's POST to its
``move`` message on the *other* seat's WebSocket); p50 / p95 / p99 / max in ms; errors
(non-2xx answers, broken connections, a move not broadcast within ``--timeout``, a
``/legal`` for another ply, error frames); moves per second while playing; the CPU time of
the client processes and (spawned servers) of the servers and of PostgreSQL (when it runs on
this machine: its ``postmaster.pid``), per move; the load average.
The target (issue 14): ``move`` and ``ws`` p99 < 100 ms with no error.  ``--runs`` repeats
the run (fresh servers and database each time) and reports the medians.

The client uses one asyncio loop per client process (``--clients K`` splits the slots over
K processes), a hand-written keep-alive HTTP/1.1 connection per seat (as a browser keeps
one; a full HTTP client costs more CPU than the server spends answering) and the
``websockets`` library; its garbage collector is off while it plays (its pauses would count
as latency) and its own event-loop lag is reported.  On one machine the client takes CPU from
the servers: say so with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from websockets.asyncio.client import connect

TARGET_P99_MS = 100.0
KINDS = ("create", "legal", "move", "ws")
#: A kept-alive connection idle this long is reopened before use (uvicorn closes them at 5 s).
IDLE_REOPEN_S = 4.0
_HEAD = re.compile(r'\{"type":"(\w+)"(?:,"ply":(\d+))?')


# -- one client process's measurements -------------------------------------------------


@dataclass
class Stats:
    """What one client process measured (seconds)."""

    lat: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    legal_retries: int = 0
    games: int = 0
    moves: int = 0
    lags: list[float] = field(default_factory=list)
    cpu: float = 0.0
    elapsed: float = 0.0

    def error(self, what: str) -> None:
        """Count an error."""
        self.errors.append(what)

    def merge(self, other: Stats) -> None:
        """Add another client process's figures."""
        for k in KINDS:
            self.lat[k].extend(other.lat[k])
        self.errors.extend(other.errors)
        self.retries += other.retries
        self.legal_retries += other.legal_retries
        self.games += other.games
        self.moves += other.moves
        self.lags.extend(other.lags)
        self.cpu += other.cpu
        self.elapsed = max(self.elapsed, other.elapsed)


class HttpError(Exception):
    """A non-2xx answer."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body[:160].decode(errors='replace')}")
        self.status = status
        self.body = body


class Http:
    """One kept-alive HTTP/1.1 connection (a browser tab's), reopened when the server closed
    it; a request that finds it closed before any answer is sent once more (as browsers do),
    counted in ``retries``."""

    def __init__(self, url: str, stats: Stats) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.stats = stats
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def _once(self, head: bytes, body: bytes) -> tuple[int, bytes]:
        if self.writer is None or time.monotonic() - self.used > IDLE_REOPEN_S:
            await self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None and self.writer is not None
        self.writer.write(head + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw.split(b" ", 2)[1])
        length, chunked, close = 0, False, False
        for line in raw.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            data = b"".join(p[:-2] for p in parts)
        else:
            data = await self.reader.readexactly(length)
        self.used = time.monotonic()
        if close:
            await self.close()
        return status, data

    async def request(
        self, method: str, path: str, payload: Any = None, token: str | None = None
    ) -> tuple[Any, float]:
        """The parsed JSON answer and the seconds it took; HttpError when not 2xx."""
        body = b"" if payload is None else json.dumps(payload).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        if payload is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        sent = time.perf_counter()
        try:
            status, data = await self._once(head, body)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.stats.retries += 1
            await self.close()
            sent = time.perf_counter()
            status, data = await self._once(head, body)
        took = time.perf_counter() - sent
        if not 200 <= status < 300:
            raise HttpError(status, data)
        return json.loads(data), took

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None


class Tab:
    """A seat's browser tab: its kept-alive connection to its own server, or with
    ``--spread request`` one to every server, a request going to any of them at random (a
    proxy spreading requests without sticky sessions)."""

    def __init__(
        self, servers: list[str], home: int, spread: str, stats: Stats, rng: random.Random
    ) -> None:
        urls = servers if spread == "request" else [servers[home]]
        self.conns = [Http(u, stats) for u in urls]
        self.rng = rng

    async def request(
        self, method: str, path: str, payload: Any = None, token: str | None = None
    ) -> tuple[Any, float]:
        """Send a request through one of the tab's connections."""
        conn = self.conns[0] if len(self.conns) == 1 else self.rng.choice(self.conns)
        return await conn.request(method, path, payload, token)

    async def close(self) -> None:
        """Close the connections."""
        for conn in self.conns:
            await conn.close()


# -- one game slot ---------------------------------------------------------------------


class Game:
    """One online game being played: its moves' send times and what each seat's WebSocket
    has received."""

    def __init__(self, gid: str, tokens: dict[str, str]) -> None:
        self.id = gid
        self.tokens = tokens
        self.sent: dict[int, tuple[float, int]] = {}  # ply played -> (send time, mover)
        self.seen = [0, 0]  # the latest ply each seat's WebSocket announced
        self.changed = [asyncio.Event(), asyncio.Event()]
        self.closing = False

    async def listen(self, ws: Any, seat: int, stats: Stats) -> None:
        """Read a seat's WebSocket as the browser does: note when each move arrives."""
        try:
            async for raw in ws:
                now = time.perf_counter()
                text = raw if isinstance(raw, str) else raw.decode()
                m = _HEAD.match(text)
                if m is None:
                    message = json.loads(text)
                    kind, ply = message.get("type"), message.get("ply")
                else:
                    kind, ply = m.group(1), m.group(2)
                if kind == "move" and ply is not None:
                    after = int(ply)
                    sent = self.sent.get(after - 1)
                    if sent is not None and sent[1] != seat:
                        stats.lat["ws"].append(now - sent[0])
                    if after > self.seen[seat]:
                        self.seen[seat] = after
                        self.changed[seat].set()
                elif kind == "error":
                    stats.error(f"error frame on seat {seat}: {text[:160]}")
        except Exception as exc:
            if not self.closing:
                stats.error(f"WebSocket of seat {seat} broke: {exc!r}")

    async def wait_seen(self, seat: int, ply: int, timeout: float) -> bool:
        """Wait until seat's WebSocket has announced ``ply``; False after ``timeout``."""
        deadline = time.perf_counter() + timeout
        while self.seen[seat] < ply:
            self.changed[seat].clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed[seat].wait(), left)
        return True


@dataclass
class Shared:
    """What the slots of one client process share."""

    args: argparse.Namespace
    servers: list[str]
    names: list[str]
    stats: Stats
    setup: asyncio.Semaphore
    go: asyncio.Event
    total: int
    arrived: int = 0
    all_arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def arrive(self) -> None:
        """A slot is set up (or failed to be)."""
        self.arrived += 1
        if self.arrived == self.total:
            self.all_arrived.set()


def think_range(text: str) -> tuple[float, float]:
    """``"1-3"`` -> (1.0, 3.0); ``"2"`` -> (2.0, 2.0)."""
    lo, _, hi = text.partition("-")
    low = float(lo)
    high = float(hi) if hi else low
    if low < 0 or high < low:
        raise argparse.ArgumentTypeError(f"{text!r} is not LOW-HIGH seconds")
    return low, high


def clock_body(text: str | None) -> dict | None:
    """``"5+3"`` (minutes + seconds of increment, as lichess writes it) -> the clock."""
    if not text:
        return None
    base, _, inc = text.partition("+")
    return {"kind": "live", "base": round(float(base) * 60), "increment": int(inc or 0)}


async def open_game(
    shared: Shared, slot: int, http: list[Tab], rng: random.Random
) -> tuple[Game, dict, list]:
    """Create a game on seat 0's server and open its seats' WebSockets."""
    args, stats = shared.args, shared.stats
    body: dict[str, Any] = {
        "game": shared.names[(slot + stats.games) % len(shared.names)],
        "mode": "online",
        "names": [f"load {slot}a", f"load {slot}b"],
    }
    clock = clock_body(args.clock)
    if clock is not None:
        body["clock"] = clock
    created, took = await http[0].request("POST", "/api/games", body)
    stats.lat["create"].append(took)
    stats.games += 1
    if clock is not None and not (created["game"].get("clock") or {}).get("control"):
        raise RuntimeError("the server created the game without its clock")
    game = Game(created["id"], created["tokens"])
    sockets = []
    seats = [1] if args.listeners == 1 else [0, 1][: args.listeners]
    for seat in seats:
        server = shared.servers[(slot + seat) % len(shared.servers)]
        url = server.replace("http", "ws", 1) + f"/ws/games/{game.id}"
        ws = await connect(url, max_size=None, compression=None, open_timeout=args.timeout)
        await ws.send(json.dumps({"type": "hello", "token": game.tokens[str(seat)]}))
        while True:  # the snapshot (after which every move is announced)
            frame = await asyncio.wait_for(ws.recv(), args.timeout)
            if str(frame).startswith('{"type":"snapshot"'):
                break
        sockets.append((seat, ws, asyncio.create_task(game.listen(ws, seat, stats))))
    return game, created["game"], sockets


async def close_game(game: Game, sockets: list) -> None:
    """Close a game's WebSockets."""
    game.closing = True
    for _, ws, task in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
        task.cancel()


async def fetch_legal(tab: Tab, gid: str, token: str, ply: int, stats: Stats) -> dict:
    """``GET …/legal?ply=N`` as the browser asks it: once more after a ``409 ply_ahead`` or
    an answer older than ``ply`` (the process and its database not there yet)."""
    legal: dict = {}
    for attempt in range(2):
        try:
            legal, took = await tab.request("GET", f"/api/games/{gid}/legal?ply={ply}", token=token)
        except HttpError as exc:
            if attempt or exc.status != 409 or b'"ply_ahead"' not in exc.body:
                raise
            stats.legal_retries += 1
            continue
        stats.lat["legal"].append(took)
        if legal["ply"] >= ply:
            break
        stats.legal_retries += 1
    return legal


async def play_slot(shared: Shared, slot: int) -> None:
    """Play games in one slot until it has made ``--plies`` decisions."""
    args, stats = shared.args, shared.stats
    rng = random.Random(args.seed * 100_003 + slot)
    servers = shared.servers
    http = [Tab(servers, (slot + seat) % len(servers), args.spread, stats, rng) for seat in (0, 1)]
    low, high = args.think
    made = 0
    game = None
    sockets: list = []
    try:
        try:
            async with shared.setup:
                game, snap, sockets = await open_game(shared, slot, http, rng)
        finally:
            shared.arrive()
        await shared.go.wait()
        # Players do not all arrive at the same instant: the slots start spread over a think.
        await asyncio.sleep(rng.uniform(0, high))
        listening = {seat for seat, _, _ in sockets}
        while made < args.plies:
            if snap["status"] != "active":
                await close_game(game, sockets)
                game, snap, sockets = await open_game(shared, slot, http, rng)
            ply, to_move = snap["ply"], snap["view"]["to_move"]
            token = game.tokens[str(to_move)]
            legal = await fetch_legal(http[to_move], game.id, token, ply, stats)
            if legal["ply"] != ply or not legal["moves"]:
                stats.error(f"legal moves of ply {legal['ply']} for ply {ply}")
                return
            await asyncio.sleep(rng.uniform(low, high))
            notation = rng.choice(legal["moves"])["notation"]
            game.sent[ply] = (time.perf_counter(), to_move)
            snap, took = await http[to_move].request(
                "POST",
                f"/api/games/{game.id}/moves",
                {"ply": ply, "move": notation},
                token=token,
            )
            stats.lat["move"].append(took)
            stats.moves += 1
            made += 1
            # The other seat's browser must see the move (and, when it is its turn, only
            # then asks for its legal moves).
            other = 1 - to_move
            if other in listening and not await game.wait_seen(other, ply + 1, args.timeout):
                stats.error(f"move {ply + 1} of {game.id} not on the other WebSocket in time")
                return
    except Exception as exc:
        stats.error(f"slot {slot}: {exc!r}"[:300])
    finally:
        if game is not None:
            await close_game(game, sockets)
        for h in http:
            await h.close()


async def watch_lag(stats: Stats) -> None:
    """How late this client's event loop wakes up (its lag inflates what it measures)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.lags.append(max(0.0, time.perf_counter() - before - 0.01))


async def client_run(
    args: argparse.Namespace, servers: list[str], names: list[str], slots: range, barrier: Any
) -> Stats:
    """Set up ``slots``, wait for every client process (``barrier``), play them."""
    stats = Stats()
    shared = Shared(args, servers, names, stats, asyncio.Semaphore(32), asyncio.Event(), len(slots))
    tasks = [asyncio.create_task(play_slot(shared, s)) for s in slots]
    await shared.all_arrived.wait()
    if barrier is not None:
        await asyncio.to_thread(barrier.wait)
    gc.collect()
    gc.freeze()
    gc.disable()
    monitor = asyncio.create_task(watch_lag(stats))
    start, cpu0 = time.perf_counter(), time.process_time()
    stats.lat["create"].clear()  # the set-up's creations are not part of the run
    shared.go.set()
    await asyncio.gather(*tasks)
    stats.elapsed = time.perf_counter() - start
    stats.cpu = time.process_time() - cpu0
    monitor.cancel()
    gc.enable()
    return stats


def client_process(args, servers, names, slots, barrier, queue) -> None:
    """One client process of ``--clients K``: its Stats go back through ``queue``."""
    _use_uvloop()
    try:
        stats = asyncio.run(client_run(args, servers, names, slots, barrier))
    except BaseException as exc:
        stats = Stats(errors=[f"client process failed: {exc!r}"])
        barrier.abort()
    queue.put(stats)


def play(args: argparse.Namespace, servers: list[str]) -> Stats:
    """One run against ``servers``: every client process's figures together."""
    catalog = json.loads(_get(servers[0] + "/api/catalog"))
    names = [g["name"] for g in catalog["games"]]
    if args.game != "all":
        if args.game not in names:
            raise SystemExit(f"unknown game {args.game!r} (games: {', '.join(names)})")
        names = [args.game]
    k = max(1, min(args.clients, args.games))
    if k == 1:
        return asyncio.run(client_run(args, servers, names, range(args.games), None))
    ctx = multiprocessing.get_context("fork")
    barrier, queue = ctx.Barrier(k), ctx.Queue()
    procs = [
        ctx.Process(
            target=client_process,
            args=(args, servers, names, range(i, args.games, k), barrier, queue),
        )
        for i in range(k)
    ]
    for p in procs:
        p.start()
    total = Stats()
    for _ in procs:
        total.merge(queue.get())
    for p in procs:
        p.join()
    return total


# -- servers -----------------------------------------------------------------------------


def _get(url: str, timeout: float = 5) -> bytes:
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return answer.read()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postmaster_pid(data_directory: str) -> int | None:
    """The pid of the PostgreSQL server whose data directory this is (first line of its
    ``postmaster.pid``), if it can be read here."""
    try:
        return int((Path(data_directory) / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds of a process, of its ended children (``cutime``, ``cstime``) and of its
    living ones (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = sum(int(f) for f in fields[11:15])
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            child = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(child[1]) == pid:
            ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_url(given: str) -> str:
    """The PostgreSQL URL of ``--database`` (``pg``: ``TABLIER_TEST_POSTGRES_URL``)."""
    if given == "pg":
        given = os.environ.get("TABLIER_TEST_POSTGRES_URL", "").strip()
        if not given:
            raise SystemExit("--database pg needs TABLIER_TEST_POSTGRES_URL")
    for prefix in ("postgresql+psycopg://", "postgres://", "postgresql://"):
        if given.startswith(prefix):
            return "postgresql://" + given[len(prefix) :]
    raise SystemExit(f"not a PostgreSQL URL: {given!r}")


class Servers:
    """``--spawn N`` server processes on a fresh database, stopped by :meth:`stop`."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.procs: list[subprocess.Popen] = []
        self.urls: list[str] = []
        self.folder = folder
        self.schema: str | None = None
        self.plain: str | None = None
        self.postmaster: int | None = None
        if args.database == "sqlite":
            database = f"sqlite:///{folder / 'load.db'}"
        else:
            import psycopg

            self.plain = postgres_url(args.database)
            self.schema = f"tablier_load_{os.getpid()}_{secrets.token_hex(4)}"
            with psycopg.connect(self.plain, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{self.schema}"')
                row = conn.execute("SHOW data_directory").fetchone()
            self.postmaster = postmaster_pid(row[0] if row else "")
            sep = "&" if "?" in self.plain else "?"
            database = f"{self.plain}{sep}options={quote(f'-csearch_path={self.schema}')}"
        try:
            for i in range(args.spawn):
                self._start(i, database, args)
        except BaseException:
            self.stop()
            raise

    def _start(self, i: int, database: str, args: argparse.Namespace) -> None:
        port = _free_port()
        log = open(self.folder / f"server{i}.log", "wb")  # noqa: SIM115 - closed with it
        command = [
            sys.executable,
            "-c",
            "from tablier.cli.main import main; main()",
            "serve",
            "--port",
            str(port),
            "--ai-workers",
            "0",
            "--database-url",
            database,
            "--access-log" if args.access_log else "--no-access-log",
            *args.server_arg,
        ]
        # The load comes from one address standing for thousands of players: the per-client
        # limit on creating games (issue 14, point 8) would refuse most of them.
        env = {**os.environ, "TABLIER_RATE_LIMITS": json.dumps({"create_game": "off"})}
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                tail = (self.folder / f"server{i}.log").read_text(errors="replace")[-2000:]
                raise SystemExit(f"server {i} stopped:\n{tail}")
            with contextlib.suppress(OSError):
                if json.loads(_get(f"{url}/api/health", 1)).get("ok"):
                    self.urls.append(url)
                    return
            time.sleep(0.1)
        raise SystemExit(f"server {i} did not start within 90 s")

    def cpu(self) -> float | None:
        """The servers' CPU seconds so far."""
        times = [cpu_seconds(p.pid) for p in self.procs]
        return None if None in times else sum(t for t in times if t is not None)

    def database_cpu(self) -> float | None:
        """PostgreSQL's CPU seconds so far (all its processes, ended ones included), when it
        runs on this machine and its files can be read; else None."""
        if self.postmaster is None:
            return None
        return tree_cpu_seconds(self.postmaster)

    def stop(self) -> None:
        """Stop the servers politely, then firmly; drop the PostgreSQL schema."""
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.schema is not None:
            import psycopg

            with psycopg.connect(self.plain, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{self.schema}" CASCADE')


# -- reporting ---------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values (seconds), in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return 1000 * ordered[k]


def loadavg() -> str:
    """The 1-minute load average (Linux), or '?'."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def summarise(
    stats: Stats, server_cpu: float | None, db_cpu: float | None, load: tuple[str, str]
) -> dict:
    """The figures of one run."""
    row: dict[str, Any] = {
        "moves": stats.moves,
        "games": stats.games,
        "errors": len(stats.errors),
        "retries": stats.retries,
        "legal_retries": stats.legal_retries,
        "elapsed_s": stats.elapsed,
        "moves_per_s": stats.moves / stats.elapsed if stats.elapsed >= 0.001 else 0.0,
        "client_cpu_ms_per_move": 1000 * stats.cpu / max(1, stats.moves),
        "client_cpu_cores": stats.cpu / stats.elapsed if stats.elapsed >= 0.001 else 0.0,
        "server_cpu_ms_per_move": None
        if server_cpu is None
        else 1000 * server_cpu / max(1, stats.moves),
        "server_cpu_cores": None if server_cpu is None else server_cpu / max(stats.elapsed, 0.001),
        "database_cpu_ms_per_move": None if db_cpu is None else 1000 * db_cpu / max(1, stats.moves),
        "client_lag_p99_ms": percentile(stats.lags, 99),
        "load_before": load[0],
        "load_after": load[1],
        "first_errors": stats.errors[:5],
    }
    for kind in KINDS:
        values = stats.lat[kind]
        row[kind] = {
            "n": len(values),
            **{f"p{q}": percentile(values, q) for q in (50, 95, 99)},
            "max": percentile(values, 100),
        }
    return row


def _fmt(kind: str, figures: dict) -> str:
    return (
        f"  {kind:<6} n={figures['n']:<6} p50 {figures['p50']:7.1f}  p95 {figures['p95']:7.1f}"
        f"  p99 {figures['p99']:7.1f}  max {figures['max']:7.1f} ms"
    )


def report(n: int, row: dict) -> None:
    """Print one run's figures."""
    server = (
        ""
        if row["server_cpu_ms_per_move"] is None
        else f", servers {row['server_cpu_ms_per_move']:.2f} ms CPU/move"
        f" ({row['server_cpu_cores']:.2f} cores)"
    )
    if row["database_cpu_ms_per_move"] is not None:
        server += f", PostgreSQL {row['database_cpu_ms_per_move']:.2f} ms CPU/move"
    print(
        f"run {n}: {row['moves']} moves in {row['games']} games over {row['elapsed_s']:.1f} s,"
        f" {row['moves_per_s']:.0f} moves/s, {row['errors']} errors, {row['retries']} retries,"
        f" {row['legal_retries']} legal retries;"
        f" client {row['client_cpu_ms_per_move']:.2f} ms CPU/move"
        f" ({row['client_cpu_cores']:.2f} cores, loop lag p99 {row['client_lag_p99_ms']:.1f} ms)"
        f"{server}; load average {row['load_before']} -> {row['load_after']}",
        flush=True,
    )
    for kind in KINDS:
        if row[kind]["n"]:
            print(_fmt(kind, row[kind]))
    for what in row["first_errors"]:
        print(f"  error: {what}")


def medians(rows: list[dict]) -> dict:
    """The median of each figure over the runs."""
    out: dict[str, Any] = {}
    for key in ("moves", "errors", "moves_per_s", "client_cpu_ms_per_move"):
        out[key] = statistics.median(r[key] for r in rows)
    cpu = [r["server_cpu_ms_per_move"] for r in rows if r["server_cpu_ms_per_move"] is not None]
    out["server_cpu_ms_per_move"] = statistics.median(cpu) if cpu else None
    db = [r["database_cpu_ms_per_move"] for r in rows if r["database_cpu_ms_per_move"] is not None]
    out["database_cpu_ms_per_move"] = statistics.median(db) if db else None
    for kind in KINDS:
        out[kind] = {key: statistics.median(r[kind][key] for r in rows) for key in rows[0][kind]}
    return out


def _use_uvloop() -> None:
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent game slots")
    parser.add_argument("--plies", type=int, default=20, help="decisions per slot")
    parser.add_argument(
        "--think", type=think_range, default=(1.0, 3.0), help="LOW-HIGH seconds per decision"
    )
    parser.add_argument("--clock", default=None, help="a live clock, MINUTES+SECONDS (5+3)")
    parser.add_argument("--listeners", type=int, choices=[0, 1, 2], default=2)
    parser.add_argument("--game", default="all", help="a game's name, or all (in turn)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--servers", default=None, help="URL1,URL2: drive running servers")
    parser.add_argument(
        "--spread",
        choices=["seat", "request"],
        default="seat",
        help="several servers: each seat on its own (seat) or each request anywhere (request)",
    )
    parser.add_argument("--spawn", type=int, default=1, help="server processes to start")
    parser.add_argument(
        "--database", default="sqlite", help="of spawned servers: sqlite, pg or postgresql://…"
    )
    parser.add_argument(
        "--server-arg", action="append", default=[], help="one more flag of tablier serve"
    )
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="spawned servers write uvicorn's access log (to a file)",
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    if args.servers is None and args.database == "sqlite" and args.spawn > 1:
        parser.error("several server processes need PostgreSQL (--database pg)")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run; exit status 0 when the runs had no error (the latency target aside)."""
    args = parse_args(argv)
    _use_uvloop()
    rows = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="tablier-load-") as tmp:
            spawned = None
            if args.servers:
                urls = [u.strip().rstrip("/") for u in args.servers.split(",") if u.strip()]
            else:
                spawned = Servers(args, Path(tmp))
                urls = spawned.urls
            try:
                before = loadavg()
                cpu0 = spawned.cpu() if spawned else None
                db0 = spawned.database_cpu() if spawned else None
                stats = play(args, urls)
                cpu1 = spawned.cpu() if spawned else None
                db1 = spawned.database_cpu() if spawned else None
                server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
                db_cpu = None if db0 is None or db1 is None else db1 - db0
                row = summarise(stats, server_cpu, db_cpu, (before, loadavg()))
            finally:
                if spawned is not None:
                    spawned.stop()
        rows.append(row)
        report(run + 1, row)
        args.seed += 1
    med = medians(rows)
    met = (
        med["move"]["p99"] < TARGET_P99_MS
        and (med["ws"]["n"] == 0 or med["ws"]["p99"] < TARGET_P99_MS)
        and med["errors"] == 0
    )
    print(
        f"median of {len(rows)} run(s): {med['moves']:.0f} moves, {med['errors']:.0f} errors,"
        f" {med['moves_per_s']:.0f} moves/s; move p99 {med['move']['p99']:.1f} ms,"
        f" ws p99 {med['ws']['p99']:.1f} ms (target p99 < {TARGET_P99_MS:.0f} ms, no errors:"
        f" {'met' if met else 'NOT met'})"
    )
    for kind in KINDS:
        if med[kind]["n"]:
            print(_fmt(kind, med[kind]))
    where = f"{len(urls)} server(s)" + (f" spawned on {args.database}" if spawned else "")
    print(
        f"{args.games} games, think {args.think[0]:g}-{args.think[1]:g} s, clock {args.clock},"
        f" {args.listeners} listener(s) per game, {args.clients} client process(es), {where};"
        f" python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": rows, "median": med, "met": met}, indent=1))
    return 0 if all(r["errors"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
