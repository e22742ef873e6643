"""The class tournament: one match loop, resumable results, every executor giving the same games."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import hostile
from cli_runner import amoeboid

from amoeboid_edu.theory import analysis
from amoeboid_edu import lab, seeded_rng
from amoeboid_edu.players.bots import greedy
from amoeboid_edu.engine.game import TURN_CAP
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.lab.contest import RESULT_FIELDS
from amoeboid_edu.lab.ledger import Ledger, fingerprint, run_file
from amoeboid_edu.engine.match import play_match
from amoeboid_edu.lab.roster import read_folder
from amoeboid_edu.lab.stats import bradley_terry, ratings

WANDER = '''
from amoeboid_edu import legal_move_pairs


def wander(position, roll, rng):
    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(rng.choice(pairs))}" if pairs else f"{roll} {grow} -"
'''

FIRST_LEGAL = '''
from amoeboid_edu import legal_turns


def wander(position, roll, rng):  # the same function name as alice's: names come from the files
    return next(legal_turns(position, roll))


strategy = wander
'''

SNOOPS = '''
import gc
import random
import sys

GIVEN = []


def strategy(position, roll, rng):
    """Looks everywhere in its process for the harness's dice (hostile.snoops_for_dice, as a student file)."""
    GIVEN.append(rng)
    stand_ins = {id(getattr(sys.modules.get(name), "_entropy", None)) for name in ("__main__", "amoeboid_edu.sandbox.worker")}
    own = {id(generator) for generator in GIVEN} | {id(random._inst)} | stand_ins  # OS entropy's stand-in
    found = [obj for obj in gc.get_objects()  # a SystemRandom (NumPy's secrets) has no seed: not the dice
             if isinstance(obj, random.Random) and not isinstance(obj, random.SystemRandom) and id(obj) not in own]
    frame = sys._getframe()
    while frame is not None:
        found += [value for key, value in frame.f_locals.items() if "dice" in key.lower()]
        frame = frame.f_back
    if found:
        return "found the dice"
    raise LookupError("no dice generator in reach")
'''

LOOPS = '''
def strategy(position, roll, rng):
    while True:
        pass
'''

SYNTAX_ERROR = '''
from amoeboid_edu import legal_turns

def strategy(position, roll, rng)
    return next(legal_turns(position, roll))
