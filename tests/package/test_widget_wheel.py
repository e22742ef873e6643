"""The built wheel carries the board's ES module and CSS, and a non-editable install loads them.

The wheel is built offline (``--no-build-isolation``) and installed with ``--no-deps`` into a clean
venv; the dev venv's site-packages is appended to its path (a ``.pth``) only to supply the
dependencies, so ``amoeboid_edu`` itself can only come from the wheel.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds the wheel and a venv

REPO = Path(__file__).resolve().parents[2]

CHECK = """
import pathlib, sys
import amoeboid_edu, amoeboid_edu.ui.widget as widget
site = pathlib.Path(sys.argv[1]).resolve()
assert site in pathlib.Path(amoeboid_edu.__file__).resolve().parents, amoeboid_edu.__file__
assert widget.STATIC.resolve() == site / "amoeboid_edu" / "_static", widget.STATIC
board = widget.Board()
assert board._esm == (widget.STATIC / "board.js").read_text() and "export default" in board._esm
assert board._css.endswith((widget.STATIC / "board.css").read_text()) and "--amb-a: #0072B2" in board._css
print("loaded", widget.STATIC / "board.js")
"""


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_wheel_ships_and_loads_the_widget_module(tmp_path, built_wheel):
    wheel = built_wheel
    with zipfile.ZipFile(wheel) as archive:
        for name in ("board.js", "board.css"):
            assert archive.read(f"amoeboid_edu/_static/{name}") == (REPO / "widgets" / name).read_bytes()

    env_dir = tmp_path / "clean"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    (site / "dev-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", wheel, cwd=tmp_path)
    assert "loaded" in run(python, "-c", CHECK, site, cwd=tmp_path)
