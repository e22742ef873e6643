"""Binder builds the course from ``binder/`` alone: check those files, then simulate the build and run lessons.

repo2docker installs ``binder/requirements.txt`` with the Python of
``binder/runtime.txt`` and then runs ``binder/postBuild`` from the repository
root.  The simulation does the same in a fresh venv (no editable install, no
test packages) and re-executes the lessons of ``BINDER_LESSONS`` there, comparing
the outputs with the committed notebooks (``scripts/build_lessons.py --check
--lessons-only``: every lesson and teacher's edition runs under nbval in the main suite).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
TEST_ONLY = {"pytest", "nbval", "playwright", "hypothesis", "coverage"}


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", requirement).lower()


def pins(path: Path) -> dict[str, str]:
    """``{normalised name: version}`` of a file of ``name==version`` lines (comments and blanks skipped)."""
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, separator, version = line.partition("==")
            assert separator and version, f"{path.name}: {line!r} is not pinned as name==version"
            found[_name(name)] = version
    return found


def binder_python() -> str:
    runtime = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(3\.\d+)", runtime)
    assert match, f"binder/runtime.txt must read like python-3.11, not {runtime!r}"
    return match[1]


def test_binder_pins_are_exactly_the_projects_constraints():
    constraints = pins(ROOT / "requirements" / "constraints.txt")
    binder = pins(BINDER / "requirements.txt")
    assert {name: version for name, version in binder.items() if constraints.get(name) != version} == {}
    assert "jupyterlab" in binder and "anywidget" in binder
    assert not TEST_ONLY & binder.keys(), "keep test-only packages out of Binder"


def test_binder_installs_every_dependency_the_course_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = project["dependencies"] + extras["course"] + extras["openspiel"]  # lesson 12 plays OpenSpiel's MCTS
    names = {_name(re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]) for requirement in declared}
    missing = names - pins(BINDER / "requirements.txt").keys()
    assert not missing, f"add to binder/requirements.txt, pinned as in requirements/constraints.txt: {sorted(missing)}"


def test_binder_python_is_one_the_pins_support():
    # numpy 2.4 and pandas 3 need Python >= 3.11; Binder's default is 3.10.
    assert tuple(int(part) for part in binder_python().split(".")) >= (3, 11)


def test_postbuild_is_executable_and_installs_the_package_itself():
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert re.search(r"pip install .*--no-deps \.$", post_build.read_text(), re.MULTILINE)


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    shown = " ".join(map(str, command))
    assert result.returncode == 0, f"{shown} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


BINDER_LESSONS = ("01", "09", "11", "12")
"""The lessons re-run in the Binder-like venv: together they import every part of the installed wheel (the
board widget and the course, the sandboxed lab, the namesakes, OpenSpiel).  Every lesson runs under nbval in
the main suite; running all of them here again cost about five minutes of CI."""


@pytest.mark.slow
def test_a_binder_build_from_binder_files_runs_the_lessons_that_reach_every_module(tmp_path):
    version = binder_python()
    python = shutil.which(f"python{version}")
    if python is None and f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        python = sys.executable
    assert python, f"binder/runtime.txt asks for Python {version}, which this machine lacks"
    venv = tmp_path / "binder-venv"
    _run([python, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        VIRTUAL_ENV=str(venv),
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),  # no kernel specs from this machine's user
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"], cwd=ROOT, env=env)
    _run([BINDER / "postBuild"], cwd=ROOT, env=env)
    _run([bin_dir / "python", "-m", "pip", "check"], env=env)
    where = "import amoeboid_edu; print(amoeboid_edu.__file__)"
    located = _run([bin_dir / "python", "-c", where], cwd=tmp_path, env=env)
    assert located.stdout.startswith(str(venv)), "the lessons must run against the installed wheel"
    course = _run([bin_dir / "python", ROOT / "scripts" / "build_lessons.py", "--check", "--lessons-only",
                   *BINDER_LESSONS], cwd=ROOT, env=env)
    print(course.stdout)  # per-lesson seconds and peak memory, shown with pytest -s
