"""When running a lesson's teacher's edition under nbval also checks its student's edition, which then need not run.

``scripts/build_lessons.py`` builds both editions from one source: the student's has ``my_answer = ...`` where the
teacher's has the answer (a ``# solution:`` line), and a ``# %% solution`` cell replaces a whole code cell in the
teacher's only.  A student's edition *stands with* its teacher's edition when, by its source:

- it has no ``# %% solution`` cell, and every ``# solution:`` line is exactly ``my_answer = ...`` (the student's
  kernel then runs the teacher's statements, but for the value bound to ``my_answer``);
- each cell with such a line ends in ``check(my_answer, ...)``, the only place any cell reads ``my_answer``
  but a worked example that sets its own first (:func:`amoeboid_edu.ui.exercises.check` answers ``...`` with its
  "your turn" line before looking at anything else, so no other output and no later cell can tell the two kernels
  apart);
- no cell reads IPython's output history (``_``, ``__``, ``___``, ``_N``, ``Out``), which would.

Then executing the student's edition gives, cell for cell, the teacher's outputs, except the "your turn" line where
the teacher's shows its tick.  ``tests/package/test_solutions.py`` checks that the committed student's edition says
exactly that (every other cell's committed outputs equal the teacher's), and nbval executes the teacher's edition
and compares it with its committed outputs: together the student's committed outputs are proved to be what running
it gives, without running it.  ``tests/conftest.py`` leaves such student's editions out of nbval's collection.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSWER_LINE = "my_answer = ..."
OUTPUT_HISTORY = re.compile(r"_+|_\d+|Out|_oh")


@cache
def build_lessons():
    """``scripts/build_lessons.py`` as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def source_of(notebook: Path) -> Path | None:
    """The lesson source a student's edition ``lessons/NN-name.ipynb`` is built from, or None."""
    source = ROOT / "lessons" / "src" / f"{notebook.stem}.py"
    return source if notebook.parent.resolve() == (ROOT / "lessons").resolve() and source.exists() else None


@cache  # asked once per collected cell of the notebook
def why_not_standing_with_the_teachers(source: Path) -> str | None:
    """None when the student's edition built from ``source`` stands with its teacher's edition (module docstring);
    otherwise why not, in one line."""
    build = build_lessons()
    if not build.has_solutions(source):
        return "no teacher's edition"
    text = source.read_text(encoding="utf-8")
    if any(line.strip() == "# %% solution" for line in text.splitlines()):
        return "a '# %% solution' cell replaces a whole cell"
    for line in text.splitlines():
        marked = build._SOLUTION.match(line)
        if marked and marked["code"].strip() != ANSWER_LINE:
            return f"a '# solution:' line other than {ANSWER_LINE!r}: {line.strip()!r}"
    for cell in build.read_source(source).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
        if any(OUTPUT_HISTORY.fullmatch(node.id) and isinstance(node.ctx, ast.Load) for node in names):
            return f"{cell.id} reads IPython's output history"
        reads = [node for node in names if node.id == "my_answer" and isinstance(node.ctx, ast.Load)]
        if ANSWER_LINE not in cell.source.splitlines():
            sets_first = [statement for statement in tree.body if isinstance(statement, ast.Assign)
                          and any(isinstance(target, ast.Name) and target.id == "my_answer"
                                  for target in statement.targets)]  # fmt: skip
            if reads and not (sets_first and sets_first[0].lineno < min(node.lineno for node in reads)):
                return f"{cell.id} reads a my_answer it did not set"  # (a worked example sets its own first)
            continue
        last = tree.body[-1]
        checked = (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
                   and isinstance(last.value.func, ast.Name) and last.value.func.id == "check"
                   and bool(last.value.args) and isinstance(last.value.args[0], ast.Name)
                   and last.value.args[0].id == "my_answer")  # fmt: skip
        if not checked or len(reads) != 1:
            return f"{cell.id} does more with my_answer than end in check(my_answer, ...)"
    return None


def stands_with_the_teachers(notebook: Path) -> bool:
    """Whether ``notebook`` is a student's edition that its teacher's edition stands for under nbval."""
    source = source_of(notebook)
    return source is not None and why_not_standing_with_the_teachers(source) is None
