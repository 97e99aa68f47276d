"""Load test of the web server: N concurrent games played over WebSocket on loopback.

Usage::

    .venv/bin/python benchmarks/web_load.py [--games 200] [--plies 20] [--think 1.0]
        [--legal server|local] [--game all|volo|xobo|voldetour] [--runs 3] [--url URL]

Without ``--url`` the script starts a real ``tablier serve`` process (AI off, a fresh SQLite
file in a temporary folder) on a free port and stops it at the end; with ``--url`` it drives
a server that is already running (which then needs no AI either: the games are between
people).  Each game is created over REST (mode ``online``), then each of its two seats
opens a WebSocket and says hello with its token.  The seat to move waits a think time
(uniform in 0..2×``--think`` seconds), picks a random legal decision — from ``GET /legal``
as the browser does (``--legal server``), or from a local engine (``--legal local``) — and
sends it; the **round trip** is the time from sending the move to receiving its broadcast
(the ``move`` message carrying the sender's ``ref``).  A game stops after ``--plies``
decisions or at its end.  Reported: moves, errors (error messages, timeouts, dropped
connections), p50 / p99 / max round trip, moves per second; with ``--runs`` the medians
over the runs.  The client runs on the same machine as the server and takes CPU from it:
figures on a small machine are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

import tablier.games

TARGET_P99_MS = 100.0


@dataclass
class Stats:
    """Round trips (seconds) and errors of one run."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    client_cpu: float = 0.0
    lags: list[float] = field(default_factory=list)

    def error(self, what: str) -> None:
        """Count an error (keeping the first few messages)."""
        self.errors.append(what)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(folder: Path) -> tuple[subprocess.Popen, str]:
    """Start ``tablier serve`` (AI off) on a free port; wait until it answers."""
    port = _free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tablier.cli.main import main; main()",
            "serve",
            "--port",
            str(port),
            "--ai-workers",
            "0",
            "--database-url",
            f"sqlite:///{folder / 'load.db'}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped; see {folder / 'server.log'}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server politely, then firmly."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def drain(ws, stop: asyncio.Event) -> None:
    """Read and drop the messages of a seat that is not moving (as a browser would)."""
    with contextlib.suppress(Exception):
        while not stop.is_set():
            await ws.recv()


class LegalFetcher:
    """``GET /legal`` over one kept-alive HTTP/1.1 connection per game, written by hand: a
    full HTTP client costs the load generator more CPU than the server spends answering.
    A connection closed under it is reopened once (as browsers retry idempotent requests);
    the retries are counted apart from errors."""

    def __init__(self, url: str, stats: Stats) -> None:
        parts = httpx.URL(url)
        self.host, self.port = parts.host, parts.port or 80
        self.stats = stats
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _request(self, path: str) -> dict:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = await self.reader.readexactly(length)
        if status != 200:
            raise RuntimeError(f"GET {path}: HTTP {status}: {body[:200]!r}")
        return json.loads(body)

    async def get(self, path: str) -> dict:
        """The JSON body of ``GET path``."""
        try:
            return await self._request(path)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.stats.retries += 1
            await self.close()
            return await self._request(path)

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def play_game(
    index: int,
    url: str,
    http: httpx.AsyncClient,
    names: list[str],
    args,
    stats: Stats,
    ready: asyncio.Barrier,
) -> int:
    """Create one game, connect both seats, play it; return the number of moves."""
    rng = random.Random(args.seed * 100_003 + index)
    name = names[index % len(names)]
    created = (await http.post("/api/games", json={"game": name, "mode": "online"})).json()
    gid, tokens = created["id"], created["tokens"]
    game = tablier.games.from_spec(created["game"]["spec"])
    state = game.initial_state()
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{gid}"
    moves = 0
    fetcher = LegalFetcher(url, stats)
    async with connect(ws_url, max_size=None) as ws0, connect(ws_url, max_size=None) as ws1:
        sockets = (ws0, ws1)
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "token": tokens[str(seat)]}))
        for ws in sockets:  # skip the snapshot and presence messages
            while json.loads(await ws.recv())["type"] != "snapshot":
                pass
        await ready.wait()
        stop = asyncio.Event()
        for ply in range(args.plies):
            if state.outcome is not None:
                break
            seat = state.to_move
            mover, other = sockets[seat], sockets[1 - seat]
            waiting = asyncio.create_task(drain(other, stop))
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
            if args.legal == "server":
                legal = await fetcher.get(f"/api/games/{gid}/legal")
                if legal["ply"] != ply:
                    stats.error(f"legal moves for ply {legal['ply']}, expected {ply}")
                    break
                text = rng.choice(legal["moves"])["notation"]
                move = game.parse_move(state, text)
            else:
                move = rng.choice(state.legal_moves())
                text = game.move_text(state, move)
            ref = f"{index}:{ply}"
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "ply": ply, "move": text, "ref": ref}))
            try:
                while True:
                    message = json.loads(await asyncio.wait_for(mover.recv(), args.timeout))
                    if message["type"] == "move" and message.get("ref") == ref:
                        stats.latencies.append(time.perf_counter() - sent)
                        break
                    if message["type"] == "error":
                        stats.error(f"{message['code']}: {message['message']}")
                        break
            except TimeoutError:
                stats.error(f"no broadcast within {args.timeout} s")
                break
            finally:
                stop.set()
                waiting.cancel()
                stop = asyncio.Event()
            state = state.apply_unchecked(move)
            moves += 1
        # Both sockets saw every move: the other seat's copy is drained by drain().
    await fetcher.close()
    return moves


