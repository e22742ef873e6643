"""The scorer's own import path, without the folders where students' files lie.

A class folder is often the current folder (``python -m amoeboid_edu tournament .``, or a notebook kept in
that folder, whose kernel puts ``''`` first on ``sys.path``).  Any module the lab imports while it runs
(``tqdm.auto``, pandas' optional parts, the executors...) would then be looked for there first, and a hand-in
named ``tqdm.py`` would run in the teacher's process, outside every wall.  So while the lab scores or runs a
tournament, ``sys.path`` holds neither ``''`` nor the current folder nor a folder of hand-ins (nor a folder
above one); the caller's path is put back afterwards.  The same filtered path is what a worker receives, so a
strategy cannot read the notebook's folder either (docs/threat-model.md).  Standard library only: the command
line enters it before it imports the lab.

What ran before the lab cannot be cleaned: a class folder this process can already import from is refused
(:func:`refuse_importable`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterable, Iterator

from .text import shown

_callers: list[list[str]] = []
"""The import paths the outermost :func:`trusted_imports` found, innermost last."""


def _real(entry: str) -> str:
    return os.path.realpath(os.path.abspath(entry or os.curdir))


PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
"""Where ``amoeboid_edu`` itself lies (a checkout run in place): kept, the lab's own processes import it from there."""


def _within(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep)


def library_path(path: Iterable[str], away: Iterable[str | os.PathLike[str]] = ()) -> list[str]:
    """``path`` without ``''``, the current folder, each folder of ``away`` with what lies in it, and every folder
    that holds one of them (except the folder this package lies in, which holds the lab's own code)."""
    here, hand_ins = _real(os.getcwd()), [_real(os.fspath(folder)) for folder in away]
    kept = []
    for entry in path:
        if not isinstance(entry, str) or not entry:
            continue
        real = _real(entry)
        if real != PACKAGE_PARENT and (_within(here, real) or any(_within(folder, real) or _within(real, folder)
                                                                  for folder in hand_ins)):
            continue
        kept.append(entry)
    return kept


@contextlib.contextmanager
def trusted_imports(away: Iterable[str | os.PathLike[str]] = ()) -> Iterator[list[str]]:
    """Run the block with :func:`library_path` as ``sys.path``; yields the caller's own path (see
    :func:`caller_path`)."""
    original = list(sys.path)
    _callers.append(original)
    sys.path[:] = library_path(original, away)
    try:
        yield original
    finally:
        _callers.pop()
        sys.path[:] = original


@contextlib.contextmanager
def children_without_their_folder() -> Iterator[None]:
    """Interpreters started in the block do not put their folder (``''`` for ``-c``) first on their import path.

    ``multiprocessing``'s spawn starts ``python -c 'from multiprocessing.spawn import ...'`` in the caller's
    current folder, so a class folder's ``multiprocessing.py`` would run in a trusted pool process:
    ``PYTHONSAFEPATH`` (Python 3.11+, what ``-P`` sets) keeps it out.
    """
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before


def importable_from(folder: str | os.PathLike[str], path: Iterable[str] | None = None) -> str | None:
    """The entry of the import path ``path`` (by default the caller's, :func:`caller_path`) through which this
    process can import a module lying in ``folder``: the folder itself, or a folder inside it (``''`` is the current
    folder); None if there is none."""
    inside = _real(os.fspath(folder))
    for entry in caller_path() if path is None else path:
        if isinstance(entry, str) and _within(_real(entry), inside):
            return entry
    return None


def refuse_importable(folder: str | os.PathLike[str], path: Iterable[str] | None = None) -> None:
    """ValueError, in one line saying what to do, when this process can import from the class folder ``folder``.

    The lab keeps such a folder off the import path while it runs (:func:`trusted_imports`), but what ran before it
    cannot be undone: ``python -m amoeboid_edu`` or a notebook kernel started in the class folder imports its
    start-up modules and the teacher's own ``import`` lines from there first, so a hand-in named ``random.py`` or
    ``numpy.py`` may already have run in this process.  A contest run this way could not be trusted.
    """
    entry = importable_from(folder, path)
    if entry is not None:
        where = "the current folder" if not entry or _real(entry) == _real(os.getcwd()) else repr(entry)
        raise ValueError(
            f"{shown(os.fspath(folder))} is on this Python's import path ({shown(where)}), so a hand-in may "
            "already have run in it: run `amoeboid tournament FOLDER` or `python -P -m amoeboid_edu tournament "
            "FOLDER`, or start Python (or the notebook) in another folder")


THIRD_PARTY = ("altair", "anywidget", "cloudpickle", "distributed", "ipywidgets", "landlockpy", "nbformat", "numba",
               "numpy", "open_spiel", "pandas", "pyseccomp", "pyspiel", "tqdm", "traitlets", "vl_convert")
"""Every package outside the standard library that amoeboid_edu imports, in any layer and however lazily (a test
keeps the list whole): a strategy may import any part of the package, which may look for any of them."""


def hold_out_missing(names: Iterable[str] = THIRD_PARTY) -> list[str]:
    """Mark each of ``names`` that this import path cannot find as missing for good (``None`` in ``sys.modules``).

    Called in a worker before a student's folder joins its import path: a classmate's ``pyspiel.py`` or
    ``numba.py`` is then never taken for the optional package the lab looks for (``importlib.util.find_spec``
    answers None, ``import`` raises ModuleNotFoundError), and one that is installed is found first, the student's
    folder coming last.  Returns the names held out.
    """
    import importlib.util

    missing = []
    for name in names:
        if name in sys.modules:
            continue
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            sys.modules[name] = None  # type: ignore[assignment]
            missing.append(name)
    return missing


def caller_path() -> list[str]:
    """The import path of whoever called the lab (before any :func:`trusted_imports`): where ``MODULE:FUNCTION`` is
    looked for, for the worker that imports it."""
    return list(_callers[0] if _callers else sys.path)


__all__ = ["THIRD_PARTY", "caller_path", "children_without_their_folder", "hold_out_missing", "importable_from",
           "library_path", "refuse_importable", "trusted_imports"]
