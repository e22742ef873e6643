import functools
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from jupyter_harness import ALL_CELLS, QUIET_SETTINGS, SharedLab, chromium, close_pages, jupyterlab

# tests/strategies holds student-like strategy modules; the lab's workers import them by name.
sys.path.insert(0, str(Path(__file__).parent / "strategies"))

ROOT = Path(__file__).resolve().parent.parent

HEAVY_FIRST = ("tests/browser/test_lessons_browser.py", "tests/theory/test_paper.py",
               "lessons/solutions/06-", "lessons/06-", "tests/package/test_binder.py",
               "tests/browser/test_demo_browser.py", "tests/browser/test_widget_browser.py", "lessons/12-",
               "tests/package/test_course_command.py", "tests/browser/test_coach_browser.py",
               "tests/players/test_openspiel.py", "tests/package/test_types.py", "lessons/solutions/07-", "lessons/07-",
               "tests/lab/test_tournament.py", "tests/theory/test_coach.py",
               "tests/browser/", "lessons/", "tests/sandbox/", "tests/lab/")
"""Files whose tests take minutes, in the order they start: the longest first (by the durations a CI run lists),
then the other files with a ``slow`` test, then the rest.  Under ``-n`` each worker takes the next file when it runs
short of tests, so the long files start while there is still work to fill in around them, and the run does not end
waiting for one worker's long file.  ``--no-loadscope-reorder`` (pyproject's addopts) makes xdist hand out the files
in this order rather than by their number of tests.  Within a file the order is kept (a notebook's cells must run in
order, in one kernel)."""


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


def once_per_session(tmp_path_factory) -> Callable[[str, Callable[[], Any]], Any] | None:
    """``share(name, compute)``: ``compute()`` made once per test session rather than once per xdist worker, or None
    when there is nothing to share (one process) or no way to (no flock: Windows).

    The first worker to ask computes it (under a lock) and pickles it into the session's shared temporary folder; the
    others wait for it and read it.  Only for seeded or exact computations, so the one read is the one the worker
    would have computed.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): each worker computes its own
        return None
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: its own caches are enough
        return None
    shared = tmp_path_factory.getbasetemp().parent  # the session's folder, above every worker's own

    def share(name: str, compute: Callable[[], Any]) -> Any:
        path = shared / f"{name}.pickle"
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path.exists():
                return pickle.loads(path.read_bytes())
            value = compute()
            path.with_suffix(".part").write_bytes(pickle.dumps(value))
            path.with_suffix(".part").replace(path)
            return value

    return share


@pytest.fixture(scope="session")
def paper_verdicts_once_per_session(tmp_path_factory):
    """Makes :func:`amoeboid_edu.theory.paper.verdict` compute each of :data:`SHARED_VERDICTS` once per test session
    rather than once per xdist worker (:func:`once_per_session`), and likewise Case IV's forced-win search at each
    lead (:func:`~amoeboid_edu.theory.paper.case_IV.halving_forced_win`, 1-2 CPU seconds a lead, which
    ``case_IV_threshold`` runs at 10 leads in the paper's card and at 32 in its test).  Within a process the paper
    module's own caches still hold them."""
    from amoeboid_edu.theory import paper
    from amoeboid_edu.theory.paper import case_IV

    share = once_per_session(tmp_path_factory)
    if share is None:
        yield
        return
    compute, search = paper._compute, case_IV.halving_forced_win

    def verdict_once_per_session(item: str, full: bool, seed: int | str):
        if item not in SHARED_VERDICTS:
            return compute(item, full, seed)
        return share(f"paper-verdict-{item}-{'full' if full else 'quick'}-{seed}", lambda: compute(item, full, seed))

    @functools.lru_cache(maxsize=None)  # as the search's own cache: one entry per call, cache_info() for the tests
    def search_once_per_session(delta: int, b_size: int = 16, a_turns: int = case_IV.FORCED_TURNS,
                                budget: int = 400_000) -> tuple[bool | None, int]:
        return share(f"case-IV-halving-forced-win-{delta}-{b_size}-{a_turns}-{budget}",
                     lambda: search(delta, b_size, a_turns, budget))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(paper, "_compute", verdict_once_per_session)
        patch.setattr(case_IV, "halving_forced_win", search_once_per_session)
        yield


@pytest.fixture(autouse=True, scope="module")
def _paper_verdicts_shared(request):
    """Every test module that imports the paper's module gets :func:`paper_verdicts_once_per_session`."""
    module = getattr(request.module, "paper", None)
    if module is not None and getattr(module, "__name__", "") == "amoeboid_edu.theory.paper":
        request.getfixturevalue("paper_verdicts_once_per_session")
