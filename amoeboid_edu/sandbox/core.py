"""Both ends of the lab's worker protocol, and the walls around a student's strategy.

A strategy is hostile code running as the teacher's user (docs/threat-model.md).
The harness side is :class:`Sandbox`; the worker side is ``python -m
amoeboid_edu.sandbox.core`` (:func:`main`).  On Linux three processes hold one strategy::

    harness ── life pipe ── supervisor  trusted code only: a subreaper; when the pipe closes
                              │          (the harness ended or was killed) it kills every descendant
                              └── template  walls up (Landlock, seccomp deny-list); runs no student code
                                    └── game  forked per generation; its own seccomp allow-list;
                                              imports the strategy, then plays moves

No student code runs outside a game process, behind all its walls: an import in
the template could rewrite the code that puts up the game's own wall (found by
the red team).  A game process writes nothing (Landlock grants no write right,
its filter opens files read-only), so there is no private folder to fill or to
leave behind.  A move that reaches the per-move limit is interrupted inside the
game process (SIGALRM, whose handler the strategy may not change) and forfeits;
the process and its import stay.  Only a move that does not stop within
``MOVE_GRACE`` costs the game process (the harness kills every descendant of the
supervisor except the template), and the next game process imports the strategy
again (within the load limit).  Elsewhere (no ``/proc``, no ``prctl``) the
supervisor, template and game are one process, restarted after a kill: "process only".

How the worker is started: on Linux and macOS the harness hands it one end of a
socket pair (``pass_fds``) and each game's socket over it (SCM_RIGHTS).  Windows
has neither, so there (or wherever ``AMOEBOID_PORTABLE_SANDBOX=1`` forces it, as
the tests do on Linux) the worker is started *portably*: the harness listens on
a loopback port, writes a one-time token to the worker's stdin, and accepts the
worker's two connections (control, then its one game) that open with that token.

Messages are length-prefixed (``HEADER``) over Unix stream sockets:

- harness -> template, once: the load request (JSON: ``load``, ``path``, ``name``..., ``adjacency``,
  ``die_sides``, ``import_seed``) and, for ``load == "pickle"``, the cloudpickle bytes;
  template -> harness: ``{"isolation": [...]}`` (the walls that went up, sent before any student
  code runs).
- harness -> template, per generation: the byte ``GAME`` with one socket passed along (SCM_RIGHTS);
  the game process imports the strategy, says ``{"ok": true}`` or ``{"ok": false, "error": "..."}``
  on it, then serves moves on it.
- harness -> game, per round: the per-move limit on the first line, then ``"SEED ROLL POSITION"`` lines,
  one per move; game -> harness, a message per move:
  ``{"kind": "turn"|"text"|"other"|"error"|"timeout", "value": str, "output": [...], "printed": int}``.
  SEED (derived by the harness; it reveals neither the run's seed nor the dice) seeds the
  strategy's ``rng``, the module-level ``random`` and NumPy's global generator for that move.
"""

from __future__ import annotations

import collections
import ctypes
import errno
import importlib
import importlib.util
import io
import json
import linecache
import os
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Callable, Sequence

from ..engine.rules import Amoeba, Board, Position, Rules, Turn
from ..players.strategy import StrategyFunction, as_function
from ..players.tracebacks import student_frame

KEEP_LINES = 20
"""Lines of a strategy's printed output kept per move (and per game on the card)."""
LINE_WIDTH = 200
"""Characters kept of each printed line."""
VALUE_WIDTH = 300
"""Characters of a returned value or an error message shown before "… (N more)"."""
MAX_MESSAGE = 1 << 20
"""Largest message the harness reads from a worker while it starts; anything bigger is a malformed answer."""
MAX_ANSWER = 1 << 17
"""Largest answer to a move: its value, 20 printed lines and where it raised fit, each character escaped.  Kept small
because parsing is what costs memory: a megabyte of ``[],`` was 22 MB of objects, 64 of them a round (red team)."""
ANSWER_KEYS = {"kind": str, "value": str, "output": list, "printed": int, "lines": int, "where": list, "took": float}
"""What the harness keeps of an answer; anything else a worker sends is dropped at once."""
LOAD_LIMIT = 30.0
"""Seconds a worker may take to start, put its walls up and import the strategy."""
MEMORY_LIMIT = 4 << 30
"""Address space a worker may use (4 GiB): a runaway allocation is a MemoryError, not a frozen machine."""
SEED_BITS = 64
"""A per-move seed is a whole number below 2**SEED_BITS."""
HEADER = struct.Struct("!I")
GAME = b"G"
FORK_SERVER = sys.platform == "linux"
"""Supervisor, import template and game processes: needs fork, prctl and /proc (Linux)."""
WALLS_PLATFORM = sys.platform == "linux"
"""Whether this platform has the walls (seccomp, Landlock); elsewhere a strategy is kept apart by its process only."""
PORTABLE_ENV = "AMOEBOID_PORTABLE_SANDBOX"
"""``AMOEBOID_PORTABLE_SANDBOX=1``: start every worker the portable way (as on Windows), to test that path on Linux."""
TOKEN_BYTES = 16
_SIGSTOP, _SIGCONT = getattr(signal, "SIGSTOP", None), getattr(signal, "SIGCONT", None)
"""None on Windows, where there is no game process to stop (the worker is one plain process)."""


def portable_start() -> bool:
    """Whether workers are started the portable way: no descriptor passing here (Windows), or forced by the env."""
    return not hasattr(socket, "send_fds") or os.environ.get(PORTABLE_ENV, "") not in ("", "0")


def process_only_label() -> str:
    """The isolation a worker reports where no wall exists, naming the platform, e.g. "process only (Windows: no walls)"."""
    system = {"win32": "Windows", "darwin": "macOS"}.get(sys.platform, sys.platform)
    return f"process only ({system}: no walls)"
