"""The package type-checks: the files in pyproject's [tool.mypy] pass ``mypy --strict``, except ui/ and namesakes/,
which pass plain ``mypy`` (a per-module override of the strict flags)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRICT = ["amoeboid_edu/engine/rules.py", "amoeboid_edu/engine/notation.py", "amoeboid_edu/engine/game.py",
          "amoeboid_edu/players/strategy.py", "amoeboid_edu/players/openspiel.py", "amoeboid_edu/lab/executors.py",
          "amoeboid_edu/lab/ledger.py", "amoeboid_edu/lab/roster.py", "amoeboid_edu/lab/stats.py",
          "amoeboid_edu/theory/_tails.py", "amoeboid_edu/theory/analysis.py",
          "amoeboid_edu/theory/namesakes_compare.py", "amoeboid_edu/theory/search.py"]
"""Modules that must stay strictly typed (the list in pyproject may hold more)."""
PLAIN = ["amoeboid_edu/ui/charts.py", "amoeboid_edu/ui/course.py", "amoeboid_edu/ui/course_files.py",
         "amoeboid_edu/ui/exercises.py", "amoeboid_edu/namesakes/widget.py", "amoeboid_edu/namesakes/nakajima.py"]
"""Modules of ui/ and namesakes/ that must stay checked by plain mypy."""


MYPY_CACHE = ROOT / ".mypy_cache"
"""mypy's incremental cache for the package, the one a run of ``mypy`` in the repository keeps (gitignored): mypy
re-checks whatever changed since it was written (file contents, options, mypy's version), so a warm cache gives the
verdict of a cold run in seconds instead of minutes (most of a cold run checks pandas', NumPy's and Altair's stubs)."""


def mypy(cache: Path, *files: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(cache), *files]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)


def test_the_listed_modules_type_check():
    result = mypy(MYPY_CACHE)  # the files listed in the config
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_whole_package_is_checked():
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"] == ["amoeboid_edu"]


def test_no_typed_module_has_left_the_list():
    listed = [Path(entry) for entry in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]]
    for module in map(Path, STRICT + PLAIN):
        assert any(entry == module or entry in module.parents for entry in listed), f"{module} left [tool.mypy] files"


def test_the_configuration_is_strict(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def untyped(x):\n    return x\n")
    result = mypy(tmp_path / "cache", str(probe))
    assert result.returncode == 1 and "no-untyped-def" in result.stdout, result.stdout


def test_ui_and_namesakes_get_plain_mypy(tmp_path):
    """A module of ui/ or namesakes/ may leave a function unannotated, but a wrong type is still an error."""
    probes = []
    for layer in ("ui", "namesakes"):
        folder = tmp_path / "tree" / "amoeboid_edu" / layer
        folder.mkdir(parents=True)
        (folder.parent / "__init__.py").write_text("")
        (folder / "__init__.py").write_text("")
        probe = folder / "probe.py"
        probe.write_text('def untyped(x):\n    return x\n\n\nWRONG: int = "text"\n')
        probes.append(str(probe))
    result = mypy(tmp_path / "cache", *probes, cwd=tmp_path / "tree")
    assert "no-untyped-def" not in result.stdout, result.stdout
    for layer in ("ui", "namesakes"):
        assert f"{layer}/probe.py:5: error: Incompatible types in assignment" in result.stdout, result.stdout
