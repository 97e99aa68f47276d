"""Real ``tablier serve`` processes for the multi-process tests (several on one database).

:class:`ServerProcess` starts ``tablier serve`` on a free port with the fast AI stand-ins of
the tests; each AI search it asks its pool for is written to ``<workdir>/ai-<name>.log`` (a
line ``game:version``), so a test counts the searches of every process.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import FAST_AI

#: Run by the server's Python: count every AI search, then run the command line.
BOOT = """
import os, tablier.server.ai as ai
think = ai.AIPool.think
async def counted(self, job, *args, **kwargs):
    with open(os.environ["TABLIER_TEST_AI_LOG"], "a") as log:
        log.write(job + "\\n")
    return await think(self, job, *args, **kwargs)
ai.AIPool.think = counted
from tablier.cli.main import main
main()
"""


def _no_rate_limits() -> dict[str, str]:
    """Every per-client limit off: the tests send many requests from one address."""
    try:
        from tablier.server.ratelimit import DEFAULT_RATE_LIMITS
    except ImportError:  # pragma: no cover - a server without rate limits
        return {}
    return dict.fromkeys(DEFAULT_RATE_LIMITS, "off")


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """One ``tablier serve`` on ``database_url`` (see the module docstring)."""

    def __init__(self, name: str, database_url: str, workdir: Path, **env: str) -> None:
        self.name = name
        self.database_url = database_url
        self.workdir = workdir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / f"server-{name}.log"
        self.ai_log = workdir / f"ai-{name}.log"
        self.env = {
            "TABLIER_RATE_LIMITS": json.dumps(_no_rate_limits()),
            "TABLIER_AI_SPECS": json.dumps(FAST_AI),
            "TABLIER_AI_PROGRESS_INTERVAL": "0.05",
            "TABLIER_ACCESS_LOG": "false",
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        """Start the process (call :meth:`wait` before using it)."""
        command = [sys.executable, "-c", BOOT, "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--database-url", self.database_url]
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TABLIER_TEST_AI_LOG": str(self.ai_log),
            "TABLIER_PROCESS_ID": f"test-{self.name}",
            **self.env,
        }
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def wait(self, timeout: float = 60.0) -> None:
        """Wait until ``/api/health`` answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"server {self.name} exited:\n{self.log_text()}")
            with contextlib.suppress(httpx.HTTPError, ValueError):
                if httpx.get(f"{self.url}/api/health", timeout=1.0).json().get("ok"):
                    return
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"server {self.name} did not start:\n{self.log_text()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the process (``sig``, then SIGKILL after 15 s)."""
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(sig)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def log_text(self) -> str:
        """What the server wrote so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def searches(self) -> list[str]:
        """The AI searches this process asked its pool for (``game:version``)."""
        try:
            return self.ai_log.read_text().split()
        except OSError:
            return []

    def api(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        """One REST call (``token``: a Bearer header)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.request(method, f"{self.url}{path}", headers=headers, timeout=15, **kw)


def start_all(servers: list[ServerProcess]) -> None:
    """Start several servers at once and wait for each."""
    for server in servers:
        server.start()
    try:
        for server in servers:
            server.wait()
    except BaseException:
        for server in servers:
            server.stop()
        raise
