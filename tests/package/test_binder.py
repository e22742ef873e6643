"""Binder builds the course from ``binder/`` alone: check those files, then simulate the build and run lessons.

repo2docker first creates its own environment (Jupyter included) from the lock it ships for the Python of
``binder/runtime.txt``, then installs ``binder/requirements.txt`` into it and runs ``binder/postBuild`` from the
repository root.  The simulation does the same in a fresh venv: repo2docker's lock (read from the
``jupyter-repo2docker`` package, its conda names turned into PyPI's), then our requirements, then postBuild;
``pip check`` must be clean (our pins must not fight repo2docker's Jupyter) and site-packages stay under
``SITE_PACKAGES_LIMIT``.  The venv of repo2docker's lock depends on neither this repository nor its commit: it is
installed once per Python and lock into the user's cache folder and copied from there (``base_venv``).  The test
re-executes the lessons of ``BINDER_LESSONS`` in the Binder venv, comparing the outputs with the committed notebooks
(``scripts/build_lessons.py --check --lessons-only``, charts aside: Binder has no vl-convert, so a chart run there
is vega-embed's HTML where the committed lesson has vl-convert's SVG; every lesson runs under nbval in the main suite, or is
checked there through its teacher's edition: tests/lesson_editions.py).  PyPI must be reachable.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from amoeboid_edu.theory.shared_results import ENVIRONMENT as SHARED_RESULTS

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
SITE_PACKAGES_LIMIT = 500 << 20
"""The goal for the whole image's site-packages (file sizes, .pyc included, as pip and conda leave them), of which
repo2docker's own environment is about 308 MB."""
OURS_LIMIT = 192 << 20
"""What binder/requirements.txt and the package may add to repo2docker's environment: pandas and NumPy (about 145 MB
on disk) are most of it.  Numba with llvmlite (205 MB), vl-convert (84 MB) and OpenSpiel (215 MB, on demand) are not."""
LEFT_OUT = {
    "numba": "the coach's compiled tails: without Numba the pure-Python kernel gives the same numbers, slower",
    "vl-convert-python": "charts run on Binder are drawn by vega-embed in the page",
    "jupyterlab": "repo2docker's own",
}
"""What the ``course`` extra declares and Binder leaves out, and why."""


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
    assert "anywidget" in binder and "pandas" in binder
    assert not LEFT_OUT.keys() & binder.keys(), f"Binder leaves these out: {LEFT_OUT}"
    assert "llvmlite" not in binder  # Numba's
    assert not TEST_ONLY & binder.keys(), "keep test-only packages out of Binder"
    assert not JUPYTER & binder.keys(), "Jupyter is repo2docker's: pinning our own breaks its Notebook"
    assert "open-spiel" not in binder  # lesson 12 installs it on demand


def test_lessons_install_what_binder_leaves_out_at_the_versions_of_the_constraints():
    from amoeboid_edu.ui.course_files import OPENSPIEL, VL_CONVERT

    for requirement in (OPENSPIEL, VL_CONVERT):
        name, _, version = requirement.partition("==")
        assert pins(ROOT / "requirements" / "constraints.txt")[_name(name)] == version
    assert f'ensure_installed("{OPENSPIEL}", "pyspiel")' in (ROOT / "lessons" / "src" / "12-appendix-mcts.py").read_text()
    for source in sorted((ROOT / "lessons" / "src").glob("*.py")):  # a live chart needs vl-convert, which Binder leaves out
        text = source.read_text()
        if "LiveChart" in text or "with_chart" in text:
            assert 'ensure_installed(VL_CONVERT, "vl_convert")' in text, f"{source.name} draws a live chart"


def _names(requirements: list[str]) -> set[str]:
    return {_name(re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]) for requirement in requirements}


def test_binder_installs_every_dependency_the_course_declares_but_what_it_leaves_out(base_environment):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required, course = _names(project["dependencies"]), _names(project["optional-dependencies"]["course"])
    assert not LEFT_OUT.keys() & required, "Binder can leave out only what the package declares optional"
    assert LEFT_OUT.keys() <= course, "LEFT_OUT names what the course extra declares"
    missing = (required | course) - LEFT_OUT.keys() - pins(BINDER / "requirements.txt").keys() - base_environment.keys()
    assert not missing, f"add to binder/requirements.txt, pinned as in requirements/constraints.txt: {sorted(missing)}"


def test_binder_python_is_one_the_pins_support():
    # numpy 2.4 and pandas 3 need Python >= 3.11; Binder's default is 3.10.
    assert tuple(int(part) for part in binder_python().split(".")) >= (3, 11)


def test_postbuild_is_executable_and_installs_the_package_itself():
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert re.search(r"pip install .*--no-deps \.$", post_build.read_text(), re.MULTILINE)


