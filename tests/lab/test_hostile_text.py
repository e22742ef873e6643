"""Hostile hand-ins aimed at the teacher's process rather than a game (issue 23, the fourth red team): text that
costs the parser gigabytes, file names that break a list or look alike, and outputs in a folder students can write
to.  Each attack is made in ``tmp_path`` and run the way a teacher would."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from amoeboid_edu.lab.entrants import PARSE_PIECES, _entrants, _pick_function, parse_student_text

GOOD = '''
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(legal_turns(position, roll))
'''

# x = [a,a,a,...]: Python's parser takes about 700 bytes of memory per byte of this
COSTLY = "def play(position, roll, rng):\n    return None\nx = [" + "a," * (4 * PARSE_PIECES) + "a]\n"


def peak_megabytes(run) -> float:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / (1 << 20)
    finally:
        tracemalloc.stop()


def test_a_costly_hand_in_is_not_parsed_in_the_teachers_process(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "mallory.py").write_text(COSTLY)
    entries: dict = {}
    peak = peak_megabytes(lambda: entries.update(_entrants(str(folder), [])[0]))
    assert sorted(entries) == ["alice", "mallory"]  # left to its worker, which runs under the sandbox's limits
    # parsing it costs ~90 MB here (700 bytes per byte); reading it as text, a few copies of 240 KB
    assert peak < 20, peak


def test_a_costly_notebook_hand_in_is_neither_parsed_nor_compiled_here(tmp_path):
    """Its tagged cell is read for untagged helpers only within the parser's bound: compiling it would cost as much
    as parsing it."""
    import nbformat

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    cell = nbformat.v4.new_code_cell(COSTLY.replace("def play", "def strategy"), metadata={"tags": ["strategy"]})
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), folder / "mallory.ipynb")
    entries: dict = {}
    peak = peak_megabytes(lambda: entries.update(_entrants(str(folder), [])[0]))
    assert sorted(entries) == ["alice", "mallory"] and peak < 20, peak


def test_a_costly_file_given_to_score_is_not_parsed_here(tmp_path):
    file = tmp_path / "mallory.py"
    file.write_text(COSTLY)
    name: list[str] = []
    peak = peak_megabytes(lambda: name.append(_pick_function(str(file), str(file))))
    assert name == ["strategy"] and peak < 20, peak


def test_the_bounded_parser_says_why_it_did_not_parse():
    assert "too big to check here" in parse_student_text(COSTLY)
    assert parse_student_text("def f(:\n").startswith("SyntaxError line 1")
    assert parse_student_text(b"x = 1\x00").startswith("SyntaxError")
    assert not isinstance(parse_student_text(GOOD), str)


# --------------------------------------------------------------------------- outputs in a folder students can write to


def class_of_two(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    return folder


def run_cli(*argv: str) -> tuple[int, str]:
    import contextlib
    import io

    from amoeboid_edu.cli import main

    printed, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(errors):
        code = main(list(argv), out=printed)
    return code, printed.getvalue() + errors.getvalue()


def test_links_planted_at_the_temporary_names_are_replaced_never_written_through(tmp_path):
    folder, teacher = class_of_two(tmp_path), tmp_path / "teacher"
    teacher.mkdir(mode=0o755)
    victims = {}
    for name in ("results.csv.tmp", "results.run.json.tmp", ".results.csv.tmp"):
        victim = tmp_path / f"victim-{name}"
        victim.write_text("the teacher's notes\n")
        (teacher / name).symlink_to(victim)
        victims[victim] = victim.read_text()
    code, said = run_cli("tournament", str(folder), "--games", "2", "--seed", "1", "--out",
                         str(teacher / "results.csv"))
    assert code == 0, said
    assert {victim: victim.read_text() for victim in victims} == victims
    assert (teacher / "results.csv").read_text().startswith("run,")


def test_an_output_that_is_a_link_is_refused_in_one_line(tmp_path):
    folder, teacher = class_of_two(tmp_path), tmp_path / "teacher"
    teacher.mkdir(mode=0o755)
    for planted in ("results.csv", "results.html", "results.run.json"):
        victim = tmp_path / "victim.txt"
        victim.write_text("the teacher's notes\n")
        (teacher / planted).symlink_to(victim)
        code, said = run_cli("tournament", str(folder), "--games", "2", "--seed", "1", "--out",
                             str(teacher / "results.csv"))
        assert code == 2 and "is a link" in said and planted in said and "Traceback" not in said, said
        assert victim.read_text() == "the teacher's notes\n"
        (teacher / planted).unlink()


def test_an_out_that_others_can_write_to_or_inside_the_class_folder_is_refused(tmp_path):
    folder, shared = class_of_two(tmp_path), tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    code, said = run_cli("tournament", str(folder), "--games", "2", "--seed", "1", "--out", str(shared / "r.csv"))
    assert code == 2 and "can be written by others" in said and not list(shared.iterdir()), said
    code, said = run_cli("tournament", str(folder), "--games", "2", "--seed", "1", "--out", str(folder / "r.csv"))
    assert code == 2 and "inside the class folder" in said and not (folder / "r.csv").exists(), said


# --------------------------------------------------------------------------- names


NO_PLAYER = "def helper(x):\n    return x\n"


def test_a_listed_file_whose_name_holds_a_colon_gets_one_did_not_load_line(tmp_path):
    from amoeboid_edu import lab

    for name, text in (("alice.py", GOOD), ("bob.py", GOOD), ("evil:x.py", NO_PLAYER)):
        (tmp_path / name).write_text(text)
    files = sorted(str(path) for path in tmp_path.glob("*.py"))
    result = lab.tournament(files, games=2, seed=1, progress=False)
    assert set(result.names) == {"alice", "bob"}
    [(name, reason)] = result.not_loaded
    assert name == "evil:x" and "helper" in reason and "\n" not in reason


def test_names_show_alike_in_a_list_and_in_a_class_folder(tmp_path):
    from amoeboid_edu import lab
    from amoeboid_edu.lab.roster import read_folder

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice.py", "alice .py", " alice.py"):
        (folder / name).write_text(GOOD)
    listed = lab.tournament(sorted(str(path) for path in folder.glob("*.py")), games=2, seed=1, progress=False)
    from_the_folder = [source.name for source in read_folder(folder)[0]]
    assert len(set(listed.names)) == 3
    assert sorted(listed.names) == sorted(from_the_folder)


def test_shown_names_are_one_to_one():
    from amoeboid_edu.lab.entrants import student_name

    pairs = [("a ", "a\\x20"), ("=1+1", "'=1+1"), ("p" * 60 + "x", "p" * 60 + "y"), ("a\u200b", "a\\u200b")]
    for one, other in pairs:
        assert student_name(one) != student_name(other), (one, other)
    assert "(1 more" in student_name("p" * 61)  # the characters cut, not those of a first cut's suffix


def test_the_run_description_says_which_file_each_name_is(tmp_path):
    import json

    from amoeboid_edu import lab

    folder = class_of_two(tmp_path)
    lab.tournament(folder, games=2, seed=1, out=tmp_path / "r.csv", progress=False)
    described = json.loads((tmp_path / "r.run.json").read_text())
    assert sorted(described["files"].items()) == [("alice", "alice.py"), ("bob", "bob.py")]


def test_the_copies_of_a_class_have_one_budget_that_no_classmate_can_spend_for_another(tmp_path, monkeypatch):
    # red team 8: folders sorted first, with sparse files (counted whole, as their copies are written whole), spent
    # the whole run's budget and left an honest folder sorted after them "not copied"; each folder now has its share
    from amoeboid_edu import lab
    from amoeboid_edu.lab import roster

    monkeypatch.setattr(roster, "RUN_BYTES", 2 * roster.MiB)
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("a1", "a2", "zoe"):
        (folder / student).mkdir()
        (folder / student / "strategy.py").write_text(GOOD)
    for student in ("a1", "a2"):  # with its strategy, each folder is exactly half the run's budget
        with open(folder / student / "data.bin", "wb") as file:
            file.truncate(roster.MiB - len(GOOD.encode()))  # a hole: no block on disk, a megabyte once copied
    with open(folder / "zoe" / "data.bin", "wb") as file:  # an honest folder's data, within a third of the budget
        file.truncate(roster.MiB // 2)
    for empty in ("e1", "e2", "e3", "e4", "e5", "e6"):  # folders that load nothing take no share
        (folder / empty).mkdir()
    result = lab.tournament(folder, games=2, seed=1, opponents=["random"], progress=False)
    assert set(result.names) == {"zoe", "random"}
    reasons = dict(result.not_loaded)
    assert set(reasons) == {"a1", "a2", "e1", "e2", "e3", "e4", "e5", "e6"}
    assert all("without strategy.py" in reasons[name] for name in ("e1", "e6"))
    assert all("the limit is 0.7 MiB, each folder's share of the class's 2 MiB" in reasons[name] for name in ("a1", "a2"))


def test_names_equal_under_compatibility_folding_are_flagged_as_look_alikes(tmp_path):
    import pytest

    from amoeboid_edu import lab

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice.py", "\U0001d5ba\U0001d5c5\U0001d5c2\U0001d5bc\U0001d5be.py", "fiona.py", "\ufb01ona.py"):
        (folder / name).write_text(GOOD)
    with pytest.warns(UserWarning) as warned:
        result = lab.tournament(folder, games=2, seed=1, progress=False)
    assert len(result.names) == 4
    said = [str(warning.message) for warning in warned if "look alike" in str(warning.message)]
    assert len(said) == 2 and "alice.py" in said[0] and "fiona.py" in said[1], said


def test_a_folder_writable_only_by_the_users_own_private_group_is_not_refused(tmp_path):
    """Debian and Ubuntu give each user a group of their own and umask 002: a teacher's new folder is group-writable,
    and refusing it would refuse most teachers' own folders."""
    import grp
    import pwd

    me = pwd.getpwuid(os.getuid()).pw_name
    alone = [group.gr_gid for group in grp.getgrall()
             if not set(group.gr_mem) - {me}
             and not {user.pw_name for user in pwd.getpwall() if user.pw_gid == group.gr_gid} - {me}]
    if os.getgid() not in alone:
        pytest.skip("this user's own group has other members here")
    folder, own = class_of_two(tmp_path), tmp_path / "own"
    own.mkdir()
    own.chmod(0o775)
    os.chown(own, os.getuid(), os.getgid())
    code, said = run_cli("tournament", str(folder), "--games", "2", "--seed", "1", "--out", str(own / "r.csv"))
    assert code == 0 and (own / "r.csv").exists(), said
