"""procfs while a strategy imports: a game process still importing cannot look at another's descriptors.

A sealed game process may ``dup`` and ``close`` its own descriptors at a rate set by the rolls it has seen, and
``stat("/proc/<pid>/fd/N")`` shows them to any process of the same user (Landlock does not cover ``stat``, nor
``open(O_PATH)``).  A game process of the same run still importing is unsealed: what it read there it could leave
as marks for a later run with the same seed (red team 8).  So the template refuses every path an importing game
process names that leads into procfs, however it is spelled (``sandbox/seal.py``), and lets everything else
through.  Here the template's part is played by this process (a :class:`Sealer` answering game processes forked
from here, each loading the seal as a game process does), and once through ``lab.score``.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import signal
import socket
import sys
import time
from typing import Any, Callable

import pytest

from amoeboid_edu.lab import score

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the seal's filter is Linux's")
QUICK = dict(games=2, seed=1, opponents=["random"], progress=False, per_move_limit=5.0, workers=1)


def _seal_module() -> Any:
    from amoeboid_edu.sandbox import seal

    if not seal.seal_available():
        pytest.skip("this kernel has no seccomp user notification")
    return seal


def _fork_sealed(seal: Any, sealer: Any, body: Callable[[], object], results: int | None) -> int:
    """A child that loads the seal (as a game process does, before any student code) and hands its listener to
    ``sealer``, then runs ``body``; what ``body`` returns is written as JSON on ``results``.  Its pid."""
    program = seal.seal_program()
    assert program is not None
    ours, theirs = socket.socketpair()
    child = os.fork()
    if child == 0:
        code = 1
        try:
            ours.close()
            ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, as a worker has
            seal.load_seal(program, theirs)
            answer = body()
            if results is not None:
                os.write(results, json.dumps(answer).encode())
            code = 0
        finally:
            os._exit(code)
    theirs.close()
    assert sealer.adopt(child, ours, 5.0)
    ours.close()
    return child


def _attempt(call: Callable[[], object]) -> str:
    try:
        call()
    except OSError as error:
        return errno.errorcode.get(error.errno or 0, str(error.errno))
    return "done"


def _importing(seal: Any, probes: Callable[[], dict[str, str]],
               holder: Callable[[], object] | None = None) -> dict[str, str]:
    """What ``probes`` found in an importing game process (its Sealer not armed); with ``holder``, a sealed game
    process runs it first (armed before the importing one starts) and its pid is in ``os.environ["HOLDER"]``."""
    sealer = seal.Sealer(seal.procfs_mounts())
    held = None
    if holder is not None:
        held = _fork_sealed(seal, sealer, holder, None)
        assert sealer.arm(held)
        os.environ["HOLDER"] = str(held)
    read_end, write_end = os.pipe()
    try:
        child = _fork_sealed(seal, sealer, probes, write_end)
        os.close(write_end)
        sealer.serve_until(read_end)
        found = json.loads(os.read(read_end, 1 << 16) or b"{}")
        os.waitpid(child, 0)
    finally:
        os.environ.pop("HOLDER", None)
        os.close(read_end)
        if held is not None:
            os.kill(held, signal.SIGKILL)
            os.waitpid(held, 0)
        for fd in sealer.descriptors():
            sealer._drop(fd)
    assert found, "the importing game process reported nothing"
    return found


def _hold_descriptors() -> None:
    """A sealed game process's part in red team 8's attack: descriptors held (as a rate of dup and close would
    leave them), then nothing."""
    for fd in range(40, 46):
        os.dup2(2, fd)
    time.sleep(60)


def test_an_importing_game_process_cannot_stat_another_ones_descriptors(tmp_path):
    """Red team 8: the sealed process holds descriptors; the importing one reads its fd table every way it can
    be spelled.  Each is refused (EACCES)."""
    seal = _seal_module()
    (tmp_path / "folder").mkdir()
    (tmp_path / "to-self").symlink_to("/proc/self")
    (tmp_path / "folder" / "up").symlink_to("../../../../../../../../../../proc")

    def probes() -> dict[str, str]:
        holder = int(os.environ["HOLDER"])
        fds = f"/proc/{holder}/fd"
        folder = os.open(tmp_path / "folder", os.O_RDONLY | os.O_DIRECTORY)

        def through_opath() -> None:
            opened = os.open(fds, os.O_PATH)
            os.stat("40", dir_fd=opened)

        def through_fchdir() -> None:
            opened = os.open(fds, os.O_PATH | os.O_DIRECTORY)
            os.fchdir(opened)
            os.stat("40")

        def through_chdir() -> None:
            os.chdir(fds)
            os.stat("40")

        def access() -> None:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.access(f"{fds}/40".encode(), os.F_OK) != 0:
                raise OSError(ctypes.get_errno(), "access")

        def from_the_root() -> None:
            os.chdir("/")
            os.stat(f"proc/{holder}/fd/40")

        return {
            "stat /proc/<pid>/fd/N": _attempt(lambda: os.stat(f"{fds}/40")),
            "lstat /proc/<pid>/fd/N": _attempt(lambda: os.lstat(f"{fds}/40")),
            "readlink /proc/<pid>/fd/N": _attempt(lambda: os.readlink(f"{fds}/40")),
            "stat /proc/<pid>/fd (its size)": _attempt(lambda: os.stat(fds)),
            "/proc/<pid>/fdinfo/N": _attempt(lambda: os.stat(f"/proc/{holder}/fdinfo/40")),
            "access /proc/<pid>/fd/N": _attempt(access),
            "open /proc/<pid>/fd": _attempt(lambda: os.open(fds, os.O_RDONLY | os.O_DIRECTORY)),
            "//proc": _attempt(lambda: os.stat(f"//proc/{holder}/fd/40")),
            "/./proc/../proc": _attempt(lambda: os.stat(f"/./proc/../proc/{holder}/fd/40")),
            "O_PATH dirfd + fstatat": _attempt(through_opath),
            "fchdir + relative stat": _attempt(through_fchdir),
            "chdir + relative stat": _attempt(through_chdir),
            "relative to the root": _attempt(from_the_root),
            "dirfd + ..": _attempt(lambda: os.stat(f"../../../../../../../../../../proc/{holder}/fd/40",
                                                   dir_fd=folder)),
            "a link to /proc/self": _attempt(lambda: os.stat(tmp_path / "to-self" / "fd" / "2")),
            "a relative link to /proc": _attempt(lambda: os.stat(tmp_path / "folder" / "up" / str(holder))),
        }

    found = _importing(seal, probes, _hold_descriptors)
    assert {what: answer for what, answer in found.items() if answer != "EACCES"} == {}


def test_an_importing_game_process_cannot_stat_its_own_descriptors(tmp_path):
    """Its own fd table: ``lstat("/proc/self/fd/N")`` tells the inode number of a pipe, from a counter every
    process on the machine shares; ``/dev/fd`` is a link into it.  A path it cannot read is refused too."""
    seal = _seal_module()

    def probes() -> dict[str, str]:
        libc = ctypes.CDLL(None, use_errno=True)
        buffer = ctypes.create_string_buffer(256)

        def unreadable_path() -> None:
            if libc.statfs(ctypes.c_void_p(8), buffer) != 0:
                raise OSError(ctypes.get_errno(), "")

        def raw(number: int, *args: object) -> Callable[[], None]:
            def call() -> None:
                libc.syscall.restype = ctypes.c_long
                if libc.syscall(number, *args) < 0:
                    raise OSError(ctypes.get_errno(), "")
            return call

        at_fdcwd = ctypes.c_int(-100)
        how = (ctypes.c_uint64 * 3)(os.O_PATH, 0, 0)  # struct open_how: flags, mode, resolve
        x86_64 = {
            "openat2 (O_PATH)": raw(437, at_fdcwd, b"/proc/self/fd/0", ctypes.byref(how), ctypes.c_size_t(24)),
            "statx": raw(332, at_fdcwd, b"/proc/self/fd/0", ctypes.c_int(0), ctypes.c_uint(0x7FF), buffer),
        } if os.uname().machine == "x86_64" else {}
        return {**{name: _attempt(call) for name, call in x86_64.items()},
            "/proc/self/fd/N": _attempt(lambda: os.lstat("/proc/self/fd/2")),
            "/proc/thread-self/fd/N": _attempt(lambda: os.stat("/proc/thread-self/fd/2")),
            "/proc/self (statfs)": _attempt(lambda: os.statvfs("/proc/self")),
            "/proc": _attempt(lambda: os.stat("/proc")),
            "/dev/fd/N": _attempt(lambda: os.stat("/dev/fd/2")),
            "/dev/stdin": _attempt(lambda: os.stat("/dev/stdin")),
            "open /dev/fd/N": _attempt(lambda: os.open("/dev/fd/0", os.O_RDONLY)),
            "a path at an unmapped address": _attempt(unreadable_path),
        }

    found = _importing(seal, probes)
    assert {what: answer for what, answer in found.items() if answer != "EACCES"} == {}


def test_an_importing_game_process_cannot_reach_procfs_from_a_folder_deeper_than_path_max(tmp_path):
    """Red team 11: the kernel walks a path relative to a descriptor however deep its folder lies, while the
    template's walk of its real path (over ``PATH_MAX``) fails: that failure refuses the call."""
    seal = _seal_module()
    name = "A" * 255
    folder = os.open(tmp_path, os.O_PATH | os.O_DIRECTORY)
    for _ in range(17):  # about 4,350 bytes of real path: more than the 4,095 a path may have
        os.mkdir(name, dir_fd=folder)
        folder = os.open(name, os.O_PATH | os.O_DIRECTORY, dir_fd=folder)
    up = "../" * 40 + "../" * len(tmp_path.parts)  # more than enough: '..' at the root stays there

    def probes() -> dict[str, str]:
        here = os.open(tmp_path, os.O_PATH | os.O_DIRECTORY)
        found = {}
        for level in range(17):  # at some level the next name makes the real path too long for the template
            for what, call in (("stat /proc/self/fd/N", os.stat), ("lstat /proc", os.lstat)):
                target = "proc/self/fd/2" if call is os.stat else "proc"
                answer = _attempt(lambda: call(f"{name}/{up}{target}", dir_fd=here))
                if answer != "EACCES" or what not in found:
                    found[what] = f"{answer} at level {level}" if answer != "EACCES" else answer
            try:
                here = os.open(name, os.O_PATH | os.O_DIRECTORY, dir_fd=here)
            except OSError:
                break  # refused further down: nothing deeper to try from
        return found

    found = _importing(seal, probes)
    assert found == {"stat /proc/self/fd/N": "EACCES", "lstat /proc": "EACCES"}, found


