"""The seal, kept by a process that runs no student code: a game process names no file once it may know a roll.

Two runs with one seed deal the same dice, so a game process that has seen a roll must leave no mark that a later
run could read: reading a never-read file changes its access time, following a symbolic link changes the link's,
a System V queue or a key outlives the process.  A seal put up by the game process itself after the strategy's
import can be taken down by that import (anything in a process is reachable from code running in it), so the seal
is a seccomp filter with *user notification* (``SECCOMP_RET_USER_NOTIF``, Linux >= 5.5):

1. The template (trusted) compiles the filter once (:func:`seal_program`).
2. Each game process, forked from the template, loads it *before* the strategy's import, with a new listener
   (:func:`load_seal`), hands the listener to the template over a socket pair and closes it: the strategy never
   holds it.  Its game socket sits at ``GAME_FD``, which it may not close or replace (``close``, ``dup2``,
   ``dup3`` onto it and ``close_range`` are refused outright).
3. Every syscall of the filter stops the game process until the template answers (:class:`Sealer`): "continue"
   while the strategy imports; once the harness says the first round is coming (after the strategy's import,
   before any roll is sent) the template *arms* that game's listener and answers EACCES for good.

What the filter sends to the template (``_SEALED`` of :mod:`.walls`, and reading a descriptor other than the game
socket: ``read``, ``pread64``, ``readv``, ``preadv(2)``, ``getdents64``, and ``mmap`` of a file, so that a file
opened during the import cannot be read, listed or mapped afterwards, which would change its access time).

Why a "continue" answered before arming cannot carry a roll: the template arms a game's listener before it tells
the harness, and the harness sends the first roll only after that; every syscall answered "continue" was
answered before the harness sent anything, and a game process has one thread (the walls refuse others), so it
cannot learn a roll while one of its syscalls waits or runs.  If the template dies, the kernel fails every such
syscall with ENOSYS (no listener), and the game process dies with it (its parent-death signal).

What an importing game process may not look at: procfs.  A sealed game process of the same run may still ``dup``
and ``close`` its own descriptors at a rate set by its rolls; its fd table (``stat("/proc/<pid>/fd/N")``,
``/proc/<pid>/fd``'s size, ``fdinfo``) is shown to any process of the same user, and Landlock does not cover
``stat`` nor ``open(O_PATH)``.  An importing game process, unsealed, could read it there and leave marks for a
later run with the same seed.  So while a game process imports, the template answers its path-taking syscalls
(``_PATH_CALLS``) by path: it reads the path from the game process's memory (``process_vm_readv``: it is the
parent), resolves it as the kernel would, from the descriptor ``dirfd`` names (``/proc/<pid>/fd/<dirfd>``) or
the process's working folder (``/proc/<pid>/cwd``), following symbolic links as the call would (``/dev/fd`` is a
link into ``/proc/self``), and answers EACCES as soon as the walk enters a procfs mount (any mount of type
``proc``, :func:`procfs_mounts`), "continue" otherwise.  A path it cannot read or a start it cannot resolve is
refused; a name that does not exist (or a folder it cannot search) is answered "continue", since the kernel's own
walk fails there the same way (nothing in the run can change the file system: no write right anywhere) and an
import needs the kernel's own error.  A descriptor can reach procfs only through an open checked here, so a call
on a descriptor (``fstat``, ``fstatfs``, an empty path with ``AT_EMPTY_PATH``) is answered "continue"; ``fchdir``
is not sent here (the game's allow-list refuses it, and ``chdir``, outright), and a relative path is walked from
the working folder the kernel reports, wherever it is; ``getcwd`` tells only that folder's name.  This also keeps
the machine-wide inode counter out of reach (``lstat("/proc/self/fd/N")``) while the strategy imports.  Where the
template cannot read a game process's memory at all (Yama's ``ptrace_scope`` >= 2), that game's paths are answered
"continue" as before (:attr:`Sealer.blind`): refusing them would refuse every import.

Why checking an argument does not open the time-of-check race of ``SECCOMP_USER_NOTIF_FLAG_CONTINUE``
(seccomp_unotify(2): the path rewritten between the template's read and the kernel's): nothing but the waiting
game process itself can write its memory, and it is stopped in the syscall.  It has one thread (threads and
processes are refused by its allow-list and the template's filter); no other process of the run may write its
memory (``process_vm_writev`` and ``ptrace`` are refused in every game process, which opens nothing for writing,
``/proc/<pid>/mem`` included); it shares no memory another process of the run can write (shared anonymous
mappings are refused, and no process of the run has a write right to any file it could map shared); and once
the path is read the template asks the kernel whether the notification is still the one it read it for
(``SECCOMP_IOCTL_NOTIF_ID_VALID``): a signal that interrupted the syscall (whose handler could rewrite the path)
makes the call a new notification.  The file system the template walks is the one the kernel then walks: no
process of the run can change it (no write right anywhere).  A process *outside* the run can still race a check:
by changing a link between the two walks, or by writing a file the game process has mapped privately and holds
its path in (a page not yet copied shows the file's later writes); docs/threat-model.md says so.

Linux only, and only where seccomp is; :func:`seal_available` says whether this kernel has user notification.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import select
import socket
import stat
import struct
from typing import Any

from .walls import OPEN_FILES, _SEALED, exported, int_argument

GAME_FD = OPEN_FILES - 1
"""The descriptor a sealed game process's socket is moved to (the highest it may hold): fixed, so the filter is
compiled once, and out of the way of what the strategy opens."""
_SET_MODE_FILTER, _GET_ACTION_AVAIL, _GET_NOTIF_SIZES = 1, 2, 3
_FLAG_NEW_LISTENER = 1 << 3
_RET_USER_NOTIF = 0x7FC00000
_NOTIF = struct.Struct("=QII64s")
"""struct seccomp_notif: id, pid, flags, seccomp_data."""
_RESPONSE = struct.Struct("=QqiI")
"""struct seccomp_notif_resp: id, val, error, flags."""
_IOCTL_RECV = 0xC0000000 | (_NOTIF.size << 16) | (ord("!") << 8) | 0
_IOCTL_SEND = 0xC0000000 | (_RESPONSE.size << 16) | (ord("!") << 8) | 1
_CONTINUE = 1
"""SECCOMP_USER_NOTIF_FLAG_CONTINUE (Linux 5.5)."""
_ID_VALID = 0x80000000 | (8 << 16) | (ord("!") << 8) | 2
"""SECCOMP_IOCTL_NOTIF_ID_VALID as Linux 5.0-5.8 spelled it (``_IOR``); later kernels accept it too."""
_READS = ("read", "pread64", "readv", "preadv", "preadv2", "getdents64")
_MAP_ANONYMOUS = 0x20
_DATA = struct.Struct("=iIQ6Q")
"""struct seccomp_data: nr, arch, instruction_pointer, args[6]."""
_NUMBER = struct.Struct("=i")
_AT_FDCWD = -100
_AT_SYMLINK_NOFOLLOW, _AT_SYMLINK_FOLLOW, _AT_EMPTY_PATH = 0x100, 0x400, 0x1000
_IN_DONT_FOLLOW = 0x0200_0000
_RESOLVE_IN_ROOT = 0x10
_PATH_MAX = 4096
_PAGE = 4096
"""A lower bound of the page size: reads of a path never cross one of its boundaries in one piece."""
_FIRST_READ = 256
_WALK_ENDS = (errno.ENOENT, errno.ENOTDIR, errno.EACCES)
"""The errors of a walk's ``lstat`` at which the kernel's walk of the same path ends too: any other (a real path
over ``PATH_MAX``, reached through a descriptor) refuses the call."""
_MAX_LINKS = 40
"""Symbolic links one path walk may follow (Linux's MAXSYMLINKS): beyond, the kernel fails with ELOOP."""


class _PathCall:
    """Where a path-taking syscall's arguments are: the path's (``path``), the descriptor it starts from (``dirfd``,
    None: the working folder), its flags (``flags``, None: it has none); whether it follows a final symbolic link
    (``follows``, unless ``nofollow`` is among its flags, or ``follow`` is), and the flag that makes an empty path
    name ``dirfd`` itself (``empty``; -1: an empty path always does)."""

    __slots__ = ("path", "dirfd", "flags", "follows", "nofollow", "follow", "empty")

    def __init__(self, path: int, dirfd: int | None = None, flags: int | None = None, follows: bool = True,
                 nofollow: int = 0, follow: int = 0, empty: int = 0) -> None:
        self.path, self.dirfd, self.flags, self.follows = path, dirfd, flags, follows
        self.nofollow, self.follow, self.empty = nofollow, follow, empty


def _at(flags: int, follows: bool = True) -> _PathCall:
    return _PathCall(1, 0, flags, follows, _AT_SYMLINK_NOFOLLOW, 0, _AT_EMPTY_PATH)


_PATH_CALLS: dict[str, _PathCall] = {
    "open": _PathCall(0, None, 1, True, os.O_NOFOLLOW), "creat": _PathCall(0),
    "openat": _PathCall(1, 0, 2, True, os.O_NOFOLLOW),
    "openat2": _PathCall(1, 0, None, True, os.O_NOFOLLOW),  # its flags: in struct open_how
    "stat": _PathCall(0), "lstat": _PathCall(0, follows=False), "newfstatat": _at(3), "statx": _at(2),
    "statfs": _PathCall(0), "access": _PathCall(0), "faccessat": _PathCall(1, 0), "faccessat2": _at(3),
    "readlink": _PathCall(0, follows=False), "readlinkat": _PathCall(1, 0, follows=False, empty=-1),
    "chdir": _PathCall(0), "getxattr": _PathCall(0), "lgetxattr": _PathCall(0, follows=False),
    "listxattr": _PathCall(0), "llistxattr": _PathCall(0, follows=False), "getxattrat": _at(2),
    "listxattrat": _at(2), "execve": _PathCall(0), "execveat": _at(4), "truncate": _PathCall(0),
    "inotify_add_watch": _PathCall(1, None, 2, True, _IN_DONT_FOLLOW), "uselib": _PathCall(0),
    "name_to_handle_at": _PathCall(1, 0, 4, False, 0, _AT_SYMLINK_FOLLOW, _AT_EMPTY_PATH),
}
"""The sealed syscalls that take a path, answered by it while a game process imports (see the module's text).
``fanotify_mark`` and ``open_by_handle_at`` (a path that may be NULL, a handle) are refused instead: no import
needs them, and the walls refuse both anyway."""
_UNCHECKABLE = ("fanotify_mark", "open_by_handle_at")


def procfs_mounts() -> tuple[bytes, ...]:
    """Where procfs is mounted here (every mount of type ``proc`` in ``/proc/self/mountinfo``; ``/proc`` if that
    cannot be read).  Read by the template before its walls: Landlock then keeps ``/proc`` from it."""
    found: list[bytes] = []
    try:
        with open("/proc/self/mountinfo", "rb") as mounts:
            for line in mounts:
                fields = line.split()
                if b"-" in fields:
                    kind = fields[fields.index(b"-") + 1: fields.index(b"-") + 2]
                    if kind == [b"proc"] and len(fields) > 4:
                        found.append(_unescape(fields[4]))
    except OSError:
        pass
    return tuple(dict.fromkeys(found)) or (b"/proc",)


def _unescape(field: bytes) -> bytes:
    """A mount point as mountinfo writes it: space, tab, newline and backslash as octal escapes."""
    for code in (b"\\040", b"\\011", b"\\012", b"\\134"):
        field = field.replace(code, bytes([int(code[1:], 8)]))
    return field


class _Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def _seccomp_call(operation: int, flags: int, argument: Any) -> int:
    """``seccomp(operation, flags, argument)``; OSError if the kernel refuses."""
    import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]

    number = seccomp.resolve_syscall(seccomp.system_arch(), "seccomp")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    result = int(libc.syscall(ctypes.c_long(number), ctypes.c_long(operation), ctypes.c_long(flags), argument))
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return result