SWEEP_ROUNDS = 50

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME."""
_AF_UNIX = 1
_INT = 0xFFFF_FFFF
"""An ``int`` argument is compared on its low 32 bits, as the kernel reads it: a filter comparing all 64 let
``prctl(1 << 32 | PR_SET_PDEATHSIG, 0)`` through (found by the red team)."""
NO_HOME = "/nonexistent/amoeboid-strategy"
"""``HOME`` and ``TMPDIR`` of a worker: a fixed path that does not exist (a game process may write nothing)."""
OPEN_FILES = 128
"""File descriptors a worker may hold (RLIMIT_NOFILE): bounds the pipe and socket buffers a game can fill."""
MOVE_GRACE = 1.0
"""Seconds a game process has to answer once its move was interrupted at the per-move limit; then it is killed."""
LATE_AFTER = 0.25
"""Seconds past the per-move limit after which an answer is late by the harness's own clock and forfeits.  The game
process's alarm is a courtesy to honest strategies; a hostile one can block or rewrite it in its own process (it
thought for the limit plus ``MOVE_GRACE`` that way: found by the red team), so the harness times every answer."""
FLUSH_AFTER = 0.01
"""Seconds a game process may hold a round's answers before sending what it has: a round's answers go back in
a message or a few (a message each made the two processes take turns on one core, one context switch an answer),
and the harness still hears from it at least once per move's time plus this."""
_DENIED = (
    # other processes: signals through a queue or a pidfd, tracing, memory (kill/tkill/tgkill: the game's allow-list)
    "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", "pidfd_getfd",
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp",
    # the network (socketpair(AF_UNIX) stays: it reaches nobody)
    "socket", "connect", "bind", "listen", "accept", "accept4",
    # leaving the session, namespaces, mounts, the kernel's bypasses of this filter
    "setsid", "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsmount", "fspick",
    "fsconfig", "move_mount", "open_tree", "mount_setattr", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "open_by_handle_at", "name_to_handle_at", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "reboot", "swapon", "swapoff", "iopl", "ioperm", "acct", "syslog", "settimeofday",
    "clock_settime", "clock_adjtime", "adjtimex", "quotactl", "mknod", "mknodat", "setrlimit",
    # what Landlock does not cover: file metadata, watching folders, memory outside RLIMIT_AS, other processes'
    # scheduling, the host's name (found by the red team)
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime", "utimes",
    "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr", "setxattrat", "removexattr", "lremovexattr",
    "fremovexattr", "removexattrat", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
    "fanotify_mark", "memfd_create", "memfd_secret", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
    "sched_setattr", "setpriority", "ioprio_set", "sethostname", "setdomainname",
)
"""Refused with EPERM in every worker process after its walls (the template's filter, which its games inherit):
syscalls no worker needs and an attacker would use.  A game process adds its own allow-list (``_GAME_SYSCALLS``)."""


# --------------------------------------------------------------------------- what a worker says is data


def printable(text: str) -> str:
    """``text`` with control and format characters (ANSI escapes, bidi overrides) written as ``\\xNN``/``\\uNNNN``."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)


def cut(text: str, width: int = VALUE_WIDTH) -> str:
    """``text`` up to ``width`` characters, then "… (N more)"."""
    return text if len(text) <= width else f"{text[:width]}… ({len(text) - width} more)"


def shown(text: object, width: int = VALUE_WIDTH) -> str:
    """What the harness shows of a worker's text: cut (bounded work), made printable, and cut again.

    The second cut matters: escaping can make each kept character ten long (found by the red team).
    """
    return cut(printable(cut(str(text), width)), width)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet cell that it would read as a formula begins (``=HYPERLINK(...)``)."""


