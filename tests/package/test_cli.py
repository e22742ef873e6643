"""The ``amoeboid`` command as a student runs it: in-process for speed (tests/cli_runner.py), and as real processes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from amoeboid_edu import Position, count_legal_turns, legal_turns
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_RECORD
from cli_runner import amoeboid


def amoeboid_process(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    """The real thing: ``python -m amoeboid_edu ARGS`` in a new process."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "amoeboid_edu", *args], input=data, capture_output=True, timeout=120
    )


def test_the_process_and_the_in_process_runner_agree(paper_game):
    for args, stdin in [(("replay", str(paper_game)), None), (("moves", "-"), "1 (1,0) . . / . . . / . . (0,1) A\n"),
                        (("replay", "-"), b"\xff\xfe not utf-8\n"), (("moves", "9 nonsense"), None), (("--help",), None)]:
        real, here = amoeboid_process(*args, stdin=stdin), amoeboid(*args, stdin=stdin)
        assert (real.returncode, real.stdout, real.stderr) == (here.returncode, here.stdout, here.stderr), args


def out(result: subprocess.CompletedProcess) -> str:
    return result.stdout.decode()


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


@pytest.fixture
def paper_game(tmp_path):
    path = tmp_path / "paper.txt"
    path.write_text(PAPER_EXAMPLE_RECORD)
    return path


