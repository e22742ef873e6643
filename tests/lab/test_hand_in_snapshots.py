"""What a class folder can do to a contest after the roster is read, and what trusted code takes from it.

- A student folder swapped for a link during the run: workers read the run's own copy, made when the roster was read.
- A hand-in too big to read: one "did not load" line naming its size and the limit; the tournament goes on.
- A class folder inside an editable checkout: the checkout is not readable to strategies, only the package in it.
- A classmate's module named after an optional package that is missing: never taken by the lab's own imports.

See docs/threat-model.md.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from amoeboid_edu import lab
from amoeboid_edu.lab import entrants, roster
from amoeboid_edu.lab.roster import NOTEBOOK_LIMIT, SOURCE_LIMIT, read_folder
from amoeboid_edu.sandbox.importpath import THIRD_PARTY

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "amoeboid_edu"

GOOD = '''
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(iter(legal_turns(position, roll)))
'''

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the walls are Linux's")


@pytest.fixture
def swappable_class(tmp_path: Path) -> tuple[Path, Path]:
    """A class folder (mallory's student folder, whose ``strategy.py`` imports her helper module beside it, and
    ``bob.py``) and a folder ``elsewhere`` of the same shape whose helper fails at import: a run that reads mallory's
    folder after it is swapped for a link to ``elsewhere`` shows as her forfeits."""
    folder, elsewhere = tmp_path / "class", tmp_path / "elsewhere"
    (folder / "mallory").mkdir(parents=True)
    elsewhere.mkdir()
    (folder / "mallory" / "strategy.py").write_text("from mallory_helper import strategy\n")
    (folder / "mallory" / "mallory_helper.py").write_text(GOOD)
    (elsewhere / "strategy.py").write_text("from mallory_helper import strategy\n")
    (elsewhere / "mallory_helper.py").write_text("raise RuntimeError('read from the swapped-in folder')\n")
    (folder / "bob.py").write_text(GOOD)
    return folder, elsewhere


def test_a_student_folder_swapped_for_a_link_after_the_roster_is_read_plays_what_was_handed_in(swappable_class,
                                                                                               tmp_path, monkeypatch):
    folder, elsewhere = swappable_class
    read = entrants.read_folder

    def read_then_swap(*args, **kwargs):
        found = read(*args, **kwargs)
        (folder / "mallory").rename(tmp_path / "handed-in")
        (folder / "mallory").symlink_to(elsewhere, target_is_directory=True)
        return found

    monkeypatch.setattr(entrants, "read_folder", read_then_swap)
    result = lab.tournament(folder, games=2, seed=1, progress=False)
    assert set(result.names) == {"mallory", "bob"} and not result.not_loaded
    assert result.forfeits().empty, result.forfeits()


def test_the_copies_of_student_folders_are_private_and_gone_after_the_run(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    (folder / "nina").mkdir(parents=True)
    (folder / "nina" / "strategy.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    seen = []
    read = entrants.read_folder

    def read_and_look(*args, **kwargs):
        sources, unread = read(*args, **kwargs)
        copy = Path(next(source.filename for source in sources if source.folder)).parents[2]
        seen.append((copy, copy.stat().st_mode & 0o777))
        return sources, unread

    monkeypatch.setattr(entrants, "read_folder", read_and_look)
    lab.tournament(folder, games=2, seed=1, progress=False)
    [(copy, mode)] = seen
    assert mode == 0o700 and not copy.is_relative_to(folder) and not copy.exists()


def test_a_hand_in_over_its_size_limit_is_one_did_not_load_line_and_the_tournament_goes_on(tmp_path):
    folder = tmp_path / "class"
    (folder / "hoarder").mkdir(parents=True)
    (folder / "bob.py").write_text(GOOD)
    (folder / "carol.py").write_text(GOOD)
    (folder / "big.py").write_text(GOOD + "#" * SOURCE_LIMIT)
    notebook = {"cells": [{"cell_type": "code", "metadata": {"tags": ["strategy"]}, "source": GOOD,
                           "outputs": [{"output_type": "stream", "text": "x" * NOTEBOOK_LIMIT}]}]}
    (folder / "huge.ipynb").write_text(json.dumps(notebook))
    (folder / "hoarder" / "strategy.py").write_text(GOOD)
    for part in range(17):
        (folder / "hoarder" / f"data{part}.bin").write_bytes(b"\0" * (1 << 20))
    with roster.hand_in_snapshots() as snapshot:
        sources, unread = read_folder(folder, snapshot)
    reasons = dict(unread)
    assert [source.name for source in sources] == ["bob", "carol"]
    assert reasons["big"].startswith("big.py is 1.0 MiB; the limit is 1 MiB"), reasons
    assert reasons["huge"].startswith("huge.ipynb is 8.0 MiB; the limit is 8 MiB"), reasons
    assert "the limit is 16 MiB" in reasons["hoarder"], reasons
    result = lab.tournament(folder, games=2, seed=1, progress=False)
    assert set(result.names) == {"bob", "carol"} and {name for name, _ in result.not_loaded} == set(reasons)


SNOOP = '''
from amoeboid_edu import legal_turns

try:  # at its import: once its game has started it may open nothing
    TEXT = open({path!r}).read()
except OSError:
    TEXT = ""


def strategy(position, roll, rng):
    if TEXT:
        raise RuntimeError("read " + TEXT)
    return next(iter(legal_turns(position, roll)))
'''


@linux_only
def test_a_class_folder_inside_an_editable_checkout_is_not_readable_to_strategies():
    if not (REPO / "pyproject.toml").exists() or Path(lab.__file__).resolve().parents[2] != REPO:
        pytest.skip("amoeboid_edu is not run from this checkout")
    folder = Path(tempfile.mkdtemp(prefix=".class-", dir=REPO))
    try:
        (folder / "carol.py").write_text(GOOD + "\n# SECRET-OF-CAROL\n")
        (folder / "eve.py").write_text(SNOOP.format(path=str(folder / "carol.py")))
        result = lab.tournament(folder, games=2, seed=1, progress=False)
        assert result.forfeits().empty, result.forfeits()
    finally:
        shutil.rmtree(folder)


def _third_party_imports() -> set[str]:
    """Every top-level module outside the standard library that a file of the package imports, however lazily."""
    found = set()
    for file in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"amoeboid_edu"}


def test_the_list_of_packages_the_lab_may_look_for_is_whole():
    assert _third_party_imports() <= set(THIRD_PARTY), _third_party_imports() - set(THIRD_PARTY)


def test_a_classmates_module_named_after_a_missing_package_is_never_taken_by_the_labs_own_imports(tmp_path):
    """A worker with no site-packages (so every optional package is missing), then the student's folder on its
    path, as in ``amoeboid score FOLDER/alice.py``: the registry looks for pyspiel, the student imports the lab."""
    for name in THIRD_PARTY:
        (tmp_path / f"{name}.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'a').write({name!r} + ' ')\n")
    program = f'''
import importlib, sys
sys.path.insert(0, {str(REPO)!r})
from amoeboid_edu.sandbox.importpath import hold_out_missing
held = hold_out_missing()
sys.path.append({str(tmp_path)!r})
import amoeboid_edu.players.registry
for name in {list(THIRD_PARTY)!r}:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
print(len(held))
'''
    done = subprocess.run([sys.executable, "-S", "-P", "-c", program], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0, "every optional package was found: this run shows nothing"
    assert not (tmp_path / "ran").exists(), (tmp_path / "ran").read_text()


def test_a_student_folder_nested_too_deep_to_copy_is_one_did_not_load_line(tmp_path):
    folder = tmp_path / "class"
    deep = folder / "mallory"
    deep.mkdir(parents=True)
    (deep / "strategy.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    for _ in range(roster.FOLDER_DEPTH + 1):
        deep = deep / "d"
        deep.mkdir()
    with roster.hand_in_snapshots() as snapshot:
        sources, unread = read_folder(folder, snapshot)
    assert [source.name for source in sources] == ["bob"]
    assert dict(unread)["mallory"].startswith(f"nested more than {roster.FOLDER_DEPTH} folders deep"), unread
    assert not Path(snapshot).exists()


SEED = "d41d8cd98f00b204e9800998ecf8427e"


def test_a_listed_student_folder_swapped_for_a_link_after_the_roster_is_read_plays_the_copy(swappable_class, tmp_path,
                                                                                           monkeypatch):
    folder, teacher = swappable_class  # the swapped-in folder is the teacher's, with the contest's seed file
    (teacher / "contest.seed").write_text(SEED)
    read = entrants._file_entry

    def read_then_swap(*args, **kwargs):
        found = read(*args, **kwargs)
        if (folder / "mallory").is_dir() and not (folder / "mallory").is_symlink():
            (folder / "mallory").rename(tmp_path / "handed-in")
            (folder / "mallory").symlink_to(teacher, target_is_directory=True)
        return found

    monkeypatch.setattr(entrants, "_file_entry", read_then_swap)
    files = [str(folder / "mallory" / "strategy.py"), str(folder / "bob.py")]
    result = lab.tournament(files, games=2, seed_file=teacher / "contest.seed", progress=False)
    assert set(result.names) == {"mallory", "bob"} and not result.not_loaded
    assert result.forfeits().empty, result.forfeits()


def test_score_refuses_a_seed_file_an_opponents_strategy_may_read(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "me.py").write_text(GOOD)
    (tmp_path / "b" / "peer.py").write_text(GOOD)
    (tmp_path / "b" / "seed.txt").write_text(SEED)
    with pytest.raises(ValueError, match="which strategies may read"):
        lab.score(str(tmp_path / "a" / "me.py"), opponents=[f"{tmp_path / 'b' / 'peer.py'}:strategy"], games=2,
                  seed_file=tmp_path / "b" / "seed.txt", progress=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_list_of_files_with_bad_hand_ins_gives_one_line_each_and_the_tournament_goes_on(tmp_path):
    (tmp_path / "alice.py").write_text(GOOD)
    (tmp_path / "bob.py").write_text(GOOD)
    (tmp_path / "carol.py").write_text("def attack(position, roll, rng):\n    return None\n"
                                       "def defend(position, roll, rng):\n    return None\n")
    (tmp_path / "dave.py").write_text("X = 1\n")
    os.mkfifo(tmp_path / "eve.py")
    files = [str(tmp_path / f"{name}.py") for name in ("alice", "bob", "carol", "dave", "eve")]
    result = lab.tournament(files, games=2, seed=5, progress=False)
    assert set(result.names) == {"alice", "bob"}
    reasons = dict(result.not_loaded)
    assert set(reasons) == {"carol", "dave", "eve"}
    assert "named pipe" in reasons["eve"] and "attack, defend" in reasons["carol"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_reading_a_hand_in_that_became_a_named_pipe_never_blocks(tmp_path):
    import signal

    os.mkfifo(tmp_path / "mallory.py")
    (tmp_path / "link.py").symlink_to(tmp_path / "mallory.py")

    def stuck(*_):
        raise AssertionError("reading the hand-in blocked on a named pipe")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    try:
        assert entrants._read_text(str(tmp_path / "link.py")) is None
        item = entrants.Entry("mallory", load={"load": "file", "file": str(tmp_path / "link.py"), "name": "strategy"})
        assert "named pipe" in entrants._file_entry(item)[1]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_copies_of_a_run_killed_before_its_end_are_removed_when_the_next_run_starts(tmp_path, monkeypatch):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stale = tmp_path / f"{roster.SNAPSHOT_PREFIX}{gone.pid}-abc"
    alive = tmp_path / f"{roster.SNAPSHOT_PREFIX}{os.getppid()}-abc"
    for place in (stale, alive):
        (place / "nina").mkdir(parents=True)
    with roster.hand_in_snapshots() as place:
        assert Path(place).name.startswith(f"{roster.SNAPSHOT_PREFIX}{os.getpid()}-")
    assert not stale.exists() and alive.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")
def test_a_tournament_command_ended_by_sigterm_removes_its_copies(tmp_path):
    import signal
    import time

    folder, scratch = tmp_path / "class", tmp_path / "scratch"
    (folder / "nina").mkdir(parents=True)
    scratch.mkdir()
    (folder / "nina" / "strategy.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    run = subprocess.Popen([sys.executable, "-m", "amoeboid_edu.cli", "tournament", str(folder), "--games", "100000",
                            "--seed", "1", "--quiet", "--out", str(tmp_path / "results.csv")],
                           env={**os.environ, "TMPDIR": str(scratch)}, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        while run.poll() is None and not list(scratch.glob(f"{roster.SNAPSHOT_PREFIX}*/*/nina/strategy.py")):
            time.sleep(0.05)  # until the copy of nina's folder is made (not a measure of time)
        assert run.poll() is None, "the tournament ended before its copies were made"
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert not list(scratch.glob(f"{roster.SNAPSHOT_PREFIX}*"))


def test_a_folder_and_a_file_of_one_name_and_names_alike_but_for_normalisation_read_differently(tmp_path):
    folder = tmp_path / "class"
    (folder / "bob").mkdir(parents=True)
    (folder / "bob" / "strategy.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    (folder / "jos\u00e9.py").write_text(GOOD)
    (folder / "jose\u0301.py").write_text(GOOD)
    sources, unread = read_folder(folder)
    names = sorted(source.name for source in sources)
    assert not unread and names == sorted(["bob/", "bob.py", "jos\u00e9", "jose\\u0301"])
    out = tmp_path / "results.csv"
    lab.tournament(folder, games=2, seed=1, progress=False, out=out)
    assert "jose\\u0301" in out.read_text(encoding="utf-8") and "bob/" in out.read_text(encoding="utf-8")