def _run(command: list, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    shown = " ".join(map(str, command))
    assert not check or result.returncode == 0, f"{shown} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


BINDER_LESSONS = ("01", "09", "11", "12")
"""The lessons re-run in the Binder-like venv: together they import every part of the installed wheel (the
board widget and the course, the sandboxed lab, the namesakes, OpenSpiel).  Every lesson is checked under nbval in
the main suite; running all of them here again cost about five minutes of CI."""


CHECK_LESSONS = r"""
import re, sys
sys.path.insert(0, "scripts")
import build_lessons

CHART = re.compile(r'(<div class="amoeboid-chart"[^>]*>)(?:<svg\b.*?</svg>'
                   r'|<div id="amoeboid-chart-[0-9a-f]+"></div><script type="module">.*?</script>)</div>', re.S)
drawn_by_vega_embed = 0
compare = build_lessons.comparable

def comparable(notebook):
    # a chart compares as "a chart": vl-convert's SVG when committed, vega-embed's HTML when run without vl-convert
    global drawn_by_vega_embed
    rows = compare(notebook)
    for _source, outputs in rows:
        for output in outputs:
            if isinstance(output[1], dict) and "text/html" in output[1]:
                drawn_by_vega_embed += output[1]["text/html"].count("vegaEmbed(")
                output[1]["text/html"] = CHART.sub(r"\g<1>a chart</div>", output[1]["text/html"])
    return rows

build_lessons.comparable = comparable
build_lessons.CELL_TIMEOUT = 600  # an int, as nbclient wants (the script's --cell-timeout gives a float)
status = build_lessons.main(["--check", "--lessons-only", *sys.argv[1:]])
print("charts by vega-embed:", drawn_by_vega_embed)
sys.exit(status)
"""
"""``scripts/build_lessons.py --check --lessons-only`` with every chart compared only as being one, counting those
drawn by vega-embed (the run's, as Binder has no vl-convert).  A cell may take 600 s: lesson 12's MCTS cell passed
the script's 120 s on a loaded 2-core machine, and this checks the outputs, not the speed."""


BASE_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "amoeboid-edu-tests"
"""Where the venvs of repo2docker's lock are kept between runs, one folder per Python and lock (about 310 MB each);
deleting it at any time only makes the next Binder test install the lock again."""


def base_venv(python: str, base_environment: dict[str, str], venv: Path, env: dict[str, str]) -> None:
    """Make ``venv`` a venv of ``python`` holding exactly repo2docker's lock, as ``pip install -r LOCK`` leaves it.

    The lock's venv is installed once per Python build and lock into ``BASE_CACHE`` (built beside it and renamed into
    place, so that a run never sees half of one) and copied to ``venv``, with the path it was built at replaced by
    ``venv`` in its scripts and ``pyvenv.cfg`` (the only files of a venv that name its own folder).  Binder's
    requirements and the package are then installed into the copy, as repo2docker installs them into its image;
    the cached venv itself is never changed.
    """
    lock = "".join(f"{name}=={version}\n" for name, version in sorted(base_environment.items()))
    build = _run([python, "-c", "import sys; print(sys.version)"]).stdout
    key = hashlib.sha256(f"{REPO2DOCKER}\n{python}\n{build}\n{lock}".encode()).hexdigest()[:16]
    cached = BASE_CACHE / f"binder-base-{key}"
    if not (cached / "built-at").exists():
        BASE_CACHE.mkdir(parents=True, exist_ok=True)
        building = BASE_CACHE / f"{cached.name}.{os.getpid()}.building"
        shutil.rmtree(building, ignore_errors=True)
        _run([python, "-m", "venv", str(building)])
        (building / "repo2docker-base.txt").write_text(lock)
        bin_dir = building / "bin"
        _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--prefer-binary", "-r",
              building / "repo2docker-base.txt"], cwd=ROOT,
             env={**env, "VIRTUAL_ENV": str(building), "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}"})  # fmt: skip
        (building / "repo2docker-base.txt").unlink()
        (building / "built-at").write_text(str(building))
        try:
            building.rename(cached)
        except OSError:  # another run cached the same venv meanwhile
            shutil.rmtree(building)
    shutil.copytree(cached, venv, symlinks=True)
    (venv / "built-at").unlink()
    old, new = (cached / "built-at").read_bytes(), str(venv).encode()
    for path in [venv / "pyvenv.cfg", *(venv / "bin").iterdir()]:
        if path.is_file() and not path.is_symlink() and old in (text := path.read_bytes()):
            path.write_bytes(text.replace(old, new))


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
    bin_dir = venv / "bin"
    # (and no results shared with the test session: Binder's lessons compute everything they show in Binder's venv)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV", SHARED_RESULTS)}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        VIRTUAL_ENV=str(venv),
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),  # no kernel specs from this machine's user
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    base_venv(python, base_environment, venv, env)
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
    assert _run([bin_dir / "python", "-c", "import numba"], check=False, env=env).returncode != 0  # as on Binder
    course = _run([bin_dir / "python", "-c", CHECK_LESSONS, *BINDER_LESSONS], cwd=ROOT, env=env)
    print(course.stdout)  # per-lesson seconds and peak memory, shown with pytest -s
    assert "charts by vega-embed: 0" not in course.stdout