def test_console_script_is_installed():
    script = shutil.which("amoeboid", path=os.path.dirname(sys.executable))
    assert script, "the amoeboid console script is missing from the environment"
    result = subprocess.run([script, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "replay" in result.stdout


def test_replay_paper_example(paper_game):
    result = amoeboid("replay", str(paper_game))
    assert result.returncode == 0
    assert out(result) == ". . . / (5,5) (22,15) . / . . (8,8) B\nresult: A\n"


def test_replay_verbose_prints_every_position(paper_game):
    lines = out(amoeboid("replay", "--verbose", str(paper_game))).splitlines()
    assert len(lines) == 17 + 1 + 1  # start, 17 positions, result
    assert lines[0] == "(1,0) . . / . . . / . . (0,1) A"
    assert lines[1] == ". (4,0) . / . . . / . . (0,1) B"
    assert lines[-2:] == [". . . / (5,5) (22,15) . / . . (8,8) B", "result: A"]


def test_replay_from_stdin_and_empty_file(tmp_path):
    assert out(amoeboid("replay", "-", stdin="3 a1 a1-b1\n")) == ". (4,0) . / . . . / . . (0,1) B\nresult: ongoing\n"
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert out(amoeboid("replay", str(empty))) == "(1,0) . . / . . . / . . (0,1) A\nresult: ongoing\n"


def test_replay_errors_are_one_line(tmp_path, paper_game):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 a1 a1-b1\n2 c3 c3-a1\n")
    result = amoeboid("replay", str(bad))
    assert_one_line_error(result, "error: turn 2: ", "c3-a1", "not adjacent")
    assert out(result) == ""
    bad.write_text("3 a1 a1-b1\n2 c3 c3-b3 0,x\n")
    assert_one_line_error(amoeboid("replay", str(bad)), "error: turn 2: ", "counts")
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 4)
    assert_one_line_error(amoeboid("replay", str(garbage)), "not a text file")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("3 a1 a1-b1 # caf\xe9\n".encode("latin-1"))
    assert_one_line_error(amoeboid("replay", str(latin)), "not UTF-8")
    assert_one_line_error(amoeboid("replay", str(tmp_path / "missing.txt")), "cannot read")
    assert_one_line_error(amoeboid("replay", str(tmp_path)), "cannot read")


def test_moves_lists_sorted_canonical_turns():
    result = amoeboid("moves", "(1,0) . . / . . . / . . (0,1) A", "1")
    expected = sorted(str(t) for t in legal_turns(Position.start(), 1))
    assert out(result).splitlines() == expected + ["total: 6"]
    assert expected == sorted(
        ["1 a1 a1-b1 1,0", "1 a1 a1-b1 2,0", "1 a1 a1-a2 1,0", "1 a1 a1-a2 2,0", "1 a1 a1-b2 1,0", "1 a1 a1-b2 2,0"]
    )


def test_moves_from_stdin_one_line_per_input_line():
    lines = [
        "1 (1,0) . . / . . . / . . (0,1) A",
        "",
        "2 (3,1) . / . (2,2) B",  # game over: an empty line
        "1 (5,0) (0,9) / (0,9) (0,9) A",
    ]
    result = amoeboid("moves", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    got = out(result).split("\n")[:-1]
    assert len(got) == len(lines)
    assert got[0] == "; ".join(sorted(str(t) for t in legal_turns(Position.start(), 1)))
    assert got[1:] == ["", "", "1 a1 -"]


@pytest.mark.parametrize(
    "args, stdin, fragment",
    [
        (["moves", "(1,0) . / . x A", "1"], None, "'x' is neither"),
        (["moves", "(1,0) . . / . . . / . . (0,1) A", "9"], None, "from 1 to 6"),
        (["moves", "(1,0) . . / . . . / . . (0,1) A", "two"], None, "whole number"),
        (["moves", "(1,0) . . / . . . / . . (0,1) A"], None, "give a ROLL"),
        (["moves", "-"], "1 (1,0) . / . (0,1) A\nnonsense\n", "line 2:"),
        (["bench", "--games", "x"], None, "--games: the value must be a whole number"),
        (["fly"], None, "invalid choice"),
        ([], None, "required"),
    ],
)
def test_bad_arguments_are_one_line_errors(args, stdin, fragment):
    assert_one_line_error(amoeboid(*args, stdin=stdin), fragment)


def test_bench_prints_its_three_figures():
    result = amoeboid("bench", "--games", "200", "--board", "3", "--seed", "4")
    lines = out(result).splitlines()
    assert [line.split(":")[0] for line in lines] == ["games_per_s", "turns_per_s", "mean_turns"]
    assert all(float(line.split(": ")[1]) > 0 for line in lines)
    again = out(amoeboid("bench", "--games", "200", "--board", "3", "--seed", "4")).splitlines()
    assert again[2] == lines[2]  # same seed, same games (only the speeds may differ)
    assert 15 < float(lines[2].split(": ")[1]) < 35  # 3x3 games last about 23 turns


# --------------------------------------------------------------------------- moves: streamed, limited, counted


def test_moves_limit_gives_the_first_turns_in_sorted_order_and_the_total():
    position = Position.parse("(30,2) . / . (0,1) A")
    everything = sorted(str(t) for t in legal_turns(position, 1))
    result = amoeboid("moves", str(position), "1", "--limit", "50")
    lines = out(result).splitlines()
    assert lines[:-1] == everything[:50]
    assert lines[-1] == f"total: {len(everything)} (50 shown; --limit N shows more)"
    whole = out(amoeboid("moves", str(position), "1", "--limit", str(len(everything)))).splitlines()
    assert whole == everything + [f"total: {len(everything)}"]
    only_count = out(amoeboid("moves", str(position), "1", "--limit", "0")).splitlines()
    assert only_count == [f"total: {len(everything)} (0 shown; --limit N shows more)"]


@pytest.mark.parametrize("size", ["1000000", "99999999999999999999"])
def test_moves_of_huge_amoebae_answer_at_once(size):
    position = Position.parse(f"({size},0) . / . (0,1) A")
    result = amoeboid("moves", str(position), "1")
    assert result.returncode == 0, result.stderr
    lines = out(result).splitlines()
    assert len(lines) == 10_001 and lines[:-1] == sorted(lines[:-1])
    assert lines[-1] == f"total: {count_legal_turns(position, 1)} (10000 shown; --limit N shows more)"
    assert all(position.is_legal(line) for line in lines[:50] + lines[-51:-1])
    assert lines[0] == "1 a1 a1-a2 1,0" and lines[1] == "1 a1 a1-a2 10,0"


def test_moves_stdin_lines_are_limited_too():
    result = amoeboid("moves", "-", "--limit", "2", stdin="1 (1,0) . . / . . . / . . (0,1) A\n")
    assert out(result) == "1 a1 a1-a2 1,0; 1 a1 a1-a2 2,0; … (4 more)\n"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["moves", "(1,0) . / . (0,1) A", "1", "--limit", "x"], "--limit: the value must be a whole number"),
        (["moves", "(1,0) . / . (0,1) A", "1", "--limit", "\u0661\u0660"], "digits 0-9"),
        (["moves", "(1,0) . / . (0,1) A", "\u0663"], "the roll must be a whole number written with the digits 0-9"),
        (["moves", "(1,0) . / . (0,1) A", "9" * 5000], "the roll has 5000 digits"),
        (["moves", "(1," * 30_000 + " A", "1"], "… ("),
        (["moves", "(1,0) . / . (0,1) A\n(1,0) . / . (0,1) A", "1"], "neither"),
        (["bench", "--games", "\u0661"], "--games: the value must be a whole number"),
        (["fly" * 10_000], "invalid choice"),
    ],
)
def test_bad_input_gives_one_capped_line(args, fragment):
    result = amoeboid(*args)
    assert_one_line_error(result, fragment)
    assert len(result.stderr) < 1200


# --------------------------------------------------------------------------- replay: streamed


