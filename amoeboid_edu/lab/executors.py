"""Where batches of work run: ``serial``, ``processes:K`` (this machine) or ``dask:ADDRESS`` (a cluster).

The one way the lab runs its work: a score card (``score(workers=K)`` is ``processes:K``, ``workers=1`` is
``serial``) and a tournament (``executor=``) both map one module-level function over a list of batches, and get
back each batch's result as soon as it is done, in any order; the caller makes the outcome independent of that
order.  The function is shipped by reference, so every host must have the same ``amoeboid_edu`` installed.  Given
``on_item``, the function is called as ``function(batch, emit)`` and what it emits as it goes (a game's record)
reaches ``on_item(index, item)`` here while the batch is still running (serial and ``processes:K``; a Dask worker
sends back only its result).

- ``serial``: here, one batch after the other.
- ``processes:K``: K fresh interpreters of this machine (``python -c``: nothing of the caller's state is copied,
  so neither a script's ``if __name__ == "__main__":`` guard nor a notebook's cells matter), started without the
  current folder on their import path (it may be the class folder), each of which dies with this process (on
  Linux, ``PR_SET_PDEATHSIG``, set before it imports anything else).  A batch whose process dies (killed from
  outside: walls down, see docs/threat-model.md) costs time, not the run: it is played again here, from its
  start.  Leaving the iteration early (an early stop) kills the pool.
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
import pickle
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import IO, Any, Callable, Generator, Iterator, Sequence

from ..sandbox.importpath import children_without_their_folder

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before giving up with a clear error."""
STOP_GRACE = 10.0
"""Seconds a pool process that runs no batch has to exit once its input is closed, before it is killed."""
POOL_PROCESS = False
"""True in a pool process of ``processes:K``: what it starts for one batch may serve the next (it dies with the run)."""


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

    def security(self) -> Any:
        """The ``distributed.security.Security`` of a client that talks TLS only, verifying its peers."""
        from distributed.security import Security

        return Security(
            tls_ca_file=self.ca, tls_client_cert=self.cert, tls_client_key=self.key or None,
                        require_encryption=True)


@dataclass(frozen=True)
class Executor:
    """Where batches run: ``kind`` is "serial", "processes" (``workers`` of them) or "dask" (at ``address``)."""

    kind: str
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


Prepare = Callable[[int, Any], Any]
"""``prepare(index, batch)``: the batch to run now (the same or an updated one), or None not to run it."""
OnItem = Callable[[int, Any], None]
"""``on_item(index, item)``: what a running batch emitted, as it emits it."""


def _as_is(index: int, batch: Any) -> Any:
    return batch


def _run_here(function: Callable[..., Any], batch: Any, index: int, on_item: OnItem | None) -> Any:
    if on_item is None:
        return function(batch)
    return function(batch, lambda item: on_item(index, item))


def map_unordered(function: Callable[..., Any], batches: Sequence[Any], executor: Executor,
                  prepare: Prepare = _as_is, on_item: OnItem | None = None) -> Generator[tuple[int, Any], None, None]:
    """``(index, result)`` for every batch, as each finishes: ``function(batch)`` (``function(batch, emit)`` with
    ``on_item``), or ``(index, None)`` for a batch that ``prepare`` said not to run.

    Batches are started in order, no more at a time than the executor runs at once, and ``prepare(index, batch)``
    is asked just before each starts: a caller that learns from the results it was handed which batches are not
    worth running (a tournament's entrant over its budget) saves their cost, and one that knows more by then
    hands the batch what it knows.  Serially, every result before it has been handed over (and dealt with) when
    a batch is prepared.  Closing the iterator (or an exception from ``on_item``) stops the work.
    """
    if executor.kind == "serial":
        for index, batch in enumerate(batches):
            ready = prepare(index, batch)
            yield index, None if ready is None else _run_here(function, ready, index, on_item)
    elif executor.kind == "processes":
        yield from _processes(function, batches, executor.workers, prepare, on_item)
    else:
        yield from _dask(function, batches, executor.address, executor.tls, prepare)


_SERVE = ("import sys; sys.path[:] = [p for p in sys.path if p]; from amoeboid_edu.sandbox.processes import "
          "die_with_parent; die_with_parent({parent}); from amoeboid_edu.lab.executors import _serve_batches; "
          "_serve_batches()")
"""A pool process: without the current folder on ``sys.path`` (the sandbox opens every import path for reading,
and the current folder may hold the contest's seed file), dying with the process that started it (``{parent}``)
before it imports anything else."""


