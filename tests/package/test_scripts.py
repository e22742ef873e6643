"""The development scripts run against today's package: their notebook cells import and call what exists."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_screenshot_scripts_cells_run_in_a_kernel_free_namespace():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    screenshots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screenshots)
    namespace: dict = {}
    for cell in screenshots.CELLS:
        exec(compile(cell, "<screenshots cell>", "exec"), namespace)  # an ImportError here: the script went stale
    assert namespace["demo"].game.position is not None
