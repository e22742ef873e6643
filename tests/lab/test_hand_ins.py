"""What a student hands in, and what the lab does with it: any file is read or refused in one line, no hand-in
runs in the teacher's process, a classmate's files neither shadow nor leak, and a notebook's strategy enters the
class tournament under the student's name (issue 23 items 1, 3-7; issue 25 items 1 and 3)."""

from __future__ import annotations

import json
import linecache
import os
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from cli_runner import amoeboid

from amoeboid_edu import lab
from amoeboid_edu.lab.ledger import Ledger, _natural
from amoeboid_edu.lab.roster import read_folder

REPO = Path(__file__).resolve().parents[2]

GOOD = '''
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(legal_turns(position, roll))
'''


def notebook_text(cells) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def tagged(source) -> dict:
    return {"cell_type": "code", "metadata": {"tags": ["strategy"]}, "source": source, "outputs": []}


BAD_NOTEBOOKS = {
    "cells_not_a_list": notebook_text(5).replace('"cells": 5', '"cells": 5'),
    "metadata_a_list": notebook_text([{"cell_type": "code", "metadata": [], "source": GOOD}]),
    "tags_an_int": notebook_text([{"cell_type": "code", "metadata": {"tags": 7}, "source": GOOD}]),
    "no_source": notebook_text([{"cell_type": "code", "metadata": {"tags": ["strategy"]}}]),
    "sources_of_ints": notebook_text([tagged([1, 2, 3])]),
    "cell_not_an_object": notebook_text(["code", 3, None]),
    "top_a_list": "[1, 2, 3]",
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep_object": '{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}",
}


@pytest.fixture
def odd_class(tmp_path) -> Path:
    """Two good students (one saved with a byte-order mark, one named in superscript digits) and every bad shape."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "²³.py").write_text(GOOD)
    (folder / "bom.py").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    (folder / "nb_bom.ipynb").write_bytes(b"\xef\xbb\xbf" + notebook_text([tagged(GOOD)]).encode())
    for name, text in BAD_NOTEBOOKS.items():
        (folder / f"{name}.ipynb").write_text(text)
    (folder / "\x1b[8A\x1b[Jforged.ipynb").write_text(notebook_text([]))
    return folder


def test_any_file_is_read_or_refused_in_one_escaped_line(odd_class):
    sources, unread = read_folder(odd_class)
    assert sorted(source.name for source in sources) == ["bom", "nb_bom", "²³"]
    reasons = dict(unread)
    assert set(reasons) == {*BAD_NOTEBOOKS, "\\x1b[8A\\x1b[Jforged"}
    assert all(reason.startswith(("not a readable notebook", "no code cell tagged")) for reason in reasons.values())
    assert "\x1b" not in repr(unread).replace("\\x1b", "")  # noqa: the names and the reasons are escaped
    assert all("\x1b" not in name + reason for name, reason in unread)


def test_a_tournament_with_odd_files_goes_on_and_writes_its_leaderboard(odd_class, tmp_path):
    out = tmp_path / "r.csv"
    result = lab.tournament(odd_class, games=2, seed=1, out=out, progress=False)
    assert set(result.names) == {"bom", "nb_bom", "²³"}
    assert result.forfeits().empty
    assert len(dict(result.not_loaded)) == len(BAD_NOTEBOOKS) + 1
    assert out.with_suffix(".html").exists() and not list(tmp_path.glob("*.tmp"))
    assert "\x1b" not in str(result)


@pytest.fixture
def skipped_class(tmp_path) -> Path:
    """One good student, and every thing that looks like a hand-in but is none: a file named only ``.py``, a named
    pipe, a folder named like a file, a link to a folder, student folders that are empty, hold another file, or
    whose ``strategy.py`` is a folder or a pipe.  The class's own (``_helpers.py``, ``__pycache__``,
    ``.ipynb_checkpoints``, ``notes.txt``) stays out of it."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / ".py").write_text(GOOD)
    os.mkfifo(folder / "piped.py")
    (folder / "boxed.py").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (folder / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (folder / "empty").mkdir()
    (folder / "misnamed").mkdir()
    (folder / "misnamed" / "misnamed.py").write_text(GOOD)
    (folder / "nested").mkdir()
    (folder / "nested" / "strategy.py").mkdir()
    (folder / "plumber").mkdir()
    os.mkfifo(folder / "plumber" / "strategy.py")
    (folder / "_helpers.py").write_text(GOOD)
    (folder / "__pycache__").mkdir()
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / "notes.txt").write_text("not a hand-in\n")
    return folder


