"""The static site (docs/conf.py: Sphinx + MyST-NB) builds offline and its lesson pages carry the charts.

The lessons are rendered from their committed outputs (nothing executes), so a chart that reaches a notebook
reaches the site: the course's inline SVG charts (``amoeboid-chart``) and Altair's SVG images.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_site_builds_with_every_lesson_and_its_charts(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-c", "docs", ".", str(site)],
                          cwd=ROOT, capture_output=True, text=True, check=False, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lessons = sorted(path.stem for path in (ROOT / "lessons").glob("*.ipynb"))
    assert sorted(path.stem for path in (site / "lessons").glob("*.html")) == lessons
    for page in ("index", "teachers", "students", "paper", "api", "platforms", "development", "threat-model",
                 "contest-container"):
        assert (site / "docs" / f"{page}.html").is_file(), page
    index = (site / "docs" / "index.html").read_text()
    assert all(f"../lessons/{name}.html" in index for name in lessons)
    delta = (site / "lessons" / "03-advantage-1-delta.html").read_text()
    assert re.search(r'<div class="amoeboid-chart"[^>]*>(<span class="amb-live"[^>]*>)?<svg', delta), "lesson 3's inline SVG chart"
    mcts = (site / "lessons" / "12-appendix-mcts.html").read_text()
    images = re.findall(r'<img [^>]*src="(\.\./_images/[0-9a-f]+\.svg)"', mcts)
    assert images and all((site / "lessons" / image).resolve().is_file() for image in images)
    assert "Monte-Carlo tree search" in mcts
    assert "Lesson 6 on the projector" in (site / "docs" / "teachers.html").read_text()  # lessons/TEACHERS.md
    api = (site / "docs" / "api.html").read_text()
    assert all(f'id="amoeboid_edu.{name}"' in api for name in ("Position", "lab.score", "ui.course_files.copy_course"))