def not_a_formula(text: str) -> str:
    """``text`` with a ``'`` in front if a spreadsheet opening the results file would run it as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


class OutputTail(io.TextIOBase):
    """A write-only text stream that keeps the last ``KEEP_LINES`` lines (each cut to ``LINE_WIDTH``).

    Memory stays bounded whatever is printed: a megabyte costs a few hundred characters.
    """

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=KEEP_LINES)
        self.partial = ""
        self.printed = 0
        self.line_count = 0  # lines printed (for the card's "printed N lines"), counted however many are kept

    def reset(self) -> None:
        self.lines.clear()
        self.partial = ""
        self.printed = 0
        self.line_count = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.printed += len(text)
        parts = text.split("\n")
        self.line_count += len(parts) - 1
        if len(parts) > 1:
            self.lines.append((self.partial + parts[0])[:LINE_WIDTH])
            for line in parts[1:-1][-KEEP_LINES:]:
                self.lines.append(line[:LINE_WIDTH])
            self.partial = ""
        self.partial = (self.partial + parts[-1][:LINE_WIDTH])[:LINE_WIDTH]
        return len(text)

    def tail(self) -> list[str]:
        return list(self.lines) + ([self.partial] if self.partial else [])


# --------------------------------------------------------------------------- framing


def send_message(sock: socket.socket, data: bytes) -> None:
    sock.sendall(HEADER.pack(len(data)) + data)


def _read_exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if deadline is not None:
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
        chunk = sock.recv(min(left, 1 << 16))
        if not chunk:
            raise EOFError("the other end closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive_message(sock: socket.socket, deadline: float | None = None, limit: int | None = None) -> bytes:
    """The next message; EOFError at the end, ``socket.timeout`` past ``deadline``, ValueError above ``limit``."""
    try:
        (size,) = HEADER.unpack(_read_exactly(sock, HEADER.size, deadline))
        if limit is not None and size > limit:
            raise ValueError(f"a message of {size} bytes (the limit is {limit})")
        return _read_exactly(sock, size, deadline)
    finally:
        if deadline is not None:
            sock.settimeout(None)


class MessageReader:
    """The messages of one socket, read in large chunks: a round's answers cost a ``recv`` or two, not three
    system calls each (on a single core, each call can hand the core to the other process and back)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.waited = False
        """Whether the last message had to be waited for (False: it came in with the one before)."""

    def next(self, deadline: float, limit: int) -> bytes:
        """The next message; EOFError at the end, ``socket.timeout`` past ``deadline``, ValueError above ``limit``."""
        self.waited = False
        while True:
            if len(self.buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(self.buffer)
                if size > limit:
                    raise ValueError(f"a message of {size} bytes (the limit is {limit})")
                end = HEADER.size + size
                if len(self.buffer) >= end:
                    message = bytes(self.buffer[HEADER.size : end])
                    del self.buffer[:end]
                    return message
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([self.sock], [], [], wait)[0]:
                raise socket.timeout
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the other end closed the connection")
            self.buffer += chunk
            self.waited = True


# --------------------------------------------------------------------------- processes (Linux /proc)


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` (by parent links in ``/proc``), nearest first."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if fields and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(name))
    found, frontier = [], [root]
    while frontier:
        frontier = [child for parent in frontier for child in children.get(parent, [])]
        found += frontier
    return found


def sweep(root: int, keep: Sequence[int] = ()) -> None:
    """SIGKILL every descendant of ``root`` except ``keep`` (theirs die too), until none is left."""
    for _ in range(SWEEP_ROUNDS):
        targets = [pid for pid in descendants(root) if pid not in keep]
        if not targets:
            return
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def _die_with(parent: int) -> None:
    """SIGKILL this process when ``parent`` dies; exit now if it already has."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when ``parent``, the process that started it, dies; exit now if it already has.

    For the lab's own helper processes (the parallel harnesses of ``workers=K``, the pool workers of
    ``processes:K``): a SIGKILLed scorer takes them down, and with them, through each supervisor's life pipe,
    every sandbox they started (found by the red team: they were re-parented to PID 1 and kept playing).
    The signal follows the parent *thread* that started the process: the lab starts them from the thread that
    called it, which waits for them.  Linux only; elsewhere nothing happens.
    """
    if sys.platform == "linux":
        _die_with(parent)


# --------------------------------------------------------------------------- the walls (worker side)


def _readable_roots(request: dict[str, Any]) -> list[str]:
    """What a strategy may read: Python, the libraries, its import path and its own folder; not /proc, /etc, /tmp.

    Symbolic links are resolved (Landlock follows them to the folder it then opens): a strategy file given through
    a link is readable where it really lies, and a seed file is compared with where the roots really are.
    The root folder itself is never a root (a worker's import path could name it: everything would be readable).
    """
    roots = [sys.prefix, sys.base_prefix, sys.exec_prefix, "/usr", "/lib", "/lib64", "/bin",
             "/etc/ld.so.cache", "/etc/localtime", "/dev/null", "/dev/zero"]
    roots += [entry for entry in [*request.get("path", ()), *sys.path, request.get("root")] if entry]
    if request.get("file"):
        roots += [os.path.dirname(os.path.abspath(request["file"])), os.path.dirname(os.path.realpath(request["file"]))]
    resolved = dict.fromkeys(os.path.realpath(os.path.abspath(root)) for root in roots)
    return [root for root in resolved if root != os.path.realpath(os.sep) and os.path.exists(root)]


def readable_roots(path: Sequence[str], file: str | None = None) -> list[str]:
    """The folders and files a worker started with this import ``path`` may read (when Landlock is active)."""
    return _readable_roots({"path": list(path), "file": file})


def _landlock(readable: Sequence[str]) -> str | None:
    """Filesystem: read only ``readable``, write nothing; no TCP; no signals or abstract sockets out of the domain.

    The wall's name says what this kernel's Landlock ABI covers: ``landlock (files, tcp, signals)`` from ABI 6
    (Linux 6.12), ``landlock (files, tcp)`` on ABI 4-5, ``landlock (files)`` before; None without Landlock.
    """
    try:
        import landlockpy as landlock  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    if landlock.abi_version() < 1:
        return None
    access = landlock.AccessFS
    read = access.READ_FILE | access.READ_DIR | access.EXECUTE
    with landlock.Ruleset(scoped=landlock.Scope.SIGNAL | landlock.Scope.ABSTRACT_UNIX_SOCKET) as ruleset:
        for root in readable:
            ruleset.allow_path(root, read if os.path.isdir(root) else access.READ_FILE)
        ruleset.restrict()
        net, scoped = ruleset.handled_net, ruleset.scoped
    covers = ["files"]
    covers += [name for flag, name in (("BIND_TCP", "tcp"), ("BIND_UDP", "udp")) if net & getattr(landlock.AccessNet, flag, 0)]
    covers += ["signals"] if scoped & landlock.Scope.SIGNAL else []
    return f"landlock ({', '.join(covers)})"


_GAME_SYSCALLS = (
    # files Landlock lets it open (open and openat are allowed read-only, below), and the descriptors it holds
    "read", "pread64", "readv", "preadv", "preadv2", "write", "writev", "close", "close_range", "lseek",
    "fstat", "stat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "getdents64", "readlink", "readlinkat",
    "getcwd", "access", "faccessat", "faccessat2", "dup", "dup2", "dup3", "pipe", "pipe2",
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
    "epoll_pwait", "epoll_pwait2",
    # its sockets: receive, and send only to the connected peer (sendto with an address is below)
    "recvfrom", "recvmsg", "shutdown", "getsockopt", "getsockname", "getpeername",
    # memory (madvise below)
    "mmap", "mprotect", "munmap", "mremap", "brk",
    # what the interpreter does for itself in its one thread
    "futex", "set_robust_list", "rseq", "set_tid_address", "arch_prctl", "restart_syscall", "exit", "exit_group",
    # its own signal mask and timers (rt_sigaction below: SIGALRM's handler is the lab's)
    "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "sigaltstack", "setitimer", "getitimer",
    # the clock
    "clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep", "clock_nanosleep",
    # about itself
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
    "getgroups", "getpgrp", "uname", "times", "sched_yield", "getrlimit",
)
"""Syscalls a game process may make with any arguments: what CPython, NumPy (imported before the walls) and
pure-Python strategies need to compute and to import modules.  Everything not allowed here or in
``_game_rules`` is refused with EPERM: processes, programs, threads, the network, signals to anyone else,
file metadata, folder watches, memfds, scheduling, ``getrandom`` (a game's entropy is the move's stream;
refusing the raw syscall makes a strategy that goes around it fail the same way on every run), and readings that
differ from run to run with nothing to seed them: ``sysinfo`` (uptime, load, free memory), ``getrusage`` (page
faults, context switches) and ``getcpu`` (the processor it runs on).  Refused, they fail the same way every time
(a strategy that chose its moves from them got three cards for one seed: found by the red team); nothing
CPython needs after its start calls them..."""

_FCNTL_COMMANDS = (0, 1, 2, 3, 4, 1030)
"""F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC: never F_SETOWN(_EX)/F_SETSIG (a signal to any
process the file's owner names: found by the red team), F_SETLEASE, F_NOTIFY or locks."""
_PRCTL_OPTIONS = (2, 3, 7, 13, 15, 16, 21, 23, 30, 37, 39, 42, 0x53564D41)
"""PR_GET_PDEATHSIG, GET_DUMPABLE, GET_KEEPCAPS, GET_TIMING, SET_NAME, GET_NAME, GET_SECCOMP, CAPBSET_READ,
GET_TIMERSLACK, GET_CHILD_SUBREAPER, GET_NO_NEW_PRIVS, GET_THP_DISABLE, SET_VMA: getters and names only."""
_MADVICE = (0, 1, 2, 3, 4, 8, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25)
"""madvise advice about its own pages; never MADV_HWPOISON or MADV_SOFT_OFFLINE (root: pages taken out of service)."""
_SOCKET_OPTIONS = (7, 8, 18, 19, 20, 21, 66, 67)
"""SOL_SOCKET options it may set: buffer sizes within the system's maximum, low-water marks and timeouts
(never SO_SNDBUFFORCE/SO_RCVBUFFORCE, which root could use to pin memory)."""
_SIGALRM = 14


def _game_rules(seccomp: Any, pid: int) -> list[tuple[str, tuple[Any, ...]]]:
    """The allow-list's rules with arguments; several rules for one syscall allow it if any matches.

    ``int`` arguments are compared on their low 32 bits (``_INT``), pointers on all 64.
    """
    import termios

    def int_is(arg: int, value: int, mask: int = _INT) -> Any:
        return seccomp.Arg(arg, seccomp.MASKED_EQ, mask, value & mask)

    def null(arg: int) -> Any:
        return seccomp.Arg(arg, seccomp.EQ, 0)

    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND | (os.O_TMPFILE & ~os.O_DIRECTORY)
    ioctls = (termios.TCGETS, termios.FIONREAD, termios.FIONBIO, termios.FIOCLEX, termios.FIONCLEX)
    yourself = (0, pid)  # 0: the caller (or its own process group, which is itself alone)
    rules: list[tuple[str, tuple[Any, ...]]] = [
        ("open", (int_is(1, 0, writes),)),  # read-only, even where Landlock is missing: it may write nothing
        ("openat", (int_is(2, 0, writes),)),
        ("sendto", (null(4),)),  # to the connected peer only, never to a named socket (found by the red team)
        ("socketpair", (int_is(0, _AF_UNIX),)),
        ("tkill", (int_is(0, pid),)),
        ("tgkill", (int_is(0, pid), int_is(1, pid))),
        ("rt_sigaction", (null(1),)),  # reading any disposition
    ]
    rules += [("kill", (int_is(0, who),)) for who in yourself]
    rules += [(name, (int_is(0, who),)) for name in ("sched_getaffinity", "getpgid", "getsid") for who in yourself]
    rules += [("prlimit64", (int_is(0, who), null(2))) for who in yourself]  # a getter on itself
    rules += [("rt_sigaction", (int_is(0, signum),)) for signum in range(1, 65) if signum != _SIGALRM]
    rules += [("fcntl", (int_is(1, command),)) for command in _FCNTL_COMMANDS]
    rules += [("ioctl", (int_is(1, request),)) for request in ioctls]
    rules += [("prctl", (int_is(0, option),)) for option in _PRCTL_OPTIONS]
    rules += [("madvise", (int_is(2, advice),)) for advice in _MADVICE]
    rules += [("setsockopt", (int_is(1, 1), int_is(2, option))) for option in _SOCKET_OPTIONS]  # SOL_SOCKET
    return rules


def _seccomp(game: bool) -> bool:
    """Load this process's seccomp filter (no_new_privs is set with it); False if seccomp is not available.

    ``game=False`` (the template's, inherited by every game process): refuse with EPERM what no worker needs and
    an attacker would use (``_DENIED``), raising rlimits, new threads (a thread started by the import would live
    on in the template, outside every game's seeding and walls, and could take the game sockets: found by the red
    team) and namespaces.  ``game=True``: an allow-list (``_GAME_SYSCALLS``, ``_game_rules``), default EPERM.
    The template runs no student code; it signals nobody, so the rules on signals are the game's.
    """
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except (ImportError, OSError, RuntimeError):  # the binding, or libseccomp.so.2, is missing
        return False
    refuse = seccomp.ERRNO(errno.EPERM)
    arch = seccomp.system_arch()
    try:
        if game:
            syscalls = seccomp.SyscallFilter(refuse)
            rules = [(name, ()) for name in _GAME_SYSCALLS] + _game_rules(seccomp, os.getpid())
            actions = [(seccomp.ALLOW, name, args) for name, args in rules]
        else:
            syscalls = seccomp.SyscallFilter(seccomp.ALLOW)

            def int_is(arg: int, value: int) -> Any:
                return seccomp.Arg(arg, seccomp.MASKED_EQ, _INT, value)

            actions = [
                (refuse, "setpgid", (seccomp.Arg(1, seccomp.NE, 0),)),  # may lead a new group, not join another
                (refuse, "socketpair", (seccomp.Arg(0, seccomp.NE, _AF_UNIX),)),
                # the parent-death signal may be set to SIGKILL (as a game process does), never cleared or softened
                (refuse, "prctl", (int_is(0, _PR_SET_PDEATHSIG), seccomp.Arg(1, seccomp.NE, signal.SIGKILL))),
                (refuse, "prlimit64", (seccomp.Arg(2, seccomp.NE, 0),)),
                (seccomp.ERRNO(errno.ENOSYS), "clone3", ()),  # its flags are out of a filter's reach; libc falls back
            ]
            actions += [(refuse, name, ()) for name in _DENIED]
            actions += [(refuse, "clone", (seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag),))
                        for flag in (*_CLONE_NAMESPACES, _CLONE_THREAD)]
        try:
            syscalls.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)  # a binary tree of syscalls, not a list (libseccomp >= 2.5)
        except (OSError, AttributeError):
            pass
        for action, name, args in actions:
            if seccomp.resolve_syscall(arch, name) < 0:
                continue  # a syscall this architecture does not have
            syscalls.add_rule(action, name, *args)
        syscalls.load()
    except OSError:
        return False
    return True


def _walls(request: dict[str, Any]) -> list[str]:
    """Put up every wall this platform offers; the names of those that went up ("process" always)."""
    if not WALLS_PLATFORM:
        return [process_only_label()]
    walls = ["process"]
    if not request.get("walls", True):
        return walls
    import termios  # noqa: F401 - for the game's filter, imported while /etc and ldconfig are in reach

    try:  # find and load libseccomp now: Landlock will hide ldconfig and /etc
        import pyseccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
    except (ImportError, OSError, RuntimeError):
        pass
    landlocked = _landlock(_readable_roots(request))
    if _seccomp(game=False):
        walls.append("seccomp")
    return walls + ([landlocked] if landlocked else [])


# --------------------------------------------------------------------------- the worker: load once, play moves


_entropy = random.Random(0)
"""Stands in for the operating system's entropy in a game process; reseeded with every move, when first drawn from."""
_entropy_seed: list[int | None] = [None]
"""The seed ``_entropy`` takes before its next draw (None: it already has): most moves never draw."""


def _entropy_bits(bits: int) -> int:
    pending = _entropy_seed[0]
    if pending is not None:
        _entropy_seed[0] = None
        _entropy.seed(pending)
    return _entropy.getrandbits(bits)


def _entropy_bytes(size: int) -> bytes:
    if not isinstance(size, int) or size < 0:
        raise ValueError(f"negative or non-integer size: {size!r}")
    return _entropy_bits(size * 8).to_bytes(size, "little")


def _seeded_from_entropy(seed: Callable[..., None]) -> Callable[..., None]:
    def seed_method(self: random.Random, a: object = None, version: int = 2) -> None:
        seed(self, _entropy_bits(128) if a is None else a, version)

    return seed_method


def _entropy_getrandom(size: int, flags: int = 0) -> bytes:
    return _entropy_bytes(size)


def _entropy_from_the_move() -> None:
    """Generators a strategy seeds from the operating system draw from the move's seed instead.

    ``random.Random()``, ``random.seed()``, ``SystemRandom``, ``secrets``, ``os.urandom``, ``os.getrandom``,
    ``uuid.uuid4``, the C generator ``_random.Random()`` and NumPy's ``default_rng()`` / ``SeedSequence()`` would
    otherwise make a card change from run to run.  Done in the game process only, before the import.  The raw
    ``getrandom`` syscall is refused by the game's filter and ``/dev/urandom`` is out of Landlock's reach, so
    what goes around these (a C generator reached through ``random.Random.__mro__`` then seeds from the clock)
    is outside the promise with the clock, object addresses and pids.
    """
    import _random

    os.urandom = _entropy_bytes
    if hasattr(os, "getrandom"):
        os.getrandom = _entropy_getrandom
    random._urandom = _entropy_bytes  # type: ignore[attr-defined]  # SystemRandom and secrets
    random.Random.seed = _seeded_from_entropy(random.Random.seed)  # type: ignore[method-assign]

    class Random(_random.Random):
        """The C generator, seeded from the move's stand-in entropy when given no seed."""

        def __init__(self, *args: object) -> None:
            self.seed(_entropy_bits(128) if not args or args[0] is None else args[0])

    setattr(_random, "Random", Random)
    try:
        import numpy.random.bit_generator as bit_generator
    except ImportError:
        return
    setattr(bit_generator, "randbits", _entropy_bits)  # SeedSequence() without entropy (not in its stubs)


def _seed_globals(seed: int) -> None:
    """Module-level ``random``, NumPy's global generator and the stand-in entropy, from the move's (or import's) seed."""
    numpy = sys.modules.get("numpy")
    try:
        _entropy_seed[0] = seed + (2 << SEED_BITS)
        random.seed(seed + (1 << SEED_BITS))  # not the rng's own stream
        if numpy is not None:
            numpy.random.seed(seed % (1 << 32))
    except Exception:  # noqa: BLE001 - a strategy that replaced them loses its own determinism, not ours
        pass


def _load(request: dict[str, Any], payload: bytes) -> StrategyFunction:
    for entry in reversed(request.get("path", [])):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    kind = request["load"]
    if kind == "pickle":
        import pickle

        import cloudpickle  # type: ignore[import-untyped, unused-ignore]  # noqa: F401 - registers by-value pickling

        strategy = pickle.loads(payload)
    elif kind == "import":
        if request.get("root"):  # where the caller found the module: last, like a student's folder below
            sys.path.append(request["root"])
        strategy = getattr(importlib.import_module(request["module"]), request["name"])
    else:
        # a file: its folder comes *last* on the import path, so a helper module next to it imports, but no
        # file there (a classmate's heapq.py in a shared folder: found by the red team) replaces a module of
        # Python or of the libraries
        sys.path.append(os.path.dirname(os.path.realpath(request["file"])))
        spec = importlib.util.spec_from_file_location("student_strategy", request["file"])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {request['file']}")
        module = importlib.util.module_from_spec(spec)
        sys.modules["student_strategy"] = module
        spec.loader.exec_module(module)
        strategy = getattr(module, request["name"])
    return as_function(strategy)


def _describe(value: object) -> str:
    """``repr(value)``, shortened, and never failing (a student's ``__repr__`` may raise)."""
    try:
        return cut(repr(value))
    except BaseException:  # noqa: BLE001 - anything the student's __repr__ does
        return f"<unprintable {type(value).__name__}>"


def _where(tb: TracebackType | None) -> list[Any] | None:
    """``[file, line, function, source line]`` of the student's frame, the line read here, behind the walls."""
    frame = student_frame(tb)
    if frame is None:
        return None
    try:
        source = linecache.getline(*frame[:2])
    except BaseException:  # noqa: BLE001 - a file the walls refuse, or a loader the student replaced
        source = ""
    return [cut(frame[0], LINE_WIDTH), frame[1], cut(frame[2], LINE_WIDTH), cut(source, LINE_WIDTH)]


class MoveInterrupted(BaseException):
    """Raised inside a strategy whose move reached the per-move limit (SIGALRM); not an ``Exception``, so that
    ``except Exception`` in a strategy does not swallow it."""


@dataclass
class _MoveClock:
    """The per-move timer of a game process: SIGALRM at the limit interrupts the move, which then forfeits.

    One syscall a move: each move's ``setitimer`` replaces the previous one's timer, which is never disarmed; an
    alarm that still arrives from an earlier move (or between moves) is told apart by the current deadline.
    """

    running: bool = False
    rang: bool = False
    deadline: float = 0.0
    outbox: _Outbox | None = None

    def ring(self, signum: int, frame: object) -> None:
        if self.running and time.monotonic() >= self.deadline:
            self.rang, self.running = True, False  # once: a strategy that catches it and goes on is killed
            if self.outbox is not None:  # the answers before this move reach the harness, whatever it does next
                self.outbox.flush()
            raise MoveInterrupted("the move reached the per-move limit")

    def call(self, choose: StrategyFunction, position: Position, roll: int, rng: random.Random, limit: float) -> object:
        self.rang = False
        if not hasattr(signal, "setitimer"):
            return choose(position, roll, rng)
        self.deadline = time.monotonic() + limit
        signal.setitimer(signal.ITIMER_REAL, limit)
        self.running = True
        try:
            return choose(position, roll, rng)
        finally:
            self.running = False


_clock = _MoveClock()


def _answer(choose: StrategyFunction, position: Position, roll: int, rng: random.Random,
            limit: float) -> dict[str, Any]:
    try:
        value = _clock.call(choose, position, roll, rng, limit)
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt forfeit too
        if _clock.rang:  # where the move was when the limit stopped it: the student's line, to say where it was stuck
            return {"kind": "timeout", "where": _where(error.__traceback__)}
        try:
            message = f"{type(error).__name__}: {error}"
        except BaseException:  # noqa: BLE001
            message = type(error).__name__
        return {"kind": "error", "value": cut(message), "where": _where(error.__traceback__)}
    if _clock.rang:  # interrupted, and the strategy caught it: the move is lost all the same
        return {"kind": "timeout"}
    if isinstance(value, Turn):
        try:
            return {"kind": "turn", "value": cut(Turn.__str__(value))}
        except BaseException:  # noqa: BLE001 - a Turn built with nonsense fields
            return {"kind": "other", "value": _describe(value)}
    if isinstance(value, str):
        return {"kind": "text", "value": cut(str.__str__(value))}
    return {"kind": "other", "value": _describe(value)}


_AMOEBAE: dict[str, Amoeba | None] = {}
"""Cell tokens read so far (``"."``, ``"(3,1)"``) and what they stand for: a move's position is mostly old tokens."""


def position_from_harness(text: str, rules: Rules) -> Position:
    """Read back the harness's own ``str(position)`` of a grid: the hot path of every move.

    The text comes from the trusted side, made by ``Position.__str__``, so the cells are looked up by
    token and the position is built unchecked; a token not seen before is read by the parser (and a text
    the harness did not make is then refused as any position is).  Bounded: the table starts again when full.
    """
    tokens = text.split(" ")
    cells = []
    for token in tokens[:-1]:
        if token == "/":
            continue
        try:
            cells.append(_AMOEBAE[token])
        except KeyError:
            if len(_AMOEBAE) >= 1 << 16:
                _AMOEBAE.clear()
            cell = _AMOEBAE[token] = Position.parse(f"{token} . A", rules).cells[0]
            cells.append(cell)
    rows = len(tokens) - len(cells)  # the slashes between rows, and the side to move
    if not cells or len(cells) % rows or tokens[-1] not in ("A", "B"):
        return Position.parse(text, rules)
    return Position.unchecked(Board.grid(rows, len(cells) // rows, rules.adjacency), tuple(cells), tokens[-1], rules)


@dataclass
class _Outbox:
    """A game process's answers on their way: sent when the round is answered, when ``FLUSH_AFTER`` has passed
    since the last send, or when a move is interrupted (so the harness can tell which move did not stop);
    with ``each``, after every answer (the harness asks so when it must find a move that stopped the process)."""

    sock: socket.socket
    each: bool = False
    frames: list[bytes] = field(default_factory=list)
    sent: float = 0.0

    def add(self, answer: dict[str, Any], began: float) -> None:
        """Queue the answer to a move that began at ``began``; a slow move's answer goes at once."""
        data = json.dumps(answer).encode()
        self.frames.append(HEADER.pack(len(data)) + data)
        now = time.monotonic()
        if self.each or now - self.sent >= FLUSH_AFTER or now - began >= FLUSH_AFTER:
            self.flush()

    def flush(self) -> None:
        if self.frames:
            frames, self.frames = self.frames, []
            self.sock.sendall(b"".join(frames))
        self.sent = time.monotonic()


def _play(sock: socket.socket, choose: StrategyFunction, rules: Rules, tail: OutputTail) -> None:
    """Answer each round's moves on ``sock``, a message per answer, until the harness hangs up.

    A round is ``LIMIT EACH`` on its first line (EACH ``1``: send every answer at once), then a
    ``SEED ROLL POSITION`` line per move.
    """
    outbox = _clock.outbox = _Outbox(sock)
    while True:
        try:
            message = receive_message(sock).decode()
        except (EOFError, OSError):
            return
        header, *moves = message.split("\n")
        limit, each = header.split(" ")
        outbox.each = each == "1"
        outbox.flush()  # starts the clock of the round
        for move in moves:
            seed, roll, text = move.split(" ", 2)
            began = time.monotonic()
            tail.reset()
            _seed_globals(int(seed))
            answer = _answer(choose, position_from_harness(text, rules), int(roll), random.Random(int(seed)),
                             float(limit))
            answer["took"] = time.monotonic() - began
            if tail.printed:
                answer["output"] = tail.tail()
                answer["printed"] = tail.printed
                answer["lines"] = tail.line_count + (1 if tail.partial else 0)
            outbox.add(answer, began)
        outbox.flush()


def _game_walls(walls: Sequence[str]) -> None:
    """A game process's own walls, before any student code: the move timer's handler, then its filter.

    The filter refuses changing SIGALRM's handler afterwards; if it cannot be loaded where the card says
    "seccomp", the process exits rather than play without it.
    """
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _clock.ring)
    if "seccomp" in walls and not _seccomp(game=True):
        os._exit(1)


def _loaded(game: socket.socket, request: dict[str, Any], payload: bytes, tail: OutputTail) -> StrategyFunction | None:
    """Import the strategy here and say so on ``game`` first: ``{"ok": true}``, or the error and None."""
    sys.stdout = sys.stderr = tail
    _entropy_from_the_move()
    _seed_globals(int(request.get("import_seed", 0)))
    try:
        choose = _load(request, payload)
    except BaseException as error:  # noqa: BLE001 - a broken student module must not kill the run silently
        send_message(game, json.dumps({"ok": False, "error": cut(f"{type(error).__name__}: {error}")}).encode())
        return None
    send_message(game, json.dumps({"ok": True}).encode())
    return choose


def _template(control: socket.socket, fork_server: bool, games: list[socket.socket] | None = None) -> None:
    """Put the walls up, then start a game process per socket the harness sends; it imports the strategy.

    No student code ever runs in the template: an import that ran here could rewrite the code that puts up a
    game process's own wall (no processes, no programs) and leave the card claiming it (found by the red
    team). So each game process imports the strategy after its wall is up, and an import that forks is refused.
    ``games``: a portable start's game socket, connected at start; the harness then sends ``GAME`` alone.
    """
    request = json.loads(receive_message(control))
    payload = receive_message(control) if request["load"] == "pickle" else b""
    # NumPy (and cloudpickle) before the walls: the game processes inherit them imported, NumPy's global
    # generator is seeded before every move, and its BLAS may start threads, which the walls then refuse to anyone.
    import numpy
    import numpy.random  # noqa: F401 - NumPy 2 imports it lazily: each game process would import it again

    if request["load"] == "pickle":
        import cloudpickle  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    walls = _walls(request)
    send_message(control, json.dumps({"isolation": walls}).encode())
    rules = Rules(request["adjacency"], request["die_sides"])
    tail = OutputTail()
    choose: StrategyFunction | None = None
    template = os.getpid()
    while True:
        if games is not None:
            try:
                if control.recv(1) != GAME or not games:
                    return  # the harness hung up (a plain worker has one game)
            except OSError:
                return
            game = games.pop()
        else:
            try:
                _, fds, _, _ = socket.recv_fds(control, 1, 1)
            except OSError:
                return
            if not fds:
                return  # the harness hung up
            game = socket.socket(fileno=fds[0])
        if not fork_server:  # one plain process: it imports once, and is killed and restarted after a timeout
            if choose is None:
                _game_walls(walls)
                choose = _loaded(game, request, payload, tail)
                if choose is None:
                    return
            else:
                send_message(game, json.dumps({"ok": True}).encode())
            _play(game, choose, rules, tail)
            game.close()
            continue
        child = os.fork()
        if child == 0:
            try:
                control.close()
                os.setpgid(0, 0)  # its own group: kill(0, ...) cannot reach the template
                _die_with(template)
                _game_walls(walls)
                choose = _loaded(game, request, payload, tail)
                if choose is not None:
                    _play(game, choose, rules, tail)
            finally:
                os._exit(0)
        send_message(control, str(child).encode())  # the harness stops it between rounds
        game.close()


def _quiet_stdio() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _supervise(control_fd: int, harness: int) -> None:
    """The supervisor: fork the template, tell the harness its pid, and clean up when the harness goes."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children and adopted orphans are reaped by the kernel
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)  # the harness died: clean up, then exit
    supervisor = os.getpid()
    if os.getppid() != harness:
        return
    template = os.fork()
    if template == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.setpgid(0, 0)  # its own group, away from the supervisor's
            _die_with(supervisor)
            _quiet_stdio()
            _template(socket.socket(fileno=control_fd), fork_server=True)
        finally:
            os._exit(0)
    os.close(control_fd)
    try:
        os.write(1, f"{template}\n".encode())
        while os.read(0, 1 << 12):  # until the harness closes the pipe or dies
            pass
    finally:
        sweep(supervisor)


def _limit_resources() -> None:
    """Memory (4 GiB of address space), no file of any size (nor a core dump), ``OPEN_FILES`` descriptors.

    RLIMIT_FSIZE = 0 keeps a worker from filling a disk even where no Landlock or seccomp does (macOS too).
    """
    try:
        import resource
    except ImportError:  # not on this platform
        return
    for name, value in (("RLIMIT_AS", MEMORY_LIMIT), ("RLIMIT_FSIZE", 0), ("RLIMIT_CORE", 0),
                        ("RLIMIT_NOFILE", OPEN_FILES)):
        try:
            resource.setrlimit(getattr(resource, name), (value, value))
        except (AttributeError, ValueError, OSError):  # not on this platform, or already lower
            pass


def _connect_portably(address: str) -> tuple[socket.socket, socket.socket]:
    """A portable start's two connections to the harness at ``HOST:PORT``, each opened with the token from stdin."""
    token = bytes.fromhex(sys.stdin.readline().strip())
    host, _, port = address.rpartition(":")
    connections = []
    for role in (b"C", b"G"):
        connection = socket.create_connection((host, int(port)), timeout=LOAD_LIMIT)
        connection.settimeout(None)
        connection.sendall(token + role)
        connections.append(connection)
    return connections[0], connections[1]


def main() -> None:
    """``python -m amoeboid_edu.sandbox.core CONTROL_FD HARNESS_PID fork|plain`` (a supervisor or a plain worker), or
    ``python -m amoeboid_edu.sandbox.core HOST:PORT HARNESS_PID portable`` (a plain worker started portably)."""
    # The worker starts in "/" (see Sandbox._start): never on its import path, where the walls would open it all.
    sys.path[:] = [entry for entry in sys.path if entry and os.path.realpath(entry) != os.path.realpath(os.sep)]
    _limit_resources()
    mode = sys.argv[3]
    if mode == "portable":
        control, game = _connect_portably(sys.argv[1])
        _quiet_stdio()
        _template(control, fork_server=False, games=[game])
        return
    control_fd, harness = int(sys.argv[1]), int(sys.argv[2])
    if mode == "fork":
        _supervise(control_fd, harness)
    else:
        _quiet_stdio()
        _template(socket.socket(fileno=control_fd), fork_server=False)


# --------------------------------------------------------------------------- the harness side


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


def untrusted_object(data: bytes) -> dict[str, Any]:
    """A JSON object from a process student code runs in: anything else, however odd, is a ValueError.

    (Nesting deep enough to exhaust the parser's recursion was found by the red team to take the scorer down.)
    """
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def untrusted_answer(data: bytes) -> dict[str, Any]:
    """An answer to a move, with only the keys the harness reads, each of its type; ``printed`` clamped.

    (A 4,300-digit ``printed`` made the card's table impossible to display: found by the red team.)
    """
    raw = untrusted_object(data)
    answer = {key: raw[key] for key, kind in ANSWER_KEYS.items()
              if isinstance(raw.get(key), kind) and not isinstance(raw.get(key), bool)}  # fmt: skip
    for key in ("printed", "lines"):
        if key in answer:
            answer[key] = min(max(answer[key], 0), 1 << 40)
    if "took" in answer:  # the worker's own clock: shown on the card, never used to judge a move
        took = answer["took"]
        answer["took"] = min(max(took, 0.0), 1e6) if took == took else 0.0
    return answer


def _pidfd(pid: int) -> int | None:
    """A pidfd for ``pid``, or None where the kernel has none (before 5.3): its game processes are then not
    stopped between rounds, as off Linux."""
    try:
        return os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    except OSError as error:  # ESRCH: it died already, and the import's answer says why
        if error.errno in (errno.ESRCH, errno.ENOSYS, errno.EPERM, errno.EINVAL):
            return None
        raise


@dataclass
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
    isolation: str = ""
    """The walls the worker reported, e.g. "process + seccomp + landlock"."""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    template: int | None = None
    control: socket.socket | None = field(default=None, repr=False)
    game: socket.socket | None = field(default=None, repr=False)
    answers: MessageReader | None = field(default=None, repr=False)
    heard: float = 0.0
    """When the game process last sent something (or was sent its round): the harness's clock for each answer."""
    game_pidfd: int | None = None
    """The game process (a pidfd, from the pid its trusted template reports), stopped between rounds."""
    careful: bool = False
    """The next round's answers are sent one by one: the last round lost its game process with several moves
    unanswered, and the move that did it is found by asking them again."""
    one_by_one: bool = False
    """Every round's answers are sent one by one from now on: a careful round answered everything that had cost a
    game process, so the strategy chose when to die (it re-imported for free that way: red team); now every
    loss of the game process falls on the move it happened in."""
    imports: int = 0
    """Games sockets handed to the worker: each is a game process that imports the strategy (a plain worker imports
    once per process).  A move interrupted at its limit keeps its process, and so the count."""
    spare_game: socket.socket | None = field(default=None, repr=False)
    """A portable start's game connection, until the first game takes it."""

    def __post_init__(self) -> None:
        if self.portable:
            self.fork_server = False

    def _start_portably(self, deadline: float) -> socket.socket:
        """Start a plain worker without descriptor passing; its control connection (its game's is kept spare)."""
        token = os.urandom(TOKEN_BYTES)
        with socket.create_server(("127.0.0.1", 0)) as listener:
            port = listener.getsockname()[1]
            safe_path = ["-P"] if sys.version_info >= (3, 11) else []
            self.process = subprocess.Popen(
                [sys.executable, *safe_path, "-m", "amoeboid_edu.sandbox.core", f"127.0.0.1:{port}", str(os.getpid()),
                 "portable"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=_worker_environment(),
                cwd=os.sep,
                start_new_session=True,  # (POSIX only; ignored on Windows)
            )
            assert self.process.stdin is not None
            self.process.stdin.write(token.hex().encode() + b"\n")
            self.process.stdin.flush()
            found: dict[bytes, socket.socket] = {}
            while len(found) < 2:  # anything else that connects without the token is dropped
                listener.settimeout(max(deadline - time.monotonic(), 0.001))
                connection, _ = listener.accept()
                try:
                    hello = _read_exactly(connection, TOKEN_BYTES + 1, deadline)
                except (EOFError, OSError):
                    hello = b""
                finally:
                    connection.settimeout(None)
                if hello[:TOKEN_BYTES] == token and hello[TOKEN_BYTES:] in (b"C", b"G") and hello[TOKEN_BYTES:] not in found:
                    found[hello[TOKEN_BYTES:]] = connection
                else:
                    connection.close()
        self.spare_game = found[b"G"]
        return found[b"C"]

    def _start(self) -> None:
        if self.portable:
            self._start_and_load(None)
            return
        mine, theirs = socket.socketpair()
        safe_path = ["-P"] if sys.version_info >= (3, 11) else []  # not "/" (its folder) on the import path
        try:
            self.process = subprocess.Popen(
                [sys.executable, *safe_path, "-m", "amoeboid_edu.sandbox.core", str(theirs.fileno()), str(os.getpid()),
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
        self._start_and_load(mine)

    def _start_and_load(self, mine: socket.socket | None) -> None:
        """Send the load request over the control connection (``None``: start portably first) and read the walls."""
        deadline = time.monotonic() + self.load_limit
        request = dict(self.load, path=[os.path.abspath(entry) for entry in sys.path], adjacency=self.rules.adjacency,
                       die_sides=self.rules.die_sides, import_seed=self.import_seed, walls=self.walls)
        try:
            if mine is None:
                mine = self._start_portably(deadline)
            self.control = mine
            if self.fork_server:
                self.template = int(self._line_from_supervisor(deadline))
            send_message(mine, json.dumps(request).encode())
            if request["load"] == "pickle":
                send_message(mine, self.payload)
            walls = untrusted_object(receive_message(mine, deadline, MAX_MESSAGE))["isolation"]
            self.isolation = " + ".join(str(wall) for wall in walls)
            self._new_game()  # the first game process imports the strategy now: a broken one is known at once
        except (socket.timeout, TimeoutError):
            self.broken = f"no answer within {self.load_limit:g} s while starting the worker (the load limit)"
        except (EOFError, OSError, ValueError, KeyError, TypeError) as error:
            self.broken = shown(f"the worker failed while starting ({error})")
        if self.broken:
            self.kill()

    def _line_from_supervisor(self, deadline: float) -> bytes:
        assert self.process is not None and self.process.stdout is not None
        pipe = self.process.stdout
        if not select.select([pipe], [], [], max(deadline - time.monotonic(), 0))[0]:
            raise TimeoutError
        return pipe.readline()

    def _new_game(self) -> socket.socket | None:
        """A fresh game process (forked from the template) on a fresh socket, once it has imported the strategy.

        None if the import failed or took longer than the load limit (``broken`` says why; the worker is
        stopped); OSError if the template is gone.
        """
        assert self.control is not None
        if self.portable:  # its one game connection was made at start
            if self.spare_game is None:
                raise OSError("a portably started worker plays one game connection")
            mine, self.spare_game = self.spare_game, None
            self.control.sendall(GAME)
            self.imports += 1
        else:
            mine, theirs = socket.socketpair()
            try:
                socket.send_fds(self.control, [GAME], [theirs.fileno()])
                self.imports += 1
            finally:
                theirs.close()
        try:
            if self.fork_server:  # the template's word (it runs no student code): the game process's pid
                pid = int(receive_message(self.control, time.monotonic() + self.load_limit, 32))
                self._forget_game_process()
                self.game_pidfd = _pidfd(pid)
            answer = untrusted_object(receive_message(mine, time.monotonic() + self.load_limit, MAX_MESSAGE))
            if not answer.get("ok"):
                self.broken = shown(answer.get("error", "the strategy could not be loaded"))
        except (socket.timeout, TimeoutError):
            self.broken = f"no answer within {self.load_limit:g} s while loading the strategy (the load limit)"
        except (EOFError, OSError, ValueError, UnicodeDecodeError) as error:
            self.broken = shown(f"the worker failed while loading the strategy ({error})")
        if self.broken is not None:
            mine.close()
            self.kill()
            return None
        self.game, self.answers = mine, MessageReader(mine)
        return mine

    def _receive(self, limit: float) -> dict[str, Any]:
        """The game's next answer within ``limit`` seconds plus ``MOVE_GRACE``, or a forfeit (the game process is killed).

        The game process interrupts a move itself at ``limit`` and answers ``{"kind": "timeout"}`` (it keeps its
        import); the grace is for a move that does not stop when interrupted (it caught the exception, blocked
        the signal, or runs in C).
        """
        assert self.game is not None and self.answers is not None
        try:
            answer = untrusted_answer(self.answers.next(time.monotonic() + limit + MOVE_GRACE, MAX_ANSWER))
        except (socket.timeout, TimeoutError):
            self._end_game()
            raise Forfeit("timeout", f"no answer within {limit:g} s (the per-move limit)",
                          "the move did not stop when interrupted: its game process was stopped") from None
        except (EOFError, ConnectionError):
            self._end_game()
            raise Forfeit("crash", "the worker exited (its game process died)") from None
        except (OSError, ValueError, UnicodeDecodeError) as error:
            self._end_game()
            raise Forfeit("malformed", "an unreadable answer from the worker", shown(error, LINE_WIDTH)) from None
        gap = 0.0
        if self.answers.waited:  # an answer that came in with the one before took no time of its own
            arrived = time.monotonic()
            gap, self.heard = arrived - self.heard, arrived
        late = gap > limit + LATE_AFTER
        if answer.get("kind") == "timeout" or late:  # the harness's own words; only the printed output is the worker's
            message = ("the move was interrupted; its game process and import were kept" if not late else
                       f"the answer came {gap:.2f} s after the one before, by the harness's clock (the game "
                       "process did not stop the move itself)")
            return {"kind": "timeout", "value": f"no answer within {limit:g} s (the per-move limit)",
                    "message": message, **{key: answer[key] for key in ("output", "printed", "lines") if key in answer},
                    **({"where": answer["where"]} if "where" in answer and not late else {})}
        return answer

    def ask(self, moves: Sequence[tuple[int, int, Position]], limit: float) -> list[dict[str, Any] | Forfeit | None]:
        """Answers for several ``(seed, roll, position)`` moves, each within ``limit`` seconds of the previous one.

        Each item is the worker's answer (a dict; ``{"kind": "timeout", ...}`` for a move the game process
        interrupted at the limit), a forfeit (a move that did not stop, a crash, a load failure, an unreadable
        answer), or None for a move left unanswered because an earlier one ended the game process: ask for it
        again.
        """
        if self.broken is None and self.process is None:
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
        self._signal_game(_SIGCONT)
        try:  # one message for the round: on a busy or single core, a message per move costs a context switch each
            game.settimeout(limit + MOVE_GRACE)  # a game process that stops reading must not block the harness
            send_message(game, "\n".join(round_).encode())  # (it froze a run for good that way: red team)
            game.settimeout(None)
        except (socket.timeout, TimeoutError):
            self._end_game()
            return [Forfeit("timeout", f"no answer within {limit:g} s (the per-move limit)",
                            "the game process stopped reading its moves: it was stopped")] + [None] * (len(moves) - 1)
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
        if careful and not self.one_by_one and not any(isinstance(answer, Forfeit) for answer in answers):
            self.one_by_one = True
        self._signal_game(_SIGSTOP)  # no CPU between its rounds (it spun while others moved: red team)
        return answers + [None] * (len(moves) - len(answers))

    def _signal_game(self, signum: int | None) -> None:
        """Stop or continue the game process, through a pidfd (never another process that took its pid)."""
        if self.game_pidfd is not None and signum is not None:
            try:
                signal.pidfd_send_signal(self.game_pidfd, signum)
            except OSError:  # it has died: the next read says so
                pass

    def _end_game(self) -> None:
        """Kill the game process (and anything else but the template); the import survives."""
        if self.game is not None:
            self.game.close()
            self.game = self.answers = None
        self._forget_game_process()
        if not self.fork_server or self.process is None or self.template is None:
            self.kill()
            return
        sweep(self.process.pid, keep=[self.template])
        if self.template not in descendants(self.process.pid):
            self.kill()

    def kill(self) -> None:
        """Stop the worker and everything it started (SIGKILL: no handler can refuse)."""
        for connection in (self.game, self.control, self.spare_game):
            if connection is not None:
                connection.close()
        self.game = self.control = self.answers = self.spare_game = None
        self._forget_game_process()
        if self.process is not None:
            if self.fork_server:
                sweep(self.process.pid)
            try:
                if hasattr(os, "killpg"):
                    os.killpg(self.process.pid, signal.SIGKILL)
                else:  # Windows: no process groups; a plain worker starts no processes of its own
                    self.process.kill()
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.process = None

    def _forget_game_process(self) -> None:
        if self.game_pidfd is not None:
            os.close(self.game_pidfd)
            self.game_pidfd = None

    def close(self) -> None:
        self.kill()


if __name__ == "__main__":
    main()