SKIPPED = {
    ".py": "a file with no name before .py",
    "piped": "a named pipe, not read",
    "boxed": "a folder, not read",
    "linked": "a link, not read",
    "empty": "a folder without strategy.py",
    "misnamed": "a folder without strategy.py",
    "nested": "its strategy.py is a folder, not read",
    "plumber": "its strategy.py is a named pipe, not read",
}


def test_everything_skipped_gets_one_did_not_load_line_with_its_own_reason(skipped_class):
    sources, unread = read_folder(skipped_class)
    assert [source.name for source in sources] == ["alice"]
    reasons = dict(unread)
    assert sorted(reasons) == sorted(SKIPPED) and len(unread) == len(SKIPPED)
    for name, start in SKIPPED.items():
        assert reasons[name].startswith(start), (name, reasons[name])
    assert not [reason for reason in reasons.values() if "hard link" in reason]


def test_a_tournament_with_skipped_things_goes_on(skipped_class, tmp_path):
    result = lab.tournament(skipped_class, games=2, seed=1, opponents=["random"], out=tmp_path / "r.csv",
                            progress=False)
    assert list(result.names) == ["alice", "random"] and result.forfeits().empty
    assert sorted(name for name, _ in result.not_loaded) == sorted(SKIPPED)
    assert "did not load" in str(result) and ".py" in str(result)


def test_names_that_look_alike_are_told_apart_on_the_leaderboard(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice", "alice\ufe0f", "alice\u3164", "al\u200bice"):
        (folder / f"{name}.py").write_text(GOOD)
    sources, unread = read_folder(folder)
    names = [source.name for source in sources]
    assert not unread and sorted(names) == ["al\\u200bice", "alice", "alice\\u3164", "alice\\ufe0f"]


def test_names_that_differ_only_in_spaces_are_told_apart(tmp_path):
    """pandas' HTML strips a name's outer spaces and a page shows a run of spaces as one (a fresh red team's break)."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice", "alice ", " alice", "al  ice", "al ice"):
        (folder / f"{name}.py").write_text(GOOD)
    sources, unread = read_folder(folder)
    names = sorted(source.name for source in sources)
    assert not unread and names == sorted(["alice", "alice\\x20", "\\x20alice", "al\\x20\\x20ice", "al ice"])
    assert len({name.strip() for name in names}) == 5


def test_a_student_folder_nested_thousands_deep_is_read_without_running_out_of_recursion(tmp_path):
    folder = tmp_path / "class"
    (folder / "mallory").mkdir(parents=True)
    (folder / "mallory" / "strategy.py").write_text(GOOD)
    (folder / "alice.py").write_text(GOOD)
    levels = [folder / "mallory"]
    for _ in range(1200):  # os.walk's recursion ran out on Python 3.11
        levels.append(levels[-1] / "d")
        levels[-1].mkdir()
    try:
        sources, unread = read_folder(folder)  # stopped the whole tournament with a RecursionError (a red team's break)
        # deeper than a copy may be (every tournament plays student folders from copies): one line, read at once
        assert [source.name for source in sources] == ["alice"]
        assert [name for name, _ in unread] == ["mallory"] and "nested more than 32 folders deep" in unread[0][1]
    finally:  # removed level by level: pytest's own clean-up (shutil.rmtree) would run out of recursion too
        for level in reversed(levels[1:]):
            level.rmdir()


def test_a_student_folder_with_too_many_entries_is_one_did_not_load_line(tmp_path, monkeypatch):
    from amoeboid_edu.lab import roster

    monkeypatch.setattr(roster, "FOLDER_LIMIT", 20)
    folder = tmp_path / "class"
    (folder / "bob").mkdir(parents=True)
    (folder / "bob" / "strategy.py").write_text(GOOD)
    for k in range(25):
        (folder / "bob" / f"note{k}.txt").write_text("x")
    sources, unread = read_folder(folder)
    assert not sources and unread[0][0] == "bob" and "holds more than 20 files and folders" in unread[0][1]


def test_natural_order_takes_numbers_in_ascii_digits_only():
    assert sorted([("10",), ("²³",), ("9",), ("b",)], key=_natural) == [("9",), ("10",), ("b",), ("²³",)]


def test_the_ledger_and_the_cli_escape_what_a_file_name_carries(tmp_path):
    path = tmp_path / "\x1b[2Jgames.csv"
    path.write_bytes(b"\xff\xfe not csv\n")
    with pytest.raises(ValueError) as refused:
        Ledger(path, ["k"], ["k"], "run")
    assert "\x1b" not in str(refused.value) and "\\x1b[2J" in str(refused.value)
    done = amoeboid("tournament", str(tmp_path / "\x1b[8Anone"), "--seed", "1", "--out", str(tmp_path / "r.csv"))
    refusal = done.stderr.decode()  # refused before any game: run in this process (tests/cli_runner.py)
    assert done.returncode == 2 and "\x1b" not in refusal and "\\x1b[8A" in refusal, refusal


# --------------------------------------------------------------------------- no hand-in runs in the teacher's process

RUN = textwrap.dedent('''
    import json, os, sys
    from amoeboid_edu import lab
    before = set(sys.modules)
    out = os.path.join("..", os.path.basename(os.getcwd()) + ".csv")  # never inside the class folder (refused)
    result = lab.tournament(["alice.py:strategy", "bob.py:strategy"], games=2, seed=1, out=out,
                            progress=False, executor=sys.argv[1])
    str(result); result._repr_html_(); result.chart(); result.rating_chart(); result.pairwise_chart()
    print(json.dumps(sorted(name for name in set(sys.modules) - before if "." not in name)))
''')

TRAP = 'open({mark!r}, "a").write(__name__ + "\\n")\n'


def _class_with_two(folder: Path) -> None:
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)


def _in_the_class_folder(folder: Path, executor: str) -> subprocess.CompletedProcess:
    """A notebook kept in the folder of the files it plays: ``python -c`` puts '' first on the import path, as a
    kernel does."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", RUN, executor], cwd=folder, capture_output=True, text=True, env=env,
                          timeout=600)


