"""The walls a worker puts up around a student's strategy before any of its code runs (Linux).

- Landlock: read only Python, the libraries, the worker's import path and the strategy's own folder; write
  nothing; no TCP; no signals or abstract sockets out of the worker's domain (:func:`readable_roots`).
- seccomp: a deny-list in the template (``_DENIED``: what no worker needs and an attacker would use), inherited
  by each game process, which adds its own allow-list (``_GAME_SYSCALLS``, ``_game_rules``).
- resource limits: memory, no file of any size, a few descriptors (:func:`limit_resources`).

Elsewhere (Windows, macOS) a strategy is kept apart by its process only, and the card says so
(:func:`process_only_label`).  Where a binding or a kernel feature is missing, that wall is left out of the
walls named on the card: nothing pretends.
"""

from __future__ import annotations

import errno
import os
import signal
import struct
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .processes import PR_SET_PDEATHSIG

WALLS_PLATFORM = sys.platform == "linux"
"""Whether this platform has the walls (seccomp, Landlock); elsewhere a strategy is kept apart by its process only."""


def process_only_label() -> str:
    """The isolation a worker reports where no wall exists, naming the platform, e.g. "process only (Windows: no walls)"."""
    system = {"win32": "Windows", "darwin": "macOS"}.get(sys.platform, sys.platform)
    return f"process only ({system}: no walls)"


