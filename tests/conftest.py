import subprocess
import sys
from pathlib import Path

import pytest

# tests/strategies holds student-like strategy modules; the lab's workers import them by name.
sys.path.insert(0, str(Path(__file__).parent / "strategies"))

ROOT = Path(__file__).resolve().parent.parent

HEAVY_FIRST = ("lessons/", "tests/browser/", "tests/package/test_binder.py", "tests/players/test_openspiel.py",
               "tests/theory/test_paper.py", "tests/lab/", "tests/sandbox/", "tests/theory/test_coach.py")
"""Files whose tests take minutes, started first: with several workers (``-n``) the short ones fill in around them.
Within a file the order is kept (a notebook's cells must run in order, in one kernel)."""


def pytest_collection_modifyitems(config, items):
    def weight(item) -> int:
        where = Path(str(item.fspath)).resolve()
        try:
            path = where.relative_to(ROOT).as_posix()
        except ValueError:
            return len(HEAVY_FIRST)
        return next((rank for rank, prefix in enumerate(HEAVY_FIRST) if path.startswith(prefix)), len(HEAVY_FIRST))

    items.sort(key=weight)  # stable: the order inside a file is unchanged


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    """The package's wheel, built once per session, offline (``--no-build-isolation``: hatchling comes from the venv)."""
    folder = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-w", str(folder), str(Path(__file__).resolve().parent.parent)],
                          cwd=folder, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = folder.glob("amoeboid_edu-*.whl")
    return wheel