async def watch_lag(stats: Stats) -> None:
    """Record how late the load generator's own event loop wakes up (its lag inflates the
    measured round trips)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.lags.append(time.perf_counter() - before - 0.01)


async def one_run(url: str, args, pid: int | None = None) -> tuple[Stats, float, float | None]:
    """Play ``args.games`` games at once; return the stats and the playing time."""
    names = tablier.games.names() if args.game == "all" else [args.game]
    stats = Stats()
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        ready = asyncio.Barrier(args.games + 1)
        tasks = [
            asyncio.create_task(play_game(i, url, http, names, args, stats, ready))
            for i in range(args.games)
        ]
        waiter = asyncio.create_task(ready.wait())
        # The load generator's own garbage-collector pauses would count as round trips: its
        # collector is off while it plays (a run allocates a few tens of MB at most).
        gc.collect()
        gc.freeze()
        gc.disable()
        done, _ = await asyncio.wait({waiter, *tasks}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:  # a game failed before the start
            for t in tasks:
                t.cancel()
            failed = next(t for t in done if t is not waiter)
            raise SystemExit(f"a game could not start: {failed.exception()!r}")
        monitor = asyncio.create_task(watch_lag(stats))
        start = time.perf_counter()
        cpu0 = cpu_seconds(pid) if pid else None
        client0 = time.process_time()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - start
        cpu1 = cpu_seconds(pid) if pid else None
        stats.client_cpu = time.process_time() - client0
        monitor.cancel()
        gc.enable()
    for r in results:
        if isinstance(r, BaseException):
            stats.error(f"game failed: {r!r}")
    server_cpu = cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None
    return stats, elapsed, server_cpu


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values, in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return 1000 * ordered[k]


def main() -> None:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=20, help="decisions per game at most")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean think time between moves of a game (s)"
    )
    parser.add_argument("--legal", choices=["server", "local"], default="server")
    parser.add_argument("--game", default="all", choices=["all", *tablier.games.names()])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--url", default=None, help="drive a running server instead")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    rows = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="tablier-load-") as tmp:
            proc = None
            url = args.url
            if url is None:
                proc, url = start_server(Path(tmp))
            try:
                stats, elapsed, server_cpu = asyncio.run(
                    one_run(url.rstrip("/"), args, proc.pid if proc is not None else None)
                )
            finally:
                if proc is not None:
                    stop_server(proc)
        row = {
            "moves": len(stats.latencies),
            "errors": len(stats.errors),
            "p50": percentile(stats.latencies, 50),
            "p99": percentile(stats.latencies, 99),
            "max": percentile(stats.latencies, 100),
            "rate": len(stats.latencies) / elapsed if elapsed else 0.0,
        }
        rows.append(row)
        print(
            f"run {run + 1}: {args.games} games, {row['moves']} moves, {row['errors']} errors, "
            f"round trip p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, "
            f"max {row['max']:.1f} ms, {row['rate']:.0f} moves/s, "
            f"{stats.retries} GET retries"
            + (
                f", server CPU {1000 * server_cpu / max(1, row['moves']):.2f} ms/move"
                if server_cpu is not None
                else ""
            )
            + f", client CPU {1000 * stats.client_cpu / max(1, row['moves']):.2f} ms/move"
            + f" over {elapsed:.1f} s; client loop lag p99 {percentile(stats.lags, 99):.1f} ms,"
            f" max {percentile(stats.lags, 100):.1f} ms",
            flush=True,
        )
        for what in stats.errors[:5]:
            print(f"  error: {what}")
        args.seed += 1
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    verdict = "met" if med["p99"] < TARGET_P99_MS and med["errors"] == 0 else "NOT met"
    print(
        f"median of {len(rows)} run(s): {med['moves']:.0f} moves, {med['errors']:.0f} errors, "
        f"p50 {med['p50']:.1f} ms, p99 {med['p99']:.1f} ms, max {med['max']:.1f} ms, "
        f"{med['rate']:.0f} moves/s  (target p99 < {TARGET_P99_MS:.0f} ms, no errors: {verdict})"
    )
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