def test_the_template_reads_a_link_again_at_every_walk(tmp_path):
    """Red team 11: a link the template had read once was kept, so a process outside the run could point it at
    /proc afterwards.  Nothing is remembered now (a change made during a walk is a race: docs/threat-model.md)."""
    seal = _seal_module()
    sealer = seal.Sealer(seal.procfs_mounts())
    link = tmp_path / "link"
    link.symlink_to("/usr")
    assert not sealer._reaches_procfs(b"/", bytes(link) + b"/lib", True)
    link.unlink()
    link.symlink_to("/proc")
    assert sealer._reaches_procfs(b"/", bytes(link) + b"/self", True)


def test_an_importing_game_process_still_reaches_everything_else(tmp_path):
    """Outside procfs the kernel answers as without the seal: a file, a link itself (``lstat``, ``readlink``,
    ``O_NOFOLLOW``), its own descriptors (``fstat``), the kernel's own error for a missing name."""
    seal = _seal_module()
    (tmp_path / "file").write_text("x")
    (tmp_path / "to-proc").symlink_to("/proc/self")

    def probes() -> dict[str, str]:
        opened = os.open(tmp_path / "file", os.O_RDONLY)
        folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        return {
            "stat a file": _attempt(lambda: os.stat(tmp_path / "file")),
            "a file through .. and //": _attempt(lambda: os.stat(f"{tmp_path}//../{tmp_path.name}/./file")),
            "relative to a folder": _attempt(lambda: os.stat("file", dir_fd=folder)),
            "fstat": _attempt(lambda: os.fstat(opened)),
            "lstat a link to /proc": _attempt(lambda: os.lstat(tmp_path / "to-proc")),
            "readlink a link to /proc": _attempt(lambda: os.readlink(tmp_path / "to-proc")),
            "lstat /dev/fd": _attempt(lambda: os.lstat("/dev/fd")),
            "missing": _attempt(lambda: os.stat(tmp_path / "missing" / "x")),
        }

    found = _importing(seal, probes)
    assert found == {"stat a file": "done", "a file through .. and //": "done", "relative to a folder": "done",
                     "fstat": "done", "lstat a link to /proc": "done", "readlink a link to /proc": "done",
                     "lstat /dev/fd": "done", "missing": "ENOENT"}