def _serve_batches() -> None:
    """A pool process: its import path, then ``(function, index, batch, streamed)`` from stdin until its end; out go
    ``("item", index, item)`` as the function emits them and ``("done", index, result)``.

    Its stdout carries nothing else: what anything in this process prints goes to stderr.  An exception ends the
    process (the batch is then played again by the caller, where it raises in full).
    """
    global POOL_PROCESS
    POOL_PROCESS = True
    source = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    path = pickle.load(source)
    sys.path[:0] = [entry for entry in path if entry and entry not in sys.path]
    while True:
        try:
            function, index, batch, streamed = pickle.load(source)
        except EOFError:
            return

        def emit(item: Any, index: int = index) -> None:
            pickle.dump(("item", index, item), out)
            out.flush()

        result = function(batch, emit) if streamed else function(batch)
        pickle.dump(("done", index, result), out)
        out.flush()


class _PoolProcess:
    """One process of a ``processes:K`` pool, and the thread that reads what it sends into ``events``."""

    def __init__(self, events: queue.Queue[tuple[str, _PoolProcess, int, Any]]) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", _SERVE.format(parent=os.getpid())],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.events = events
        self._send([entry for entry in sys.path if entry])
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _send(self, message: object) -> bool:
        """Whether ``message`` reached the process (False: it is gone)."""
        try:
            assert self.process.stdin is not None
            pickle.dump(message, self.process.stdin)
            self.process.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def start(self, function: Callable[..., Any], index: int, batch: Any, streamed: bool) -> bool:
        return self._send((function, index, batch, streamed))

    def _read(self, stream: IO[bytes] | None) -> None:
        try:
            while stream is not None:
                kind, index, value = pickle.load(stream)
                self.events.put((kind, self, index, value))
        except (EOFError, ValueError, OSError, pickle.UnpicklingError):  # the end, or the pool was closed under us
            pass
        finally:
            self.events.put(("end", self, -1, None))

    def stop(self, finished: bool = False) -> None:
        """Stop the process: ``finished`` (it runs no batch), by closing its input, so that it stops what it
        started (its sandboxes' workers) before it exits; else, or if it has not exited within ``STOP_GRACE``
        seconds, SIGKILL (what it started then dies with it, a moment later)."""
        if finished and self.process.stdin is not None:
            try:
                self.process.stdin.close()
                self.process.wait(STOP_GRACE)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


def _processes(function: Callable[..., Any], batches: Sequence[Any], workers: int, prepare: Prepare,
               on_item: OnItem | None) -> Iterator[tuple[int, Any]]:
    """The batches on a pool of ``workers`` fresh interpreters (see the module's docstring)."""
    upcoming = collections.deque(enumerate(batches))
    events: queue.Queue[tuple[str, _PoolProcess, int, Any]] = queue.Queue()
    pool: list[_PoolProcess] = []
    running: dict[_PoolProcess, tuple[int, Any]] = {}
    try:
        with children_without_their_folder():
            pool += [_PoolProcess(events) for _ in range(min(workers, len(batches)))]
        idle = list(pool)
        while upcoming or running:
            while upcoming and (idle or not running):
                index, batch = upcoming.popleft()
                ready = prepare(index, batch)
                if ready is None:
                    yield index, None
                elif idle and (process := idle.pop()).start(function, index, ready, on_item is not None):
                    running[process] = (index, ready)
                else:  # no process left (each was killed): played here
                    yield index, _run_here(function, ready, index, on_item)
            if not running:
                continue
            kind, process, index, value = events.get()
            if kind == "item" and process in running:
                if on_item is not None:
                    on_item(index, value)
            elif kind == "done" and process in running:
                del running[process]
                idle.append(process)
                yield index, value
            elif kind == "end":
                if process in idle:
                    idle.remove(process)
                if process in running:  # it died with a batch: played again here, from its start
                    index, ready = running.pop(process)
                    yield index, _run_here(function, ready, index, on_item)
    finally:
        for process in pool:
            process.stop(finished=process not in running)


def _dask(function: Callable[..., Any], batches: Sequence[Any], address: str, tls: TLSFiles | None,
          prepare: Prepare) -> Iterator[tuple[int, Any]]:
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
        futures: dict[Any, int] = {}
        finished = as_completed()
        while upcoming or futures:
            running = max(1, sum(client.nthreads().values()))  # the cluster's width now: workers may come and go
            while upcoming and len(futures) < running:
                index, batch = upcoming.popleft()
                ready = prepare(index, batch)
                if ready is None:
                    yield index, None
                else:
                    future = client.submit(function, ready, pure=False)
                    futures[future] = index
                    finished.add(future)
            if futures:
                future = next(finished)
                yield futures.pop(future), future.result()


__all__ = ["Executor", "TLSFiles", "map_unordered", "parse_executor"]
