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
- ``dask:ADDRESS``: a Dask distributed scheduler (``tls://host:8786``, or ``tcp://`` on one
  machine), with workers on any machines (``pip install amoeboid-edu[cluster]``).  A batch
  whose worker dies is run again elsewhere by the scheduler.  A ``tls://`` scheduler is
  reached with certificates (:class:`TLSFiles`: the CA that signed every member's
  certificate, and this client's certificate and key): anyone who can reach a plain
  ``tcp://`` scheduler can attach a worker of their own, and the results it sends back are
  pickles this process unpickles (forged rows, or code run as the teacher).
"""

from __future__ import annotations

import collections
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

    from distributed import Future as DaskFuture
    from distributed.security import Security

Batch = TypeVar("Batch")
Result = TypeVar("Result")

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before giving up with a clear error."""


@dataclass(frozen=True)
class TLSFiles:
    """The certificates of a ``tls://`` Dask scheduler's client: PEM files.

    ``ca``: the certificate authority that signed the scheduler's and every worker's certificate (a member
    without one is refused, both ways); ``cert`` and ``key``: this client's own certificate and private key
    (``cert`` may hold both, then ``key`` is empty).
    """

    ca: str
    cert: str
    key: str = ""

    def check(self) -> None:
        """ValueError naming the first file that is missing or unreadable."""
        for what, path in (("CA certificate", self.ca), ("certificate", self.cert), ("key", self.key)):
            if (what != "key" or path) and not os.access(path, os.R_OK):
                raise ValueError(f"the TLS {what} {path!r} is not a readable file: give the PEM file's path")

    def security(self) -> Security:
        """The ``distributed.security.Security`` of a client that talks TLS only, verifying its peers."""
        from distributed.security import Security

        return Security(tls_ca_file=self.ca, tls_client_cert=self.cert, tls_client_key=self.key or None,
                        require_encryption=True)


@dataclass(frozen=True)
class Executor:
    kind: str  # "serial", "processes" or "dask"
    workers: int = 1
    address: str = ""
    tls: TLSFiles | None = None

    def __str__(self) -> str:
        return {"serial": "serial", "processes": f"processes:{self.workers}", "dask": f"dask:{self.address}"}[self.kind]


def parse_executor(text: str | Executor, tls: TLSFiles | None = None) -> Executor:
    """``serial``, ``processes:K`` or ``dask:ADDRESS`` (``tls://`` with ``tls``); ValueError naming what is wrong."""
    if isinstance(text, Executor):
        tls = text.tls if tls is None else tls
        text = str(text)
    kind, _, rest = str(text).partition(":")
    if tls is not None and kind != "dask":
        raise ValueError(f"executor {text!r}: TLS certificates are for a dask:tls://ADDRESS executor only")
    if kind == "serial" and not rest:
        return Executor("serial")
    if kind == "processes":
        if not rest.isdigit() or int(rest) < 1:
            raise ValueError(f"executor {text!r}: processes:K needs a whole number K >= 1")
        return Executor("processes", int(rest))
    if kind == "dask":
        if not rest:
            raise ValueError(f"executor {text!r}: dask:ADDRESS needs the scheduler's address, "
                             "e.g. dask:tls://host:8786")
        if rest.startswith("tls://") and tls is None:
            raise ValueError(f"executor {text!r}: a tls:// scheduler needs this client's certificates: --tls-ca, "
                             "--tls-cert and --tls-key (tls= from Python)")
        if tls is not None and not rest.startswith("tls://"):
            raise ValueError(f"executor {text!r}: TLS certificates were given for a scheduler that is not "
                             "tls://ADDRESS")
        if tls is not None:
            tls.check()
        return Executor("dask", address=rest, tls=tls)
    if tls is not None:
        raise ValueError(f"executor {text!r}: TLS certificates are for a dask:tls://ADDRESS executor only")
    raise ValueError(f"executor {text!r}: expected serial, processes:K or dask:ADDRESS")


def _never(index: int) -> bool:
    return False


def map_unordered(function: Callable[[Batch], Result], batches: Sequence[Batch], executor: Executor,
                  skip: Callable[[int], bool] = _never) -> Iterator[tuple[int, Result | None]]:
    """``(index, function(batches[index]))`` for every batch, as each finishes; ``(index, None)`` for a batch that
    ``skip(index)`` said not to run.

    Batches are started in order, no more at a time than the executor runs at once, and ``skip`` is asked just
    before each starts: a caller that learns from the results it was handed which batches are not worth running
    (a tournament's entrant over its budget) saves their cost.
    """
    if executor.kind == "serial":
        for index, batch in enumerate(batches):
            yield index, None if skip(index) else function(batch)
    elif executor.kind == "processes":
        yield from _processes(function, batches, executor.workers, skip)
    else:
        yield from _dask(function, batches, executor.address, executor.tls, skip)


def _processes(function: Callable[[Batch], Result], batches: Sequence[Batch], workers: int,
               skip: Callable[[int], bool]) -> Iterator[tuple[int, Result | None]]:
    """The batches on a pool of ``workers`` fresh interpreters, each of which dies with this process (on Linux).

    Otherwise a SIGKILLed scorer would leave its pool workers, and the sandboxes they had started, running.
    """
    import multiprocessing
    import os
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from ..sandbox.processes import die_with_parent
    from ..sandbox.importpath import children_without_their_folder

    upcoming = collections.deque(enumerate(batches))
    # the pool's interpreters start in this process's folder, which may be the class folder
    with children_without_their_folder(), ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent,
            initargs=(os.getpid(),)) as pool:
        pending: dict[Future[Result], int] = {}
        try:
            while upcoming or pending:
                while upcoming and len(pending) < workers:
                    index, batch = upcoming.popleft()
                    if skip(index):
                        yield index, None
                    else:
                        pending[pool.submit(function, batch)] = index
                if pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()


def _dask(function: Callable[[Batch], Result], batches: Sequence[Batch], address: str, tls: TLSFiles | None,
          skip: Callable[[int], bool]) -> Iterator[tuple[int, Result | None]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError("the dask executor needs the cluster extra: pip install 'amoeboid-edu[cluster]'") from None
    try:
        security = tls.security() if tls is not None else None
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError: a file that is not a PEM certificate or key
        raise ValueError(f"the TLS certificates for {address} cannot be used: {error}") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, security=security)
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    upcoming = collections.deque(enumerate(batches))
    with client:
        futures: dict[DaskFuture[Result], int] = {}
        finished = as_completed()
        while upcoming or futures:
            running = max(1, sum(client.nthreads().values()))  # the cluster's width now: workers may come and go
            while upcoming and len(futures) < running:
                index, batch = upcoming.popleft()
                if skip(index):
                    yield index, None
                else:
                    future = client.submit(function, batch, pure=False)
                    futures[future] = index
                    finished.add(future)
            if futures:
                future = next(finished)
                yield futures.pop(future), future.result()


__all__ = ["Executor", "TLSFiles", "map_unordered", "parse_executor"]