PROBER = '''
import os
from amoeboid_edu import legal_turns


def attempt(call):
    try:
        call()
    except OSError as error:
        return error.strerror
    return "done"


template = os.getppid()
found = [attempt(lambda: os.stat(f"/proc/{template}/fd/0")), attempt(lambda: os.stat(f"/proc/{template}/fd")),
         attempt(lambda: os.lstat("/proc/self/fd/0")), attempt(lambda: os.stat("/dev/fd/0")),
         attempt(lambda: os.stat("0", dir_fd=os.open(f"/proc/{template}/fd", os.O_PATH)))]
raise RuntimeError("found: " + ", ".join(found))


def strategy(position, roll, rng):
    return next(iter(legal_turns(position, roll)))
'''


def test_a_strategy_cannot_read_descriptors_through_proc_while_it_imports(tmp_path):
    """Through ``lab.score``: a strategy's import looks at its template's descriptors and its own."""
    (tmp_path / "prober.py").write_text(PROBER)
    card = score(f"{tmp_path / 'prober.py'}:strategy", **QUICK)
    if "seal" not in card.records[0].isolation.split(" + "):
        pytest.skip(f"no seal here: {card.records[0].isolation}")
    values = set(card.to_frame()["value"])
    assert values == {"RuntimeError: found: " + ", ".join(["Permission denied"] * 5)}, values
    from amoeboid_edu.sandbox.seal import PATHS_UNCHECKED

    assert PATHS_UNCHECKED not in card.records[0].isolation  # the check held, and the card does not deny it


