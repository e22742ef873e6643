"""Dice across runs: a strategy that has seen a roll leaves no mark that a later run with the same seed could read.

Two runs with one seed deal the same dice.  A strategy of the first run that read a chosen never-read file for
each roll it saw (its access time changes), or followed a chosen symbolic link (so does the link's), or left a
System V message queue, would tell a strategy of the second run its dice before they are rolled.  A game process
is sealed once its strategy is loaded (``walls.seal``): these attacks, as a student would write them, leave the
files' times as they were.  See docs/threat-model.md.
"""

from __future__ import annotations

import ctypes
import errno
import os
import socket
import sys
from pathlib import Path

import pytest

from amoeboid_edu.lab import score
from amoeboid_edu.sandbox.walls import SEALED_IMPORT

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the seal's filter is Linux's")
QUICK = dict(games=2, seed=1, opponents=["random"], progress=False, per_move_limit=5.0, workers=1)
"""A short card played here (``workers=1``): the seal is the game process's, whoever runs the card."""
OLD = (1_000_000, 2_000_000)
"""Access time before modification time: the next read updates it, even under ``relatime``."""

WRITER = '''
import os
from amoeboid_edu import legal_turns

MARKS = {marks!r}


def strategy(position, roll, rng):
    for attempt in (lambda: open(os.path.join(MARKS, f"file{{roll}}")).read(),
                    lambda: os.stat(os.path.join(MARKS, f"link{{roll}}")),
                    lambda: os.readlink(os.path.join(MARKS, f"link{{roll}}"))):
        try:
            attempt()
        except OSError:
            pass
    return next(iter(legal_turns(position, roll)))
'''


def test_a_strategy_leaves_no_access_time_for_a_later_run(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    probe = tmp_path / "probe"
    probe.write_text("x")
    os.utime(probe, OLD)
    probe.read_text()
    if probe.stat().st_atime == OLD[0]:
        pytest.skip("this file system keeps no access times (noatime)")
    for roll in range(1, 7):
        (marks / f"file{roll}").write_text("never read")
        os.utime(marks / f"file{roll}", OLD)
        (marks / f"link{roll}").symlink_to(marks / "target")
        os.utime(marks / f"link{roll}", OLD, follow_symlinks=False)
    (marks / "target").write_text("")
    (tmp_path / "writer.py").write_text(WRITER.format(marks=str(marks)))
    card = score(f"{tmp_path / 'writer.py'}:strategy", **QUICK)
    assert card.forfeits().empty, card.forfeits()
    touched = [name.name for name in marks.iterdir()
               if name.name != "target" and name.lstat().st_atime != OLD[0]]
    assert touched == [], f"marks left during the games: {touched}"


def test_an_import_during_a_game_says_to_import_at_the_top(tmp_path):
    (tmp_path / "late.py").write_text('''
def strategy(position, roll, rng):
    import xml.dom.minidom
    raise AssertionError("imported")
''')
    frame = score(f"{tmp_path / 'late.py'}:strategy", **QUICK).to_frame()
    assert set(frame["reason"]) == {"exception"}, frame[["reason", "value"]]
    assert (frame["value"] == "ImportError: " + SEALED_IMPORT.format(name="xml")).all(), frame["value"].iloc[0]
    assert frame["message"].str.endswith("line 3 of late.py: import xml.dom.minidom").all(), frame["message"].iloc[0]


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="raw syscall numbers of x86_64")
def test_no_state_outlives_a_sealed_game(tmp_path):
    """System V IPC, POSIX message queues and keyrings: refused during a game, so none carries a roll onward."""
    (tmp_path / "keeper.py").write_text('''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)

def strategy(position, roll, rng):
    results = []
    for name, number, args in (("msgget", 68, (0x5EA1 + roll, 0o1600)), ("shmget", 29, (0x5EA1 + roll, 4096, 0o1600)),
                               ("semget", 64, (0x5EA1 + roll, 1, 0o1600)), ("mq_open", 240, (b"amoeboid", 0o100, 0o600, 0)),
                               ("add_key", 248, (b"user", b"amoeboid", b"1", 1, -3)),
                               ("open", 2, (os.path.abspath(__file__).encode(), 0))):
        ctypes.set_errno(0)
        done = libc.syscall(number, *args)
        results.append(f"{name} {os.strerror(ctypes.get_errno()) if done == -1 else 'done'}")
    raise RuntimeError(", ".join(results))
''')
    frame = score(f"{tmp_path / 'keeper.py'}:strategy", **QUICK).to_frame()
    values = set(frame["value"])
    assert len(values) == 1, values
    assert all(not part.endswith("done") for part in values.pop().split(", ")), frame["value"].iloc[0]


