import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import session_share
from jupyter_harness import ALL_CELLS, QUIET_SETTINGS, SharedLab, chromium, close_pages, jupyterlab

# tests/strategies holds student-like strategy modules; the lab's workers import them by name.
sys.path.insert(0, str(Path(__file__).parent / "strategies"))

ROOT = Path(__file__).resolve().parent.parent

HEAVY_FIRST = ("tests/package/test_binder.py", "tests/theory/test_paper.py", "tests/players/test_openspiel.py",
               "tests/package/test_types.py", "tests/lab/test_tournament.py", "tests/theory/test_coach.py",
               "tests/browser/", "lessons/", "tests/sandbox/", "tests/lab/")
"""Files whose tests take minutes, in the order they start: longest first, then the other files with a ``slow`` test,
then the rest.  With several workers (``-n``) the short files fill in around the long ones, and the run does not end
on one worker's long file.  ``--no-loadscope-reorder`` (pyproject's addopts) makes xdist hand out the files in this
order rather than by their number of tests.  Within a file the order is kept (a notebook's cells must run in order,
in one kernel)."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("browser") or is_notebook(item):
            item.add_marker(pytest.mark.slow)
    has_slow = {item.path for item in items if item.get_closest_marker("slow")}

    def weight(item) -> int:
        try:
            path = item.path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            path = ""
        rank = next((rank for rank, prefix in enumerate(HEAVY_FIRST) if path.startswith(prefix)), None)
        return rank if rank is not None else len(HEAVY_FIRST) + (item.path not in has_slow)

    items.sort(key=weight)  # stable: the order inside a file is unchanged


def is_notebook(item) -> bool:
    """A lesson's cell checked by nbval (``lessons/*.ipynb``, ``lessons/solutions/*.ipynb``)."""
    where = Path(str(item.fspath)).resolve()
    return where.suffix == ".ipynb" and where.is_relative_to(ROOT / "lessons")


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


@pytest.fixture(scope="session")
def session_lab(tmp_path_factory):
    """One quiet JupyterLab (every cell in the DOM) for the session's browser tests: see jupyter_harness.SharedLab."""
    root = tmp_path_factory.mktemp("jupyterlab")
    token = "amoeboid-session-lab"
    with jupyterlab(root, token, ALL_CELLS) as base:
        yield SharedLab(root, base, token, {**QUIET_SETTINGS, **ALL_CELLS})


@pytest.fixture(scope="session")
def session_browser():
    """Debian's headless Chromium, started once per session."""
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def browser(session_browser):
    """The session's Chromium for one module; the module's pages are closed when it ends."""
    yield session_browser
    close_pages(session_browser)


SHARED_FOLDER: Path | None = None
"""This process's way to the session's shared temporary folder (:func:`_shared_folder`), once a test has run here."""


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory) -> Path:
    """The session's temporary folder that every xdist worker sees (the one above each worker's own)."""
    global SHARED_FOLDER
    base = tmp_path_factory.getbasetemp()
    SHARED_FOLDER = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return SHARED_FOLDER


@pytest.fixture(scope="session")
def paper_verdicts_once_per_session(_shared_folder):
    """The paper's costliest computations made once per session, shared by the workers (tests/session_share.py)."""
    share = session_share.sharer(_shared_folder)
    if share is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        session_share.install(share, patch.setattr)
        yield


PAPER_IMPORT = re.compile(r"from amoeboid_edu\.theory import [^\n]*\bpaper\b")


class LessonKernels:
    """A lesson that imports the paper's module starts its kernel (nbval, at its first cell) with an IPython
    directory whose startup file shares the paper's computations with the test processes (tests/session_share.py):
    a lesson and its teacher's edition then compute lesson 6's case-III card and lesson 7's searches once.

    A plugin rather than this conftest's own hook: a conftest's per-test hooks see only the tests below its folder,
    and the lessons are not."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        folder = SHARED_FOLDER
        if folder is None or not is_notebook(item) or not PAPER_IMPORT.search(item.path.read_text(encoding="utf-8")):
            yield
            return
        saved = os.environ.get("IPYTHONDIR")
        os.environ["IPYTHONDIR"] = str(session_share.ipython_dir(folder))
        try:
            yield
        finally:
            if saved is None:
                del os.environ["IPYTHONDIR"]
            else:
                os.environ["IPYTHONDIR"] = saved


def pytest_configure(config):
    config.pluginmanager.register(LessonKernels(), "amoeboid-lesson-kernels")


@pytest.fixture(autouse=True, scope="module")
def _paper_verdicts_shared(request):
    """Every test module that imports the paper's module gets :func:`paper_verdicts_once_per_session`."""
    module = getattr(request.module, "paper", None)
    if module is not None and getattr(module, "__name__", "") == "amoeboid_edu.theory.paper":
        request.getfixturevalue("paper_verdicts_once_per_session")