'''


def notebook(path: Path, source: str, tags: list[str]) -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# My strategy"},
             {"cell_type": "code", "metadata": {"tags": tags}, "source": source.splitlines(keepends=True),
              "outputs": [], "execution_count": None}]  # fmt: skip
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


@pytest.fixture
def classroom(tmp_path) -> Path:
    """Two good students with the same function name, a notebook student, and the usual accidents."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(WANDER + "\nstrategy = wander\n")
    (folder / "bob.py").write_text(FIRST_LEGAL)
    (folder / "broken.py").write_text(SYNTAX_ERROR)
    (folder / "looper.py").write_text(LOOPS)
    notebook(folder / "carol.ipynb", WANDER + "\nclass Player:\n    choose = staticmethod(wander)\n\nstrategy = Player()\n",
             ["strategy"])
    notebook(folder / "dave.ipynb", WANDER + "\nstrategy = wander\n", ["solution"])
    (folder / "_helpers.py").write_text("raise SystemExit('not a student')\n")
    return folder


# --------------------------------------------------------------------------- one match loop


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_game_in_process_is_the_same_game_in_the_sandbox(seat):
    card = lab.score(hostile.plays_fair, games=6, seed=21, opponents=["greedy"], progress=False)
    for record in card.records:
        if record.first_seat != seat:
            continue
        match = play_match(hostile.plays_fair, greedy, seed=21, pair=record.pair, first_seat=seat, table=("greedy",))
        assert (match.winner, len(match.turns), match.capped) == (record.winner, record.turns, record.capped)


def test_analysis_play_game_is_play_match_with_seats_as_given():
    game = analysis.play_game(BOTS["random"], greedy, seed=3, index=4, max_turns=200)
    match = play_match(BOTS["random"], greedy, seed=3, pair=4, max_turns=200)
    assert list(game.turns) == match.turns and game.result == match.position.result


def test_the_pair_of_a_dice_seed_rolls_the_same_dice_for_both_seats():
    rolls = {}
    for seat in "AB":
        match = play_match(greedy, BOTS["random"], seed="dice", pair=2, first_seat=seat, max_turns=12)
        rolls[seat] = [turn.roll for turn in match.turns]
    common = min(len(rolls["A"]), len(rolls["B"]))
    assert common >= 3 and rolls["A"][:common] == rolls["B"][:common]


def test_two_entrants_meet_different_dice_against_a_bot_and_a_rerun_meets_the_same(tmp_path):
    """Two hand-ins that play alike (one student's two files, or two who collude) must not share their dice against a
    bot: one could pass the other its coming rolls.  Both play the first legal turn, and the bot's choices do not
    depend on who it plays, so the two entrants' games against it differ only if their dice do."""
    folder = tmp_path / "twins"
    folder.mkdir()
    for name in ("ann", "ann_again"):
        (folder / f"{name}.py").write_text(FIRST_LEGAL)

    def against_random(result) -> dict[str, list]:
        frame = result.to_frame()
        mine = frame[frame["opponent"] == "random"].sort_values(["pair", "seat"])
        return {name: list(zip(games["result"], games["turns"])) for name, games in mine.groupby("player")}

    first = lab.tournament(folder, games=8, seed=4, opponents=["random"], out=tmp_path / "one.csv", progress=False)
    games = against_random(first)
    assert games["ann"] != games["ann_again"]
    again = lab.tournament(folder, games=8, seed=4, opponents=["random"], out=tmp_path / "two.csv", progress=False)
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert against_random(again) == games


# --------------------------------------------------------------------------- ratings


def test_bradley_terry_two_players_is_the_win_ratio():
    score = np.array([[0.0, 30.0], [10.0, 0.0]])
    games = np.array([[0.0, 40.0], [40.0, 0.0]])
    strength = bradley_terry(score, games, prior=0)
    assert strength[0] / strength[1] == pytest.approx(3.0, rel=1e-8)
    shrunk = bradley_terry(score, games, prior=1)
    assert 1 < shrunk[0] / shrunk[1] < 3  # the prior pulls towards the reference, never past it


def test_bradley_terry_solves_its_likelihood_equations():
    rng = np.random.default_rng(5)
    games = rng.integers(1, 20, size=(5, 5)).astype(float)
    games = np.triu(games, 1) + np.triu(games, 1).T
    score = np.triu(games * rng.uniform(0.1, 0.9, size=(5, 5)), 1)
    score = score + np.triu(games, 1).T - score.T
    strength = bradley_terry(score, games, prior=0)
    expected = (games * strength[:, None] / (strength[:, None] + strength[None, :])).sum(axis=1)
    assert expected == pytest.approx(score.sum(axis=1), rel=1e-7)  # expected wins equal actual wins


def test_ratings_rank_and_intervals_are_seeded():
    games = pd.DataFrame({"first": ["a"] * 20 + ["b"] * 20 + ["a"] * 20, "second": ["b"] * 20 + ["c"] * 20 + ["c"] * 20,
                          "score": [1.0] * 15 + [0.0] * 5 + [1.0] * 14 + [0.5] * 6 + [1.0] * 20})
    table = ratings(games, ["a", "b", "c"], seed=1)
    assert table.sort_values("rating", ascending=False)["player"].tolist() == ["a", "b", "c"]
    assert (table["rating_low"] <= table["rating"]).all() and (table["rating"] <= table["rating_high"]).all()
    assert table.equals(ratings(games, ["a", "b", "c"], seed=1))
    assert not table.equals(ratings(games, ["a", "b", "c"], seed=2))
    # Rounded: the last bits of a fit differ between CPUs, and a saved lesson's chart must not.
    numbers = table[["rating", "rating_low", "rating_high"]]
    assert numbers.equals(numbers.round(4))


# --------------------------------------------------------------------------- the folder and the results file


def test_read_folder_names_students_by_file_and_reports_unreadable_ones(classroom):
    sources, unread = read_folder(classroom)
    assert [s.name for s in sources] == ["alice", "bob", "broken", "carol", "looper"]
    assert [(name, error.partition(": tag the cell")[0]) for name, error in unread] == [
        ("dave", "no code cell tagged 'strategy' in dave.ipynb")]
    (classroom / ".." / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no strategy files"):
        read_folder(classroom / ".." / "empty")


def test_ledger_cuts_a_torn_line_and_refuses_another_run(tmp_path):
    path = tmp_path / "games.csv"
    ledger = Ledger(path, ["k", "v"], ["k"], "run1")
    ledger.add([{"k": 1, "v": "x"}, {"k": 2, "v": "y, with a comma"}])
    ledger.close()
    with open(path, "a") as file:
        file.write("run1,3,tor")  # killed mid-write
    again = Ledger(path, ["k", "v"], ["k"], "run1")
    assert sorted(again.rows) == [("1",), ("2",)] and again.rows[("2",)]["v"] == "y, with a comma"
    assert again.add([{"k": 2, "v": "y, with a comma"}, {"k": 3, "v": "z"}]) == [{"run": "run1", "k": "3", "v": "z"}]
    assert again.add([{"k": 1, "v": "different"}]) == [] and again.conflicts == [("1",)]  # the record stands
    assert again.rows[("1",)]["v"] == "x"
    again.close()
    with pytest.raises(ValueError, match="another run"):
        Ledger(path, ["k", "v"], ["k"], "run2")


def test_a_class_folder_with_every_accident_completes(classroom, tmp_path):
    out = tmp_path / "results.csv"
    result = lab.tournament(classroom, games=2, seed=3, out=out, opponents=["random"], per_move_limit=0.2,
                            progress=False)
    assert {name: error.partition(": tag the cell")[0] for name, error in result.not_loaded} == {
        "broken": "SyntaxError line 4: expected ':'",
        "dave": "no code cell tagged 'strategy' in dave.ipynb",
    }
    assert set(result.names) == {"alice", "bob", "carol", "looper", "random"}
    table = result.table()
    assert (table["games"] == 2 * 4).all()  # each plays the four others; the broken file's games are not counted
    looper = table.set_index("player").loc["looper"]
    assert looper["losses"] == 8 and looper["forfeits"] == 8
    assert set(result.forfeits().query("player == 'looper'")["reason"]) == {"timeout"}
    text = str(result)
    assert "broken: did not load: SyntaxError line 4: expected ':'" in text
    assert "dave: did not load: no code cell tagged 'strategy'" in text
    rows = pd.read_csv(out)
    assert len(rows) == 15 * 2  # every pairing of the six that ran (the broken file too), 2 games each
    assert list(rows.columns) == ["run", *RESULT_FIELDS]
    page = out.with_suffix(".html").read_text()
    assert page.count("<svg") == 3 and "did not load" in page and "looper" in page


def test_rerunning_a_finished_tournament_plays_nothing_and_changes_nothing(tmp_path):
    out = tmp_path / "results.csv"
    first = lab.tournament(["random", greedy], games=4, seed=1, out=out, progress=False)
    before = out.read_bytes()
    again = lab.tournament(["random", greedy], games=4, seed=1, out=out, progress=False)
    assert out.read_bytes() == before and again.records == first.records
    with pytest.raises(ValueError, match="another run"):
        lab.tournament(["random", greedy], games=4, seed=2, out=out, progress=False)


# --------------------------------------------------------------------------- executors and crashes


def run_cli(*args) -> subprocess.CompletedProcess:
    """``amoeboid tournament ARGS`` run in this process (tests/cli_runner.py), with its output as text."""
    done = amoeboid("tournament", *map(str, args))
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def small_class(tmp_path) -> Path:
    folder = tmp_path / "small"
    folder.mkdir()
    (folder / "alice.py").write_text(WANDER + "\nstrategy = wander\n")
    (folder / "bob.py").write_text(FIRST_LEGAL)
    return folder


def test_same_rows_serial_and_processes(tmp_path):
    """A Dask cluster gives the serial rows too (with this snooper among the entrants): ``test_dask_tls.py``, on the
    cluster it starts anyway."""
    folder = small_class(tmp_path)
    (folder / "snoop.py").write_text(SNOOPS)  # on every executor, the dice stay out of the student's reach
    files = {}
    for executor in ("serial", "processes:2"):
        out = tmp_path / f"{executor.split(':')[0]}.csv"
        done = run_cli(folder, "--games", "14", "--batch", "3", "--seed", "7", "--opponents", "random", "--out", out,
                       "--executor", executor, "-q")
        assert done.returncode == 0, done.stderr
        assert "leaderboard:" in done.stdout
        files[executor] = out.read_bytes()
    serial, processes = files.values()
    assert serial == processes
    assert serial.count(b"\n") == 1 + 6 * 14  # six pairings of 7 seeds, in batches of 3 + 3 + 1 seeds
    rows = pd.read_csv(tmp_path / "serial.csv")
    snooped = rows[(rows["first"] == "snoop") | (rows["second"] == "snoop")]
    assert len(snooped) == 3 * 14 and set(snooped["value"]) == {"LookupError: no dice generator in reach"}


def test_killed_at_a_random_point_then_rerun_gives_the_same_rows(tmp_path):
    folder = small_class(tmp_path)
    reference = tmp_path / "reference.csv"
    assert run_cli(folder, "--games", "24", "--batch", "4", "--seed", "5", "--opponents", "random", "--out", reference,
                   "-q").returncode == 0
    total = reference.read_text().count("\n") - 1
    out = tmp_path / "killed.csv"
    # Rows arrive a batch at a time (12 here), so a point in the first half leaves at least two batches unplayed;
    # a seeded point in it, printed on failure.
    kill_after = seeded_rng("tournament kill point").randint(1, total // 2)
    command = [sys.executable, "-m", "amoeboid_edu", "tournament", str(folder), "--games", "24", "--batch", "4",
               "--seed", "5", "--opponents", "random", "--out", str(out), "-q"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") > kill_after:
            os.killpg(process.pid, signal.SIGSTOP)  # frozen at once, so no later batch lands before the kill
            break
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    recorded = out.read_bytes().count(b"\n") - 1
    assert 0 < recorded < total, (kill_after, recorded)
    done = run_cli(folder, "--games", "24", "--batch", "4", "--seed", "5", "--opponents", "random", "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == reference.read_bytes(), kill_after


COUNTS_ITS_MOVES = '''
from amoeboid_edu import legal_move_pairs

