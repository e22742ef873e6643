"""Promises of a contest that hostile strategies tested from the outside (issue 23): the dice of a pair stay
secret from the twin game, a contest's cost is bounded, the same seed gives the same card.

See docs/threat-model.md.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from amoeboid_edu.lab import score
from amoeboid_edu.lab.records import PAIRED_DICE

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the walls are Linux's")

ROLLS = 6
MOVES = 260
"""Files the access-time channel needs: one per (move of the seat-A game, roll)."""

ACCESS_TIME_CHANNEL = '''
import os

CHANNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "channel")
MOVES = [0]


def wander(position, roll, rng):
    from amoeboid_edu import legal_move_pairs

    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'%s-%s' % rng.choice(pairs) if pairs else '-'}"


def play(position, roll, rng):
    """Seat A "writes" its k-th roll by reading the never-read file k-ROLL (ext4 relatime then sets its access
    time); seat B, in another process, "reads" them with stat.  Its j-th move is turn 2j + 1: a roll seat A saw
    at its move k > j is one the twin game has not dealt yet."""
    move = MOVES[0]
    MOVES[0] += 1
    if position.to_move == "A":
        try:
            with open(os.path.join(CHANNEL, f"{move}-{roll}"), "rb") as file:
                file.read(1)
        except OSError:
            pass
        return wander(position, roll, rng)
    seen = {}
    for name in os.listdir(CHANNEL):
        status = os.stat(os.path.join(CHANNEL, name))
        if status.st_atime > status.st_mtime:
            k, seen_roll = name.split("-")
            seen[int(k)] = int(seen_roll)
    ahead = sorted(k for k in seen if k > move)
    if ahead:
        raise RuntimeError(f"knew {len(ahead)} rolls ahead at move {move}")
    if move >= 1:
        raise RuntimeError(f"knew nothing ahead, and {len(seen)} rolls already dealt")
    return wander(position, roll, rng)
'''


def access_times_are_updated(folder: Path) -> bool:
    """Whether reading a file whose access time lies days in the past updates it here (relatime, strictatime)."""
    probe = folder / "probe"
    probe.write_bytes(b"x")
    past = time.time() - 3 * 86400
    os.utime(probe, (past, probe.stat().st_mtime))
    probe.read_bytes()
    updated = probe.stat().st_atime > past + 86400
    probe.unlink()
    return updated


def test_the_twin_game_learns_no_roll_ahead_through_access_times(tmp_path):
    """Found by the red team: the seat-A process of a dice pair read chosen never-read files, the seat-B process of
    the twin game stat'ed them later and knew 30 of 30 rolls of its own game before they were dealt."""
    if not access_times_are_updated(tmp_path):
        pytest.skip(f"the file system of {tmp_path} does not update access times (noatime?): the channel this test "
                    "attacks does not exist here, so it proves nothing")
    channel = tmp_path / "channel"
    channel.mkdir()
    past = time.time() - 3 * 86400
    for move in range(MOVES):
        for roll in range(1, ROLLS + 1):
            path = channel / f"{move}-{roll}"
            path.write_bytes(b"x")
            os.utime(path, (past, path.stat().st_mtime))
    (tmp_path / "twin.py").write_text(textwrap.dedent(ACCESS_TIME_CHANNEL))
    card = score(f"{tmp_path / 'twin.py'}:play", games=2, seed=7, opponents=["random"], progress=False,
                 per_move_limit=10.0)
    values = card.forfeits()["value"].tolist()
    assert values, "seat B never reached its second move: the game was too short to tell anything"
    assert not any("ahead at move" in value for value in values), values
    # sealed once loaded, neither seat can name a file during its game: seat A leaves nothing, seat B cannot look
    assert all(value.startswith("PermissionError") and "channel" in value for value in values), values
    assert f"dice: {PAIRED_DICE}" in str(card)


