"""The harness: the lab's end of one untrusted strategy's worker (:class:`Sandbox`).

It starts ``python -m amoeboid_edu.sandbox.worker`` (:mod:`.worker`) in a scrubbed environment, in ``/``, with
``-P`` (nothing of the teacher's folders on its import path), sends it the load request, then each round's moves,
and reads every answer as untrusted (:mod:`.protocol`): by its own clock, bounded in size, escaped before it is
shown (:mod:`.text`).  A move that does not stop costs the game process: the harness kills every descendant of the
worker's supervisor except the template and the other lanes' game processes (:mod:`.processes`), and the next game
process imports the strategy again within the load limit.  One worker serves every lane of a strategy
(:meth:`Sandbox.lane`): it is started once, and each lane's game process is forked from its template.  See docs/threat-model.md.
"""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..engine.rules import Position, Rules
from .processes import descendants, sweep
from .protocol import (
    GAME,
    LOAD_LIMIT,
    MAX_ANSWER,
    MAX_MESSAGE,
    SEAL,
    SEALED,
    TOKEN_BYTES,
    WAIT_FACTOR,
    MessageReader,
    read_exactly,
    receive_message,
    send_message,
    untrusted_answer,
    untrusted_object,
    wait_limit,
)
from .text import LINE_WIDTH, shown

WORKER = "amoeboid_edu.sandbox.worker"
"""The module a worker runs (``python -m``)."""
FORK_SERVER = sys.platform == "linux"
"""Supervisor, import template and game processes: needs fork, prctl and /proc (Linux)."""
PORTABLE_ENV = "AMOEBOID_PORTABLE_SANDBOX"
"""``AMOEBOID_PORTABLE_SANDBOX=1``: start every worker the portable way (as on Windows), to test that path on Linux."""
_SIGSTOP, _SIGCONT = getattr(signal, "SIGSTOP", None), getattr(signal, "SIGCONT", None)
"""None on Windows, where there is no game process to stop (the worker is one plain process)."""


def portable_start() -> bool:
    """Whether workers are started the portable way: no descriptor passing here (Windows), or forced by the env."""
    return not hasattr(socket, "send_fds") or os.environ.get(PORTABLE_ENV, "") not in ("", "0")


NO_HOME = "/nonexistent/amoeboid-strategy"
"""``HOME`` and ``TMPDIR`` of a worker: a fixed path that does not exist (a game process may write nothing)."""
MOVE_GRACE = 1.0
"""Seconds a game process has to answer once its move was interrupted at the wall-clock guard
(:func:`.protocol.wait_limit`); then it is killed."""
LATE_AFTER = 0.25
"""Seconds past the wall-clock guard after which an answer is late by the harness's own clock and forfeits.  The
game process's timers are a courtesy to honest strategies; a hostile one can block or rewrite them in its own
process (and think for the guard plus ``MOVE_GRACE`` that way), so the harness times every answer."""
HARNESS_CLOCK = sys.platform == "linux" and hasattr(time, "clock_gettime")
"""Whether the harness reads a game process's CPU time itself (:func:`cpu_clock`): Linux's per-process CPU clocks."""
OWN_MEASURE = "time per move: the strategy's own measure"
"""What a card's details line adds where the harness cannot read the game process's CPU time (other systems): the
time per move is then what the game process reports, which a strategy can rewrite."""
CPU_CHECK = 0.01
"""Seconds the harness waits at least between two readings of a game process's CPU clock while it waits for an
answer."""


def cpu_clock(pid: int) -> int | None:
    """The clock id of process ``pid``'s CPU time (user and system, all its threads) for :func:`time.clock_gettime`,
    or None where there is none (not Linux, or the process is gone).

    Linux names a process's CPU clock ``((~pid) << 3) | 2`` (CPUCLOCK_SCHED); any process may read it, and a reading
    costs a system call (about 2 µs).  The harness reads it from outside, so a strategy cannot rewrite what it says
    (the game process's own ``time.process_time`` is its to replace).
    """
    if not HARNESS_CLOCK:
        return None
    clock = ((~pid) << 3) | 2
    try:
        time.clock_gettime(clock)
    except (OSError, OverflowError):
        return None
    return clock


