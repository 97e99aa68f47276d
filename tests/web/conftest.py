"""Fixtures for the browser tests: a real ``tablier serve`` process and Debian's Chromium.

- ``live_server`` (session): ``tablier serve`` started as a subprocess on a free port with
  a temporary SQLite database; ``.url``, ``.restart()`` (same port, same database),
  ``.api(method, path, token=None, json=None)`` for direct REST calls (e.g. forged requests),
  ``.log_text()`` the server's output.
- ``browser`` (session): Playwright's Chromium driving ``/usr/bin/chromium`` (never a
  downloaded browser), headless.  Skipped with a clear message when Chromium or Playwright
  is missing; failed instead when ``TABLIER_REQUIRE_BROWSER=1`` (CI sets it).
- ``new_page(**context_options)``: a page in a fresh browser context (its own storage,
  so two calls are two independent browsers); uncaught JavaScript errors fail the test.
- ``screenshot(page, name)``: saves ``test-artifacts/screenshots/<name>.png`` for review.

The server under test plays the real AI levels (the tests use ``easy``, a few
hundredths of a second per decision); see docs/web-client.md.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = Path(os.environ.get("TABLIER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE_BROWSER = os.environ.get("TABLIER_REQUIRE_BROWSER") == "1"
START_TIMEOUT = 30.0
PAGE_TIMEOUT_MS = 10_000


def _unavailable(reason: str) -> None:
    """Skip the test, or fail it when the browser is required (CI)."""
    if REQUIRE_BROWSER:
        pytest.fail(f"browser tests required (TABLIER_REQUIRE_BROWSER=1) but {reason}")
    pytest.skip(f"browser tests skipped: {reason} (set TABLIER_REQUIRE_BROWSER=1 to fail)")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """A ``tablier serve`` subprocess bound to 127.0.0.1 on a free port."""

    def __init__(self, workdir: Path) -> None:
        """Prepare (not start) a server whose database and log live in ``workdir``."""
        self.workdir = workdir
        self.database_path = workdir / "tablier.sqlite3"
        self.database_url = f"sqlite:///{self.database_path}"
        self.log_path = workdir / "server.log"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.python = sys.executable

    def command(self) -> list[str]:
        """The command line that starts the server."""
        return [
            self.python,
            "-c",
            "from tablier.cli.main import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
            # the browser tests create games and accounts and chat from one address all session
            *("--rate-limit", "create_game=off", "--rate-limit", "ai_game=off"),
            *("--rate-limit", "challenge=off", "--rate-limit", "signup=off"),
            *("--rate-limit", "login=off", "--rate-limit", "chat=off"),
        ]

    def environment(self) -> dict[str, str]:
        """The server's environment (unbuffered output, so the log is complete)."""
        return {**os.environ, "PYTHONUNBUFFERED": "1"}

    def start(self) -> None:
        """Start the process and wait until ``/api/health`` answers."""
        log = self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(
                self.command(),
                cwd=self.workdir,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        import httpx

        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                pytest.fail(
                    f"tablier serve exited with {self.process.returncode}:\n{self.log_text()}"
                )
            try:
                response = httpx.get(f"{self.url}/api/health", timeout=1.0)
                if response.status_code == 200 and response.json().get("ok"):
                    return
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        pytest.fail(
            f"tablier serve did not answer /api/health in {START_TIMEOUT:.0f} s:\n{self.log_text()}"
        )

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL after 10 s)."""
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def restart(self) -> None:
        """Stop and start again on the same port with the same database."""
        self.stop()
        self.start()

    def log_text(self) -> str:
        """The server's output so far (stdout and stderr)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def api(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """One REST call (an ``httpx.Response``); ``token`` becomes a Bearer header."""
        import httpx

        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        return httpx.request(method, f"{self.url}{path}", json=json, headers=sent, timeout=15)


@pytest.fixture(scope="session")
def live_server():
    """A running ``tablier serve`` for the whole session (one per xdist worker)."""
    workdir = Path(tempfile.mkdtemp(prefix="tablier-web-"))
    server = LiveServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def _playwright():
    """The Playwright driver, started once per session (None when unavailable)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - depends on the machine
        yield None, f"Playwright for Python is not installed ({exc})"
        return
    manager = sync_playwright()
    try:
        driver = manager.start()
    except Exception as exc:  # pragma: no cover - depends on the machine
        yield None, f"Playwright could not start ({exc})"
        return
    try:
        yield driver, ""
    finally:
        manager.__exit__(None, None, None)


@pytest.fixture(scope="session")
def _chromium(_playwright):
    """Debian's Chromium launched once per session (None and a reason when unavailable)."""
    driver, reason = _playwright
    if driver is None:
        yield None, reason
        return
    if not CHROMIUM.exists():
        yield None, f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        return
    try:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
    except Exception as exc:  # pragma: no cover - depends on the machine
        yield None, f"Chromium at {CHROMIUM} could not be launched ({exc})"
        return
    try:
        yield browser, ""
    finally:
        browser.close()


@pytest.fixture
def browser(_chromium):
    """The session's Chromium (a ``playwright.sync_api.Browser``)."""
    instance, reason = _chromium
    if instance is None:
        _unavailable(reason)
    return instance


@pytest.fixture
def new_page(browser):
    """Factory: ``new_page(**context_options)`` → a page in a fresh, isolated context.

    Each call is a separate "browser" (own localStorage, cookies and WebSockets).
    ``page.js_errors`` collects uncaught JavaScript errors; any left at the end of the
    test fail it.  Default viewport 1200×900, default timeout 10 s.
    """
    contexts = []
    pages = []

    def make(**options: Any):
        options.setdefault("viewport", {"width": 1200, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda exc, page=page: page.js_errors.append(str(exc)))
        pages.append(page)
        return page

    yield make
    errors = [f"{page.url}: {err}" for page in pages for err in page.js_errors]
    for context in contexts:
        with contextlib.suppress(Exception):  # a crashed context
            context.close()
    if errors:
        pytest.fail("uncaught JavaScript errors:\n" + "\n".join(errors))


@pytest.fixture
def screenshot():
    """``screenshot(page, name)`` saves ``test-artifacts/screenshots/<name>.png``; returns it."""

    def take(page, name: str, *, full_page: bool = False) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "screenshot"
        path = SCREENSHOTS / f"{safe}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
