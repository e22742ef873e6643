"""A class's strategies from a folder: one file per student, read here, run only in a sandbox worker.

``NAME.py`` defines ``strategy`` (a function, or an object with ``choose``) or a
function ``choose``; ``NAME.ipynb`` holds it in the code cell(s) tagged
``strategy``.  The student's name is the file's name.  This process only reads
the files as text (a notebook as JSON): the source travels to the worker inside
a :class:`StudentSource` and is compiled and run there, on whatever host the
worker is, so no shared file system is needed and no student code runs here.
"""

from __future__ import annotations

import json
import stat
import sys
import types
from dataclasses import dataclass
from pathlib import Path

from ..sandbox.core import not_a_formula, shown

NAME_WIDTH = 60
"""A student's name (from the file name) is cut to this many characters."""

STRATEGY_TAG = "strategy"


class DidNotLoad(Exception):
    """A student's file could not give a strategy: the message names the file's line when there is one."""


@dataclass(frozen=True)
class StudentSource:
    """A student's source code; unpickling it (in the worker) runs it and gives the strategy."""

    name: str
    filename: str
    source: str

    def __reduce__(self):
        return load_source, (self.name, self.filename, self.source)


def _line_of(error: BaseException, filename: str) -> int | None:
    if isinstance(error, SyntaxError) and error.filename == filename:
        return error.lineno
    line, frame = None, error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == filename:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def load_source(name: str, filename: str, source: str):
    """Run a student's file as module ``student_NAME`` and return its strategy (in the worker only)."""
    module = types.ModuleType(f"student_{name}")
    module.__file__ = filename
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except BaseException as error:  # noqa: BLE001 - whatever the student's file does at import
        line = _line_of(error, filename)
        where = f" line {line}" if line else ""
        detail = error.msg if isinstance(error, SyntaxError) else str(error)
        raise DidNotLoad(f"{type(error).__name__}{where}: {detail}"[:300]) from None
    for attribute in ("strategy", "choose"):
        if attribute in module.__dict__:
            return module.__dict__[attribute]
    raise DidNotLoad(f"{Path(filename).name} defines no 'strategy' (nor 'choose')")


def _notebook_source(path: Path) -> str:
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = notebook["cells"]
    except (ValueError, KeyError, TypeError) as error:
        raise DidNotLoad(f"not a readable notebook ({type(error).__name__})") from None
    tagged = [cell for cell in cells if isinstance(cell, dict) and cell.get("cell_type") == "code"
              and STRATEGY_TAG in (cell.get("metadata") or {}).get("tags", [])]  # fmt: skip
    if not tagged:
        raise DidNotLoad(f"no code cell tagged '{STRATEGY_TAG}' in {path.name}")
    return "\n\n".join(
        cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]) for cell in tagged
    )


def read_folder(folder: str | Path) -> tuple[list[StudentSource], list[tuple[str, str]]]:
    """The students of ``folder`` (``*.py``, ``*.ipynb``; names starting with ``_`` or ``.`` skipped), sorted by name.

    Returns the sources, and ``(name, reason)`` for each file that cannot even be
    read (not UTF-8, a notebook without a tagged cell); a source that fails to run
    is found out by its worker.  ValueError when ``folder`` holds no student file.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of strategies")
    files = sorted(p for p in folder.iterdir() if p.suffix in (".py", ".ipynb") and (p.is_file() or p.is_symlink())
                   and not p.name.startswith(("_", ".")))  # fmt: skip
    if not files:
        raise ValueError(f"{folder} holds no strategy files (NAME.py or NAME.ipynb)")
    stems = [p.stem for p in files]
    sources, unread = [], []
    for path in files:
        # a file name is the student's word: escaped and cut like anything else they say (an ESC in one
        # aborted the leaderboard's chart renderer: found by the red team)
        name = not_a_formula(shown(path.stem if stems.count(path.stem) == 1 else path.name, NAME_WIDTH))
        status = path.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_nlink > 1:
            # never followed: a link could name the contest's seed file, whose text would come back in the load
            # error on the leaderboard (found by the red team)
            what = "a link" if stat.S_ISLNK(status.st_mode) else "a file with other names (a hard link)"
            unread.append((name, f"{what}, not read: hand in the file itself"))
            continue
        try:
            text = path.read_text(encoding="utf-8") if path.suffix == ".py" else _notebook_source(path)
        except UnicodeDecodeError as error:
            unread.append((name, f"not UTF-8 text (bad byte at offset {error.start})"))
            continue
        except DidNotLoad as error:
            unread.append((name, str(error)))
            continue
        sources.append(StudentSource(name, str(path.resolve()), text))
    return sources, unread


__all__ = ["DidNotLoad", "StudentSource", "load_source", "read_folder"]