READINGS = '''
import ctypes
import os
import platform

GETCPU = {"x86_64": 309, "aarch64": 168}


def play(position, roll, rng):
    """Readings that change from run to run with nothing to seed them: each is refused, or the card would too."""
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(1024)
    cpu, node = ctypes.c_uint(), ctypes.c_uint()
    calls = {
        "sysinfo": lambda: libc.sysinfo(buffer),
        "getrusage": lambda: libc.getrusage(0, buffer),
        "getcpu": lambda: libc.syscall(GETCPU[platform.machine()], ctypes.byref(cpu), ctypes.byref(node), None),
    }
    found = []
    for name, call in calls.items():
        ctypes.set_errno(0)
        result = call()
        found.append(f"{name}: {result} {os.strerror(ctypes.get_errno()) if result else 'answered'}")
    raise RuntimeError("; ".join(found))
'''


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="the getcpu syscall's number is known "
                    "here for x86_64 and aarch64 only")
def test_uptime_resource_counters_and_the_processor_are_refused_so_they_cannot_change_a_card(tmp_path):
    """Found by the red team: moves chosen from getrusage counters, sysinfo or getcpu gave three cards for one seed."""
    (tmp_path / "readings.py").write_text(textwrap.dedent(READINGS))
    card = score(f"{tmp_path / 'readings.py'}:play", games=2, seed=3, opponents=["random"], progress=False,
                 per_move_limit=10.0)
    values = set(card.forfeits()["value"])
    assert values == {"RuntimeError: sysinfo: -1 Operation not permitted; getrusage: -1 Operation not permitted; "
                      "getcpu: -1 Operation not permitted"}, values


CRASHES = '''
import os
import time

time.sleep(0.2)  # a slow import, paid again by every game process that replaces one that died


def strategy(position, roll, rng):
    os._exit(3)  # the game process dies on its first move
'''
FIRST_LEGAL = '''
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(iter(legal_turns(position, roll)))
'''


def test_a_hostile_entrant_that_imports_slowly_and_crashes_costs_a_bounded_number_of_imports(tmp_path, monkeypatch):
    """Found by the red team: a tournament had no early stop, so such an entrant cost two imports a game (8 games with
    a 5 s import took 87 s; with 29 s imports about 100 minutes a pairing).  Now a pairing stops after
    SAME_FAILURE_STOP identical forfeits in a row, and an entrant that lost ENTRANT_BUDGET games with its import or
    game process is not played any more: its cost is bounded whatever the number of games and opponents."""
    from amoeboid_edu.lab import contest as lab
    from amoeboid_edu.lab.scoring import ENTRANT_BUDGET, NOT_PLAYED, SAME_FAILURE_STOP
    from amoeboid_edu.sandbox.harness import Sandbox

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "crasher.py").write_text(CRASHES)
    (folder / "honest.py").write_text(FIRST_LEGAL)
    imports = {"crasher": 0, "honest": 0}
    new_game = Sandbox._new_game

    def counted(self):
        imports["crasher" if b"os._exit(3)" in self.payload else "honest"] += 1
        return new_game(self)

    monkeypatch.setattr(Sandbox, "_new_game", counted)
    games = 12
    result = lab.tournament(str(folder), games=games, seed=5, opponents=["random", "greedy"], batch_pairs=2,
                            progress=False, out=tmp_path / "serial.csv")
    frame = result.to_frame()
    mine = frame[frame["player"] == "crasher"]
    assert len(mine) == 3 * games and (mine["forfeit"] == "player").all()
    assert set(mine["reason"]) == {"crash"}
    # two imports at most per game lost before each pairing stopped or the budget ran out; none after
    bound = 2 * (ENTRANT_BUDGET + SAME_FAILURE_STOP)
    assert imports["crasher"] <= bound < 2 * 3 * games, imports
    assert (mine["message"].str.startswith(NOT_PLAYED)).sum() >= 3 * games - bound
    others = frame[(frame["player"] != "crasher") & (frame["opponent"] != "crasher")]
    assert not others["message"].fillna("").str.startswith(NOT_PLAYED).any()

    # the same rows when the batches run in parallel (judged in their fixed order, not as they finish)
    monkeypatch.setattr(Sandbox, "_new_game", new_game)
    lab.tournament(str(folder), games=games, seed=5, opponents=["random", "greedy"], batch_pairs=2, progress=False,
                   out=tmp_path / "parallel.csv", executor="processes:2")
    assert (tmp_path / "parallel.csv").read_bytes() == (tmp_path / "serial.csv").read_bytes()
