"""Who becomes an entrant, and what each student folder may spend of a run's copy budget (issue 23, the ninth red
team): a folder the teacher cannot enter, junk folders that never load, folders that gain a ``strategy.py`` during
the run, a list of folders, and a bot named twice.  Each attack is made in ``tmp_path`` and run as a teacher would,
with ``games=2``."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from amoeboid_edu import lab
from amoeboid_edu.lab import roster
from amoeboid_edu.players.bots import greedy

GOOD = '''
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(legal_turns(position, roll))
'''


def _student_folder(folder: Path, size: int = 0) -> Path:
    """A student folder with a good ``strategy.py`` and ``size`` bytes of data (a sparse file: no block on disk)."""
    folder.mkdir()
    (folder / "strategy.py").write_text(GOOD)
    if size:
        with open(folder / "data.bin", "wb") as file:
            file.truncate(size)
    return folder


NOBODY = 65534


def _read_folder_without_access(folder: Path) -> dict[str, object]:
    """``read_folder(folder)`` by a user who may not enter the folders made mode 000: this process when it is not
    root; else a child forked from it that gives up root for user and group ``nobody`` (root enters any folder)."""
    if os.geteuid() != 0:
        sources, unread = roster.read_folder(folder)
        return {"sources": [source.name for source in sources], "unread": unread}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            sources, unread = roster.read_folder(folder)
            answer: dict[str, object] = {"sources": [source.name for source in sources], "unread": unread}
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which fails the test
            answer = {"error": f"{type(error).__name__}: {error}"}
        os.write(write, json.dumps(answer).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    if not data:
        pytest.skip("the child could not report (giving up root is not allowed here)")
    return json.loads(data)  # type: ignore[no-any-return]


def test_a_folder_the_teacher_cannot_enter_is_one_line_and_the_others_are_read():
    # B1: the fair-share count looked inside every folder outside any try: a classmate's folder of mode 0700 (another
    # owner) raised PermissionError, and the whole tournament ended with "internal error"
    place = Path(tempfile.mkdtemp())  # not under pytest's tmp_path, which only root may enter
    try:
        place.chmod(0o755)
        folder = place / "class"
        folder.mkdir(mode=0o755)
        (folder / "alice.py").write_text(GOOD)
        (folder / "alice.py").chmod(0o644)
        closed = _student_folder(folder / "mallory")
        roster.read_folder(folder)  # while it may be entered: what it imports (codecs too) is loaded before the fork
        closed.chmod(0o000)
        answer = _read_folder_without_access(folder)
    finally:
        (place / "class" / "mallory").chmod(0o700)
        shutil.rmtree(place)
    assert "error" not in answer, answer
    assert answer["sources"] == ["alice"]
    (name, reason), = answer["unread"]
    assert name == "mallory" and "Permission denied" in reason, answer


def test_folders_that_never_become_entrants_take_no_share_of_the_copy_budget(tmp_path, monkeypatch):
    # B2: the share was counted over every folder holding something called strategy.py, links followed: junk folders
    # that never load (a folder named j.py, a strategy.py that is a link, a hard link or a folder, a folder with a
    # link in it or over its size) shrank an honest folder's share until it did not load
    monkeypatch.setattr(roster, "RUN_BYTES", 2 * roster.MiB)
    folder = tmp_path / "class"
    folder.mkdir()
    _student_folder(folder / "zoe", roster.MiB)  # an honest folder within the budget, over a seventh of it
    _student_folder(folder / "j1.py")
    (folder / "j2").mkdir()
    (folder / "j2" / "strategy.py").symlink_to(folder / "zoe" / "strategy.py")
    (tmp_path / "elsewhere.py").write_text(GOOD)
    (folder / "j3").mkdir()
    os.link(tmp_path / "elsewhere.py", folder / "j3" / "strategy.py")
    (folder / "j4").mkdir()
    (folder / "j4" / "strategy.py").mkdir()
    _student_folder(folder / "j5")
    (folder / "j5" / "link").symlink_to(tmp_path / "elsewhere.py")
    _student_folder(folder / "j6", roster.FOLDER_BYTES + 1)  # over a folder's own limit (a hole: nothing on disk)
    result = lab.tournament(folder, games=2, seed=1, opponents=["random"], progress=False)
    assert set(result.names) == {"zoe", "random"}
    assert set(dict(result.not_loaded)) == {"j1", "j2", "j3", "j4", "j5", "j6"}


def test_folders_that_gain_a_strategy_during_the_run_are_not_copied(tmp_path, monkeypatch):
    # B3: a racer watching the class folder added strategy.py to folders after the share was counted; they were
    # copied all the same and spent the honest folders' budget, so the last folder was "not copied"
    monkeypatch.setattr(roster, "RUN_BYTES", 2 * roster.MiB)
    folder = tmp_path / "class"
    folder.mkdir()
    first = _student_folder(folder / "a1", roster.MiB - len(GOOD))
    for late in ("a2", "a3", "a4"):  # no strategy.py yet: not entrants when the run begins
        (folder / late).mkdir()
        with open(folder / late / "data.bin", "wb") as file:
            file.truncate(roster.MiB - len(GOOD))
    _student_folder(folder / "zed")
    watched, seen = first.stat().st_ino, []
    scandir = os.scandir

    def racer(place):  # the second time a1 is listed (its copy), the classmates' folders gain a strategy.py
        status = os.fstat(place) if isinstance(place, int) else os.stat(place)
        if status.st_ino == watched:
            seen.append(place)
            if len(seen) == 2:
                for late in ("a2", "a3", "a4"):
                    (folder / late / "strategy.py").write_text(GOOD)
        return scandir(place)

    monkeypatch.setattr(os, "scandir", racer)
    monkeypatch.setattr(os, "supports_fd", os.supports_fd | {racer})
    result = lab.tournament(folder, games=2, seed=1, opponents=["random"], progress=False)
    assert len(seen) >= 2, "the racer never ran"
    assert set(result.names) == {"a1", "zed", "random"}
    reasons = dict(result.not_loaded)
    assert set(reasons) == {"a2", "a3", "a4"}
    assert all("without strategy.py" in reason for reason in reasons.values()), reasons


def test_a_list_of_student_folders_shares_the_copy_budget(tmp_path, monkeypatch):
    # B4: a list's student folders were copied first come, first served, each up to a folder's own limit: the
    # first folders spent the run's budget and the last was "not copied"
    monkeypatch.setattr(roster, "RUN_BYTES", 2 * roster.MiB)
    for student in ("a1", "a2"):
        _student_folder(tmp_path / student, roster.MiB - len(GOOD))
    _student_folder(tmp_path / "zed", roster.MiB // 2)
    files = [str(tmp_path / student / "strategy.py") for student in ("a1", "a2", "zed")]
    result = lab.tournament(files, games=2, seed=1, opponents=["random"], progress=False)
    reasons = dict(result.not_loaded)
    assert len(result.names) == 2 and "random" in result.names, (result.names, reasons)
    assert len(reasons) == 2, reasons
    assert all("each folder's share of the class's 2 MiB" in reason for reason in reasons.values()), reasons


@pytest.mark.parametrize("strategies, opponents, where", [
    (["alice.py", "greedy", "greedy"], None, "twice in the strategies"),
    (["alice.py", "greedy"], ["greedy"], "in the strategies and in opponents="),
    (["alice.py", greedy, "greedy"], None, "twice in the strategies"),
    ({"alice": "alice.py", "g1": "greedy", "g2": "greedy"}, None, "twice in the strategies"),
])
def test_a_bot_named_twice_across_the_lists_is_refused_in_one_line(tmp_path, monkeypatch, strategies, opponents,
                                                                     where):  # fmt: skip
    # B5: a bot named twice (in the strategies, or there and in opponents=) played two entrants with the same dice,
    # so its games counted twice
    (tmp_path / "alice.py").write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as refused:
        lab.tournament(strategies, games=2, seed=1, opponents=opponents, progress=False)
    message = str(refused.value)
    assert "\n" not in message and "'greedy'" in message and where in message, message
    assert "name each bot once" in message
