"""Binder builds the course from ``binder/`` alone: check those files, then simulate the build and run lessons.

repo2docker first creates its own environment (Jupyter included) from the lock it ships for the Python of
``binder/runtime.txt``, then installs ``binder/requirements.txt`` into it and runs ``binder/postBuild`` from the
repository root.  The simulation does the same in a fresh venv: repo2docker's lock (read from the
``jupyter-repo2docker`` package, its conda names turned into PyPI's), then our requirements, then postBuild;
``pip check`` must be clean (our pins must not fight repo2docker's Jupyter) and site-packages stay under
``SITE_PACKAGES_LIMIT``.  It re-executes the lessons of ``BINDER_LESSONS`` there, comparing the outputs with the
committed notebooks (``scripts/build_lessons.py --check --lessons-only``: every lesson and teacher's edition runs
under nbval in the main suite).  PyPI must be reachable.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
TEST_ONLY = {"pytest", "nbval", "playwright", "hypothesis", "coverage"}
REPO2DOCKER = "jupyter-repo2docker==2026.4.0"
"""The repo2docker whose base environment Binder's build is checked against (mybinder.org's at the time)."""
CONDA_TO_PYPI = {"brotli-python": "brotli", "python-fastjsonschema": "fastjsonschema",
                 "jupyterhub-base": "jupyterhub", "nbconvert-core": "nbconvert"}
"""conda-forge names in repo2docker's lock whose PyPI name differs (the others match once normalised)."""
JUPYTER = {"jupyterlab", "notebook", "jupyter-server", "ipykernel", "ipywidgets", "jupyterlab-widgets"}
"""What repo2docker's environment brings: Binder must not pin its own versions of these."""
SITE_PACKAGES_LIMIT = 800 << 20
"""Measured here (file sizes, .pyc included, as pip and conda leave them): 764 MB, of which repo2docker's own
environment is 308 MB; the course adds pandas, vl-convert and NumPy (about 80 MB each on disk) and the coach's
Numba with llvmlite (about 205 MB).  The issue's goal of 500 MB would need Numba and vl-convert out of Binder (the
coach's pure-Python tails, charts drawn by vega-embed): not done."""
OURS_LIMIT = 480 << 20
"""What binder/requirements.txt and the package may add to repo2docker's environment (OpenSpiel's 215 MB is on demand)."""


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


def pins_of(freeze: str) -> dict[str, str]:
    """``{normalised name: version}`` of ``pip freeze`` output."""
    return {_name(name): version for name, _, version in (line.partition("==") for line in freeze.splitlines())
            if version}


def binder_python() -> str:
    runtime = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(3\.\d+)", runtime)
    assert match, f"binder/runtime.txt must read like python-3.11, not {runtime!r}"
    return match[1]


@pytest.fixture(scope="module")
def base_environment(tmp_path_factory) -> dict[str, str]:
    """repo2docker's base environment for Binder's Python: ``{PyPI name: version}`` of its Python packages."""
    folder = tmp_path_factory.mktemp("repo2docker")
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "-d", folder,
          REPO2DOCKER])
    (wheel,) = folder.glob("jupyter_repo2docker-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        lock = archive.read(f"repo2docker/buildpacks/conda/environment.py-{binder_python()}-linux-64.lock").decode()
    found = {}
    for url in re.findall(r"^https://\S+/(?:noarch|linux-64)/(\S+?)\.(?:conda|tar\.bz2)#", lock, re.MULTILINE):
        name, version, build = url.rsplit("-", 2)
        if build.startswith("py"):  # a Python package (the interpreter's build is "..._cpython"; libraries "h...")
            found[_name(CONDA_TO_PYPI.get(name, name))] = version
    assert "jupyterlab" in found and "notebook" in found and "python" not in found, sorted(found)
    return found


def test_binder_pins_are_exactly_the_projects_constraints():
    constraints = pins(ROOT / "requirements" / "constraints.txt")
    binder = pins(BINDER / "requirements.txt")
    assert {name: version for name, version in binder.items() if constraints.get(name) != version} == {}
    assert "anywidget" in binder and "vl-convert-python" in binder
    assert not TEST_ONLY & binder.keys(), "keep test-only packages out of Binder"
    assert not JUPYTER & binder.keys(), "Jupyter is repo2docker's: pinning our own breaks its Notebook"
    assert "open-spiel" not in binder  # lesson 12 installs it on demand


def test_lesson_12_installs_the_openspiel_of_the_constraints():
    from amoeboid_edu.ui.course_files import OPENSPIEL

    name, _, version = OPENSPIEL.partition("==")
    assert pins(ROOT / "requirements" / "constraints.txt")[_name(name)] == version
    assert f'ensure_installed("{OPENSPIEL}", "pyspiel")' in (ROOT / "lessons" / "src" / "12-appendix-mcts.py").read_text()


def test_binder_installs_every_dependency_the_course_declares(base_environment):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["course"]
    names = {_name(re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]) for requirement in declared}
    missing = names - pins(BINDER / "requirements.txt").keys() - base_environment.keys()
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


def site_packages_size(venv: Path) -> int:
    return sum(path.stat().st_size for path in venv.glob("lib/python3*/site-packages/**/*") if path.is_file())


@pytest.mark.slow
def test_a_binder_build_from_binder_files_runs_the_lessons_that_reach_every_module(tmp_path, base_environment):
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
    lock = tmp_path / "repo2docker-base.txt"
    lock.write_text("".join(f"{name}=={version}\n" for name, version in sorted(base_environment.items())))
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--prefer-binary", "-r", lock], cwd=ROOT, env=env)
    base_size = site_packages_size(venv)
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"], cwd=ROOT, env=env)
    _run([BINDER / "postBuild"], cwd=ROOT, env=env)
    _run([bin_dir / "python", "-m", "pip", "check"], env=env)
    installed = pins_of(_run([bin_dir / "python", "-m", "pip", "freeze"], env=env).stdout)
    changed = {name: (version, installed.get(name)) for name, version in base_environment.items()
               if name in JUPYTER and installed.get(name) != version}  # fmt: skip
    assert not changed, f"Binder's requirements changed repo2docker's Jupyter: {changed}"
    size = site_packages_size(venv)
    print(f"site-packages: {size / (1 << 20):.0f} MB ({base_size / (1 << 20):.0f} MB repo2docker's)")
    assert size < SITE_PACKAGES_LIMIT, f"site-packages is {size / (1 << 20):.0f} MB"
    assert size - base_size < OURS_LIMIT, f"Binder's requirements add {(size - base_size) / (1 << 20):.0f} MB"
    where = "import amoeboid_edu; print(amoeboid_edu.__file__)"
    located = _run([bin_dir / "python", "-c", where], cwd=tmp_path, env=env)
    assert located.stdout.startswith(str(venv)), "the lessons must run against the installed wheel"
    course = _run([bin_dir / "python", ROOT / "scripts" / "build_lessons.py", "--check", "--lessons-only",
                   *BINDER_LESSONS], cwd=ROOT, env=env)
    print(course.stdout)  # per-lesson seconds and peak memory, shown with pytest -s
