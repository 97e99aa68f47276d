"""A server killed with SIGKILL leaves no process behind.

A real ``tablier serve`` (SQLite in a temporary folder, two AI workers) is started in a session
of its own, made to search (a game against the ``expert`` AI, which moves first), then killed
with SIGKILL, which gives it no chance to clean up.  Every process it started — the AI workers
and multiprocessing's helpers — must be gone within 10 seconds.  Processes are found through
``/proc`` (Linux): the descendants of the server and the members of its process group.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="needs /proc (Linux) to find the processes"
)

TABLIER = Path(sys.executable).with_name("tablier")


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, ppid, pgid, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name may hold spaces and parentheses
    return fields[0], int(fields[1]), int(fields[2]), int(fields[19])


def _processes() -> dict[int, tuple[str, int, int, int]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                found[int(entry)] = stat
    return found


def _descendants(root: int) -> dict[int, int]:
    """The living descendants of ``root`` and the members of its group: pid -> start time."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (_, ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, int] = {}
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid in table and pid not in found:
            found[pid] = table[pid][3]
            todo.extend(children.get(pid, ()))
    for pid, (_, _, pgid, start) in table.items():
        if pgid == root and pid != root:
            found.setdefault(pid, start)
    return {pid: start for pid, start in found.items() if table[pid][0] != "Z"}


def _alive(pids: dict[int, int], group: int) -> list[int]:
    """Those of ``pids`` still running (same start time, not a zombie), and group members."""
    left = []
    for pid, (state, _, pgid, start) in _processes().items():
        if state == "Z":
            continue
        if pids.get(pid) == start or pgid == group:
            left.append(pid)
    return left


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _call(url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


def test_sigkill_leaves_no_process(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    server = subprocess.Popen(
        [
            str(TABLIER),
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{tmp_path / 'tablier.db'}",
            "--ai-workers",
            "2",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: whatever it starts stays in it
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if _call(f"{base}/api/health")["ok"]:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {server.stderr.read()!r}")
            time.sleep(0.1)
        created = _call(
            f"{base}/api/games",
            {"game": "volo", "mode": "ai", "seat": 1, "ai_level": "expert"},
        )
        assert created["game"]["ai"]["thinking"] is True
        time.sleep(0.5)  # the search is under way in a worker
        helpers = _descendants(server.pid)
        # The two AI workers and the spawn context's resource tracker at least.
        assert len(helpers) >= 3, helpers
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=5)
        killed = time.monotonic()
        left = _alive(helpers, server.pid)
        while left and time.monotonic() - killed < 10:
            time.sleep(0.05)
            left = _alive(helpers, server.pid)
        took = time.monotonic() - killed
        print(f"\n{len(helpers)} processes gone {took:.2f} s after SIGKILL")
        assert not left, f"still running {took:.1f} s after SIGKILL: {left}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for pid in _descendants(server.pid):
            os.kill(pid, signal.SIGKILL)  # never leave them behind, even when the test fails
