"""The package's shape is a checked contract: each layer imports only the layers below it.

The contracts live in pyproject.toml (``[tool.importlinter]``); this runs import-linter on them, so a new
upward import (a lab module importing a widget, say) fails the suite with the offending import chain.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["engine", "players", "sandbox", "lab", "theory", "ui"]


def test_every_layer_is_a_subpackage_you_can_see():
    names = {p.name for p in (ROOT / "amoeboid_edu").iterdir()}
    assert set(LAYERS) <= names
    flat = sorted(p.name for p in (ROOT / "amoeboid_edu").glob("*.py"))
    assert flat == ["__init__.py", "__main__.py", "cli.py"], flat


def test_the_import_contracts_hold():
    run = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                          "lint_imports_command()", "--no-cache"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "broken" in run.stdout and " 0 broken" in run.stdout, run.stdout[-2000:]