class _Overspent(Exception):
    """A move's CPU time, read by the harness, passed the per-move limit plus ``MOVE_GRACE`` with no answer."""


def _timed_out(limit: float) -> str:
    """A timeout's value: what the per-move limit counts."""
    return f"no answer within {limit:g} s of CPU time (the per-move limit)"


def _waited(limit: float) -> str:
    """The value of a move stopped by the wall-clock guard: it waited, or did not stop when interrupted."""
    return (f"the move waited {wait_limit(limit):g} s without using the CPU (a sleep, input() or a read?); "
            f"a move may wait {WAIT_FACTOR:g} times its limit of {limit:g} s of CPU time")


class Forfeit(Exception):
    """Why a move (and so the game) is lost: ``reason`` is one of the lab's FORFEIT_REASONS."""

    def __init__(self, reason: str, value: str, message: str = "") -> None:
        super().__init__(reason)
        self.reason, self.value, self.message = reason, value, message


HARNESS_MARK = "AMOEBOID_HARNESS"
"""The environment variable that names a sandbox's harness process."""


def _worker_environment() -> dict[str, str]:
    """A scrubbed environment: nothing of the teacher's (tokens, seeds, paths) reaches the strategy.

    ``HOME`` and ``TMPDIR`` name a path that does not exist: a game process may write nothing, and a fixed
    path keeps a strategy that looks at it deterministic.
    """
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Windows: Python cannot start its sockets (nor seed its hashes) without SYSTEMROOT
    system_root = {"SYSTEMROOT": os.environ["SYSTEMROOT"]} if sys.platform == "win32" and "SYSTEMROOT" in os.environ else {}
    return {
        **system_root,
        "PATH": os.defpath,
        "PYTHONPATH": package_parent,
        "PYTHONHASHSEED": "0",  # set and dict order of strings is the same on every run
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": NO_HOME,
        "TMPDIR": NO_HOME,
        "LC_ALL": "C.UTF-8",
        # one thread for NumPy's BLAS: a worker may not start threads (seccomp), and needs none
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        # which harness started it (its pid is in the command line too): lets a test or an administrator find a
        # run's sandboxes without parsing other programs' command lines
        HARNESS_MARK: str(os.getpid()),
    }



def _pidfd(pid: int) -> int | None:
    """A pidfd for ``pid``, or None where the kernel has none (before 5.3): its game processes are then not
    stopped between rounds, as off Linux."""
    try:
        return os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    except OSError as error:  # ESRCH: it died already, and the import's answer says why
        if error.errno in (errno.ESRCH, errno.ENOSYS, errno.EPERM, errno.EINVAL):
            return None
        raise


LOAD_ERRORS = (socket.timeout, TimeoutError, EOFError, OSError, ValueError, UnicodeDecodeError)
"""How loading a strategy can fail on the harness's side: no answer in time, a closed or broken connection, a
malformed answer."""


@dataclass(eq=False)
class _Worker:
    """One strategy's worker as the harness holds it: the supervisor's process, the template's pid, the control
    connection, and the lanes (:class:`Sandbox`) whose game processes the template forked."""

    process: subprocess.Popen[bytes] | None = None
    template: int | None = None
    control: socket.socket | None = None
    spare_game: socket.socket | None = None
    """A portable start's game connection, until the first game takes it."""
    spawned: socket.socket | None = None
    """The control connection of a worker started by :meth:`Sandbox.spawn` and not sent its load request yet."""
    isolation: str = ""
    """The walls the worker reported, e.g. "process + seccomp + landlock"."""
    lanes: list[Sandbox] = field(default_factory=list)


