"""The engine's modules type-check under ``mypy --strict`` (the files and flags in pyproject's [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ["amoeboid_edu/engine/rules.py", "amoeboid_edu/engine/notation.py", "amoeboid_edu/engine/game.py",
          "amoeboid_edu/players/strategy.py"]


def mypy(tmp_path: Path, *files: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(tmp_path / "cache"), *files]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_engine_modules_are_strictly_typed(tmp_path):
    result = mypy(tmp_path)  # the files listed in the config
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
    listed = mypy(tmp_path, *ENGINE)  # and none of the engine's modules has left the list
    assert listed.returncode == 0 and f"no issues found in {len(ENGINE)} source files" in listed.stdout, listed.stdout


def test_the_configuration_is_strict(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def untyped(x):\n    return x\n")
    result = mypy(tmp_path, str(probe))
    assert result.returncode == 1 and "no-untyped-def" in result.stdout, result.stdout