KEEP_OPEN = """
_close = os.close
def _close_but_ours(fd):
    if fd not in KEPT.values() and fd != ELSEWHERE:
        try:
            _close(fd)
        except OSError:
            pass
os.close = _close_but_ours
os.closerange = lambda low, high: [os.close(fd) for fd in range(low, min(high, 1024))] and None"""
"""The descriptors the strategy opened (and its own copy of the game socket) survive the seal's closing."""

DISARMS = {
    # what the third red team did at import, one way each: the seal was the game process's own code and state
    "sealed-list": "from amoeboid_edu.sandbox import walls\nwalls._SEALED = ()",
    "platform": "from amoeboid_edu.sandbox import walls\nwalls.WALLS_PLATFORM = False",
    "closerange": KEEP_OPEN,
    "pyseccomp": "import pyseccomp\npyseccomp.SyscallFilter.load = lambda self: None",
    # keep the files, move the game socket elsewhere and play there: then a kept file can take the socket's
    # descriptor, whose reads a seal must let through
    "dup2": (KEEP_OPEN + "\nimport gc, socket\nfrom amoeboid_edu.sandbox import worker\n"
             "GAME = next(found.fileno() for found in gc.get_objects() "
             "if isinstance(found, socket.socket) and found.fileno() >= 0)\n"
             "ELSEWHERE = os.dup(GAME)\n"
             "_play = worker._play\n"
             "worker._play = lambda sock, *rest: _play(socket.socket(fileno=ELSEWHERE), *rest)"),
    "gc": ("import gc\n"
           "for found in gc.get_objects():\n"
           "    if callable(found) and getattr(found, '__module__', '') == 'amoeboid_edu.sandbox.walls' "
           "and getattr(found, '__name__', '') == 'seal':\n"
           "        found.__code__ = (lambda keep, walls: True).__code__"),
}

DISARMER = '''
import ctypes, mmap, os
from amoeboid_edu import legal_turns

MARKS = {marks!r}
KEPT = {{roll: os.open(os.path.join(MARKS, f"kept{{roll}}"), os.O_RDONLY) for roll in range(1, 7)}}
MAPPED = {{roll: os.open(os.path.join(MARKS, f"mapped{{roll}}"), os.O_RDONLY) for roll in range(1, 7)}}
KEPT.update({{-roll: fd for roll, fd in MAPPED.items()}})
libc = ctypes.CDLL(None, use_errno=True)
GAME = ELSEWHERE = None
{disarm}


def through_the_game_socket(roll):
    if GAME is not None:
        os.dup2(KEPT[roll], GAME)
        os.read(GAME, 1)


def strategy(position, roll, rng):
    for attempt in (lambda: open(os.path.join(MARKS, f"file{{roll}}")).read(),
                    lambda: os.read(KEPT[roll], 1),
                    lambda: mmap.mmap(MAPPED[roll], 1, prot=mmap.PROT_READ),
                    lambda: os.listdir(os.path.join(MARKS, f"folder{{roll}}")),
                    lambda: os.stat(os.path.join(MARKS, f"link{{roll}}")),
                    lambda: libc.msgget({key} + roll, 0o1600),
                    lambda: through_the_game_socket(roll)):
        try:
            attempt()
        except (OSError, ValueError):
            pass
    return next(iter(legal_turns(position, roll)))
'''
KEY = 0x5EA1_7000


