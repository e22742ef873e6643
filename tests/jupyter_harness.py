"""What the browser tests share: a quiet JupyterLab on 127.0.0.1 and Debian's headless Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip
QUIET_SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/themes": {"theme": "JupyterLab Light"},
}
SESSION_HELPERS: set[int] = set()
"""The processes this test process started for the whole session (JupyterLab's server, Playwright's driver, which
runs Chromium): they start and end processes of their own at any time (kernels, Chromium's renderers and utility
processes), which a test that counts the processes it left behind must not take for its own
(tests/sandbox/test_sandbox.py leaves their subtrees out)."""


def living_parents() -> dict[int, int]:
    """``{pid: parent pid}`` of every process that is not a zombie, read from each ``/proc/PID/stat`` (the fields
    after the command's closing parenthesis: state, then parent; a process that ends meanwhile is skipped)."""
    parents = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()
            if fields[0] != b"Z":
                parents[int(name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return parents


def _children() -> set[int]:
    """This process's direct children."""
    return {pid for pid, parent in living_parents().items() if parent == os.getpid()}


def read_state(read) -> dict | None:
    """``read()`` (a board's state, which its notebook writes to a file), or None when caught mid-write."""
    try:
        return read()
    except (json.JSONDecodeError, FileNotFoundError):
        return None


def require_chromium() -> None:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: ./dev.sh test installs Debian's chromium")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_settings(settings: Path, extra: dict | None = None) -> None:
    """No news toast, no autosave, the light theme (plus ``extra``): a quiet, reproducible JupyterLab."""
    for plugin, content in {**QUIET_SETTINGS, **(extra or {})}.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))


@contextlib.contextmanager
def jupyterlab(root: Path, token: str, settings: dict | None = None, *, fresh: bool = False) -> Iterator[str]:
    """Serve ``root`` with JupyterLab (token auth, temporary settings and workspaces); yields the base URL.

    ``fresh``: also a new Jupyter data, config and runtime directory, as on Binder or a new laptop: no trust
    database, so every notebook opens untrusted.
    """
    require_chromium()
    state = root / ".jupyterlab-state"
    write_settings(state / "settings", settings)
    (state / "workspaces").mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(state / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(state / "workspaces")}  # fmt: skip
    if fresh:
        for name in ("JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
            env[name] = str(state / name.lower())
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True"]
    if os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise (CI runs as root)
    log_path = state / "lab.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        SESSION_HELPERS.add(server.pid)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        pytest.fail(f"JupyterLab did not start: {log_path.read_text()[-2000:]}")
                    time.sleep(0.3)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            SESSION_HELPERS.discard(server.pid)  # reaped: its pid may be a sandbox test's process next


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    before = _children()
    with sync_playwright() as playwright:
        driver = _children() - before  # Playwright's driver, Chromium's parent
        SESSION_HELPERS.update(driver)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    SESSION_HELPERS.difference_update(driver)  # the driver ended with the block


PROJECTOR_SCREENS = {"1280x720": ({"width": 1280, "height": 720}, 1), "150% zoom": ({"width": 853, "height": 480}, 1.5)}
"""A projector at 1280x720, and the same screen at 150% zoom (an 853x480 window of 1.5 device pixels a pixel)."""


def open_notebook(browser, url: str, screen: str):
    """A page on the notebook at ``url`` as the teacher sees it: ready, file browser folded (the teacher's Ctrl+B)."""
    viewport, scale = PROJECTOR_SCREENS[screen]
    page = browser.new_page(viewport=viewport, device_scale_factor=scale)
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    page.evaluate("""async () => {
        const panel = window.jupyterapp.shell.currentWidget;
        await panel.context.ready;
        await panel.sessionContext.ready;
        if (!window.jupyterapp.shell.leftCollapsed) window.jupyterapp.commands.execute('application:toggle-left-area');
    }""")
    return page


def start_kernel(page) -> None:
    """Wait (up to a minute) for the open notebook's kernel to be idle, accepting JupyterLab's "Select Kernel" dialog
    if it asks."""
    kernel_idle = "() => window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle'"
    deadline = time.monotonic() + 60
    while not page.evaluate(kernel_idle):
        accept = page.locator(".jp-Dialog .jp-mod-accept")
        if accept.count():
            accept.click()
        assert time.monotonic() < deadline, "the notebook's kernel did not start"
        page.wait_for_timeout(100)


ALL_CELLS = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
"""Every cell in the DOM (no virtual scrolling), so a test can find any cell's output."""


class SharedLab:
    """One JupyterLab for a test session (per xdist worker): each test module serves its notebooks from a folder.

    Starting JupyterLab costs seconds to tens of seconds on a loaded machine; the browser tests that do not test a
    fresh server share this one.  Between modules the kernels are shut down and the browser's pages closed, so a
    module meets the server as a fresh module would, except for its trust database (a test about an untrusted
    first visit starts its own ``jupyterlab(..., fresh=True)``).
    """

    def __init__(self, root: Path, base: str, token: str, settings: dict) -> None:
        self.root, self.base, self.token, self.settings = root, base, token, settings

    @contextlib.contextmanager
    def serving(self, name: str, browser) -> Iterator[Path]:
        """A new folder ``name`` under the server's root for one module; afterwards the browser's pages are closed
        (before their kernels go, so no page sees its kernel die) and the kernels shut down."""
        folder = self.root / name
        folder.mkdir()
        try:
            yield folder
        finally:
            close_pages(browser)
            self.shut_down_kernels()
            self.restore_settings()

    def url(self, folder: Path, notebook: str, *, reset: bool = True) -> str:
        """The URL that opens ``folder/notebook``; ``reset``: only that notebook open (a new workspace state)."""
        path = (folder / notebook).relative_to(self.root).as_posix()
        return f"{self.base}/lab/tree/{path}?{'reset&' if reset else ''}token={self.token}"

    def _call(self, method: str, path: str, body: dict | None = None) -> object:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method,
                                         headers={"Authorization": f"token {self.token}"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as reply:
            text = reply.read()
        return json.loads(text) if text else None

    def shut_down_kernels(self) -> None:
        """End every notebook session (and its kernel) on the server."""
        sessions = self._call("GET", "/api/sessions")
        assert isinstance(sessions, list)
        for session in sessions:
            self._call("DELETE", f"/api/sessions/{session['id']}")

    def restore_settings(self) -> None:
        """Put back the settings the server started with (a test may have switched the theme)."""
        for path, content in self.settings.items():
            plugin = path.rsplit("/", 1)
            self._call("PUT", f"/lab/api/settings/{plugin[0]}:{plugin[1]}", {"raw": json.dumps(content)})


def shows_state(page, board, read, after: int | None = None, timeout: float = 60.0) -> dict:
    """Wait until ``board`` (a locator of an ``.amoeboid-board`` or a hex board's root) shows the version its
    notebook's Python holds (``read()``: that state, recorded to a file; newer than ``after`` if given), and return
    that state.  The Python side is polled by reading its file; the browser is asked once per new version, waiting in
    the page (a round trip to the browser every few milliseconds would cost more CPU than the board).  ``timeout``
    is a hang guard, not a timing: generous for a loaded machine."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    deadline = time.monotonic() + timeout
    shown = None
    while True:
        state = read_state(read)
        if state is not None and (after is None or state["version"] > after):
            if shown is None or shown < state["version"]:
                left = max(0.1, deadline - time.monotonic())
                handle = board.element_handle(timeout=left * 1000)
                try:
                    page.wait_for_function("([b, v]) => Number(b.dataset.version) >= v", timeout=left * 1000,
                                           arg=[handle, state["version"]], polling=10)
                except PlaywrightTimeoutError:  # the versions are named in the message below
                    pass
                shown = int(board.get_attribute("data-version") or -1)
            if shown == state["version"]:
                again = read_state(read)
                if again is not None and again["version"] == shown:
                    return again
        assert time.monotonic() < deadline, f"the board did not settle: {state and state['version']} vs {shown}"
        time.sleep(0.01)


def close_pages(browser) -> None:
    """Close every page (and its context) of a shared browser, so the next module starts with none."""
    for context in list(browser.contexts):
        context.close()
