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
cannot learn a roll while one of its syscalls waits or runs.  The answer depends on no argument of the syscall,
so the time-of-check problem of ``SECCOMP_USER_NOTIF_FLAG_CONTINUE`` (seccomp_unotify(2): another thread
rewriting a path after it was checked) does not arise: nothing is checked.  If the template dies, the kernel
fails every such syscall with ENOSYS (no listener), and the game process dies with it (its parent-death signal).

Linux only, and only where seccomp is; :func:`seal_available` says whether this kernel has user notification.
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import socket
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
_READS = ("read", "pread64", "readv", "preadv", "preadv2", "getdents64")
_MAP_ANONYMOUS = 0x20


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


class Sealer:
    """The template's side of the seal: the listeners of its game processes, answered "continue" until armed,
    then EACCES."""

    def __init__(self) -> None:
        self.listeners: dict[int, int] = {}
        """Listener descriptor -> the game process's pid."""
        self.armed: set[int] = set()
        self.poll = select.poll()

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
        os.close(fd)

    def _answer(self, fd: int) -> None:
        request = bytearray(_NOTIF.size)
        try:
            import fcntl

            fcntl.ioctl(fd, _IOCTL_RECV, request, True)
            (notification,) = struct.unpack_from("=Q", request)
            armed = fd in self.armed
            response = bytearray(_RESPONSE.pack(notification, 0, -errno.EACCES if armed else 0,
                                                0 if armed else _CONTINUE))
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
