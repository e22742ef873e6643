"""The README's first command, run as a new user runs it: `./dev.sh course` opens the start-here lesson."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from jupyter_harness import free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def test_dev_sh_course_opens_the_start_here_lesson(tmp_path, browser):
    port, token = free_port(), "amoeboid-course-command"
    env = {**os.environ, "AMOEBOID_VENV": sys.prefix, "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces")}  # fmt: skip
    log_path = tmp_path / "course.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [str(ROOT / "dev.sh"), "course", "--no-browser", f"--port={port}", f"--ServerApp.token={token}",
             "--ServerApp.ip=127.0.0.1"],  # fmt: skip
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 90
            launch = None
            while launch is None:
                assert server.poll() is None, log_path.read_text()[-2000:]
                assert time.monotonic() < deadline, f"JupyterLab printed no URL: {log_path.read_text()[-2000:]}"
                launch = re.search(rf"http://127\.0\.0\.1:{port}/\S+", log_path.read_text())
                time.sleep(0.3)
            url = launch.group(0).split("?")[0]  # the log hides the token it was given
            assert url.endswith("/lab/tree/lessons/01-start-here.ipynb")  # where a student's browser is sent
            page = browser.new_page()  # the session's Chromium: a second Playwright in one process is refused
            page.goto(f"{url}?token={token}")
            page.locator(".jp-NotebookPanel h1", has_text="Start here").first.wait_for(timeout=60_000)
            assert page.locator(".lm-TabBar-tabLabel", has_text="01-start-here.ipynb").count() == 1
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