def seal_available() -> bool:
    """Whether this kernel and libseccomp can keep the seal: user notification with "continue" (Linux >= 5.5),
    and the notification structures this module reads."""
    try:
        release = tuple(int(part) for part in os.uname().release.split("-")[0].split(".")[:2])
        action = ctypes.c_uint32(_RET_USER_NOTIF)
        _seccomp_call(_GET_ACTION_AVAIL, 0, ctypes.byref(action))
        sizes = (ctypes.c_uint16 * 3)()
        _seccomp_call(_GET_NOTIF_SIZES, 0, ctypes.byref(sizes))
    except (ImportError, OSError, RuntimeError, ValueError, AttributeError):
        return False
    return release >= (5, 5) and (sizes[0], sizes[1]) == (_NOTIF.size, _RESPONSE.size)


def seal_program() -> bytes | None:
    """The seal's filter as raw BPF for this architecture (compiled by libseccomp), or None if it cannot be built.

    Everything else is allowed here: the template's and the game's own filters still refuse what they refuse,
    and the kernel takes the strictest answer of all filters (an EPERM of the allow-list wins over a
    notification, a notification over an allow).
    """
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except (ImportError, OSError, RuntimeError):
        return None

    def int_is(arg: int, value: int) -> Any:
        return int_argument(seccomp, arg, value)

    arch = seccomp.system_arch()
    keep_the_socket = seccomp.ERRNO(errno.EBADF)
    rules: list[tuple[int, str, tuple[Any, ...]]] = [
        (keep_the_socket, "close", (int_is(0, GAME_FD),)),
        (keep_the_socket, "dup2", (int_is(1, GAME_FD),)),
        (keep_the_socket, "dup3", (int_is(1, GAME_FD),)),
        (keep_the_socket, "close_range", ()),
        (seccomp.NOTIFY, "mmap", (seccomp.Arg(3, seccomp.MASKED_EQ, _MAP_ANONYMOUS, 0),)),  # a file's pages
    ]
    rules += [(seccomp.NOTIFY, name, ()) for name in _SEALED]
    # any descriptor but the game socket (compared on all 64 bits: a value the kernel reads as GAME_FD with other
    # high bits is sent to the template too, which only ever refuses more)
    rules += [(seccomp.NOTIFY, name, (seccomp.Arg(0, seccomp.NE, GAME_FD),)) for name in _READS]
    try:
        syscalls = seccomp.SyscallFilter(seccomp.ALLOW)
        for action, name, args in rules:
            if seccomp.resolve_syscall(arch, name) >= 0:
                syscalls.add_rule(action, name, *args)
        program = exported(syscalls)
    except (OSError, RuntimeError):
        return None
    return program if program and len(program) % 8 == 0 else None