MEMORY_LIMIT = 4 << 30
"""Address space a worker may use (4 GiB): a runaway allocation is a MemoryError, not a frozen machine."""
OPEN_FILES = 128
"""File descriptors a worker may hold (RLIMIT_NOFILE): bounds the pipe and socket buffers a game can fill."""
_CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME."""
_AF_UNIX = 1
_INT = 0xFFFF_FFFF
"""An ``int`` argument is compared on its low 32 bits, as the kernel reads it: a filter comparing all 64 would let
``prctl(1 << 32 | PR_SET_PDEATHSIG, 0)`` through."""
_DENIED = (
    # other processes: signals through a queue or a pidfd, tracing, memory (kill/tkill/tgkill: the game's allow-list;
    # process_vm_readv too: the template reads the paths its importing game processes name, :mod:`.seal`)
    "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", "pidfd_getfd",
    "ptrace", "process_vm_writev", "process_madvise", "kcmp",
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
    # scheduling, the host's name
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime", "utimes",
    "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr", "setxattrat", "removexattr", "lremovexattr",
    "fremovexattr", "removexattrat", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
    "fanotify_mark", "memfd_create", "memfd_secret", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
    "sched_setattr", "setpriority", "ioprio_set", "sethostname", "setdomainname",
)
"""Refused with EPERM in every worker process after its walls (the template's filter, which its games inherit):
syscalls no worker needs and an attacker would use.  A game process adds its own allow-list (``_GAME_SYSCALLS``)."""


def _readable_roots(request: dict[str, Any]) -> list[str]:
    """What a strategy may read: Python, the libraries, its import path and its own folder; not /proc, /etc, /tmp.

    Symbolic links are resolved (Landlock follows them to the folder it then opens): a strategy file given through
    a link is readable where it really lies, and a seed file is compared with where the roots really are.
    The root folder itself is never a root (a worker's import path could name it: everything would be readable),
    nor a checkout holding the package (:func:`_package_itself`).
    """
    roots = [sys.prefix, sys.base_prefix, sys.exec_prefix, "/usr", "/lib", "/lib64", "/bin",
             "/etc/ld.so.cache", "/etc/localtime", "/dev/null", "/dev/zero"]
    roots += [entry for entry in [*request.get("path", ()), *sys.path, request.get("root")] if entry]
    if request.get("file"):
        roots += [os.path.dirname(os.path.abspath(request["file"])), os.path.dirname(os.path.realpath(request["file"]))]
    resolved = dict.fromkeys(_package_itself(os.path.realpath(os.path.abspath(root))) for root in roots)
    return [root for root in resolved if root != os.path.realpath(os.sep) and os.path.exists(root)]


_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
"""The ``amoeboid_edu`` folder: what a worker imports more of behind the walls (through the package's ``__path__``)."""


def _package_itself(root: str) -> str:
    """The package's own folder for the folder that holds it when that is a checkout (an editable install, or run in
    place), so that a class folder kept in the checkout is not readable; a ``site-packages`` stays whole."""
    if root == os.path.dirname(_PACKAGE) and os.path.basename(root) not in ("site-packages", "dist-packages"):
        return _PACKAGE
    return root


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
    "read", "pread64", "readv", "preadv", "write", "writev", "close", "close_range", "lseek",
    "fstat", "stat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "getdents64", "readlink", "readlinkat",
    "getcwd", "access", "faccessat", "faccessat2", "dup", "dup2", "dup3",
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
    "epoll_pwait", "epoll_pwait2",
    # its sockets: receive, and send only to the connected peer (sendto with an address is below)
    "recvfrom", "recvmsg", "shutdown", "getsockopt", "getsockname", "getpeername",
    # memory (mmap and madvise below)
    "mprotect", "munmap", "mremap", "brk",
    # what the interpreter does for itself in its one thread
    "set_robust_list", "rseq", "set_tid_address", "arch_prctl", "restart_syscall", "exit", "exit_group",
    # its own signal mask and timers (rt_sigaction below: SIGALRM's and SIGPROF's handlers are the lab's)
    "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "sigaltstack", "setitimer", "getitimer",
    # the clock (clock_gettime, clock_getres and clock_nanosleep below: never another process's CPU clock)
    "gettimeofday", "time", "nanosleep",
    # about itself
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
    "getgroups", "getpgrp", "uname", "times", "sched_yield", "getrlimit",
)
"""Syscalls a game process may make with any arguments: what CPython, NumPy (imported before the walls) and
pure-Python strategies need to compute and to import modules.  Everything not allowed here or in
``_game_rules`` is refused with EPERM: processes, programs, threads, the network, signals to anyone else,
file metadata, folder watches, memfds, pipes and socket pairs, shared anonymous memory (each new one takes a number
from a counter every process on the machine shares, so making them at a rate set by the rolls it has seen, a game
process could tell them to any process that makes one and reads its number), other processes' CPU clocks,
scheduling, ``getrandom`` (a game's entropy is the move's stream;
refusing the raw syscall makes a strategy that goes around it fail the same way on every run), and readings that
differ from run to run with nothing to seed them: ``sysinfo`` (uptime, load, free memory), ``getrusage`` (page
faults, context switches) and ``getcpu`` (the processor it runs on).  Refused, they fail the same way every time,
so a strategy that chose its moves from them still gets one card for one seed; nothing CPython needs after its
start calls them."""

_FCNTL_COMMANDS = (0, 1, 2, 3, 4, 1030)
"""F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC: never F_SETOWN(_EX)/F_SETSIG (a signal to any
process the file's owner names), F_SETLEASE, F_NOTIFY or locks."""
_PRCTL_OPTIONS = (2, 3, 7, 13, 16, 21, 23, 30, 37, 39, 42)
"""PR_GET_PDEATHSIG, GET_DUMPABLE, GET_KEEPCAPS, GET_TIMING, GET_NAME, GET_SECCOMP, CAPBSET_READ, GET_TIMERSLACK,
GET_CHILD_SUBREAPER, GET_NO_NEW_PRIVS, GET_THP_DISABLE: getters only.  Never PR_SET_NAME (the name any user reads in
``/proc/PID/comm``) nor PR_SET_VMA (names in ``/proc/PID/maps``): a sealed game process could write the rolls it has
seen there, for a process outside to read."""
_MADVICE = (0, 1, 2, 3, 4, 8, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25)
"""madvise advice about its own pages; never MADV_HWPOISON or MADV_SOFT_OFFLINE (root: pages taken out of service)."""
_SOCKET_OPTIONS = (7, 8, 18, 19, 20, 21, 66, 67)
"""SOL_SOCKET options it may set: buffer sizes within the system's maximum, low-water marks and timeouts
(never SO_SNDBUFFORCE/SO_RCVBUFFORCE, which root could use to pin memory)."""
def int_argument(seccomp: Any, arg: int, value: int, mask: int = _INT) -> Any:
    """A seccomp rule's condition "argument ``arg`` is ``value``", an ``int`` compared on its low 32 bits
    (``mask``): the kernel passes an int's upper half as garbage, so a full compare could be dodged or fail."""
    return seccomp.Arg(arg, seccomp.MASKED_EQ, mask, value & mask)


_SIGALRM = 14
_SIGPROF = 27
_FD_CEILING = 1 << 16
"""Above every descriptor a game process can hold (it may open ``OPEN_FILES``; the harness's are lower)."""
_SECCOMP_SET_MODE_FILTER = 1
_MAP_PRIVATE, _MAP_ANONYMOUS, _MAP_TYPE = 0x02, 0x20, 0x0F
_CLOCK_OF_A_PID = 0x8000_0000
"""The sign bit of a clock id: set in every clock id made from a pid (``((~pid) << 3) | clock``)."""
_FUTEX_PRIVATE_FLAG = 128
_PR_SET_NO_NEW_PRIVS = 38


def _game_rules(seccomp: Any, pid: int, own_seal: bool = True) -> list[tuple[str, tuple[Any, ...]]]:
    """The allow-list's rules with arguments; several rules for one syscall allow it if any matches.

    ``int`` arguments are compared on their low 32 bits (``_INT``), pointers on all 64.  ``own_seal``: the game
    process will load the seal's layer itself (:func:`seal`), so one more filter is allowed; where the template
    keeps the seal (:mod:`.seal`) no further filter is.
    """
    import termios

    def int_is(arg: int, value: int, mask: int = _INT) -> Any:
        return int_argument(seccomp, arg, value, mask)

    def null(arg: int) -> Any:
        return seccomp.Arg(arg, seccomp.EQ, 0)

    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND | (os.O_TMPFILE & ~os.O_DIRECTORY)
    ioctls = (termios.TCGETS, termios.FIONREAD, termios.FIONBIO, termios.FIOCLEX, termios.FIONCLEX)
    yourself = (0, pid)  # 0: the caller (or its own process group, which is itself alone)
    rules: list[tuple[str, tuple[Any, ...]]] = [
        ("open", (int_is(1, 0, writes),)),  # read-only, even where Landlock is missing: it may write nothing
        ("openat", (int_is(2, 0, writes),)),
        ("sendto", (null(4),)),  # to the connected peer only, never to a named socket
        ("tkill", (int_is(0, pid),)),
        ("tgkill", (int_is(0, pid), int_is(1, pid))),
        ("rt_sigaction", (null(1),)),  # reading any disposition
        # without flags: RWF_NOWAIT answers whether a page is in the page cache, with no timing, so a strategy of
        # an earlier run could leave its rolls there (reading chosen pages of a mapped file) for this one to read
        ("preadv2", (int_is(5, 0),)),
        # its own locks only (FUTEX_PRIVATE_FLAG, as glibc's and CPython's are): a futex on a file's page without it
        # is keyed by the file, so a process of another run (or any process on the machine) mapping that file could
        # wait and be woken by this one, a channel out for the rolls it has seen
        ("futex", (seccomp.Arg(1, seccomp.MASKED_EQ, _FUTEX_PRIVATE_FLAG, _FUTEX_PRIVATE_FLAG),)),
    ]
    # private memory, or a file's pages: never MAP_SHARED | MAP_ANONYMOUS (a new inode of the kernel's shmem mount)
    rules += [("mmap", (int_is(3, 0, _MAP_ANONYMOUS),)),
              ("mmap", (int_is(3, _MAP_ANONYMOUS | _MAP_PRIVATE, _MAP_ANONYMOUS | _MAP_TYPE),))]
    # the clocks every process has and its own CPU time (clock ids 0-11), never another's: a clock id below 0 names a
    # process's or a thread's CPU clock by pid, which a process whose moves take time set by its rolls would write
    rules += [(name, (int_is(0, 0, _CLOCK_OF_A_PID),)) for name in ("clock_gettime", "clock_getres",
                                                                     "clock_nanosleep")]
    if own_seal:  # one more filter on itself, no flags (no listener, no other threads): :func:`seal` adds its layer
        rules.append(("seccomp", (int_is(0, _SECCOMP_SET_MODE_FILTER), int_is(1, 0))))
    rules += [("kill", (int_is(0, who),)) for who in yourself]
    rules += [(name, (int_is(0, who),)) for name in ("sched_getaffinity", "getpgid", "getsid") for who in yourself]
    rules += [("prlimit64", (int_is(0, who), null(2))) for who in yourself]  # a getter on itself
    rules += [("rt_sigaction", (int_is(0, signum),)) for signum in range(1, 65)
              if signum not in (_SIGALRM, _SIGPROF)]
    rules += [("fcntl", (int_is(1, command),)) for command in _FCNTL_COMMANDS]
    rules += [("ioctl", (int_is(1, request),)) for request in ioctls]
    rules += [("prctl", (int_is(0, option),)) for option in _PRCTL_OPTIONS]
    rules += [("madvise", (int_is(2, advice),)) for advice in _MADVICE]
    rules += [("setsockopt", (int_is(1, 1), int_is(2, option))) for option in _SOCKET_OPTIONS]  # SOL_SOCKET
    return rules


def _game_filter(seccomp: Any, pid: int, own_seal: bool) -> Any:
    """The game process ``pid``'s allow-list as a libseccomp filter, not loaded (see :func:`load_seccomp`)."""
    syscalls = seccomp.SyscallFilter(seccomp.ERRNO(errno.EPERM))
    _optimise(seccomp, syscalls)
    arch = seccomp.system_arch()
    for name, args in [(name, ()) for name in _GAME_SYSCALLS] + _game_rules(seccomp, pid, own_seal):
        if seccomp.resolve_syscall(arch, name) >= 0:  # else a syscall this architecture does not have
            syscalls.add_rule(seccomp.ALLOW, name, *args)
    return syscalls


def _optimise(seccomp: Any, syscalls: Any) -> None:
    try:
        syscalls.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)  # a binary tree of syscalls, not a list (libseccomp >= 2.5)
    except (OSError, AttributeError):
        pass


def exported(syscalls: Any) -> bytes:
    """A libseccomp filter as raw BPF (``struct sock_filter`` records of 8 bytes each)."""
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=True) as sink:
            write_end = -1
            syscalls.export_bpf(sink)
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    return b"".join(chunks)


