"""The Python examples of the README and the docs pages run as written, in order, as a reader pastes them into one
notebook.

python-chess runs its README as a doctest; ours are plain code blocks with the expected values in comments, so each
block is executed and the engine block's printed line is compared with its comment.  The pages are read in
``PAGES``' order (the students' page defines the ``wander`` that the teachers' page hands in).  Two substitutions
keep the suite quick, and are the only ones: the lab's examples play 4 games where a page says 200 or 100 (the same
calls), and they run in a temporary folder (``hand_in`` writes ``class/nina.py``).
"""

from __future__ import annotations

import contextlib
import io
import linecache
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("README.md", "docs/students.md", "docs/teachers.md", "docs/api.md")
"""The pages whose Python blocks run, in this order."""
BLOCKS = [(page, block) for page in PAGES
          for block in re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.S)]


def test_the_readme_and_the_pages_have_their_examples():
    assert len(BLOCKS) >= 5
    assert BLOCKS[0][0] == "README.md" and "from amoeboid_edu import Position, Game, legal_turns, apply" in BLOCKS[0][1]
    assert {page for page, _block in BLOCKS} == set(PAGES)


def test_every_python_block_runs_in_order(tmp_path, monkeypatch):
    pytest.importorskip("pyspiel")  # the OpenSpiel block needs the openspiel extra (installed by ./dev.sh test)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for number, (page, block) in enumerate(BLOCKS):
        code = re.sub(r"games=(200|100)\b", "games=4", block)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            try:
                name = f"<{page} python block {number}>"  # its source kept as a notebook keeps a cell's
                linecache.cache[name] = (len(code), None, code.splitlines(keepends=True), name)
                exec(compile(code, name, "exec"), namespace)
            except Exception as error:  # noqa: BLE001 - name the block that failed
                pytest.fail(f"{page} python block {number} fails: {type(error).__name__}: {error}\n{block}")
        if number == 0:
            expected = re.search(r"print\(after, after.delta, after.Delta\)\s+# (.*)", block).group(1)
            assert printed.getvalue().split() == expected.split()
    assert (tmp_path / "class" / "nina.py").exists()