def load_seal(program: bytes, report: socket.socket) -> None:
    """In a game process, before the strategy's import: load the seal's filter and hand its listener to the
    template over ``report`` (then close it here).  OSError if the kernel refuses."""

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    code = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.cast(code, ctypes.c_char_p))
    listener = _seccomp_call(_SET_MODE_FILTER, _FLAG_NEW_LISTENER, ctypes.byref(fprog))
    try:
        socket.send_fds(report, [b"L"], [listener])
    finally:
        os.close(listener)


PATHS_UNCHECKED = "no /proc check at import"
"""The wall a card names after ``seal`` when the template cannot read its game processes' memory
(:meth:`Sealer.reads_children`): the seal holds, but an importing game process's paths are not checked, so it can
read other game processes' descriptor tables (docs/threat-model.md)."""


def seal_walls(sealer: Sealer) -> list[str]:
    """What a card names for the seal kept by ``sealer``: ``seal``, and :data:`PATHS_UNCHECKED` where its path check
    cannot work."""
    return ["seal"] if sealer.reads_children() else ["seal", PATHS_UNCHECKED]


class Sealer:
    """The template's side of the seal: the listeners of its game processes, answered "continue" until armed
    (EACCES for a path into procfs), then EACCES.

    ``procfs``: where procfs is mounted (:func:`procfs_mounts`, read before the template's walls; none given:
    ``/proc``).
    """

    def __init__(self, procfs: tuple[bytes, ...] = (b"/proc",)) -> None:
        import pyseccomp as seccomp  # type: ignore[import-untyped, import-not-found, unused-ignore]

        self.listeners: dict[int, int] = {}
        """Listener descriptor -> the game process's pid."""
        self.armed: set[int] = set()
        self.blind: set[int] = set()
        """Listeners of game processes whose memory this process cannot read (Yama's ``ptrace_scope`` >= 2, or
        another security module): their paths cannot be checked, and are answered "continue" until armed, since
        refusing them all would refuse every import (the procfs channel stays open there: docs/threat-model.md)."""
        self.poll = select.poll()
        procfs = tuple(mount.rstrip(b"/") for mount in procfs) or (b"/proc",)
        self.everything_procfs = b"" in procfs
        self.procfs_folders = tuple(mount + b"/" for mount in procfs)
        """Each procfs mount as a folder (``/proc/``): a path is in procfs if it is, or is in it."""
        arch = seccomp.system_arch()
        self.arch = int(arch)
        """The architecture the syscall numbers below are this one's (``AUDIT_ARCH_*``, as seccomp_data has it)."""
        numbers = {name: int(seccomp.resolve_syscall(arch, name)) for name in (*_PATH_CALLS, *_UNCHECKABLE)}
        self.paths = {numbers[name]: call for name, call in _PATH_CALLS.items() if numbers[name] >= 0}
        self.uncheckable = {numbers[name] for name in _UNCHECKABLE if numbers[name] >= 0}
        self.openat2 = numbers["openat2"]
        libc = ctypes.CDLL(None, use_errno=True)
        self._readv = libc.process_vm_readv
        self._readv.restype = ctypes.c_ssize_t
        self._readv.argtypes = [ctypes.c_int, ctypes.POINTER(_Iovec), ctypes.c_ulong, ctypes.POINTER(_Iovec),
                                ctypes.c_ulong, ctypes.c_ulong]
        self._buffer = ctypes.create_string_buffer(_PAGE)
        self._local = _Iovec(ctypes.addressof(self._buffer), 0)
        self._remote = _Iovec(0, 0)
        self._vectors = (ctypes.byref(self._local), ctypes.byref(self._remote))

    def _memory(self, pid: int, address: int, size: int) -> bytes | None:
        """``size`` bytes (at most a page's) at ``address`` in the process ``pid``; None if they cannot be read."""
        self._local.len = self._remote.len = size
        self._remote.base = address
        local, remote = self._vectors
        got = self._readv(pid, local, 1, remote, 1, 0)
        return ctypes.string_at(self._buffer, size) if got == size else None

    def _string(self, pid: int, address: int) -> bytes | None:
        """The path at ``address`` in the process ``pid`` (read a page at most at a time, so that an unmapped page
        after it is never read); None if it cannot be read or is longer than the kernel takes."""
        read = b""
        while len(read) < _PATH_MAX and address:
            first = _FIRST_READ if not read else _PAGE  # most paths are short: copy little, the first time
            piece = self._memory(pid, address, min(_PAGE - address % _PAGE, _PATH_MAX - len(read), first))
            if piece is None:
                return None
            end = piece.find(b"\0")
            if end >= 0:
                return read + piece[:end]
            read += piece
            address += len(piece)
        return None

    def _in_procfs(self, path: bytes) -> bool:
        return self.everything_procfs or (path + b"/").startswith(self.procfs_folders)

    def _walk(self, here: bytes, path: bytes, follow: bool) -> bytes | None:
        """The real path the kernel's walk of ``path`` from the real folder ``here`` reaches (following a final
        symbolic link if ``follow``, and every other one); None if the walk enters procfs, would fail with ELOOP,
        or cannot be followed here (a real path longer than the kernel's ``PATH_MAX``, which the kernel itself can
        still walk relative to a descriptor, or any error but the three below); ``b""`` if it fails before, as the
        kernel's walk does: a name that does not exist (ENOENT), a file where a folder is needed (ENOTDIR), a
        folder this process (the game's user, with fewer walls) cannot search (EACCES).

        Nothing is remembered between walks: a link that a process outside the run changes is read again (that
        process can still race a walk: docs/threat-model.md)."""
        todo = path.split(b"/")[::-1]
        links = 0
        while todo:
            name = todo.pop()
            if name in (b"", b"."):
                continue
            if name == b"..":
                here = os.path.dirname(here)
                continue
            there = (here if here != b"/" else b"") + b"/" + name
            if self._in_procfs(there):
                return None
            if not todo and not follow:
                return there  # the final name itself, in a folder outside procfs
            try:
                target = os.readlink(there) if stat.S_ISLNK(os.lstat(there).st_mode) else None
            except OSError as error:
                return b"" if error.errno in _WALK_ENDS else None
            if target is None:
                here = there
                continue
            links += 1
            if links > _MAX_LINKS:
                return None
            todo += target.split(b"/")[::-1]
            if target.startswith(b"/"):
                here = b"/"
        return None if self._in_procfs(here) else here

    def _reaches_procfs(self, start: bytes, path: bytes, follow: bool) -> bool:
        """Whether the kernel's walk of ``path`` from the real folder ``start`` enters procfs, or cannot be told
        (see :meth:`_walk`)."""
        if self._in_procfs(start):
            return True
        full = path if path.startswith(b"/") else start.rstrip(b"/") + b"/" + path
        return self._walk(b"/", full, follow) is None

    def _path_allowed(self, pid: int, data: bytes) -> bool:
        """Whether a path-taking syscall of the importing game process ``pid`` (its ``seccomp_data``) may go on: its
        path, read from the process, does not lead into procfs.  False if it cannot be told."""
        number, arch, _, *args = _DATA.unpack(data)
        if arch != self.arch:
            return False
        if number in self.uncheckable:
            return False
        call = self.paths.get(number)
        if call is None:
            return True  # not a path: a descriptor's, or state kept after the process (refused once armed)
        flags = args[call.flags] if call.flags is not None else 0
        if number == self.openat2:  # struct open_how: flags, mode, resolve
            how = self._memory(pid, args[2], 24) if args[2] else None
            if how is None:
                return False
            flags, _, resolve = struct.unpack("=QQQ", how)
            if resolve & _RESOLVE_IN_ROOT:
                return False  # absolute links from dirfd: a walk this template does not copy
        path = self._string(pid, args[call.path])
        if path is None:
            return False
        dirfd = ctypes.c_int32(args[call.dirfd] & 0xFFFF_FFFF).value if call.dirfd is not None else _AT_FDCWD
        if not path and (call.empty == -1 or flags & call.empty):
            return True  # the descriptor itself, opened through a checked open (or before any student code)
        follow = (call.follows and not flags & call.nofollow) or bool(flags & call.follow)
        if path.startswith(b"/"):
            start = b"/"
        else:
            try:
                start = os.readlink(b"/proc/%d/cwd" % pid if dirfd == _AT_FDCWD else b"/proc/%d/fd/%d" % (pid, dirfd))
            except OSError:
                return False
            if not start.startswith(b"/") or start.endswith(b" (deleted)"):
                return False  # a socket, a pipe, a folder since removed: no walk to copy
        return not self._reaches_procfs(start, path, follow)

    def reads_children(self) -> bool:
        """Whether this process can read a child's memory, which the path check needs (Yama's ``ptrace_scope`` >= 2
        or another security module can forbid it): tried on a child forked for the purpose, then reaped."""
        wait, wake = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child only waits to be read, then exits
            try:
                os.close(wake)
                os.read(wait, 1)
            finally:
                os._exit(0)
        os.close(wait)
        try:
            return self._memory(child, ctypes.addressof(self._buffer), 1) is not None  # forked: its buffer too
        finally:
            os.close(wake)
            with contextlib.suppress(ChildProcessError):  # the template ignores SIGCHLD: its children reap themselves
                os.waitpid(child, 0)

    def adopt(self, pid: int, report: socket.socket, timeout: float) -> bool:
        """Take the listener the game process ``pid`` sends on ``report``; False if none came within ``timeout``."""
        report.settimeout(timeout)
        try:
            _, fds, _, _ = socket.recv_fds(report, 1, 1)
        except OSError:
            return False
        if not fds:
            return False
        self.listeners[fds[0]] = pid
        self.poll.register(fds[0], select.POLLIN)
        if self._memory(pid, ctypes.addressof(self._buffer), 1) is None:  # forked from here: the buffer is its too
            self.blind.add(fds[0])
        return True

    def arm(self, pid: int) -> bool:
        """From now on every sealed syscall of ``pid`` is refused (EACCES); False if no listener of ``pid`` is held."""
        found = [fd for fd, owner in self.listeners.items() if owner == pid]
        self.armed.update(found)
        return bool(found)

    def _drop(self, fd: int) -> None:
        self.poll.unregister(fd)
        self.listeners.pop(fd, None)
        self.armed.discard(fd)
        self.blind.discard(fd)
        os.close(fd)

    def _answer(self, fd: int) -> None:
        request = bytearray(_NOTIF.size)
        try:
            import fcntl

            fcntl.ioctl(fd, _IOCTL_RECV, request, True)
            notification, pid, _, data = _NOTIF.unpack(request)
            if fd in self.armed:
                allowed = False
            elif fd in self.blind:
                allowed = True
            else:
                try:
                    allowed = self._path_allowed(pid, data)
                except (OSError, ValueError, TypeError, struct.error):  # what it cannot tell: refused, not a crash
                    allowed = False
                if _NUMBER.unpack_from(data)[0] in self.paths:
                    # what was read from the process must still be the waiting call's (not interrupted meanwhile)
                    fcntl.ioctl(fd, _ID_VALID, bytearray(struct.pack("=Q", notification)), True)
            response = bytearray(_RESPONSE.pack(notification, 0, 0 if allowed else -errno.EACCES,
                                                _CONTINUE if allowed else 0))
            fcntl.ioctl(fd, _IOCTL_SEND, response, True)
        except OSError:  # ENOENT: the syscall was interrupted (a signal), or its process died meanwhile
            pass

    def serve_until(self, ready: int) -> None:
        """Answer the game processes' notifications until the descriptor ``ready`` (the control socket) is readable.

        A listener whose game processes have all ended reports a hang-up and is closed.
        """
        self.poll.register(ready, select.POLLIN)
        try:
            while True:
                events = self.poll.poll()
                for fd, event in events:
                    if fd != ready and event & select.POLLIN:
                        self._answer(fd)
                    elif fd != ready and event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                        self._drop(fd)
                if any(fd == ready for fd, _ in events):
                    return
        finally:
            self.poll.unregister(ready)

    def descriptors(self) -> list[int]:
        """The listeners held: a game process forked from the template closes them before any student code runs."""
        return list(self.listeners)
