"""The paper's costliest computations made once per test session and shared by its processes (the xdist workers and
the lessons' kernels under nbval): the verdicts of :data:`SHARED_VERDICTS` and Case IV's forced-win search at each
lead (:func:`amoeboid_edu.theory.paper.case_IV.halving_forced_win`, 1-2 CPU seconds a lead, run at 10 leads by the
case-IV-threshold card and by lesson 7, at 32 by its test).

The first process to ask computes the value (under a lock) and pickles it into the session's folder; the others wait
for it and read it.  Every one of them is seeded or exact, so the value read is the one the process would have
computed.  Within a process the paper module's own caches still hold them.
"""

from __future__ import annotations

import functools
import os
import pickle
from pathlib import Path
from typing import Any, Callable

SHARED_VERDICTS = ("case-III",)
"""The paper's verdicts that several test modules and lessons ask for (``tests/theory/test_paper.py`` and
``tests/package/test_lesson_prose.py`` both read case-III's card, some 40 CPU seconds; lesson 6 and its teacher's
edition show it)."""

Share = Callable[[str, Callable[[], Any]], Any]


def sharer(folder: Path) -> Share | None:
    """``share(name, compute)``: ``compute()`` made once by every process that shares ``folder``; None without flock
    (Windows), where each process computes its own."""
    try:
        import fcntl
    except ImportError:
        return None

    def share(name: str, compute: Callable[[], Any]) -> Any:
        path = folder / f"{name}.pickle"
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path.exists():
                return pickle.loads(path.read_bytes())
            value = compute()
            path.with_suffix(".part").write_bytes(pickle.dumps(value))
            path.with_suffix(".part").replace(path)
            return value

    return share


def install(share: Share, setattr_: Callable[[object, str, Any], None] = setattr) -> None:
    """Route the paper's :data:`SHARED_VERDICTS` and Case IV's search through ``share`` (``setattr_``: how to patch,
    e.g. a MonkeyPatch's, which puts the originals back)."""
    from amoeboid_edu.theory import paper
    from amoeboid_edu.theory.paper import case_IV

    compute, search = paper._compute, case_IV.halving_forced_win

    def verdict_once_per_session(item: str, full: bool, seed: int | str) -> Any:
        if item not in SHARED_VERDICTS:
            return compute(item, full, seed)
        return share(f"paper-verdict-{item}-{'full' if full else 'quick'}-{seed}", lambda: compute(item, full, seed))

    @functools.lru_cache(maxsize=None)  # as the search's own cache: one entry per call, cache_info() for the tests
    def search_once_per_session(delta: int, b_size: int = 16, a_turns: int = case_IV.FORCED_TURNS,
                                budget: int = 400_000) -> tuple[bool | None, int]:
        return share(f"case-IV-halving-forced-win-{delta}-{b_size}-{a_turns}-{budget}",
                     lambda: search(delta, b_size, a_turns, budget))

    setattr_(paper, "_compute", verdict_once_per_session)
    setattr_(case_IV, "halving_forced_win", search_once_per_session)


KERNEL_STARTUP = """\
def _amoeboid_share_the_papers_computations():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("_amoeboid_session_share", {module!r})
    share = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(share)
    sharing = share.sharer(Path({folder!r}))
    if sharing is not None:
        share.install(sharing)


_amoeboid_share_the_papers_computations()
del _amoeboid_share_the_papers_computations
"""
"""An IPython startup file (run in a kernel before its first cell) that calls :func:`install` with the session's
folder; it leaves no name behind in the notebook's namespace."""


def ipython_dir(folder: Path) -> Path:
    """An IPython directory whose startup file shares the paper's computations through ``folder`` (made once)."""
    directory = folder / "ipython-sharing-the-papers-computations"
    startup = directory / "profile_default" / "startup" / "00-share-the-papers-computations.py"
    if not startup.exists():
        startup.parent.mkdir(parents=True, exist_ok=True)
        text = KERNEL_STARTUP.format(module=str(Path(__file__).resolve()), folder=str(folder))
        part = startup.with_name(f"{startup.name}.{os.getpid()}.part")  # not *.py: IPython runs only those
        part.write_text(text)
        part.replace(startup)
    return directory