def test_the_card_names_a_seal_whose_paths_cannot_be_checked(monkeypatch):
    """Where the template cannot read a child's memory (Yama's ptrace_scope >= 2, another security module), the
    seal holds without its path check, and the card says so."""
    from amoeboid_edu.sandbox import seal

    sealer = seal.Sealer(seal.procfs_mounts())
    reads = sealer.reads_children()
    assert seal.seal_walls(sealer) == (["seal"] if reads else ["seal", seal.PATHS_UNCHECKED])
    monkeypatch.setattr(sealer, "_memory", lambda pid, address, size: None)  # as such a kernel answers
    assert not sealer.reads_children()
    assert seal.seal_walls(sealer) == ["seal", seal.PATHS_UNCHECKED]


HONEST = '''
import random
import statistics

import numpy as np

from amoeboid_edu import legal_turns
from amoeboid_edu.players.strategy import candidate_turns

SCALE = np.linspace(0.0, 1.0, 5)


def strategy(position, roll, rng):
    turns = list(candidate_turns(position, roll)) or [next(iter(legal_turns(position, roll)))]
    statistics.mean(SCALE.tolist())
    return turns[random.Random(rng.random()).randrange(len(turns))]
'''


def test_an_honest_strategy_still_imports_and_plays(tmp_path):
    """NumPy, ``random``, ``statistics`` and the strategy helpers: loaded and played, no forfeit."""
    (tmp_path / "honest.py").write_text(HONEST)
    card = score(f"{tmp_path / 'honest.py'}:strategy", **QUICK)
    assert card.forfeits().empty, card.forfeits().to_dict("records")
