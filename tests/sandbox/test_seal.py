"""Dice across runs: a strategy that has seen a roll leaves no mark that a later run with the same seed could read.

Two runs with one seed deal the same dice.  A strategy of the first run that read a chosen never-read file for
each roll it saw (its access time changes), or followed a chosen symbolic link (so does the link's), or left a
System V message queue, would tell a strategy of the second run its dice before they are rolled.  A game process
is sealed once its strategy is loaded (``walls.seal``): these attacks, as a student would write them, leave the
files' times as they were.  See docs/threat-model.md.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from amoeboid_edu.lab import score
from amoeboid_edu.sandbox.walls import SEALED_IMPORT

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the seal's filter is Linux's")
QUICK = dict(games=2, seed=1, opponents=["random"], progress=False, per_move_limit=5.0)
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
