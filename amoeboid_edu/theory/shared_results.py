"""Results that a test session computes once and hands to every process it starts.

The paper's heaviest computations (Case III's card, Case IV's forced-win searches) are asked for by the tests, by the
lessons' kernels under nbval, by the browser tests' JupyterLab kernels and by ``amoeboid paper`` run as a command.
When the environment variable :data:`ENVIRONMENT` names a folder, :func:`shared` computes each result once, pickles
it into that folder and gives every later asker (this process or any other, under a file lock) the stored copy;
kernels and subprocesses inherit the variable.  The test suite's ``tests/conftest.py`` sets it to a fresh folder for
each session; nothing in the package sets it, so in a student's or teacher's session every result is computed.

Only for seeded or exact computations, so the stored result is the one the asker would have computed.  Each result's
file name holds a digest of the package's source, so a process that runs an edited package never reads a result
computed by the old one.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
from pathlib import Path
from typing import Callable, TypeVar

ENVIRONMENT = "AMOEBOID_SHARED_RESULTS"
"""The folder of shared results; unset (the default everywhere but the test suite): nothing is shared."""

T = TypeVar("T")


@functools.cache
def source_digest() -> str:
    """A digest of every Python file of the package (names and contents): part of each shared result's key."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def shared(name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or the result an earlier ``shared(name, ...)`` stored while :data:`ENVIRONMENT` names a folder.

    ``name`` must say everything the result depends on besides the package's source (the item, its size, its seed);
    any string will do (its file name is made safe).  The first asker computes while holding the name's lock; the
    others wait for it and read its result.  A computation that raises stores nothing.  Without the variable, or without ``flock``
    (Windows), this is ``compute()``.
    """
    folder = os.environ.get(ENVIRONMENT)
    if not folder:
        return compute()
    try:
        import fcntl
    except ImportError:  # no flock (Windows): compute
        return compute()
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80]  # the hash tells apart the names this folds together
    stem = Path(folder) / f"{readable}-{hashlib.sha256(name.encode()).hexdigest()[:8]}-{source_digest()}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    stored, part = stem.with_suffix(".pickle"), stem.with_suffix(".part")
    with open(stem.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if stored.exists():
            value: T = pickle.loads(stored.read_bytes())
            return value
        value = compute()
        part.write_bytes(pickle.dumps(value))
        part.replace(stored)
        return value