_STAND_INS = (0x3A5C1E07, 0x2B6D0F19)
"""Two pids no process has (above Linux's largest, 2**22) that the game's allow-list is compiled for, to find where
its pid lies in the program."""
_INSTRUCTION = struct.Struct("=HBBI")
"""``struct sock_filter``: code, jt, jf, k."""


@dataclass(frozen=True)
class GameProgram:
    """The game processes' allow-list compiled once, in the template: raw BPF whose pid constants are filled in by
    each game process (:func:`load_game_program`).  Compiling it (libseccomp, a few hundred rules) took about as
    long as the rest of a game process's start; loading a program takes one syscall."""

    code: bytes
    slots: tuple[int, ...]
    """Byte offsets of the ``k`` fields that hold the pid."""


def compile_game_program(own_seal: bool) -> GameProgram | None:
    """The allow-list of :func:`load_seccomp` (``game=True``) for any pid, or None if it cannot be compiled here.

    Compiled for two stand-in pids: the two programs must differ only in ``k`` fields, each holding the stand-in
    (so the pid changes no jump and no other constant equals it); those fields are the pid's slots.
    ``tests/sandbox`` checks that a program filled in for a pid equals the one libseccomp compiles for it.
    """
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]

        first, second = (exported(_game_filter(seccomp, pid, own_seal)) for pid in _STAND_INS)
        _loader()
    except (ImportError, OSError, RuntimeError):
        return None
    if not first or len(first) != len(second) or len(first) % _INSTRUCTION.size:
        return None
    slots = []
    for offset in range(0, len(first), _INSTRUCTION.size):
        one, other = _INSTRUCTION.unpack_from(first, offset), _INSTRUCTION.unpack_from(second, offset)
        if one[:3] != other[:3] or (one[3] != other[3] and (one[3], other[3]) != _STAND_INS):
            return None
        if one[3] == _STAND_INS[0]:
            if other[3] != _STAND_INS[1]:
                return None  # a constant of the rules that happens to equal the stand-in
            slots.append(offset + 4)
    return GameProgram(first, tuple(slots)) if slots else None


