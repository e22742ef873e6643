"""``amoeboid moves/replay --game nakajima|oosterwal`` as a student runs them: exit codes, one-line errors."""

from __future__ import annotations

import random
import subprocess

import pytest

from amoeboid_edu.namesakes import nakajima as nk
from amoeboid_edu.namesakes import oosterwal as oo
from cli_runner import amoeboid


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The command in-process (tests/cli_runner.py), with text output as ``subprocess.run(text=True)`` gives."""
    done = amoeboid(*args, stdin=stdin)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def test_nakajima_opening_moves_one_per_line_then_the_total():
    done = run("moves", "--game", "nakajima", "start")
    assert done.returncode == 0, done.stderr
    *lines, total = done.stdout.splitlines()
    assert lines == [str(move) for move in nk.legal_moves(nk.Position.start())]
    assert total == f"total: {nk.perft(nk.Position.start(), 1)}" and "e1-d1" in lines


def test_oosterwal_placements_with_their_scores():
    position = "A:5 B:0 | A2@0,0 o@2,0 A1@4,0 o@1,1 | B"
    done = run("moves", "--game", "oosterwal", position)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:-1] == [f"{p}@{x},{y} {p}" for x, y in ((2, 0), (1, 1)) for p in (1, 2, 3)]  # B has none near
    assert lines[-1] == "total: 6"
    mine = run("moves", "--game", "oosterwal", position.replace("| B", "| A")).stdout.splitlines()
    assert "3@2,0 9" in mine  # A: 3 x (2 + 1)
    assert "2@1,1 4" in mine  # A: 2 x 2 (the A2 up-left of it)


def test_positions_from_stdin_one_line_each():
    done = run("moves", "--game", "nakajima", "-", stdin="start\n\nstart\n")
    assert done.returncode == 0, done.stderr
    first, blank, third = done.stdout.splitlines()
    assert first == third and first.startswith("e1-e2; ") and blank == ""
    assert first.split("; ") == [str(move) for move in nk.legal_moves(nk.Position.start())]


@pytest.mark.parametrize("game, position", [("nakajima", "start"), ("oosterwal", "start 3")])
def test_limit_shows_at_most_n_moves_then_the_total_as_for_amoeboid(game, position):
    amoeboid = run("moves", "(1,0) . . / . . . / . . (0,1) A", "2", "--limit", "3").stdout.splitlines()
    assert len(amoeboid) == 4 and amoeboid[-1] == "total: 9 (3 shown; --limit N shows more)"  # the model
    everything = run("moves", "--game", game, position).stdout.splitlines()
    done = run("moves", "--game", game, position, "--limit", "3")
    assert done.returncode == 0, done.stderr
    total = len(everything) - 1
    assert done.stdout.splitlines() == everything[:3] + [f"total: {total} (3 shown; --limit N shows more)"]
    assert run("moves", "--game", game, position, "--limit", str(total)).stdout.splitlines() == everything
    piped = run("moves", "--game", game, "-", "--limit", "2", stdin=f"{position}\n").stdout.splitlines()
    assert piped == ["; ".join(everything[:2]) + f"; … ({total - 2} more)"]


def test_an_unquoted_oosterwal_start_is_read_as_the_start_of_n_players():
    done = run("moves", "--game", "oosterwal", "start", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == run("moves", "--game", "oosterwal", "start 3").stdout
    assert done.stdout.splitlines()[-1] == "total: 12"  # 4 empty chips x 3 sizes


def test_replay_a_nakajima_record(tmp_path):
    game = nk.random_game(random.Random(4))
    path = tmp_path / "game.txt"
    path.write_text("# a random game\n" + game.record())
    done = run("replay", "--game", "nakajima", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(game.position), f"result: {game.result} ({game.reason})"]
    verbose = run("replay", "--game", "nakajima", "-v", str(path)).stdout.splitlines()
    assert len(verbose) == len(game.moves) + 2


def test_replay_an_oosterwal_record_from_stdin():
    game = oo.random_game(random.Random(4), 3)
    done = run("replay", "--game", "oosterwal", "-", stdin=game.record())
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(game.position), f"result: {game.result}"]


@pytest.mark.parametrize(
    "args, stdin, words",
    [
        (("moves", "--game", "nakajima", "start", "3"), "", "no dice and its POSITION is one argument: quote it"),
        (("moves", "--game", "oosterwal", "A:0", "B:0"), "", "no dice and its POSITION is one argument: quote it"),
        (("moves", "--game", "oosterwal", "-", "3"), "", "quote it"),
        (("moves", "--game", "oosterwal", "A:0 B:0 | o@0,1 | A"), "", "X + Y must be even"),
        (("moves", "--game", "go", "start"), "", "invalid choice"),
        (("moves", "--game", "nakajima", "-"), "start\nnonsense\n", "line 2"),
        (("replay", "--game", "nakajima", "-"), "e1-d1\ne2-d2\n", "line 2: e2 is controlled by white"),
        (("replay", "--game", "oosterwal", "-"), "1@2,0 +6,0\n", "touch at least two chips"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args, stdin, words):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("error: ")
    assert words in done.stderr


def test_the_default_game_is_still_amoeboid():
    done = run("moves", "(1,0) . . / . . . / . . (0,1) A", "1")
    assert done.returncode == 0 and done.stdout.startswith("1 a1")
