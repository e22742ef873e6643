"""Run the ``amoeboid`` command in this process, as a subprocess would see it: exit code, stdout, stderr bytes.

Starting Python for every command costs about half a second; the command's own code is what the tests check, so
most run it in-process through :func:`amoeboid_edu.cli.main`.  A few smoke tests still start the real console
script and ``python -m amoeboid_edu`` (tests/package/test_cli.py).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

from amoeboid_edu.cli import main


def amoeboid(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    """``amoeboid ARGS`` with ``stdin``; returns what ``subprocess.run(..., capture_output=True)`` would."""
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    out, err = io.StringIO(), io.StringIO()
    fake_stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    saved = sys.stdin
    sys.stdin = fake_stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args), out=out)
            except SystemExit as exit_:  # argparse: --help (0) or a usage error (2)
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(["amoeboid", *args], code, out.getvalue().encode(), err.getvalue().encode())
