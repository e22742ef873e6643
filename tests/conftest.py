import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
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


SHARED_VERDICTS = ("case-III",)
"""The paper's verdicts that test modules on different xdist workers ask for (``tests/theory/test_paper.py`` and
``tests/package/test_lesson_prose.py`` both read case-III's card, some 40 CPU seconds): computed once per session."""


@pytest.fixture(scope="session")
def paper_verdicts_once_per_session(tmp_path_factory):
    """Makes :func:`amoeboid_edu.theory.paper.verdict` compute each of :data:`SHARED_VERDICTS` once per test session
    rather than once per xdist worker: the first worker to ask computes it (under a lock) and pickles it into the
    session's shared temporary folder; the others wait for it and read it.  Every verdict is seeded, so the one read
    is the one the worker would have computed.  Within a process the paper module's own cache still holds it."""
    from amoeboid_edu.theory import paper

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    try:
        import fcntl
    except ImportError:  # no flock (Windows): each worker computes its own
        fcntl = None
    if worker is None or fcntl is None:  # one process: its own cache is enough
        yield
        return
    shared = tmp_path_factory.getbasetemp().parent  # the session's folder, above every worker's own
    compute = paper._compute

    def once_per_session(item: str, full: bool, seed: int | str):
        if item not in SHARED_VERDICTS:
            return compute(item, full, seed)
        path = shared / f"paper-verdict-{item}-{'full' if full else 'quick'}-{seed}.pickle"
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path.exists():
                return pickle.loads(path.read_bytes())
            verdict = compute(item, full, seed)
            path.with_suffix(".part").write_bytes(pickle.dumps(verdict))
            path.with_suffix(".part").replace(path)
            return verdict

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(paper, "_compute", once_per_session)
        yield


@pytest.fixture(autouse=True, scope="module")
def _paper_verdicts_shared(request):
    """Every test module that imports the paper's module gets :func:`paper_verdicts_once_per_session`."""
    module = getattr(request.module, "paper", None)
    if module is not None and getattr(module, "__name__", "") == "amoeboid_edu.theory.paper":
        request.getfixturevalue("paper_verdicts_once_per_session")
