"""Where batches of work run: ``serial``, ``processes:K`` (this machine) or ``dask:ADDRESS`` (a cluster).

An executor maps one module-level function over a list of batches and hands
back each batch's result as soon as it is done, in any order; the caller makes
the outcome independent of that order.  The function is shipped by reference,
so every host must have the same ``amoeboid_edu`` installed.

- ``serial``: here, one batch after the other.
- ``processes:K``: K fresh interpreters (``concurrent.futures`` with the ``spawn``
  start method: nothing of the caller's state is copied; a script calling this
  needs the usual ``if __name__ == "__main__":`` guard, a notebook does not); on
  Linux each dies with the process that started it.
- ``dask:ADDRESS``: a Dask distributed scheduler (``tcp://host:8786``), with workers on
  any machines (``pip install amoeboid-edu[cluster]``).  A batch whose worker dies is
  run again elsewhere by the scheduler.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before giving up with a clear error."""


@dataclass(frozen=True)
class Executor:
    kind: str  # "serial", "processes" or "dask"
    workers: int = 1
    address: str = ""

    def __str__(self) -> str:
        return {"serial": "serial", "processes": f"processes:{self.workers}", "dask": f"dask:{self.address}"}[self.kind]


def parse_executor(text: str | Executor) -> Executor:
    """``serial``, ``processes:K`` or ``dask:ADDRESS``; ValueError naming what is wrong."""
    if isinstance(text, Executor):
        return text
    kind, _, rest = str(text).partition(":")
    if kind == "serial" and not rest:
        return Executor("serial")
    if kind == "processes":
        if not rest.isdigit() or int(rest) < 1:
            raise ValueError(f"executor {text!r}: processes:K needs a whole number K >= 1")
        return Executor("processes", int(rest))
    if kind == "dask":
        if not rest:
            raise ValueError(f"executor {text!r}: dask:ADDRESS needs the scheduler's address, e.g. dask:tcp://host:8786")
        return Executor("dask", address=rest)
    raise ValueError(f"executor {text!r}: expected serial, processes:K or dask:ADDRESS")


def map_unordered(function: Callable, batches: Sequence, executor: Executor) -> Iterator[tuple[int, object]]:
    """``(index, function(batches[index]))`` for every batch, as each finishes."""
    if executor.kind == "serial":
        for index, batch in enumerate(batches):
            yield index, function(batch)
    elif executor.kind == "processes":
        yield from _processes(function, batches, executor.workers)
    else:
        yield from _dask(function, batches, executor.address)


def _processes(function: Callable, batches: Sequence, workers: int) -> Iterator[tuple[int, object]]:
    """The batches on a pool of ``workers`` fresh interpreters, each of which dies with this process (on Linux).

    Without that, a SIGKILLed scorer left its pool workers, and the sandboxes they had started, running
    (found by the red team).
    """
    import multiprocessing
    import os
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from ._sandbox import die_with_parent
    from .importpath import children_without_their_folder

    # the pool's interpreters start in this process's folder, which may be the class folder
    with children_without_their_folder(), ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent,
            initargs=(os.getpid(),)) as pool:
        pending = {pool.submit(function, batch): index for index, batch in enumerate(batches)}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()


def _dask(function: Callable, batches: Sequence, address: str) -> Iterator[tuple[int, object]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError("the dask executor needs the cluster extra: pip install 'amoeboid-edu[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        futures = {client.submit(function, batch, pure=False): index for index, batch in enumerate(batches)}
        for future in as_completed(futures):
            yield futures[future], future.result()


__all__ = ["Executor", "map_unordered", "parse_executor"]