def _never_read_marks(folder: Path) -> None:
    probe = folder.parent / "probe"
    probe.write_text("x")
    os.utime(probe, OLD)
    probe.read_text()
    if probe.stat().st_atime == OLD[0]:
        pytest.skip("this file system keeps no access times (noatime)")
    folder.mkdir()
    (folder / "target").write_text("")
    for roll in range(1, 7):
        for name in ("file", "kept", "mapped"):
            (folder / f"{name}{roll}").write_text("never read")
            os.utime(folder / f"{name}{roll}", OLD)
        (folder / f"folder{roll}").mkdir()
        (folder / f"folder{roll}" / "inside").write_text("")
        os.utime(folder / f"folder{roll}", OLD)
        (folder / f"link{roll}").symlink_to(folder / "target")
        os.utime(folder / f"link{roll}", OLD, follow_symlinks=False)


def _queues_left(libc: ctypes.CDLL) -> list[int]:
    """The message queues of ``KEY + roll`` that exist now (each removed, so that no run leaves one behind)."""
    found = []
    for roll in range(1, 7):
        queue = libc.msgget(KEY + roll, 0)
        if queue != -1:
            found.append(roll)
            libc.msgctl(queue, 0, None)  # IPC_RMID
    return found


@pytest.mark.parametrize("disarm", DISARMS)
def test_a_strategy_that_disarms_its_own_process_at_import_still_leaves_no_mark(tmp_path, disarm, monkeypatch):
    """The seal is kept by the template: nothing the strategy's import changes in the game process takes it down.

    Each way of disarming the seal the third red team found, then after every roll seen: read a never-read file,
    read and map files opened during the import, list a never-read folder, follow a link, make a message queue.
    The strategy is a module on the caller's import path, so its folder (and the marks in it) is readable to it.
    """
    monkeypatch.syspath_prepend(str(tmp_path))
    marks = tmp_path / "marks"
    _never_read_marks(marks)
    libc = ctypes.CDLL(None, use_errno=True)
    _queues_left(libc)
    (tmp_path / "disarms.py").write_text(DISARMER.format(marks=str(marks), key=KEY, disarm=DISARMS[disarm]))
    card = score("disarms:strategy", **QUICK)
    touched = [name.name for name in sorted(marks.iterdir())
               if name.name != "target" and name.lstat().st_atime != OLD[0]]
    assert touched == [], f"marks left during the games: {touched}"
    assert _queues_left(libc) == []
    assert card.forfeits().empty, card.forfeits()  # it played (and so saw rolls) as it meant to
    assert "seal" in card.records[0].isolation.split(" + "), card.records[0].isolation


def test_with_no_one_keeping_the_seal_its_syscalls_fail(tmp_path):
    """If the template that keeps a game process's seal dies, the kernel fails the sealed syscalls (ENOSYS): they
    never pass unanswered."""
    from amoeboid_edu.sandbox import seal as _seal

    if not _seal.seal_available():
        pytest.skip("this kernel has no seccomp user notification")
    program = _seal.seal_program()
    assert program is not None
    (tmp_path / "file").write_text("x")
    ours, theirs = socket.socketpair()
    child = os.fork()
    if child == 0:
        code = 3
        try:
            ours.close()
            ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, as a worker has
            _seal.load_seal(program, theirs)
            theirs.recv(1)  # the listener has been closed
            try:
                os.open(tmp_path / "file", os.O_RDONLY)
                code = 1
            except OSError as error:
                code = 0 if error.errno == errno.ENOSYS else 2
        finally:
            os._exit(code)
    theirs.close()
    _, fds, _, _ = socket.recv_fds(ours, 1, 1)
    for fd in fds:
        os.close(fd)
    ours.send(b"g")
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
