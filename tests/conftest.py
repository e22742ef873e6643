import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from amoeboid_edu.theory.shared_results import ENVIRONMENT as SHARED_RESULTS
from lesson_editions import stands_with_the_teachers
from jupyter_harness import ALL_CELLS, QUIET_SETTINGS, SharedLab, chromium, close_pages, jupyterlab

# tests/strategies holds student-like strategy modules; the lab's workers import them by name.
sys.path.insert(0, str(Path(__file__).parent / "strategies"))

ROOT = Path(__file__).resolve().parent.parent

HEAVY_FIRST = ("tests/theory/test_paper.py", "tests/package/test_binder.py", "tests/browser/test_lessons_browser.py",
               "tests/browser/test_demo_browser.py", "tests/browser/test_widget_browser.py", "lessons/12-",
               "tests/package/test_course_command.py", "tests/browser/test_coach_browser.py",
               "tests/players/test_openspiel.py", "tests/package/test_types.py",
               "tests/lab/test_tournament.py", "tests/theory/test_coach.py",
               "tests/browser/", "lessons/", "tests/sandbox/", "tests/lab/")
"""Files whose tests take minutes, in the order they start: the longest first (by the durations a CI run lists),
then the other files with a ``slow`` test, then the rest.  Under ``-n`` each worker takes the next file when it runs
short of tests, so the long files start while there is still work to fill in around them, and the run does not end
waiting for one worker's long file.  test_paper computes Case III's card (some 40 CPU-s) first, which lesson 6 in
the browser, the teacher's lesson 6 and test_lesson_prose then read (:func:`pytest_configure`); the Binder test,
which needs no card, fills the other worker meanwhile, so that no worker waits for the card.
``--no-loadscope-reorder`` (pyproject's addopts) makes xdist hand out the files
in this order rather than by their number of tests.  Within a file the order is kept (a notebook's cells must run in
order, in one kernel)."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(config, items):
    leave_out_students_editions_the_teachers_stand_for(config, items)
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


def leave_out_students_editions_the_teachers_stand_for(config, items) -> None:
    """nbval runs a student's edition (``lessons/NN-name.ipynb``) only where its teacher's edition does not stand for
    it: tests/lesson_editions.py says when running the teacher's edition checks the student's too, and
    tests/package/test_solutions.py checks the committed student's edition against the teacher's.  A student's
    edition named on the command line still runs."""
    named = {(Path(config.invocation_params.dir) / arg.split("::")[0]).resolve() for arg in config.args}
    left_out = [item for item in items if is_notebook(item) and Path(str(item.fspath)).resolve() not in named
                and stands_with_the_teachers(Path(str(item.fspath)))]  # fmt: skip
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


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


def pytest_configure(config):
    """Give the session a fresh folder of shared results (:mod:`amoeboid_edu.theory.shared_results`): the paper's
    verdicts and Case IV's searches are then computed once per session, not once per xdist worker, lesson kernel
    (student's and teacher's editions), browser-test kernel and ``amoeboid paper`` subprocess.  Set in the controller
    before xdist starts its workers, which inherit it, as do the kernels and commands they start.  Every result is
    seeded or exact, so each reader gets the value it would have computed; the lessons' outputs are still compared
    by nbval."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller's folder, inherited
        return
    folder = tempfile.mkdtemp(prefix="amoeboid-shared-results-")
    os.environ[SHARED_RESULTS] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