@pytest.mark.parametrize("executor", ["serial", "processes:2"])
def test_no_module_the_lab_imports_while_it_runs_is_taken_from_the_class_folder(tmp_path, executor):
    # found by the red team: a hand-in named tqdm.py ran in the teacher's process and forged the leaderboard
    lazy_run = tmp_path / "first"
    _class_with_two(lazy_run)
    done = _in_the_class_folder(lazy_run, executor)
    assert done.returncode == 0, done.stderr
    imported = json.loads(done.stdout.splitlines()[-1])
    assert "tqdm" in imported  # the recording sees the lab's lazy imports
    folder, mark = tmp_path / "class", tmp_path / "ran.txt"
    _class_with_two(folder)
    for name in imported:
        # a package, so that the roster does not take each trap for a student (tqdm.py below is the red team's file)
        (folder / name).mkdir(exist_ok=True)
        (folder / name / "__init__.py").write_text(TRAP.format(mark=str(mark)))
    (folder / "tqdm").rename(folder / "_tqdm_package")
    (folder / "tqdm.py").write_text(TRAP.format(mark=str(mark)))
    done = _in_the_class_folder(folder, executor)
    assert done.returncode == 0, done.stderr
    assert not mark.exists(), mark.read_text()


def test_python_m_in_the_class_folder_is_refused_and_python_p_m_imports_nothing_from_it(tmp_path):
    folder, mark = tmp_path / "class", tmp_path / "ran.txt"
    _class_with_two(folder)
    for name in ("tqdm", "pandas", "numpy", "vl_convert", "altair", "cloudpickle", "jinja2", "scipy"):
        (folder / name).mkdir()
        (folder / name / "__init__.py").write_text(TRAP.format(mark=str(mark)))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = ["-m", "amoeboid_edu", "tournament", ".", "--games", "2", "--seed", "1", "--out", str(tmp_path / "r.csv"),
               "-q"]
    refused = subprocess.run([sys.executable, *command], cwd=folder, capture_output=True, text=True, env=env,
                             timeout=600)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert "import path (the current folder)" in refused.stderr and "python -P -m amoeboid_edu" in refused.stderr
    assert not (tmp_path / "r.csv").exists()
    done = subprocess.run([sys.executable, "-P", *command], cwd=folder, capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert not mark.exists(), mark.read_text()


def test_a_tournament_on_a_folder_this_process_can_import_from_is_refused(tmp_path, monkeypatch):
    """What ran before the lab (a kernel's start-up, the teacher's own imports) may have come from such a folder."""
    folder = tmp_path / "class"
    _class_with_two(folder)
    (folder / "nina").mkdir()
    (folder / "nina" / "strategy.py").write_text(GOOD)
    out = tmp_path / "r.csv"
    for entry, cwd in ((str(folder), tmp_path), ("", folder), (".", folder), (str(folder / "nina"), tmp_path)):
        monkeypatch.chdir(cwd)
        monkeypatch.setattr(sys, "path", [entry, *sys.path])
        with pytest.raises(ValueError, match="is on this Python's import path .*: run `amoeboid tournament FOLDER`"):
            lab.tournament(folder, games=2, seed=1, out=out, progress=False)
        with pytest.raises(ValueError, match="import path"):
            read_folder(folder)
        monkeypatch.undo()
    assert not out.exists()
    monkeypatch.chdir(tmp_path)  # the folder that holds the class folder may be on the path: nothing imports from it
    monkeypatch.setattr(sys, "path", ["", *sys.path])
    result = lab.tournament("class", games=2, seed=1, progress=False)
    assert set(result.names) == {"alice", "bob", "nina"} and not result.not_loaded


# --------------------------------------------------------------------------- a classmate's files

SNOOP = '''
import os

SEEN = []


def strategy(position, roll, rng):
    from amoeboid_edu import legal_turns
    if not SEEN:
        SEEN.append(1)
        for path in {paths!r}:
            try:
                text = open(path).read()
            except OSError:
                continue
            raise RuntimeError("read " + text)
    return next(legal_turns(position, roll))
'''


def test_a_strategy_reads_neither_the_notebooks_folder_nor_a_classmates_file(tmp_path):
    # from a notebook (its folder on the import path), one forfeit could put a classmate's source in the CSV
    folder, teacher = tmp_path / "class", tmp_path / "teacher"
    folder.mkdir()
    teacher.mkdir()
    (folder / "carol.py").write_text(GOOD + "\n# SECRET-OF-CAROL\n")
    (folder / "notes.txt").write_text("SECRET-OF-THE-TEACHER\n")
    (teacher / "notes.txt").write_text("SECRET-OF-THE-TEACHER\n")
    paths = [str(folder / "carol.py"), str(folder / "notes.txt"), str(teacher / "notes.txt")]
    (folder / "eve.py").write_text(SNOOP.format(paths=paths))
    from_the_teachers_folder = 'lab.tournament("../class", games=2, seed=1, out="../results.csv", progress=False)'
    from_the_class_folder = ('lab.tournament(["carol.py:strategy", "eve.py:strategy"], games=2, seed=1, '
                             'out="../listed.csv", progress=False)')
    for cwd, run in ((teacher, from_the_teachers_folder), (folder, from_the_class_folder)):
        done = subprocess.run([sys.executable, "-c", f"from amoeboid_edu import lab; {run}"], cwd=cwd,
                              capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode == 0, done.stderr
    for results in ("results", "listed"):
        for suffix in (".csv", ".html"):
            text = (tmp_path / f"{results}{suffix}").read_text()
            assert "SECRET" not in text and "eve" in text


HEAPQ_USER = '''
import heapq


def play(position, roll, rng):
    from amoeboid_edu import legal_turns
    return heapq.nlargest(1, [next(legal_turns(position, roll))], key=str)[0]
'''


def test_a_classmates_module_in_a_shared_folder_does_not_replace_a_library_module(tmp_path):
    # found by the red team: a classmate's heapq.py in the folder ran in alice's game process
    (tmp_path / "heapq.py").write_text("raise SystemExit('the classmate ran')\n")
    (tmp_path / "alice.py").write_text(HEAPQ_USER)
    card = lab.score(f"{tmp_path / 'alice.py'}:play", games=2, opponents=["random"], progress=False)
    assert card.forfeits().empty, card.forfeits()


MAYBE_CAS = """
try:
    import amoeboid_test_cas  # a package alice uses where it is installed; it is not, here
except ImportError:
    amoeboid_test_cas = None
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(legal_turns(position, roll))
"""


def test_scoring_a_file_never_imports_a_classmates_module_beside_it(tmp_path):
    """`amoeboid score class/alice.py` put class/ on alice's import path: a classmate's module there stood in for a
    package alice imports where it is missing (the third red team's sympy.py).  A file is scored as a tournament
    plays a single file: its text, and no folder."""
    (tmp_path / "amoeboid_test_cas.py").write_text("raise SystemExit('the classmate ran')\n")
    (tmp_path / "alice.py").write_text(MAYBE_CAS)
    card = lab.score(str(tmp_path / "alice.py"), games=2, opponents=["random"], progress=False)
    assert card.forfeits().empty, card.forfeits()


def test_a_file_changed_during_scoring_changes_nothing(tmp_path, monkeypatch):
    """The file is read once, before any game: a file rewritten between two batches (a classmate with write access,
    or an editor saving) plays on as it was read."""
    from amoeboid_edu.lab import scoring

    alice = tmp_path / "alice.py"
    alice.write_text(GOOD)
    played, play = [], scoring.play_batch

    def play_then_rewrite(batch, finished=None):
        records = play(batch, finished)
        played.append(batch)
        alice.write_text("raise SystemExit('rewritten during the run')\n")
        return records

    monkeypatch.setattr(scoring, "play_batch", play_then_rewrite)
    card = lab.score(str(alice), games=2, opponents=["random", "greedy"], progress=False, workers=1)
    assert len(played) == 2 and card.forfeits().empty, card.forfeits()


HELPED = """
from amoeboid_edu import legal_turns
from alices_helpers import first


def strategy(position, roll, rng):
    return first(legal_turns(position, roll))
"""


def test_a_file_that_imports_a_helper_beside_it_is_told_to_score_its_folder(tmp_path, capsys):
    """A single file is played without its folder, so a helper module beside it cannot be imported: one line says
    so and how to bring it (score the folder, which is played as a student folder of a class is)."""
    from amoeboid_edu.cli import main

    mywork = tmp_path / "mywork"
    mywork.mkdir()
    (mywork / "alice.py").write_text(HELPED)
    (mywork / "alices_helpers.py").write_text("def first(turns):\n    return next(turns)\n")
    own = mywork / "alice"  # a folder of its own, not the folder it sits in (which may be the class folder)
    with pytest.raises(ValueError, match=r"^alice.py imports alices_helpers.py from its folder, .*move it there as "
                                         rf"{re.escape(str(own / 'strategy.py'))} with alices_helpers.py beside it, "
                                         rf"and score that folder, amoeboid score {re.escape(str(own))}/"):
        lab.score(str(mywork / "alice.py"), games=2, opponents=["random"], progress=False)
    assert main(["score", str(mywork / "alice.py"), "--games", "2", "--opponents", "random", "-q"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "imports alices_helpers.py from its folder" in error
    own.mkdir()  # as the line says
    (mywork / "alice.py").rename(own / "strategy.py")
    (mywork / "alices_helpers.py").rename(own / "alices_helpers.py")
    card = lab.score(f"{own}/", games=2, opponents=["random"], progress=False)
    assert card.player == "alice" and card.forfeits().empty, card.forfeits()


def test_a_student_folder_imports_its_own_helpers(tmp_path):
    folder = tmp_path / "class"
    (folder / "nina").mkdir(parents=True)
    (folder / "nina" / "nina_helpers.py").write_text("def first(turns):\n    return next(turns)\n")
    (folder / "nina" / "strategy.py").write_text(
        "from amoeboid_edu import legal_turns\nfrom nina_helpers import first\n\n\n"
        "def strategy(position, roll, rng):\n    return first(legal_turns(position, roll))\n")
    (folder / "bob.py").write_text(GOOD)
    result = lab.tournament(folder, games=2, seed=1, progress=False)
    assert set(result.names) == {"nina", "bob"} and result.forfeits().empty and not result.not_loaded


# --------------------------------------------------------------------------- names


def test_entrants_are_named_after_the_student_never_after_the_function(tmp_path):
    for name in ("planner", "careful"):
        (tmp_path / f"{name}.py").write_text(GOOD)
    result = lab.tournament([f"{tmp_path / 'planner.py'}:strategy", f"{tmp_path / 'careful.py'}:strategy"],
                            games=2, seed=1, progress=False)
    assert list(result.names) == ["planner", "careful"]
    by_name = lab.tournament({"nina": "greedy", "omar": "random"}, games=2, seed=1, progress=False)
    assert list(by_name.names) == ["nina", "omar"]
    done = amoeboid("score", f"{tmp_path / 'planner.py'}:strategy", "--games", "2", "--opponents", "random", "-q")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("planner: ")


# --------------------------------------------------------------------------- the notebook is the hand-in


def lesson_nine_namespace() -> dict:
    """Lesson 9's code cells up to the student's strategy cell, run as a kernel runs them (each cell's source kept
    in ``linecache`` under a name of its own, the module being the notebook's)."""
    source = (REPO / "lessons" / "src" / "09-strategy-lab.py").read_text()
    cells = re.split(r"^# %%.*$", source, flags=re.M)
    headers = re.findall(r"^# %%.*$", source, flags=re.M)
    module = types.ModuleType("lesson_nine_notebook")
    namespace = module.__dict__
    sys.modules[module.__name__] = module
    for number, (header, cell) in enumerate(zip(headers, cells[1:])):
        if "[markdown]" in header or "solution" in header:
            continue
        filename = f"/tmp/ipykernel_0/cell-{number}.py"
        linecache.cache[filename] = (len(cell), None, cell.splitlines(keepends=True), filename)
        exec(compile(cell, filename, "exec"), namespace)
        if "def my_strategy" in cell:
            return namespace
    raise AssertionError("lesson 9 has no my_strategy cell")


def test_lesson_nines_strategy_handed_in_plays_the_class_tournament_under_the_students_name(tmp_path):
    namespace = lesson_nine_namespace()
    folder = tmp_path / "class"
    written = lab.hand_in(namespace["my_strategy"], folder / "nina")
    assert written == folder / "nina.py"
    (folder / "bob.py").write_text(GOOD)
    result = lab.tournament(folder, games=4, seed=9, opponents=["greedy"], progress=False)
    assert set(result.names) == {"nina", "bob", "greedy"} and not result.not_loaded
    assert result.forfeits().empty, result.forfeits()


def test_a_handed_in_strategys_error_names_the_line_of_the_file(tmp_path):
    namespace = {"__name__": "some_notebook"}
    exec(compile("def helper(position):\n    return position.no_such_thing\n\n\ndef mine(position, roll, rng):\n"
                 "    return helper(position)\n", "/tmp/ipykernel_0/cell-1.py", "exec"), namespace)
    linecache.cache["/tmp/ipykernel_0/cell-1.py"] = (1, None, ["def helper(position):\n",
                                                              "    return position.no_such_thing\n", "\n", "\n",
                                                              "def mine(position, roll, rng):\n",
                                                              "    return helper(position)\n"],
                                                     "/tmp/ipykernel_0/cell-1.py")
    written = lab.hand_in(namespace["mine"], tmp_path / "class" / "omar.py")
    line = written.read_text().splitlines().index("    return position.no_such_thing") + 1
    (tmp_path / "class" / "bob.py").write_text(GOOD)
    result = lab.tournament(tmp_path / "class", games=2, seed=1, progress=False)
    message = result.forfeits().query("player == 'omar'")["message"].iloc[0]
    assert f"line {line}" in message and "no_such_thing" in message


def test_hand_in_refuses_what_cannot_be_written_into_a_file(tmp_path):
    from amoeboid_edu import Position

    namespace = {"__name__": "some_notebook", "START": Position.start(3)}
    exec(compile("def mine(position, roll, rng):\n    return START\n", "/tmp/ipykernel_0/cell-2.py", "exec"),
         namespace)
    linecache.cache["/tmp/ipykernel_0/cell-2.py"] = (1, None, ["def mine(position, roll, rng):\n",
                                                              "    return START\n"], "/tmp/ipykernel_0/cell-2.py")
    with pytest.raises(ValueError, match="mine uses START, a Position"):
        lab.hand_in(namespace["mine"], tmp_path / "omar")
    with pytest.raises(ValueError, match="name the file after yourself"):
        lab.hand_in(namespace["mine"], tmp_path / "_x")


def test_the_scorers_import_path_leaves_out_the_current_folder_and_every_folder_of_hand_ins(tmp_path, monkeypatch):
    from amoeboid_edu.sandbox.importpath import library_path, trusted_imports

    (tmp_path / "class" / "nina").mkdir(parents=True)
    (tmp_path / "libs").mkdir()
    monkeypatch.chdir(tmp_path / "class")
    path = ["", ".", str(tmp_path), str(tmp_path / "class"), str(tmp_path / "class" / "nina"), str(tmp_path / "libs")]
    assert library_path(path, [tmp_path / "class"]) == [str(tmp_path / "libs")]
    monkeypatch.setattr(sys, "path", list(path))
    with trusted_imports([tmp_path / "class"]) as caller:
        assert sys.path == [str(tmp_path / "libs")] and caller == path
    assert sys.path == path