@dataclass(eq=False)
class Sandbox:
    """The harness's end of one untrusted strategy's worker: started on first use, restarted after a crash."""

    load: dict[str, Any]
    payload: bytes
    rules: Rules
    load_limit: float = LOAD_LIMIT
    import_seed: int = 0
    walls: bool = True
    """False: no seccomp or Landlock (to measure their cost, or to see what "process only" means)."""
    fork_server: bool = FORK_SERVER
    """False: one plain process, killed and re-imported after a timeout it does not stop at (the fallback off Linux)."""
    portable: bool = field(default_factory=portable_start)
    """True: started the portable way (loopback connections and a token, no descriptor passing), always with one
    plain process; the default on Windows, and wherever ``AMOEBOID_PORTABLE_SANDBOX=1``."""
    broken: str | None = None
    """Why the strategy cannot be loaded at all (every game then forfeits with reason "load")."""
    worker: _Worker = field(default_factory=lambda: _Worker(), repr=False)
    """The worker's processes and control connection: this sandbox's own, or shared with the other lanes of the
    same strategy (:meth:`lane`)."""
    game: socket.socket | None = field(default=None, repr=False)
    requested: socket.socket | None = field(default=None, repr=False)
    """A game process's socket, forked (:meth:`request_game`) and importing the strategy, its answer not read yet."""
    answers: MessageReader | None = field(default=None, repr=False)
    heard: float = 0.0
    """When the game process last sent something (or was sent its round): the harness's clock for each answer."""
    game_pidfd: int | None = None
    """The game process (a pidfd, from the pid its trusted template reports), stopped between rounds."""
    game_pid: int | None = None
    """The game process's pid as its template reported it: kept alive when another lane's game process is killed."""
    careful: bool = False
    """The next round's answers are sent one by one: the last round lost its game process with several moves
    unanswered, and the move that did it is found by asking them again."""
    one_by_one: bool = False
    """Every round's answers are sent one by one from now on: a careful round answered everything that had cost a
    game process, so the strategy chose when to die (and could re-import for free that way); now every loss of
    the game process falls on the move it happened in."""
    imports: int = 0
    """Games sockets handed to the worker: each is a game process that imports the strategy (a plain worker imports
    once per process).  A move interrupted at its limit keeps its process, and so the count."""
    cpu: int | None = field(default=None, repr=False)
    """The clock id of the playing process's CPU time (:func:`cpu_clock`), or None: the time per move is then the
    game process's own measure."""
    timed_by: str = ""
    """Who measured the last game process's time per move: ``"harness"`` (its CPU clock, read from outside) or
    ``"worker"`` (the game process itself: :data:`OWN_MEASURE`); empty before the first game process."""
    cpu_mark: float = 0.0
    """The playing process's CPU time at the last answer heard (or before its round was sent)."""
    cpu_marked_at: float = 0.0
    """When ``cpu_mark`` was read (the monotonic clock)."""
    chunks: list[tuple[float, list[dict[str, Any]]]] = field(default_factory=list, repr=False)
    """This round's answers by the read that brought them, each with the CPU time spent since the read before."""

    def __post_init__(self) -> None:
        if self.portable:
            self.fork_server = False
        self.worker.lanes.append(self)

    def lane(self) -> Sandbox:
        """Another lane of this strategy: a sandbox with a game process of its own, forked from this one's worker.

        The worker (an interpreter that imported the lab's modules and NumPy and put its walls up) is started once
        for all the lanes; each lane's game process imports the strategy itself, so lanes share no state but the
        template's, which runs no student code.  A plain or portable worker plays one game connection at a time:
        its lanes get workers of their own.
        """
        shared = self.fork_server and not self.portable
        return Sandbox(self.load, self.payload, self.rules, self.load_limit, self.import_seed, self.walls,
                       self.fork_server, self.portable, worker=self.worker if shared else _Worker())

    def _start_portably(self, deadline: float) -> socket.socket:
        """Start a plain worker without descriptor passing; its control connection (its game's is kept spare)."""
        token = os.urandom(TOKEN_BYTES)
        with socket.create_server(("127.0.0.1", 0)) as listener:
            port = listener.getsockname()[1]
            safe_path = ["-P"] if sys.version_info >= (3, 11) else []
            self.worker.process = subprocess.Popen(
                [sys.executable, *safe_path, "-m", WORKER, f"127.0.0.1:{port}", str(os.getpid()),
                 "portable"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=_worker_environment(),
                cwd=os.sep,
                start_new_session=True,  # (POSIX only; ignored on Windows)
            )
            assert self.worker.process.stdin is not None
            self.worker.process.stdin.write(token.hex().encode() + b"\n")
            self.worker.process.stdin.flush()
            found: dict[bytes, socket.socket] = {}
            while len(found) < 2:  # anything else that connects without the token is dropped
                listener.settimeout(max(deadline - time.monotonic(), 0.001))
                connection, _ = listener.accept()
                try:
                    hello = read_exactly(connection, TOKEN_BYTES + 1, deadline)
                except (EOFError, OSError):
                    hello = b""
                finally:
                    connection.settimeout(None)
                if hello[:TOKEN_BYTES] == token and hello[TOKEN_BYTES:] in (b"C", b"G") and hello[TOKEN_BYTES:] not in found:
                    found[hello[TOKEN_BYTES:]] = connection
                else:
                    connection.close()
        self.worker.spare_game = found[b"G"]
        return found[b"C"]

    def spawn(self) -> None:
        """Start the worker's interpreter now, without waiting for it (a fork server only): its imports then run while
        the harness starts other workers or plays, and the load request follows on first use (:meth:`ask`)."""
        if self.portable or not self.fork_server or self.broken is not None or self.worker.process is not None:
            return
        self.worker.spawned = self._popen()

    def request_game(self) -> None:
        """Have this lane's game process forked now, without waiting for its import (the worker is started and
        loaded first if it is not): the lanes of a pairing then import the strategy side by side.  :meth:`ask`
        reads its answer."""
        if not self.fork_server or self.portable or self.game is not None or self.requested is not None:
            return
        if self.broken is None and (self.worker.process is None or self.worker.spawned is not None):
            self._start()  # the worker's first game process, its import waited for: this lane's
        if self.broken is not None or self.worker.control is None or self.game is not None:
            return
        try:
            mine = self._send_game()
        except OSError:
            return  # the template is gone: ask() meets it again and says so
        try:  # read at once: the template's pids come in the order the games were asked for
            self._read_pid()
        except LOAD_ERRORS as error:
            self.broken = self._load_failed(error)
        if self.broken is not None:
            mine.close()
            self._end_game()
            return
        self.requested = mine

    def _start(self) -> None:
        if self.portable:
            self._start_and_load(None)
            return
        mine, self.worker.spawned = self.worker.spawned or self._popen(), None
        self._start_and_load(mine)

    def _popen(self) -> socket.socket:
        """Start the worker's process (a fork server or a plain worker); its end of the control connection."""
        mine, theirs = socket.socketpair()
        safe_path = ["-P"] if sys.version_info >= (3, 11) else []  # not "/" (its folder) on the import path
        try:
            self.worker.process = subprocess.Popen(
                [sys.executable, *safe_path, "-m", WORKER, str(theirs.fileno()), str(os.getpid()),
                 "fork" if self.fork_server else "plain"],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_worker_environment(),
                cwd=os.sep,  # the same on every run and machine; nothing of the teacher's
                start_new_session=True,  # away from the harness's process group and terminal
            )
        finally:
            theirs.close()
        return mine

    def _start_and_load(self, mine: socket.socket | None) -> None:
        """Send the load request over the control connection (``None``: start portably first) and read the walls."""
        deadline = time.monotonic() + self.load_limit
        request = dict(self.load, path=[os.path.abspath(entry) for entry in sys.path], adjacency=self.rules.adjacency,
                       die_sides=self.rules.die_sides, import_seed=self.import_seed, walls=self.walls)
        try:
            if mine is None:
                mine = self._start_portably(deadline)
            self.worker.control = mine
            if self.fork_server:
                self.worker.template = int(self._line_from_supervisor(deadline))
            send_message(mine, json.dumps(request).encode())
            if request["load"] in ("pickle", "source"):  # the cloudpickle bytes, or a file's text
                send_message(mine, self.payload)
            walls = untrusted_object(receive_message(mine, deadline, MAX_MESSAGE))["isolation"]
            self.worker.isolation = " + ".join(str(wall) for wall in walls)
            self._new_game()  # the first game process imports the strategy now: a broken one is known at once
        except (socket.timeout, TimeoutError):
            self.broken = f"no answer within {self.load_limit:g} s while starting the worker (the load limit)"
        except (EOFError, OSError, ValueError, KeyError, TypeError) as error:
            self.broken = shown(f"the worker failed while starting ({error})")
        if self.broken:
            self.kill()

    def _line_from_supervisor(self, deadline: float) -> bytes:
        assert self.worker.process is not None and self.worker.process.stdout is not None
        pipe = self.worker.process.stdout
        if not select.select([pipe], [], [], max(deadline - time.monotonic(), 0))[0]:
            raise TimeoutError
        return pipe.readline()

    def _new_game(self) -> socket.socket | None:
        """A fresh game process (forked from the template) on a fresh socket, once it has imported the strategy.

        None if the import failed or took longer than the load limit (``broken`` says why; the game process is
        stopped, and a worker that forks none is stopped with it); OSError if the template is gone.
        """
        assert self.worker.control is not None
        forked, mine = self.requested is not None, self.requested or self._send_game()
        self.requested = None
        try:
            if self.fork_server and not forked:
                self._read_pid()
            answer = untrusted_object(receive_message(mine, time.monotonic() + self.load_limit, MAX_MESSAGE))
            if not answer.get("ok"):
                self.broken = shown(answer.get("error", "the strategy could not be loaded"))
            elif self.fork_server and "seal" in self.worker.isolation.split(" + "):  # sealed by the template first
                self.worker.control.sendall(SEAL)
                send_message(self.worker.control, str(self.game_pid).encode())
                if receive_message(self.worker.control, time.monotonic() + self.load_limit, 32) != SEALED:
                    self.broken = "the game process could not be sealed (docs/threat-model.md)"
        except LOAD_ERRORS as error:
            self.broken = self._load_failed(error)
        if self.broken is not None:
            mine.close()
            self._end_game()  # the lanes' other game processes and the template stay
            return None
        self.game, self.answers = mine, MessageReader(mine)
        player = self.game_pid if self.fork_server else self.worker.process.pid if self.worker.process else None
        self.cpu = None if player is None else cpu_clock(player)
        self.timed_by = "harness" if self.cpu is not None else "worker"
        return mine

    def _load_failed(self, error: BaseException) -> str:
        """What ``broken`` says when loading the strategy ended in ``error`` (one of ``LOAD_ERRORS``)."""
        if isinstance(error, (socket.timeout, TimeoutError)):
            return f"no answer within {self.load_limit:g} s while loading the strategy (the load limit)"
        return shown(f"the worker failed while loading the strategy ({error})")

    def _send_game(self) -> socket.socket:
        """Send the worker a fresh socket for a game process (a fork server forks one at once); OSError if the
        template is gone."""
        assert self.worker.control is not None
        if self.portable:  # its one game connection was made at start
            if self.worker.spare_game is None:
                raise OSError("a portably started worker plays one game connection")
            mine, self.worker.spare_game = self.worker.spare_game, None
            self.worker.control.sendall(GAME)
            self.imports += 1
            return mine
        mine, theirs = socket.socketpair()
        try:
            socket.send_fds(self.worker.control, [GAME], [theirs.fileno()])
            self.imports += 1
        finally:
            theirs.close()
        return mine

    def _read_pid(self) -> None:
        """The template's word (it runs no student code): the pid of the game process it forked last."""
        assert self.worker.control is not None
        pid = int(receive_message(self.worker.control, time.monotonic() + self.load_limit, 32))
        self._forget_game_process()
        self.game_pidfd, self.game_pid = _pidfd(pid), pid

    def _cpu_now(self) -> float | None:
        """The playing process's CPU time, read by the harness; None without its clock (or once it is gone)."""
        if self.cpu is None:
            return None
        try:
            return time.clock_gettime(self.cpu)
        except OSError:
            return None

    def _mark_cpu(self) -> float:
        """Read the playing process's CPU clock as the new mark; the CPU time spent since the previous mark."""
        now, before = self._cpu_now(), self.cpu_mark
        if now is None:
            return 0.0
        self.cpu_mark, self.cpu_marked_at = now, time.monotonic()
        return max(now - before, 0.0)

    def _next_message(self, limit: float, deadline: float) -> bytes:
        """The next answer's bytes by ``deadline`` (the wall-clock guard); with the game process's CPU clock, also
        :class:`_Overspent` once it has used ``limit`` plus ``MOVE_GRACE`` seconds of CPU time since the last answer
        heard without sending the next.

        The clock is read only when that could have happened: a process of one thread (the game's filter refuses
        threads) uses at most a second of CPU time a second, so the first reading waits for the whole budget.
        Answers the game process holds back (:data:`.worker.FLUSH_AFTER`, under a hundredth of a second of moves)
        count in the same budget."""
        assert self.answers is not None and self.game is not None
        if self.cpu is None:
            return self.answers.next(deadline, MAX_ANSWER)
        budget = limit + MOVE_GRACE
        wake = self.cpu_marked_at + budget
        while True:
            try:
                return self.answers.next(min(deadline, max(wake, time.monotonic() + CPU_CHECK)), MAX_ANSWER)
            except (socket.timeout, TimeoutError):
                if time.monotonic() >= deadline:
                    raise
            now = self._cpu_now()
            if now is None:  # it is gone: the connection says so
                wake = deadline
                continue
            used = now - self.cpu_mark
            if used > budget and not select.select([self.game], [], [], 0)[0]:  # read, then nothing sent since
                raise _Overspent
            wake = time.monotonic() + max(budget - used, 0.0)

    def _receive(self, limit: float) -> dict[str, Any]:
        """The game's next answer within ``limit`` seconds plus ``MOVE_GRACE``, or a forfeit (the game process is killed).

        The game process interrupts a move itself at ``limit`` and answers ``{"kind": "timeout"}`` (it keeps its
        import); the grace is for a move that does not stop when interrupted (it caught the exception, blocked
        the signal, or runs in C).  Where the harness reads the game process's CPU clock (Linux), a move is also
        stopped once it has used ``limit`` plus ``MOVE_GRACE`` of CPU time, and its time (``took``) is the
        harness's figure (:meth:`_settle_times`).
        """
        assert self.game is not None and self.answers is not None
        try:
            deadline = time.monotonic() + wait_limit(limit) + MOVE_GRACE
            answer = untrusted_answer(self._next_message(limit, deadline))
        except _Overspent:
            self._end_game()
            raise Forfeit("timeout", f"no answer within {limit + MOVE_GRACE:g} s of CPU time, by the harness's "
                          f"measure (the per-move limit is {limit:g} s of CPU time)",
                          "the move did not stop when interrupted: its game process was stopped") from None
        except (socket.timeout, TimeoutError):
            self._end_game()
            raise Forfeit("timeout", f"no answer within {wait_limit(limit):g} s (the per-move limit is {limit:g} s "
                          "of CPU time)",
                          "the move did not stop when interrupted: its game process was stopped") from None
        except (EOFError, ConnectionError):
            self._end_game()
            raise Forfeit("crash", "the worker exited (its game process died)") from None
        except (OSError, ValueError, UnicodeDecodeError) as error:
            self._end_game()
            raise Forfeit("malformed", "an unreadable answer from the worker", shown(error, LINE_WIDTH)) from None
        gap = spent = 0.0
        if self.answers.waited:  # an answer that came in with the one before took no time of its own
            arrived = time.monotonic()
            gap, self.heard = arrived - self.heard, arrived
        if self.cpu is not None and (self.answers.waited or not self.chunks):
            spent = self._mark_cpu()
            self.chunks.append((spent, []))
        late = gap > wait_limit(limit) + LATE_AFTER
        overspent = spent > limit + MOVE_GRACE
        if answer.get("kind") == "timeout" or late or overspent:  # the harness's words; only the output is the worker's
            message = ("the move was interrupted; its game process and import were kept" if not (late or overspent)
                       else f"the answer came {gap:.2f} s after the one before, by the harness's clock (the game "
                       "process did not stop the move itself)" if late else
                       f"the answer came after more than {limit + MOVE_GRACE:g} s of CPU time, by the harness's "
                       "measure (the game process did not stop the move itself)")
            waited = late or answer.get("value") == "waited"
            answer = {"kind": "timeout", "value": _waited(limit) if waited else _timed_out(limit),
                      "message": message,
                      **{key: answer[key] for key in ("output", "printed", "lines", "took") if key in answer},
                      **({"where": answer["where"]} if "where" in answer and not (late or overspent) else {})}
        if self.chunks:
            self.chunks[-1][1].append(answer)
        return answer

    def _settle_times(self) -> None:
        """Each of this round's answers gets its time (``took``) from the harness's readings of the CPU clock: the
        CPU time between two reads is shared by the answers the later read brought, in proportion to the times the
        game process reports for them (its word decides only that split; evenly if it reports none).  So the
        mean over a round is the harness's figure whatever the strategy does, and an honest card's slowest move is
        its own, not that of the answers sent with it."""
        for spent, answers in self.chunks:
            claims = [answer.get("took", 0.0) for answer in answers]
            total = sum(claims)
            for answer, claim in zip(answers, claims):
                answer["took"] = spent * claim / total if total > 0 else spent / len(answers)
        self.chunks = []

    def ask(self, moves: Sequence[tuple[int, int, Position]], limit: float) -> list[dict[str, Any] | Forfeit | None]:
        """Answers for several ``(seed, roll, position)`` moves, each within ``limit`` seconds of the previous one.

        Each item is the worker's answer (a dict; ``{"kind": "timeout", ...}`` for a move the game process
        interrupted at the limit), a forfeit (a move that did not stop, a crash, a load failure, an unreadable
        answer), or None for a move left unanswered because an earlier one ended the game process: ask for it
        again.
        """
        if self.broken is None and (self.worker.process is None or self.worker.spawned is not None):
            self._start()
        if self.broken is not None:
            return [Forfeit("load", self.broken, "the strategy could not be loaded")] * len(moves)
        try:
            game = self.game or self._new_game()
        except OSError:
            self.kill()  # the template is gone: start afresh next time
            return [Forfeit("crash", "the worker exited")] + [None] * (len(moves) - 1)
        if game is None:
            return [Forfeit("load", str(self.broken), "the strategy could not be loaded")] * len(moves)
        careful, self.careful = self.careful or self.one_by_one, False
        round_ = [f"{float(limit)!r} {careful:d}"] + [f"{seed} {roll} {position}" for seed, roll, position in moves]
        self.chunks = []
        self._mark_cpu()  # before it runs again: stopped (or waiting for its round) since its last answer
        self._signal_game(_SIGCONT)
        try:  # one message for the round: on a busy or single core, a message per move costs a context switch each
            game.settimeout(wait_limit(limit) + MOVE_GRACE)  # one that stops reading must not block the harness
            send_message(game, "\n".join(round_).encode())  # (it could freeze the run for good)
            game.settimeout(None)
        except (socket.timeout, TimeoutError):
            self._end_game()
            return [Forfeit("timeout", _waited(limit), "the game process stopped reading its moves: it was stopped")
                    ] + [None] * (len(moves) - 1)
        except OSError:  # the game process died between two moves
            self._end_game()
            return [Forfeit("crash", "the worker exited (its game process died)")] + [None] * (len(moves) - 1)
        self.heard = time.monotonic()
        answers: list[dict[str, Any] | Forfeit | None] = []
        for _ in moves:
            try:
                answers.append(self._receive(limit))
            except Forfeit as forfeit:
                if forfeit.reason in ("timeout", "crash") and not careful and len(answers) < len(moves) - 1:
                    # answers the game process held back died with it: which move stopped it is not known,
                    # so every unanswered move is asked again, each answer sent at once
                    self.careful = True
                    break
                answers.append(forfeit)
                break
        self._settle_times()
        if careful and not self.one_by_one and not any(isinstance(answer, Forfeit) for answer in answers):
            self.one_by_one = True
        self._signal_game(_SIGSTOP)  # no CPU between its rounds (it could spin while others move)
        return answers + [None] * (len(moves) - len(answers))

    def _signal_game(self, signum: int | None) -> None:
        """Stop or continue the game process, through a pidfd (never another process that took its pid)."""
        if self.game_pidfd is not None and signum is not None:
            try:
                signal.pidfd_send_signal(self.game_pidfd, signum)
            except OSError:  # it has died: the next read says so
                pass

    def _end_game(self) -> None:
        """Kill the game process (and anything else but the template and the other lanes' game processes)."""
        for connection in (self.game, self.requested):
            if connection is not None:
                connection.close()
        self.game = self.answers = self.requested = None
        self._forget_game_process()
        if not self.fork_server or self.worker.process is None or self.worker.template is None:
            self.kill()
            return
        others = [lane.game_pid for lane in self.worker.lanes if lane is not self and lane.game_pid is not None]
        sweep(self.worker.process.pid, keep=[self.worker.template, *others])
        if self.worker.template not in descendants(self.worker.process.pid):
            self.kill()

    def kill(self) -> None:
        """Stop the worker and everything it started, every lane's game process too (SIGKILL: no handler can
        refuse); a lane asked again starts it afresh."""
        for lane in self.worker.lanes if self in self.worker.lanes else [self]:
            for connection in (lane.game, lane.requested):
                if connection is not None:
                    connection.close()
            lane.game = lane.answers = lane.requested = None
            lane._forget_game_process()
        for connection in (self.game, self.requested, self.worker.control, self.worker.spare_game, self.worker.spawned):
            if connection is not None:
                connection.close()
        self.game = self.requested = self.answers = None
        self.worker.control = self.worker.spare_game = self.worker.spawned = None
        self._forget_game_process()
        if self.worker.process is not None:
            if self.fork_server:
                sweep(self.worker.process.pid)
            try:
                if hasattr(os, "killpg"):
                    os.killpg(self.worker.process.pid, signal.SIGKILL)
                else:  # Windows: no process groups; a plain worker starts no processes of its own
                    self.worker.process.kill()
            except (ProcessLookupError, PermissionError):
                pass
            self.worker.process.wait()
            for pipe in (self.worker.process.stdin, self.worker.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.worker.process = None

    def _forget_game_process(self) -> None:
        self.game_pid = self.cpu = None
        if self.game_pidfd is not None:
            os.close(self.game_pidfd)
            self.game_pidfd = None

    def close(self) -> None:
        """End this lane: its game process, and the worker with the last of its lanes."""
        if self in self.worker.lanes:
            self.worker.lanes.remove(self)
        if self.worker.lanes and self.worker.process is not None:
            self._end_game()
        else:
            self.kill()