def game_program_for(program: GameProgram, pid: int) -> bytes:
    """``program`` with ``pid`` in its pid slots: the raw BPF :func:`load_seccomp` would compile for ``pid``."""
    code = bytearray(program.code)
    for slot in program.slots:
        struct.pack_into("=I", code, slot, pid)
    return bytes(code)


_LOADER: list[Any] = []
"""``[libc, seccomp's syscall number, the sock_fprog structure]`` once :func:`compile_game_program` has run: found
in the template, so that a game process forked from it loads its program without looking anything up."""


def _loader() -> list[Any]:
    if not _LOADER:
        import ctypes

        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]

        class SockFprog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        _LOADER.extend([libc, seccomp.resolve_syscall(seccomp.system_arch(), "seccomp"), SockFprog])
    return _LOADER


def load_program(code: bytes) -> None:
    """Load the raw BPF ``code`` as this process's next seccomp filter (no_new_privs set first); OSError if refused."""
    import ctypes

    libc, number, fprog_type = _loader()
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    buffer = ctypes.create_string_buffer(code, len(code))
    fprog = fprog_type(len(code) // _INSTRUCTION.size, ctypes.cast(buffer, ctypes.c_char_p))
    if libc.syscall(ctypes.c_long(number), ctypes.c_long(_SECCOMP_SET_MODE_FILTER), ctypes.c_long(0),
                    ctypes.byref(fprog)) < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def load_game_program(program: GameProgram) -> bool:
    """In a game process: load the allow-list compiled in the template, for this process's pid; False if refused."""
    try:
        load_program(game_program_for(program, os.getpid()))
    except (ImportError, OSError, RuntimeError):
        return False
    return True


def load_seccomp(game: bool, own_seal: bool = True) -> bool:
    """Load this process's seccomp filter (no_new_privs is set with it); False if seccomp is not available.

    ``game=False`` (the template's, inherited by every game process): refuse with EPERM what no worker needs and
    an attacker would use (``_DENIED``), raising rlimits, new threads (a thread started by the import would live
    on in the template, outside every game's seeding and walls, and could take the game sockets) and namespaces.
    ``game=True``: an allow-list (``_GAME_SYSCALLS``, ``_game_rules``, ``own_seal`` passed on), default EPERM.
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
            _game_filter(seccomp, os.getpid(), own_seal).load()
            return True
        syscalls = seccomp.SyscallFilter(seccomp.ALLOW)

        def int_is(arg: int, value: int) -> Any:
            return int_argument(seccomp, arg, value)

        actions = [
            (refuse, "setpgid", (seccomp.Arg(1, seccomp.NE, 0),)),  # may lead a new group, not join another
            (refuse, "socketpair", (seccomp.Arg(0, seccomp.NE, _AF_UNIX),)),
            # the parent-death signal may be set to SIGKILL (as a game process does), never cleared or softened
            (refuse, "prctl", (int_is(0, PR_SET_PDEATHSIG), seccomp.Arg(1, seccomp.NE, signal.SIGKILL))),
            (refuse, "prlimit64", (seccomp.Arg(2, seccomp.NE, 0),)),
            (seccomp.ERRNO(errno.ENOSYS), "clone3", ()),  # its flags are out of a filter's reach; libc falls back
        ]
        actions += [(refuse, name, ()) for name in _DENIED]
        actions += [(refuse, "clone", (seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag),))
                    for flag in (*_CLONE_NAMESPACES, _CLONE_THREAD)]
        _optimise(seccomp, syscalls)
        for action, name, args in actions:
            if seccomp.resolve_syscall(arch, name) < 0:
                continue  # a syscall this architecture does not have
            syscalls.add_rule(action, name, *args)
        syscalls.load()
    except OSError:
        return False
    return True


def put_up_walls(request: dict[str, Any]) -> list[str]:
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
    if load_seccomp(game=False):
        walls.append("seccomp")
    return walls + ([landlocked] if landlocked else [])

def limit_resources() -> None:
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



_SEALED = (
    # opening a file (reading one sets its access time), by name or by handle
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at", "uselib",
    # looking a name up (following a symbolic link sets the link's access time), reading a link
    "stat", "lstat", "newfstatat", "statx", "statfs", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
    "chdir", "getxattr", "lgetxattr", "listxattr", "llistxattr", "getxattrat", "listxattrat",
    # its own descriptors' inode numbers (they differ from run to run; glibc's fstat is newfstatat already)
    "fstat", "fstatfs",
    "execve", "execveat", "truncate", "inotify_add_watch", "fanotify_mark",
    # state that outlives a process: System V IPC, POSIX message queues, keyrings
    "shmget", "shmat", "msgget", "msgsnd", "semget", "semop", "semtimedop", "mq_open", "mq_timedsend",
    "mq_notify", "add_key", "request_key", "keyctl",
    # a further filter (which could answer for this one), or a Landlock domain
    "seccomp", "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
)
"""Refused with EACCES once a game process is sealed (:func:`seal`): every syscall that names a file or leaves
state behind the process, so that nothing a strategy does after it has seen a roll leaves a mark another run
could read (an access time, a message queue, a key)."""

SEALED_IMPORT = "import {name} at the top of your file: a strategy can't open files once its game has started"
"""What a strategy's import during a game raises (ImportError), the module's name filled in."""


class _SealedImports:
    """A finder in front of the path's: a module not imported yet is refused with ``SEALED_IMPORT``."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        raise ImportError(SEALED_IMPORT.format(name=name), name=name)


def _remember_sources(skip: Sequence[str]) -> None:
    """Keep the lines of every imported Python file outside the folders ``skip`` in ``linecache``, marked as read
    from a loader (no size, no mtime: ``linecache.checkcache`` leaves it), so a traceback still shows the
    student's line.  Compared as text (as given and resolved), not resolved per file: hundreds of library modules
    are passed over in microseconds."""
    import linecache

    folders = tuple({variant.rstrip(os.sep) + os.sep for folder in skip
                     for variant in (folder, os.path.realpath(folder))})
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not isinstance(file, str) or not file.endswith(".py") or file.startswith(folders) or file in linecache.cache:
            continue
        try:
            with open(file, encoding="utf-8", errors="replace") as source:
                lines = source.readlines()
        except OSError:
            continue
        linecache.cache[file] = (len(lines), None, lines, file)


def close_all_but(keep: Iterable[int]) -> None:
    """Close every descriptor below ``OPEN_FILES`` but ``keep``, one ``close`` each (no ``close_range``, which the
    template's seal refuses: it could close the game socket)."""
    kept = set(keep)
    for fd in range(OPEN_FILES):
        if fd not in kept:
            try:
                os.close(fd)
            except OSError:
                pass


def seal(keep: Sequence[int], walls: Sequence[str]) -> bool:
    """Seal a game process once its strategy is loaded, before it sees a roll; False if the filter failed to load.

    Rolls of a run are dealt again by another run with the same seed, so a strategy that could leave any mark
    after seeing one (read a never-read file: its access time changes) would tell a later run its dice.  Here, in
    the game process: every descriptor but ``keep`` (its sockets) is closed; an import of a module not loaded yet
    raises one clear ``ImportError`` (``SEALED_IMPORT``); source lines of the student's files are read first, so
    that where a move raised still shows its line.

    Where the walls include ``seal``, the seal itself is kept by the template (:mod:`.seal`), which the strategy
    cannot reach: what is done here only makes the failures clear.  Elsewhere, with seccomp (a worker started
    plainly), a last filter loaded here refuses with EACCES every syscall that names a file or keeps state after
    the process (``_SEALED``); a strategy's import could disarm that one, so the card does not say ``seal``.
    """
    _remember_sources([sys.prefix, sys.base_prefix, sys.exec_prefix, _PACKAGE])
    if "seal" in walls:  # the template's seal refuses close_range (which could close the game socket): one by one
        close_all_but(keep)
    else:
        low = 0
        for fd in sorted(set(keep)):
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, max(_FD_CEILING, low))
    from importlib.machinery import PathFinder

    finders = sys.meta_path
    at = next((index for index, finder in enumerate(finders) if finder is PathFinder), 0)
    finders.insert(at, _SealedImports)
    if not WALLS_PLATFORM or "seccomp" not in walls or "seal" in walls:
        return True
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except (ImportError, OSError, RuntimeError):
        return False
    arch = seccomp.system_arch()
    try:
        syscalls = seccomp.SyscallFilter(seccomp.ALLOW)
        syscalls.set_attr(seccomp.Attr.CTL_NNP, 0)  # set with the first filter; prctl is refused by the game's
        refuse = seccomp.ERRNO(errno.EACCES)
        for name in _SEALED:
            if seccomp.resolve_syscall(arch, name) >= 0:
                syscalls.add_rule(refuse, name)
        syscalls.load()
    except OSError:
        return False
    return True