def back_and_forth(turns: int) -> str:
    """A legal record of any length: A walks a1<->b1, B walks c3<->b3, every roll a 1."""
    cycle = ["1 a1 a1-b1", "1 c3 c3-b3", "1 b1 b1-a1", "1 b3 b3-c3"]
    return "board 3x3\n" + "\n".join(cycle[i % 4] for i in range(turns)) + "\n"


REPLAY_PEAK = """
import io, json, pathlib, sys, tempfile, tracemalloc
from amoeboid_edu.cli import main
warm = pathlib.Path(tempfile.mkdtemp()) / "warm.txt"  # what the command imports on first use, imported before
warm.write_text("3 a1 a1-b1\\n2 c3 c3-b3\\n")
main(["replay", *sys.argv[1:-1], str(warm)], out=io.StringIO())
sink = io.StringIO()
tracemalloc.start()
code = main(["replay", *sys.argv[1:]], out=sink)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps([code, peak, sink.getvalue()]))
"""
"""Measured in a fresh interpreter: tracemalloc counts every thread's allocations, and a test process may hold others
(the session's browser driver), so the peak there is not the replay's alone."""


def replay_peak(tmp_path, turns: int, *flags: str) -> tuple[int, str]:
    """Peak memory allocated (tracemalloc) while the CLI replays a record of ``turns`` turns from a file."""
    path = tmp_path / f"long-{turns}.txt"
    path.write_text(back_and_forth(turns))
    done = subprocess.run([sys.executable, "-c", REPLAY_PEAK, *flags, str(path)], capture_output=True, text=True,
                          check=False, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    code, peak, text = json.loads(done.stdout)
    assert code == 0
    return peak, text


def test_replay_memory_does_not_grow_with_the_turns(tmp_path):
    small, small_out = replay_peak(tmp_path, 2_000)
    large, large_out = replay_peak(tmp_path, 20_000)
    assert small_out == "(1001,0) . . / . . . / . . (0,1001) A\nresult: ongoing\n"
    assert large_out == "(10001,0) . . / . . . / . . (0,10001) A\nresult: ongoing\n"
    assert large < small + 64_000, (small, large)  # ten times the turns, the same memory
    verbose_small, _ = replay_peak(tmp_path, 2_000, "-v")
    verbose_large, verbose_out = replay_peak(tmp_path, 20_000, "-v")
    assert len(verbose_out.splitlines()) == 20_000 + 2
    assert verbose_large > 5 * verbose_small  # -v keeps every position's text, as asked


def test_replay_reads_tabs_bom_and_names_header_lines(tmp_path):
    record = tmp_path / "tabs.txt"
    record.write_bytes("\ufeffboard\t3x3\n3\ta1\ta1-b1\n".encode())
    assert out(amoeboid("replay", str(record))) == ". (4,0) . / . . . / . . (0,1) B\nresult: ongoing\n"
    record.write_text("board 3x3\n\nboard 4x4\n")
    assert_one_line_error(amoeboid("replay", str(record)), "error: line 3: a second 'board' header")
    record.write_text("board 3x3\nstart (1,0) . / . (0,1) A\n")
    assert_one_line_error(amoeboid("replay", str(record)), "error: line 2: the start position is 2x2")
    record.write_bytes(b"3 a1 a1-b1\n2 c3 c3-b3 # caf\xe9\n")
    assert_one_line_error(amoeboid("replay", str(record)), "not UTF-8 text (bad byte at offset 27)")


@pytest.mark.parametrize("record", ["board 3x3\n", "", "# a game not yet played\nboard 3x3\n"])
def test_review_of_a_record_without_turns_says_so(tmp_path, record):
    """A record without turns is a valid record (replay prints its start): its review is empty, not a crash."""
    path = tmp_path / "empty.txt"
    path.write_text(record)
    result = amoeboid("review", str(path), "--rollouts", "20", "-q")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr.decode() == ""
    lines = out(result).splitlines()
    assert lines[1].startswith("start: A ") and lines[2] == "no turns: the record has none to review"
    assert lines[3] == "accuracy: A -, B -" and len(lines) == 4


def test_paper_item_prints_sections_and_its_misprints_are_listed():
    result = amoeboid("paper", "case-IV-matrices")
    assert result.returncode == 0, result.stderr.decode()
    text = out(result)
    heads = [line for line in text.splitlines() if line.startswith("## ")]
    assert heads[0].startswith("## case-IV-matrices: ") and "## Scope" in heads and "## Evidence" in heads
    assert "a1: paper (6,12), replay (6,6)" in text  # the last matrix's corner, found by the replay


def test_paper_explain_gives_sections_and_the_help_names_it():
    assert "--explain" in out(amoeboid("paper", "--help"))
    text = out(amoeboid("paper", "--explain", "example-game"))
    assert text.startswith("## example-game: confirmed\n") and "## How it was checked" in text