MOVES = [0]


def strategy(position, roll, rng):
    """Keeps state across games: its choice depends on every move it made before in this process."""
    MOVES[0] += 1
    owned = position.owned()
    grow = owned[MOVES[0] % len(owned)]
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(pairs[MOVES[0] * 7919 % len(pairs)])}" if pairs else f"{roll} {grow} -"
'''


def test_a_resumed_batch_is_played_whole_so_a_strategy_with_state_gets_the_same_rows(tmp_path):
    folder = tmp_path / "stateful"
    folder.mkdir()
    (folder / "counter.py").write_text(COUNTS_ITS_MOVES)
    reference, out = tmp_path / "reference.csv", tmp_path / "resumed.csv"
    args = ("--games", "8", "--batch", "4", "--seed", "5", "--opponents", "random", "-q")
    assert run_cli(folder, *args, "--out", reference).returncode == 0
    lines = reference.read_text().splitlines(keepends=True)
    kept = [line for line in lines if ",2,A," not in line and ",2,B," not in line]  # seed pair 2, mid-batch, lost
    assert len(kept) == len(lines) - 2
    out.write_text("".join(kept))
    done = run_cli(folder, *args, "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == reference.read_bytes()


def test_cli_errors_are_one_line_with_status_2(tmp_path):
    folder = small_class(tmp_path)
    out = tmp_path / "r.csv"
    for args, message in (
        ([folder, "--out", out], "--seed S or --seed-file F"),
        ([folder, "--out", out, "--seed", "1", "--executor", "threads"], "expected serial, processes:K or dask"),
        ([folder, "--out", out, "--seed", "1", "--games", "3"], "even"),
        ([tmp_path / "nowhere", "--out", out, "--seed", "1"], "not a folder"),
        ([folder, "--out", out, "--seed-file", tmp_path / "missing.txt"], "cannot read"),
    ):
        done = run_cli(*args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, (args, done.stderr)


def test_an_out_that_is_the_leaderboards_file_is_refused_before_anything_is_written(tmp_path):
    # found in review: --out results.html received the games, then the leaderboard over them; the rerun then failed
    folder = small_class(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    (work / "linked.html").symlink_to(work / "linked.csv")  # the leaderboard's name, a link to the games file
    for out in ("results.html", "RESULTS.HTM", "linked.csv"):
        done = run_cli(folder, "--games", "2", "--seed", "1", "--out", work / out, "-q")
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (out, done.stderr)
        assert "the leaderboard is written to" in done.stderr and "would overwrite it" in done.stderr, done.stderr
    with pytest.raises(ValueError, match="would overwrite it"):
        lab.tournament(["random", greedy], games=2, out=work / "api.html", progress=False)
    assert sorted(p.name for p in work.iterdir()) == ["linked.html"]  # nothing was written
    assert lab.leaderboard_path(work / "results.csv") == work / "results.html"


def test_a_resume_with_other_settings_or_other_code_is_refused_naming_what_differs(tmp_path):
    # found in review: the fingerprint left out --batch, the load limit and the students' code, so resuming with
    # another --batch, or after a student changed their file, silently mixed the games of two runs
    folder = small_class(tmp_path)
    out = tmp_path / "r.csv"
    same = ("--games", "6", "--seed", "5", "--out", out, "-q")
    assert run_cli(folder, *same, "--batch", "1").returncode == 0
    finished = out.read_bytes()
    lines = finished.decode().splitlines(keepends=True)
    out.write_text("".join(line for line in lines if ",1,A," not in line))  # a run cut short: two games missing
    partial = out.read_bytes()
    for other, what in ((("--batch", "2"), "seeds per batch: 1 -> 2"),
                        (("--batch", "1", "--per-move-limit", "2"), "per-move limit: 1 s -> 2 s"),
                        (("--batch", "1", "--opponents", "random"), "random added")):  # fmt: skip
        done = run_cli(folder, *same, *other)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "holds games of another run" in done.stderr and what in done.stderr, done.stderr
        assert out.read_bytes() == partial
    (folder / "bob.py").write_text(FIRST_LEGAL + "\n# bob changed his file between the two runs\n")
    done = run_cli(folder, *same, "--batch", "1")
    assert done.returncode == 2 and "(bob's code changed)" in done.stderr, done.stderr
    assert out.read_bytes() == partial
    (folder / "bob.py").write_text(FIRST_LEGAL)
    moved = tmp_path / "moved"  # the same code in another folder, on another executor: the same run, resumed
    shutil.copytree(folder, moved)
    done = run_cli(moved, *same, "--batch", "1", "--executor", "processes:2")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == finished


def test_a_results_file_whose_run_cannot_be_checked_is_refused(tmp_path):
    out = tmp_path / "r.csv"
    lab.tournament(["random", greedy], games=2, seed=1, out=out, progress=False)
    header, *rows = out.read_text().splitlines(keepends=True)
    run = rows[0].split(",")[0]
    earlier = fingerprint("1", 3, TURN_CAP, 1.0)  # what the first fingerprint covered
    out.write_text(header + "".join(row.replace(run, earlier, 1) for row in rows))
    with pytest.raises(ValueError, match="earlier version of amoeboid_edu, whose fingerprint left out the batch size"):
        lab.tournament(["random", greedy], games=2, seed=1, out=out, progress=False)
    out.write_text(header + "".join(rows))
    run_file(out).unlink()  # without the description beside it, a refusal says what the fingerprint covers
    with pytest.raises(ValueError, match=r"another run \(its fingerprint differs: format, version, seed, games per"):
        lab.tournament(["random", greedy], games=2, seed=2, out=out, progress=False)
    lab.tournament(["random", greedy], games=2, seed=1, out=out, progress=False)  # the same run: read, kept
    assert run_file(out).exists()


def test_a_seed_file_keeps_the_seed_out_of_the_output(tmp_path):
    folder = small_class(tmp_path)
    (tmp_path / "seed.txt").write_text("kept-secret-1234\n")
    out = tmp_path / "r.csv"
    done = run_cli(folder, "--games", "2", "--seed-file", tmp_path / "seed.txt", "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    assert "seed from seed.txt" in done.stdout
    assert "isolation: process" in done.stdout  # the walls of the games, also when the card is rebuilt from the file
    for text in (done.stdout, out.read_text(), out.with_suffix(".html").read_text()):
        assert "kept-secret-1234" not in text


def test_a_seed_file_the_strategies_could_read_is_refused(tmp_path):
    # found by the red team: a student's import listed *.seed files in its own folder and read the contest seed
    folder = small_class(tmp_path)
    (folder / "contest.seed").write_text("0123456789abcdef0123456789abcdef\n")
    done = run_cli(folder, "--games", "2", "--seed-file", folder / "contest.seed", "--out", tmp_path / "r.csv", "-q")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "which strategies may read" in done.stderr and not (tmp_path / "r.csv").exists()


def test_a_student_file_that_is_a_link_is_not_read(tmp_path):
    # found by the red team: mallory.py -> ../contest.seed was read as a student's source, and its load error
    # ("NameError: name 'deadbeef...' is not defined") put the secret seed on the leaderboard
    folder = small_class(tmp_path)
    secret = tmp_path / "contest.seed"
    secret.write_text("deadbeef308dc1e6ff908417f085af91\n")
    (folder / "mallory.py").symlink_to(secret)
    (tmp_path / "elsewhere.py").write_text(WANDER + "\nstrategy = wander\n")
    os.link(tmp_path / "elsewhere.py", folder / "twin.py")  # a hard link: a file outside, under another name
    _, unread = read_folder(folder)
    assert dict(unread)["mallory"] == "a link, not read: hand in the file itself"
    assert dict(unread)["twin"].startswith("a file with other names")
    out = tmp_path / "r.csv"
    done = run_cli(folder, "--games", "2", "--seed-file", secret, "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    assert "mallory" in done.stdout
    for text in (done.stdout, out.read_text(), out.with_suffix(".html").read_text()):
        assert "deadbeef" not in text


def test_no_cell_of_the_results_file_is_a_formula_to_a_spreadsheet(tmp_path):
    # found by the red team: an answer or a file name beginning with "=" opened as a formula in a spreadsheet
    folder = small_class(tmp_path)
    (folder / "=1+1.py").write_text(WANDER + "\nstrategy = wander\n")
    (folder / "linker.py").write_text('def strategy(position, roll, rng):\n    return \'=HYPERLINK("http://x", "prize")\'\n')
    out = tmp_path / "r.csv"
    done = run_cli(folder, "--games", "2", "--seed", "1", "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(out.open()))
    assert not [cell for row in rows for cell in row if cell.startswith(("=", "+", "-", "@"))]
    assert any(cell == "'=1+1" for row in rows for cell in row)
    assert any(cell.startswith("'=HYPERLINK") for row in rows for cell in row)


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path):
    # found by the red team: an ESC in a file name reached the terminal raw and aborted the chart renderer
    folder = small_class(tmp_path)
    (folder / "\x1b[31mred\u202e.py").write_text(WANDER + "\nstrategy = wander\n")
    out = tmp_path / "r.csv"
    done = run_cli(folder, "--games", "2", "--seed", "1", "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout and "\\x1b[31mred\\u202e" in done.stdout
    assert "\x1b" not in out.with_suffix(".html").read_text()


def test_a_notebook_with_a_lone_surrogate_did_not_load_and_the_class_goes_on(tmp_path):
    """A fresh red team: a tagged cell spelling "\\ud800" in its JSON stopped the whole tournament (encoding it)."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text("def strategy(position, roll, rng):\n    return None\n")
    cell = '{"cell_type": "code", "metadata": {"tags": ["strategy"]}, "source": "x = \\"\\ud800\\"", "outputs": []}'
    (folder / "odd.ipynb").write_text('{"cells": [' + cell + '], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    students, unread = read_folder(folder)
    assert [s.name for s in students] == ["alice"]
    assert [name for name, _ in unread] == ["odd"] and "not Unicode" in unread[0][1]
