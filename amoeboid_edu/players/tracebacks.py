"""Where a student's code failed, said in one line: the last traceback frame outside this package.

A beginner needs the line of *their* code that raised, not twenty frames of
the harness.  Notebook cells are compiled by IPython under names like
``/tmp/ipykernel_123/456.py`` whose source lives in ``linecache`` of the kernel
process, so :func:`describe` looks the line up there.  The strategy lab's
worker reads its own line behind its walls; the harness then only consults
the kernel's cache of cells (:func:`cached_cell_line`), never a file the
worker names (a worker that named ``/proc/self/environ`` would read the scorer's
environment).
"""

from __future__ import annotations

import linecache
import re
import sysconfig
import traceback
from pathlib import Path
from types import TracebackType

PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)  # the whole amoeboid_edu package
_CELL_FILE = re.compile(r"[/\\]ipykernel_\d+[/\\]\d+\.py$|^<ipython-input-")
TIMED_CELL = "<timed exec>"
"""The file name IPython compiles a ``%%time`` cell's body under (the cell without its ``%%time`` line)."""


_GENERATED = ("<string>",)
"""Files of code Python generates (a frozen dataclass's ``__setattr__``): never the line a student wrote."""


_LIBRARIES = tuple(sorted({path for key, path in sysconfig.get_paths().items()
                           if key in ("stdlib", "platstdlib", "purelib", "platlib")}))
"""Where the standard library and installed packages live: code the student called, not code they wrote."""
CALLED_FROM = " called from "
"""Joins, in a frame's function name, the library function that raised and the student's function that called it:
``"choice (line 373 of random.py) called from crashy"`` (:func:`describe` says it in words)."""


def _library(filename: str) -> bool:
    return filename.startswith(_LIBRARIES) or filename.startswith("<frozen ")


def student_frame(tb: TracebackType | None) -> tuple[str, int, str] | None:
    """``(file, line, function)`` of the last frame not in amoeboid_edu, or None if every frame is ours.

    Generated code (``<string>``) is passed over for the student's line that called it, when there is one.  When
    the last frame is in the standard library or an installed package (``rng.choice([])`` raises inside
    random.py), the student's own innermost line is the one returned, its function named
    ``"choice (line 373 of random.py) called from crashy"``: where it raised, and the line the student can change.
    """
    frames = [f for f in traceback.extract_tb(tb) if not f.filename.startswith(PACKAGE_DIR)]
    if not frames:
        return None
    frames = [f for f in frames if f.filename not in _GENERATED] or frames
    last = frames[-1]
    if _library(last.filename):
        mine = [f for f in frames if not _library(f.filename)]
        if mine:
            caller = mine[-1]
            return (caller.filename, caller.lineno or 0,
                    f"{last.name} (line {last.lineno or 0} of {Path(last.filename).name}){CALLED_FROM}{caller.name}")
    return last.filename, last.lineno or 0, last.name


def cached_cell_line(filename: str, lineno: int) -> str:
    """Line ``lineno`` of a notebook cell from this process's ``linecache`` memory only: no file is opened."""
    entry = linecache.cache.get(filename) if _CELL_FILE.search(filename) else None
    lines = entry[2] if entry is not None and len(entry) > 2 else []
    return lines[lineno - 1] if 1 <= lineno <= len(lines) else ""


def describe(filename: str, lineno: int, name: str, source: str | None = None) -> str:
    """E.g. ``in my_strategy, line 3 of its notebook cell: return distance(cell)``, or for an error inside a
    library the student called (see :func:`student_frame`), ``in choice (line 373 of random.py), called from
    crashy, line 3 of its notebook cell: grow = rng.choice(mine)``.

    ``source``: the line's text when the caller has it (else it is read with ``linecache``).  A ``%%time`` cell's
    body (:data:`TIMED_CELL`) is its notebook cell too, its lines counted from the cell's ``%%time`` line.
    """
    timed = filename == TIMED_CELL  # a %%time cell: IPython keeps no copy of its body to read the line from
    place = "its notebook cell" if timed or _CELL_FILE.search(filename) else Path(filename).name
    source = ("" if timed else linecache.getline(filename, lineno)) if source is None else source
    source = source.strip()
    if timed:  # the body's line counted as the cell's, whose first line is %%time
        lineno += 1
    library, _, caller = name.rpartition(CALLED_FROM)
    if library:
        where = f"in {library}, called from " + ("" if caller == "<module>" else f"{caller}, ")
    else:
        where = "" if name == "<module>" else f"in {name}, "
    return f"{where}line {lineno} of {place}" + (f": {source}" if source else "")


def describe_error(error: BaseException) -> str:
    """``NameError: name 'x' is not defined (in f, line 3 of its notebook cell: return x)``."""
    frame = student_frame(error.__traceback__)
    text = f"{type(error).__name__}: {error}"
    return f"{text} ({describe(*frame)})" if frame else text


__all__ = ["CALLED_FROM", "TIMED_CELL", "cached_cell_line", "describe", "describe_error", "student_frame"]
