"""A contest's secret seed, read from a file by the teacher's process only (``seed_file=``, ``--seed-file``).

The dice are derived from the seed by a public scheme, so a strategy that knew the seed could recompute them:
the file must lie where no strategy may read it, and the seed must be long enough not to be guessed.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Sequence

from ..sandbox import walls as _sandbox
from ..sandbox.text import shown
from ..sandbox.walls import readable_roots
from ..sandbox.importpath import caller_path

SEED_FILE_LENGTH = 16
SEED_FILE_DISTINCT = 8
"""A seed file needs at least ``SEED_FILE_LENGTH`` characters, ``SEED_FILE_DISTINCT`` of them different: a short
or repetitive seed (``0000000000000000``) is found by trying seeds until a strategy's own ``rng`` values match."""


def read_seed_file(path: str | os.PathLike[str], strategy_files: Sequence[str | None] = (),
                   copied: Sequence[str] = ()) -> str:
    """A contest's secret seed from ``path``, read by this process only (``seed_file=``, ``--seed-file``).

    Warns (:data:`UNWALLED_CONTEST`) on a platform without the walls, where any strategy could read it.
    ValueError where a strategy could read the file too (in a folder the workers may read: this process's import
    path, which in a notebook includes the notebook's folder, and ``strategy_files``' folders; symbolic links
    resolved), and for a weak seed (fewer than ``SEED_FILE_LENGTH`` characters or ``SEED_FILE_DISTINCT``
    different ones).  ``~`` is the user's home.  ``copied``: student folders as they were resolved when the run
    copied them (a worker reads the copy, which holds all of the folder), compared as they are, not resolved again.
    """
    name = os.path.expanduser(os.fspath(path))
    try:
        with open(name, "rb") as file:
            data = file.read(1 << 16)
    except OSError as error:
        raise ValueError(f"cannot read {shown(name)}: {error.strerror or error}") from None
    try:
        seed = "\n".join(data.decode("utf-8").splitlines()).strip()
    except UnicodeDecodeError as error:
        raise ValueError(f"{shown(name)} is not UTF-8 text (bad byte at offset {error.start})") from None
    if "\0" in seed or len(data) == 1 << 16:
        raise ValueError(f"{shown(name)} is not a seed file (a line of text)")
    if len(seed) < SEED_FILE_LENGTH or len(set(seed)) < SEED_FILE_DISTINCT:
        raise ValueError(f"{shown(name)}: a contest seed needs at least {SEED_FILE_LENGTH} characters, "
                         f"{SEED_FILE_DISTINCT} of them different (e.g. python -c \"import secrets; "
                         f"print(secrets.token_hex(16))\" > {shown(name)})")
    where = os.path.realpath(name)
    paths = [os.path.abspath(entry) for entry in caller_path()]  # the caller's folders count, though never a worker's
    for root in [*copied, *{root for file in [*strategy_files, None] for root in readable_roots(paths, file)}]:
        if where == root or where.startswith(root.rstrip(os.sep) + os.sep):
            raise ValueError(f"{shown(name)} lies in {shown(root)}, which strategies may read{_run_as_module(root)}; "
                             "keep the seed file elsewhere (e.g. in your home folder)")
    if not _sandbox.WALLS_PLATFORM:
        warnings.warn(UNWALLED_CONTEST, stacklevel=3)
    return seed


def _run_as_module(root: str) -> str:
    """Why ``root`` is readable when it is the current folder only because Python was started with ``-m`` (``python -m
    amoeboid_edu``, which puts the current folder first on the import path, where ``amoeboid`` does not): that
    cause and the two commands that leave it out; else empty."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is None or getattr(sys.flags, "safe_path", False) or not isinstance(getattr(spec, "name", None), str):
        return ""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:
        return ""
    if os.path.realpath(root) != here:
        return ""
    module = spec.name.removesuffix(".__main__")
    return (f" (python -m {shown(module)} puts the current folder on the import path, so every strategy could read "
            f"it: run the command as amoeboid ... instead, or as python -P -m {shown(module)} ...)")


UNWALLED_CONTEST = ("this platform has no walls around a strategy (process only): a strategy can read the seed file "
                    "and kill the scorer; run a contest on Linux, or in the container of docs/contest-container.md")
"""Warned by :func:`read_seed_file` where the lab has no seccomp or Landlock (Windows, macOS)."""


def _seed_from_file(seed: int | str, seed_file: str | os.PathLike[str] | None, strategy_files: Sequence[str | None],
                    label: str, seed_label: str | None, copied: Sequence[str] = ()) -> tuple[int | str, str | None]:
    """``(seed, seed_label)`` for a run given ``seed_file``: the file's seed, and a label that hides it."""
    if seed_file is None:
        return seed, seed_label
    if seed not in (0, "0", None):
        raise ValueError("give the dice seed with seed= or seed_file= (one of them)")
    return read_seed_file(seed_file, strategy_files, copied), seed_label or label



__all__ = ["SEED_FILE_DISTINCT", "SEED_FILE_LENGTH", "UNWALLED_CONTEST", "read_seed_file"]
