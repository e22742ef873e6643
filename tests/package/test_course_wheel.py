"""From the built wheel alone: ``amoeboid course --no-browser DIR`` gives a runnable, trusted lesson 1.

The wheel (built once per session, ``conftest.built_wheel``) is installed with ``--no-deps`` into a clean venv
whose only other path is the dev venv's site-packages (for the dependencies), so the lessons can only come from
the wheel.  Lesson 1 is then run from DIR under nbval in that venv's kernel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds the wheel and a venv

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"


def run(*command: str | Path, cwd: Path, env: dict | None = None, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False,
                          env=env)
    assert (done.returncode == 0) == ok, f"{done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_the_wheel_carries_the_lessons_and_the_licences(built_wheel):
    with zipfile.ZipFile(built_wheel) as archive:
        names = set(archive.namelist())
        students = sorted(path.name for path in LESSONS.glob("*.ipynb"))
        teachers = sorted(path.name for path in (LESSONS / "solutions").glob("*.ipynb"))
        assert {f"amoeboid_edu/_course/{name}" for name in students} <= names
        assert {f"amoeboid_edu/_course/solutions/{name}" for name in teachers} <= names
        assert archive.read("amoeboid_edu/_course/01-start-here.ipynb") == (LESSONS / "01-start-here.ipynb").read_bytes()
        assert not any("/_course/src/" in name for name in names)  # the sources stay in the repository
        licences = {name.split("/licenses/", 1)[1]: archive.read(name) for name in names if "/licenses/" in name}
        assert licences.get("LICENSE") == (REPO / "LICENSE").read_bytes() and b"MIT License" in licences["LICENSE"]
        assert b"CC BY 4.0" in licences["lessons/LICENSE"]
        metadata = archive.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
        assert "License-Expression: MIT" in metadata.splitlines()
        assert "Classifier: Intended Audience :: Education" in metadata


def test_amoeboid_course_from_the_wheel_gives_a_runnable_trusted_lesson_1(tmp_path, built_wheel):
    env_dir = tmp_path / "clean"
    venv.create(env_dir, with_pip=False)
    python, amoeboid = env_dir / "bin" / "python", env_dir / "bin" / "amoeboid"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).stdout.strip())
    (site / "dev-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", built_wheel, cwd=tmp_path)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"), JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"))
    assert run(amoeboid, "--version", cwd=tmp_path, env=env).stdout.strip() == "amoeboid-edu 0.1.0"

    course = tmp_path / "my course"
    first = run(amoeboid, "course", "--no-browser", course, cwd=tmp_path, env=env).stdout
    students = sorted(path.name for path in LESSONS.glob("*.ipynb"))
    assert sorted(path.name for path in course.glob("*.ipynb")) == students and not (course / "solutions").exists()
    assert f"{len(students) + 1} copied" in first and "trusted" in first and "jupyter lab" in first

    # a student's changed lesson is kept (no terminal to ask), and named; --force replaces it
    lesson = course / "03-advantage-1-delta.ipynb"
    lesson.write_text(lesson.read_text().replace("Advantage 1", "My notes on advantage 1", 1))
    again = run(amoeboid, "course", "--no-browser", course, cwd=tmp_path, env=env).stdout
    assert "kept 03-advantage-1-delta.ipynb" in again and "My notes" in lesson.read_text()
    assert f"{len(students)} already up to date" in again
    run(amoeboid, "course", "--no-browser", "--force", "--teacher", course, cwd=tmp_path, env=env)
    assert lesson.read_bytes() == (LESSONS / lesson.name).read_bytes()
    assert (course / "solutions" / "09-strategy-lab.ipynb").is_file() and (course / "TEACHERS.md").is_file()

    check = ("import json, sys, nbformat\nfrom nbformat.sign import NotebookNotary\n"
             "print(json.dumps(NotebookNotary().check_signature(nbformat.read(sys.argv[1], as_version=4))))")
    assert json.loads(run(python, "-c", check, course / "01-start-here.ipynb", cwd=tmp_path, env=env).stdout) is True

    located = run(python, "-c", "import amoeboid_edu; print(amoeboid_edu.__file__)", cwd=course, env=env).stdout
    assert located.startswith(str(site))
    run(python, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--nbval", "--nbval-current-env",
        f"--nbval-sanitize-with={LESSONS / 'nbval-sanitize.cfg'}", "01-start-here.ipynb", cwd=course, env=env)
