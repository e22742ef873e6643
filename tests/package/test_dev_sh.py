"""``dev.sh``: ``course`` installs the course extra alone, and the script stays within bash 3.2 (macOS's bash).

The venv is a stand-in (``AMOEBOID_VENV``) whose ``python`` records pip's arguments instead of installing and
whose ``jupyter`` records how it was started, so the test sees what ``./dev.sh course`` asks for.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def stand_in_venv(folder: Path, log: Path) -> None:
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "pip $*" >> "{log}"; exit 0; fi\n'
        f'exec "{sys.executable}" "$@"\n'
    )
    (bin_dir / "jupyter").write_text(f'#!/bin/sh\necho "jupyter $*" >> "{log}"\n')
    for name in ("python", "jupyter"):
        (bin_dir / name).chmod(0o755)


def test_course_installs_only_the_course_extra_and_opens_lesson_1(tmp_path):
    log = tmp_path / "log"
    stand_in_venv(tmp_path / "venv", log)
    env = {**os.environ, "AMOEBOID_VENV": str(tmp_path / "venv")}
    done = subprocess.run(["bash", str(ROOT / "dev.sh"), "course", "--no-browser"], env=env, capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    pip, trust, jupyter = log.read_text().splitlines()
    assert pip.endswith("-e .[course]"), pip
    assert trust.startswith("jupyter trust lessons/"), trust  # the lessons' pictures render before Run All
    assert jupyter.startswith("jupyter lab") and "--LabApp.default_url=/lab/tree/lessons/01-start-here.ipynb" in jupyter
    assert jupyter.endswith("--no-browser")
    assert ("--allow-root" in jupyter) == (os.geteuid() == 0)
    # set up once: a second run installs nothing
    subprocess.run(["bash", str(ROOT / "dev.sh"), "course", "--no-browser"], env=env, check=True, capture_output=True)
    assert sum(line.startswith("pip") for line in log.read_text().splitlines()) == 1


def test_dev_sh_expands_no_array_bash_3_2_would_call_unbound():
    """bash 3.2 (macOS) calls "${empty[@]}" an unbound variable under set -u; dev.sh uses no arrays."""
    script = (ROOT / "dev.sh").read_text()
    assert "set -euo pipefail" in script
    assert not re.search(r"\$\{[A-Za-z_]+\[[@*]\]", script), "an array expansion: bash 3.2 fails on an empty one"
    assert not re.search(r"^[^#]*sha256sum", script, re.MULTILINE)  # not on macOS


def test_the_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    """The README's first lines: one command that sets up and opens the course, one that sets up and runs every test."""
    root = Path(__file__).resolve().parents[2]
    lines = (root / "README.md").read_text(encoding="utf-8").splitlines()
    first_block = lines[lines.index("```bash") + 1:lines.index("```bash") + 3]
    assert lines.index("```bash") <= 3, "the README opens with its commands"
    assert [line.split("#")[0].strip() for line in first_block] == ["./dev.sh course", "./dev.sh test"]
    run = (root / ".ci" / "run").read_text(encoding="utf-8")
    assert "./dev.sh test" in run
