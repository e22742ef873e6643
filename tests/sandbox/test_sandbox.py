"""The hostile suite: a strategy attacks the process that scores it; the scorer survives and says why it forfeited.

Each attack asserts that the run completes (a card, exit status 0 from the CLI), that the card names the
forfeit, and that no process outlives the run: this test process becomes a subreaper, so anything a run
leaves behind is re-parented here, where a scan of /proc finds it.  Tests marked ``not_a_subreaper`` (a killed
scorer) must not be one, which would hide orphans: they find the run's processes by a mark in their
environment instead.  See docs/threat-model.md.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import hostile
from jupyter_harness import SESSION_HELPERS, living_parents
from amoeboid_edu.sandbox import harness as _harness
from amoeboid_edu.sandbox import processes as _processes
from amoeboid_edu.sandbox import protocol as _protocol
from amoeboid_edu.sandbox import text as _text
from amoeboid_edu.sandbox import walls as _walls
from amoeboid_edu.lab import score, tournament, wilson_interval
from amoeboid_edu.engine.rules import Amoeba, Position

STRATEGIES = Path(__file__).parents[1] / "strategies"
QUICK = dict(games=2, seed=1, opponents=["random"], progress=False, per_move_limit=5.0, workers=1)
"""A short card played here (``workers=1``): the attacks are on the sandbox, whoever runs it; left to the default,
the executor would depend on the machine's cores (a pool of processes on two).  What a pool changes is checked
where a test asks for one (``workers=2``, ``--workers 2``, ``processes:2``)."""

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the walls and the /proc scan are Linux's")
WALLS = "isolation: process + seccomp + landlock (files, tcp, signals) + seal"
"""What this machine (Linux 6.x, libseccomp, Landlock ABI >= 6) must report."""


def living_descendants(root: int, leaving_out: frozenset[int] = frozenset()) -> list[int]:
    """Processes below ``root`` that are not zombies (read from /proc, apart from the sandbox's own reading), without
    the subtrees of ``leaving_out``."""
    parents = living_parents()
    found, frontier = [], {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in leaving_out}
        found += sorted(frontier)
    return found


PRESENT_BEFORE: set[int] = set()
"""Descendants this test process already had when the test began (another module's pool, say): not the test's."""


def left_by_the_test() -> list[int]:
    """The test's descendants, except multiprocessing's resource tracker (a ``processes:K`` pool starts one per
    process, which lives as long as this process and runs no student code) and what the session's JupyterLab and
    Chromium start (jupyter_harness.SESSION_HELPERS: an xdist worker that ran a browser test keeps them)."""
    def tracker(pid: int) -> bool:
        try:
            return b"multiprocessing.resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False

    return [pid for pid in living_descendants(os.getpid(), frozenset(SESSION_HELPERS))
            if pid not in PRESENT_BEFORE and not tracker(pid)]


def settled(deadline: float = 30.0) -> list[int]:
    """The descendants the test started that are still alive once the run's clean-up had ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while left_by_the_test() and time.monotonic() < end:
        time.sleep(0.05)
    return left_by_the_test()


@pytest.fixture(autouse=True)
def adopt_orphans(request):
    """Make this process a subreaper for the test: orphans land here; afterwards kill and reap them."""
    PRESENT_BEFORE.clear()
    PRESENT_BEFORE.update(living_descendants(os.getpid()))
    libc = ctypes.CDLL(None, use_errno=True)
    if request.node.get_closest_marker("not_a_subreaper"):
        yield
        return
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    try:
        yield
    finally:
        for pid in left_by_the_test():
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
        for name in os.listdir("/proc"):
            try:
                fields = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()
                if int(fields[1]) == os.getpid() and fields[0] == b"Z":
                    os.waitpid(int(name), os.WNOHANG)
            except (OSError, ValueError, ChildProcessError):
                pass
        libc.prctl(36, 0, 0, 0, 0)


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``amoeboid score ...`` as a teacher runs it; a frozen run is killed (and fails the test) after ``timeout``."""
    process = subprocess.Popen([sys.executable, "-m", "amoeboid_edu", "score", *args, "-q"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=STRATEGIES)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"amoeboid score did not finish within {timeout} s (frozen?)")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def forfeit_line(card_text: str) -> str:
    lines = [line for line in card_text.splitlines() if line.startswith("  ") and " x" in line]
    assert lines, card_text
    return lines[0]


# --------------------------------------------------------------------------- the parent cannot be taken down


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("attack", ["kills_its_parents", "stops_its_parents"])
def test_a_strategy_cannot_kill_or_stop_the_scorer(attack, workers):
    done = run_cli(f"hostile:{attack}", "--games", "2", "--opponents", "random,greedy", "--workers", workers,
                   "--per-move-limit", "10")  # generous: these moves return at once, a loaded machine must not time out
    assert done.returncode == 0, done.stderr
    assert f"{attack}: 4 games" in done.stdout and WALLS in done.stdout
    line = forfeit_line(done.stdout)
    assert "exception x4: RuntimeError: still here: PermissionError" in line, line
    assert settled() == []


def test_a_daemon_started_during_a_move_does_not_survive():
    card = score(hostile.escapes_by_double_fork, **QUICK)
    assert set(card.to_frame()["reason"]) == {"exception"}
    assert all("PermissionError" in value for value in card.to_frame()["value"])  # no new processes in a game
    assert settled() == []


def test_a_daemon_started_by_the_import_is_refused():
    """The import runs in the game process, behind its no-new-processes wall (a red team's hopping daemon once
    outran the sweep of the template's import-time children)."""
    card = score("forks_at_import:plays_fair", **QUICK)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"load"} and frame["value"].str.contains("PermissionError").all(), frame["value"]
    assert settled() == []


def test_an_import_that_rewrites_the_walls_still_plays_behind_them():
    card = score("patches_the_walls:forks_in_a_move", **QUICK)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"exception"} and frame["value"].str.contains("PermissionError").all(), frame
    assert "seccomp" in card.walls
    assert settled() == []


def test_a_thread_started_by_the_import_is_refused():
    """A thread would outlive the import in the template, beyond every game's seeding and no-fork wall."""
    card = score("threads_at_import:plays_fair", **QUICK)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"load"}
    assert all("can't start new thread" in value for value in frame["value"]), frame["value"].tolist()
    assert settled() == []


@pytest.mark.parametrize("games", [2, 40])
def test_no_process_plays_both_games_of_a_dice_pair(games):
    """The twins of a pair share their dice: one process seeing both could tell the other's future rolls."""
    card = score(hostile.sees_both_seats, **dict(QUICK, games=games, opponents=["random", "greedy"]))
    assert card.forfeits().empty, card.forfeits()


def test_no_process_meets_the_same_dice_against_two_opponents():
    """Found by the red team: a pair's dice were the same against every opponent, and one seat's worker plays them all."""
    card = score(hostile.remembers_rolls_by_move, **dict(QUICK, games=40, opponents=["random", "greedy"]))
    assert card.forfeits().empty, card.forfeits()["value"].tolist()[:3]


def test_the_scorer_opens_no_file_a_worker_names(tmp_path, monkeypatch):
    """Found by the red team: the harness read the source line of any file the worker said it raised in."""
    monkeypatch.chdir(tmp_path)  # where the scorer would find the relative name, and the worker cannot
    (tmp_path / "secret-of-the-scorer.txt").write_text("SECRET-0123abcd\n")
    card = score(hostile.raises_from_a_file_it_names, **QUICK)
    messages = card.forfeits()["message"].tolist()
    assert messages and all("line 1 of secret-of-the-scorer.txt" in message for message in messages), messages
    assert "SECRET" not in str(card) + repr(card.to_frame().to_dict())


def test_what_a_worker_says_of_where_it_raised_is_escaped_and_cut():
    card = score(hostile.raises_with_a_nasty_name, **QUICK)
    messages = card.forfeits()["message"].tolist()
    assert messages and all(len(m) <= 2 * _text.LINE_WIDTH and "\x1b" not in m and "\u202e" not in m for m in messages)
    assert all("\\x1b" in m for m in messages), messages


def test_the_worker_dies_with_a_killed_scorer():
    """The run's processes are found by a mark in the scorer's environment and the harness the lab names in its
    sandboxes' (:func:`ours`), not as this process's descendants: under xdist, another test's server may start a
    process here at the same time."""
    mark = f"amoeboid-test-{os.getpid()}-{time.monotonic_ns()}"
    process = subprocess.Popen([sys.executable, "-m", "amoeboid_edu", "score", "hostile:loops_forever", "--games",
                                "2", "--opponents", "random", "--per-move-limit", "60", "-q"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=STRATEGIES,
                               env=dict(os.environ, AMOEBOID_TEST_MARK=mark))
    end = time.monotonic() + 60
    while len([pid for pid, what in ours(mark).items() if what.startswith(b"sandbox")]) < 3:  # supervisor,
        assert time.monotonic() < end and process.poll() is None, "the worker never started"  # template, game
        time.sleep(0.05)
    time.sleep(0.5)  # the game process is in its endless loop
    process.kill()
    process.wait()
    assert left_of_run(mark, 30) == {}


# --------------------------------------------------------------------------- secrets


def test_the_seed_is_out_of_reach_of_argv_environment_proc_and_memory(monkeypatch):
    secret = "SECRET-" + os.urandom(4).hex()
    monkeypatch.setenv("AMOEBOID_CONTEST_SEED", secret)  # a teacher's environment reaches no worker
    card = score(hostile.steals_the_seed, **dict(QUICK, seed=secret))
    values = set(card.to_frame()["value"])
    assert len(values) == 1 and values.pop().startswith("RuntimeError: no secret in reach"), card.to_frame()["value"]


def test_the_cli_keeps_a_seed_file_secret(tmp_path):
    secret = "SECRET-" + os.urandom(4).hex()
    seed_file = tmp_path / "contest.seed"
    seed_file.write_text(secret + "-" + os.urandom(16).hex() + "\n")
    done = run_cli("hostile:steals_the_seed", "--seed-file", str(seed_file), "--games", "2", "--opponents",
                   "random")
    assert done.returncode == 0, done.stderr
    assert secret not in done.stdout and "(secret)" in done.stdout.splitlines()[0]
    assert "exception x2: RuntimeError: no secret in reach" in forfeit_line(done.stdout)
    # The same seed file gives the same card but for its one measured line; a seed on the command line is visible
    # to `ps`, and so weaker.
    measured = re.compile(r"\([0-9.]+ (ms|s) on average, [0-9.]+ (ms|s) at most\)")
    again = run_cli("hostile:steals_the_seed", "--seed-file", str(seed_file), "--games", "2", "--opponents", "random")
    assert measured.sub("", again.stdout) == measured.sub("", done.stdout) and measured.search(done.stdout)


def test_a_seed_file_where_strategies_may_read_it_is_refused(tmp_path):
    done = run_cli("hostile:plays_fair", "--seed-file", str(STRATEGIES / "student.py"))
    assert done.returncode == 2 and "which strategies may read" in done.stderr and done.stderr.count("\n") == 1
    (tmp_path / "short.seed").write_text("1234\n")
    done = run_cli("hostile:plays_fair", "--seed-file", str(tmp_path / "short.seed"))
    assert done.returncode == 2 and "at least 16 characters" in done.stderr


def test_the_worker_gets_a_scrubbed_environment_and_no_stray_file_descriptors():
    value = score(hostile.inspects_its_process, **QUICK).to_frame()["value"].iloc[0]
    fds = value.split("fds ")[1].split(" env")[0]
    assert fds.count(",") == 0 and fds != "[]", value  # its socket alone: sealed, it closed the rest
    environment = set(value.split("env ")[1].strip("[]").replace("'", "").split(", "))
    assert environment <= {"PATH", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "HOME", "TMPDIR",
                           "LC_ALL", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                           _harness.HARNESS_MARK}, value  # the harness's pid, in its command line already


def test_no_network_and_no_writes_anywhere_and_the_run_leaves_no_folder():
    """A game process writes nothing, not even in a private folder: none exists (found by the red team: a disk
    filled from the private folder, and after a killed scorer the folders stayed)."""
    network = score(hostile.opens_a_socket, **QUICK).to_frame()["value"]
    assert network.str.startswith("RuntimeError: no network (PermissionError)").all(), network.iloc[0]
    temporary = Path(tempfile.gettempdir())
    before = set(temporary.glob("amoeboid-strategy-*"))
    writes = score(hostile.writes_anywhere, **QUICK).to_frame()["value"]
    assert (writes == "RuntimeError: kept out (PermissionError, PermissionError, PermissionError, PermissionError, "
                      "PermissionError, FileNotFoundError)").all(), writes.iloc[0]
    assert set(temporary.glob("amoeboid-strategy-*")) == before


# --------------------------------------------------------------------------- determinism and import once


@pytest.mark.parametrize("strategy", [hostile.uses_global_random, hostile.uses_numpy_global, hostile.uses_os_entropy,
                                      hostile.uses_raw_entropy], ids=["random", "numpy", "os-entropy", "raw-entropy"])
def test_module_level_and_os_seeded_generators_are_seeded_per_move(strategy):
    """raw-entropy (found by the red team): os.getrandom, the C generator _random.Random(), /dev/urandom, the raw
    getrandom syscall and the names of its folders changed between runs."""
    # Two runs of the same seed in fresh processes, one serial and one split over two: a generator seeded by the
    # operating system would differ between them.  (That another seed gives another card is test_lab's
    # test_same_seed_same_card_serial_or_parallel.)
    serial, parallel = (score(strategy, games=4, seed=3, opponents=["random", "greedy"], progress=False,
                              workers=workers) for workers in (1, 2))
    assert serial.forfeits().empty
    assert serial.records == parallel.records and str(serial) == str(parallel)


def test_a_module_level_generator_is_seeded_at_its_first_draw_of_a_move_and_draws_the_same():
    """The game process seeds module-level ``random`` and NumPy's global generator lazily (a seeding costs about
    15 µs a move, and most strategies draw from neither): here on a module of its own, with a generator that counts
    its seedings.  The draws are those of an eager seeding; ``seed`` and ``setstate`` drop the pending seed."""
    import random
    import types

    from amoeboid_edu.sandbox import worker

    class Counted(random.Random):
        seedings = 0

        def seed(self, *args, **kwargs):
            Counted.seedings += 1
            super().seed(*args, **kwargs)

    generator, module, pending = Counted(0), types.ModuleType("fake_random"), [None]
    for name in ("seed", "random", "choice", "getstate", "setstate"):
        setattr(module, name, getattr(generator, name))
    worker._seeded_on_first_draw(module, generator, pending, generator.seed, ("seed", "setstate"))
    Counted.seedings = 0
    for move_seed in (11, 12):
        pending[0] = move_seed  # what _seed_globals does each move
        assert Counted.seedings == move_seed - 11  # nothing drawn yet this move: not seeded yet
        eager = random.Random(move_seed)
        assert [module.random(), module.choice("abcdef")] == [eager.random(), eager.choice("abcdef")]
    pending[0] = 13
    assert module.getstate() == random.Random(13).getstate()  # the state a strategy reads is the move's
    pending[0] = 14
    module.seed(5)  # the strategy's own seed wins over the pending one
    assert module.random() == random.Random(5).random() and pending[0] is None
    assert Counted.seedings == 4


def test_a_game_process_writes_each_answer_as_json_dumps_does():
    """The usual answer is written out directly (half the cost of ``json.dumps``, on every move): byte for byte the
    same, whatever the text; anything else goes through ``json.dumps``."""
    from amoeboid_edu.sandbox.worker import _encoded

    texts = ["3 a1 a1-b1 2,0", "5 c3 -", 'quote " and \\ back', "tab\there\nnewline \x00\x1f", "Δ é 🦠 \ud800", ""]
    answers = [{"kind": kind, "value": text, "took": took} for kind in ("turn", "text", "other") for text in texts
               for took in (0.0, 1e-05, 0.000123456789, 2.5, 1e300)]
    answers += [{"kind": "turn", "value": "1 a1 -", "took": float("nan")}, {"value": "1 a1 -", "kind": "turn", "took": 1.0},
                {"kind": "turn", "value": "1 a1 -", "took": 1}, {"kind": "error", "value": "E", "where": None, "took": 0.5},
                {"kind": "turn", "value": "1 a1 -", "took": 0.1, "output": ["x"], "printed": 2, "lines": 1}]
    for answer in answers:
        assert _encoded(answer) == json.dumps(answer).encode(), answer


def test_a_game_process_reads_each_cell_token_as_the_parser_does():
    """Cell tokens of the harness's text are read directly (a long game meets new ones every move, and the parser
    takes about 15 µs each): the same amoeba as the parser's for every token, and the parser's refusal for the rest."""
    from amoeboid_edu.engine.rules import NotationError
    from amoeboid_edu.sandbox.worker import _cell

    rules = Position.start().rules

    def read(read_cell, token):
        try:
            return read_cell(token)
        except NotationError:
            return "refused"

    tokens = [".", "(1,0)", "(0,7)", "(12,345)", "(0,0)", "(01,2)", "(1,2", "1,2)", "(a,1)", "(1,-1)", "(\uff11,2)",
              "(1, 2)", "(1,2,3)", "()", "(", "(" + "9" * 30 + ",1)", "(" + "9" * 5000 + ",1)"]
    tokens += [str(Amoeba(a, b)) for a in range(0, 300, 7) for b in range(0, 300, 11) if a + b]
    for token in tokens:
        assert read(lambda t: _cell(t, rules), token) == read(lambda t: Position.parse(f"{t} . A", rules).cells[0],
                                                              token), token


def test_a_game_process_finds_the_baseline_bots_imported(tmp_path):
    """The template imports the baseline bots before it forks (trusted code): a strategy that falls back on
    ``greedy``, as lesson 9's all do, does not import them again in each game process (40 times in lesson 9's
    tournament)."""
    (tmp_path / "falls_back.py").write_text(
        "import sys\n"
        "FOUND = 'amoeboid_edu.players.bots' in sys.modules  # before this file imports anything of the package\n"
        "from amoeboid_edu.players.bots import greedy\n"
        "def strategy(position, roll, rng):\n"
        "    assert FOUND, 'the baseline bots were imported by this game process'\n"
        "    return greedy(position, roll, rng)\n")
    card = score(f"{tmp_path}/falls_back.py:strategy", games=2, seed=1, opponents=["random"], progress=False)
    assert card.forfeits().empty, card.forfeits()[["reason", "value"]].values.tolist()


def test_a_strategy_with_state_in_its_module_gets_the_same_card_on_any_number_of_workers():
    # Found by the red team: its games were split over workers game by game, so its history depended on K.
    def card(workers):
        return score(hostile.counts_its_moves, games=6, seed=5, opponents=["random", "greedy"], progress=False,
                     workers=workers)

    serial, two, three = card(1), card(2), card(3)  # each in fresh processes: a rerun too
    assert serial.forfeits().empty
    assert serial.records == two.records == three.records
    assert str(serial) == str(two)


def test_the_strategy_is_imported_and_played_in_the_game_process_and_a_timeout_costs_only_it():
    card = score("slow_import:loops_on_odd_rolls", games=8, seed=2, opponents=["random"], progress=False,
                 per_move_limit=0.3)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"timeout", "exception"}, frame["reason"]
    assert frame[frame["reason"] == "timeout"]["value"].str.contains("the per-move limit").all()
    places = frame[frame["reason"] == "exception"]["value"].str.extract(r"imported in (\d+), playing in (\d+)")
    assert len(places) and (places[0] == places[1]).all()  # no student code outside the game process
    assert "limits: load 30 s, move 0.3 s" in str(card)


def test_an_import_slower_than_the_load_limit_forfeits_with_reason_load():
    # a load limit the worker's start (interpreter, NumPy, walls) meets even on a loaded machine; the import does not
    card = score("imports_slowly:loops_every_other_move", progress=False, games=2, opponents=["random"],
                 load_limit=1.5)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"load"}
    assert frame["value"].str.contains("within 1.5 s while loading the strategy").all(), frame["value"].iloc[0]
    assert "limits: load 1.5 s, move 1 s" in str(card)
    assert settled() == []


# --------------------------------------------------------------------------- output is data


def test_terminal_control_in_output_and_errors_is_escaped():
    card = score(hostile.prints_ansi, **QUICK)
    text, html = str(card), card._repr_html_()
    for shown in (text, html):
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b[2Jscreen cleared" in text and "\\x1b[31mred alert\\u202e" in text


def test_the_cli_prints_no_escape_sequences():
    done = run_cli("hostile:prints_ansi", "--games", "2", "--opponents", "random")
    assert done.returncode == 0 and "\x1b" not in done.stdout and "\\x1b[2J" in done.stdout


@pytest.mark.parametrize("strategy, reason", [(hostile.returns_huge, "malformed"), (hostile.raises_huge, "exception")])
def test_huge_values_are_cut_with_a_count(strategy, reason):
    frame = score(strategy, **QUICK).to_frame()
    assert set(frame["reason"]) == {reason}
    value = frame["value"].iloc[0]
    assert len(value) < _text.VALUE_WIDTH + 30 and value.endswith(" more)") and "… (" in value


# --------------------------------------------------------------------------- the protocol's small parts


def test_output_tail_keeps_every_line_of_one_write_and_the_last_ones():
    tail = _text.OutputTail()
    tail.write("a\nb\nc\n")
    assert tail.tail() == ["a", "b", "c"]
    tail.write("d")
    tail.write("e\n" + "".join(f"{n}\n" for n in range(30)) + "partial")
    lines = tail.tail()
    assert len(lines) == _text.KEEP_LINES + 1 and lines[-1] == "partial" and lines[-2] == "29"
    assert tail.printed == len("a\nb\nc\n") + 1 + len("e\n" + "".join(f"{n}\n" for n in range(30)) + "partial")
    tail.reset()
    assert tail.tail() == [] and tail.printed == 0


def test_cut_keeps_text_up_to_the_width_and_counts_the_rest():
    width = _text.VALUE_WIDTH
    assert _text.cut("x" * width) == "x" * width
    assert _text.cut("x" * (width + 1)) == "x" * width + "… (1 more)"
    assert _text.cut("abcdef", 4) == "abcd… (2 more)"
    assert _text.printable("ok\ttab\x1b") == "ok\\ttab\\x1b"


def test_a_move_sent_to_a_dead_game_process_or_template_is_a_crash_forfeit_then_play_resumes():
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "student", "name": "wander"}, b"", position.rules)
    try:
        first = sandbox.ask([(1, 3, position)], 5.0)
        assert isinstance(first[0], dict) and first[0]["kind"] == "text"
        assert f"isolation: {sandbox.worker.isolation};" in WALLS + ";"
        worker = sandbox.worker
        _processes.sweep(worker.process.pid, keep=[worker.template])  # the game process dies between moves
        crashed = sandbox.ask([(1, 3, position), (2, 3, position)], 5.0)
        assert isinstance(crashed[0], _harness.Forfeit) and crashed[0].reason == "crash" and crashed[1] is None
        template = sandbox.worker.template
        assert isinstance(sandbox.ask([(1, 3, position)], 5.0)[0], dict) and sandbox.worker.template == template
        _processes.sweep(sandbox.worker.process.pid)  # now the template too
        crashed = sandbox.ask([(1, 3, position)], 5.0)
        assert isinstance(crashed[0], _harness.Forfeit) and crashed[0].reason == "crash"
        assert isinstance(sandbox.ask([(1, 3, position)], 5.0)[0], dict)  # a fresh worker
    finally:
        sandbox.close()
    assert settled() == []


def test_capped_games_are_ties_and_others_are_not():
    capped = score(hostile.plays_fair, games=2, seed=1, opponents=["random"], progress=False, max_turns=2)
    assert all(record.capped and record.winner is None for record in capped.records)
    full = score(hostile.plays_fair, games=2, seed=1, opponents=["random"], progress=False)
    assert not any(record.capped for record in full.records)


def test_a_tournament_needs_two_strategies_and_no_games_give_no_information():
    with pytest.raises(ValueError, match="at least two strategies"):
        tournament([hostile.plays_fair], games=2, progress=False)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_the_readme_contest_instructions_work_as_written(tmp_path):
    """The students' page's contest block, run line by line in a class folder, with HOME as the teacher's home."""
    readme = (Path(__file__).parents[2] / "docs" / "students.md").read_text()
    block = readme.split("For a class contest, keep the seed secret")[1].split("```bash\n")[1].split("```")[0]
    home, folder = tmp_path / "home", tmp_path / "class"
    home.mkdir(), folder.mkdir()
    (folder / "student_a.py").write_text((STRATEGIES / "student.py").read_text().replace("def wander", "def strategy"))
    environment = dict(os.environ, HOME=str(home), PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    lines = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert lines[1].startswith("amoeboid score student_a.py:strategy") and "--seed-file ~/contest.seed" in lines[1]
    lines[1] = lines[1].replace("--games 200", "--games 2") + " --opponents random -q"  # a quick run
    runs = [subprocess.run(line, shell=True, cwd=folder, env=environment, capture_output=True, text=True, timeout=120)
            for line in lines]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    card = runs[1].stdout
    secret = (home / "contest.seed").read_text().strip()
    assert len(secret) == 32 and secret not in card
    assert card.splitlines()[0] == f"student_a: 2 games, seed from {home / 'contest.seed'} (secret)"  # the file's name
    assert WALLS in card and "forfeits:" not in card


def test_without_walls_or_fork_server_the_worker_still_plays_and_says_process_only():
    """What a platform without seccomp, Landlock or /proc gets: one plain process, interrupted at the per-move
    limit and kept, or restarted when the move does not stop."""
    position = Position.start(3)
    honest = _harness.Sandbox({"load": "import", "module": "student", "name": "wander"}, b"", position.rules,
                              walls=False, fork_server=False)
    looping = _harness.Sandbox({"load": "import", "module": "hostile", "name": "loops_forever"}, b"",
                               position.rules, walls=False, fork_server=False)
    stubborn = _harness.Sandbox({"load": "import", "module": "hostile", "name": "catches_the_interrupt"}, b"",
                                position.rules, walls=False, fork_server=False)
    try:
        assert isinstance(honest.ask([(1, 3, position)], 5.0)[0], dict) and honest.worker.isolation == "process"
        timeouts = looping.ask([(1, 3, position), (2, 3, position)], 0.3)
        assert [answer["kind"] for answer in timeouts] == ["timeout", "timeout"] and looping.worker.process is not None
        timeout = stubborn.ask([(1, 3, position)], 0.3)[0]
        assert isinstance(timeout, _harness.Forfeit) and timeout.reason == "timeout" and stubborn.worker.process is None
        assert isinstance(stubborn.ask([(1, 3, position)], 0.3)[0], _harness.Forfeit)  # a fresh worker, same fate
        assert stubborn.imports == 2 and looping.imports == 1
    finally:
        honest.close()
        looping.close()
        stubborn.close()
    assert settled() == []


def untimed(answer: dict) -> dict:
    """An answer without ``took``, the worker's own measure of the move's time (it differs from run to run)."""
    return {key: value for key, value in answer.items() if key != "took"}


def test_answers_sent_as_a_batch_still_name_the_move_that_would_not_stop():
    """A game process sends a round's answers together (one context switch a round, not one a move); a move
    stuck in C kills it with earlier answers unsent, so the round is asked again answer by answer, and only
    the stuck move forfeits."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "stuck_in_c_on_a_five"}, b"",
                               position.rules)
    moves = [(1, 3, position), (2, 4, position), (3, 5, position), (4, 2, position)]
    try:
        first = sandbox.ask(moves, 0.3)
        assert first == [None] * 4 and sandbox.careful  # which move stopped the process is not known yet
        again = sandbox.ask(moves, 0.3)
        assert [type(answer).__name__ for answer in again] == ["dict", "dict", "Forfeit", "NoneType"], again
        assert again[2].reason == "timeout" and "did not stop when interrupted" in again[2].message
        assert [answer["kind"] for answer in again[:2]] == ["text", "text"] and not sandbox.careful
        after = sandbox.ask([moves[3], moves[0]], 0.3)  # batched again, on a fresh game process
        assert [answer["kind"] for answer in after] == ["text", "text"], after
        assert untimed(after[1]) == untimed(again[0])  # the same move's answer, whatever the batching
    finally:
        sandbox.close()
    assert settled() == []


def test_a_strategy_that_dies_only_when_batched_loses_the_batching_and_then_its_moves():
    """After one careful round that answered everything, every round is answered one by one, so a later death
    falls on the move it happened in (it had re-imported for free every other round: red team)."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "crashes_when_batched", "name": "strategy"}, b"",
                               position.rules)
    moves = [(seed, 3, position) for seed in range(4)]
    try:
        first = sandbox.ask(moves, 1.0)
        assert first[0]["kind"] == "text" and first[1:] == [None] * 3 and sandbox.careful
        again = sandbox.ask(moves[1:], 1.0)
        assert [answer["kind"] for answer in again] == ["text"] * 3 and sandbox.one_by_one
        later = sandbox.ask(moves, 1.0)  # one by one: the strategy cannot tell, it has no batch to die in
        assert [answer["kind"] for answer in later] == ["text"] * 4 and sandbox.imports == 2
    finally:
        sandbox.close()
    assert settled() == []


def test_a_strategy_that_blocks_its_alarm_is_timed_by_the_harness():
    """The game process is the student's: its own timers can be blocked (they gave the wall-clock guard plus a
    second), so the harness times each answer and one later than the guard (plus LATE_AFTER) forfeits."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "blocks_the_alarm_and_thinks"}, b"",
                               position.rules)
    try:
        answers = sandbox.ask([(1, 3, position), (2, 4, position)], 0.2)
        assert [answer["kind"] for answer in answers] == ["timeout", "timeout"], answers
        assert all("by the harness's clock" in answer["message"] for answer in answers), answers
    finally:
        sandbox.close()
    assert settled() == []


def test_the_time_per_move_is_the_harness_s_measure_not_the_strategy_s():
    """The game process's own clock is the strategy's to rewrite: a card said "0.0 ms on average" for moves of
    0.15 s (the fifth red team).  The harness reads the game process's CPU clock from outside."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "lies_about_its_time"}, b"",
                               position.rules)
    try:
        answers = sandbox.ask([(seed, 3, position) for seed in range(3)], 5.0)
        assert [answer["kind"] for answer in answers] == ["text"] * 3
        # each move spent at least 0.15 s of CPU time between the harness's first reading and its last
        assert sum(answer["took"] for answer in answers) >= 3 * 0.15, answers
        assert sandbox.timed_by == "harness"
    finally:
        sandbox.close()
    assert settled() == []


def test_a_move_that_blocks_its_timers_is_stopped_by_its_cpu_time_read_from_outside():
    """A strategy may block its game process's SIGPROF: the per-move limit then held only through the harness's
    wall-clock guard, ten times the limit.  The harness stops the move once the game process's CPU clock, read
    from outside, passes the limit plus MOVE_GRACE."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "blocks_its_timers_and_computes"},
                               b"", position.rules)
    try:
        answer = sandbox.ask([(1, 3, position)], 1.0)[0]
        assert isinstance(answer, _harness.Forfeit) and answer.reason == "timeout", answer
        assert "by the harness's measure" in answer.value and "was stopped" in answer.message, answer.value
        assert sandbox.game is None  # its game process was killed: the next move imports again
    finally:
        sandbox.close()
    assert settled() == []


def test_a_card_s_time_per_move_is_the_harness_s_and_says_so_where_it_cannot_be(monkeypatch):
    """The card's mean time per move comes from the harness's readings; where the game process's CPU clock cannot
    be read from outside (not Linux), the card's details line says the time is the strategy's own measure."""
    card = score("hostile:lies_about_its_time", **dict(QUICK, workers=1))
    mine = [(record, 0 if record.first == card.player else 1) for record in card.records]
    asked = sum(record.asked[side] for record, side in mine)
    assert asked and sum(record.seconds[side] for record, side in mine) / asked >= 0.15
    assert _harness.OWN_MEASURE not in card.terminal()
    monkeypatch.setattr(_harness, "cpu_clock", lambda pid: None)
    elsewhere = score("hostile:plays_fair", **dict(QUICK, workers=1))
    assert f"({_harness.OWN_MEASURE})" in elsewhere.terminal()
    assert settled() == []


def test_a_game_process_that_stops_reading_cannot_freeze_the_harness():
    """A strategy that stops its worker reading: the harness's send of a large round would wait for ever
    (a frozen run, found by the red team); it gives up at the limit plus the grace and the move forfeits."""
    big = Position.start(26)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "stops_reading_its_moves"}, b"",
                               big.rules)
    try:
        assert sandbox.ask([(1, 3, big)], 0.3)[0]["kind"] == "text"
        answers = sandbox.ask([(seed, 3, big) for seed in range(4000)], 0.3)  # megabytes: more than any buffer
        assert isinstance(answers[0], _harness.Forfeit) and answers[0].reason == "timeout", answers[0]
        assert "stopped reading its moves" in answers[0].message
        assert set(map(type, answers[1:])) == {type(None)}  # asked again on a fresh game process
    finally:
        sandbox.close()
    assert settled() == []


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_game_process_gets_no_cpu_between_its_rounds():
    """A strategy that busy-polls between moves took the CPU its opponent's moves were timed on (red team): the
    harness stops its game process between rounds."""
    position = Position.start(3)
    sandbox = _harness.Sandbox({"load": "import", "module": "hostile", "name": "spins_between_its_moves"}, b"",
                               position.rules)
    try:
        assert sandbox.ask([(1, 3, position)], 1.0)[0]["kind"] == "text"
        games = [pid for pid in _processes.descendants(sandbox.worker.process.pid) if pid != sandbox.worker.template]
        assert len(games) == 1
        before = _cpu_seconds(games[0])
        time.sleep(1.0)  # the opponent thinks
        spent = _cpu_seconds(games[0]) - before
        assert spent < 0.1, f"the game process used {spent:.2f} s of CPU between its rounds"
        assert sandbox.ask([(2, 3, position)], 1.0)[0]["kind"] == "text"  # and it plays on when asked
    finally:
        sandbox.close()
    assert settled() == []


def test_the_lanes_of_a_strategy_share_one_worker_and_a_stuck_move_costs_only_its_own_game_process():
    """One worker per strategy: each lane's game process is forked from the same template and imports the strategy
    itself; a move that will not stop kills its lane's game process only, and the other lane plays on with its
    import."""
    position = Position.start(3)
    host = _harness.Sandbox({"load": "import", "module": "hostile", "name": "stuck_in_c_on_a_five"}, b"",
                            position.rules)
    first, second = host.lane(), host.lane()
    try:
        assert first.ask([(1, 3, position)], 1.0)[0]["kind"] == "text"
        assert second.ask([(1, 3, position)], 1.0)[0]["kind"] == "text"
        assert first.worker.process is second.worker.process is host.worker.process
        assert first.worker.template == second.worker.template
        games = [pid for pid in _processes.descendants(first.worker.process.pid) if pid != first.worker.template]
        assert sorted(games) == sorted([first.game_pid, second.game_pid]) and first.game_pid != second.game_pid
        stuck = first.ask([(2, 5, position)], 0.3)[0]
        assert isinstance(stuck, _harness.Forfeit) and stuck.reason == "timeout"
        assert second.ask([(3, 3, position)], 1.0)[0]["kind"] == "text" and second.imports == 1
        assert first.ask([(4, 3, position)], 1.0)[0]["kind"] == "text" and first.imports == 2
        assert first.worker.process is second.worker.process
        first.kill()  # the whole worker, every lane's game process with it: the other lane starts afresh
        assert second.game is None and second.ask([(6, 3, position)], 1.0)[0]["kind"] == "text"
        first.close()
        assert second.ask([(5, 3, position)], 1.0)[0]["kind"] == "text"  # a closed lane leaves the worker up
    finally:
        for sandbox in (first, second, host):
            sandbox.close()
    assert settled() == []


def test_an_answer_keeps_only_what_the_harness_reads():
    """Junk keys are dropped as the answer is read, and ``printed`` is clamped (a 4,300-digit count made the
    card's table impossible to show: red team)."""
    answer = _protocol.untrusted_answer(json.dumps({"kind": "text", "value": "3 a1 a1-b2", "junk": [[]] * 1000,
                                                   "printed": 10**4000, "where": "not a list"}).encode())
    assert answer == {"kind": "text", "value": "3 a1 a1-b2", "printed": 1 << 40}
    assert _protocol.untrusted_answer(b'{"kind": "text", "printed": true}') == {"kind": "text"}


def test_a_module_next_to_the_teacher_outside_the_package_is_importable_behind_the_walls(tmp_path):
    (tmp_path / "mine.py").write_text((STRATEGIES / "student.py").read_text())
    done = subprocess.run([sys.executable, "-m", "amoeboid_edu", "score", "mine:wander", "--games", "2",
                           "--opponents", "random", "-q"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and WALLS in done.stdout and "forfeits:" not in done.stdout, done.stdout


def test_a_parallel_harness_process_killed_from_outside_costs_time_not_the_run():
    """Where no wall stops a strategy from killing its harness (see the threat model), the run still completes.

    A pool process is killed once it plays (its worker's game processes are up): mid-batch, whatever the machine's
    load.  (Killed after a fixed second instead, it had often finished its batch on an idle machine, and the test
    then checked nothing and waited a minute.)"""
    import threading

    killed: list[int] = []
    finished = threading.Event()

    def kill_one_harness() -> None:
        while not finished.is_set():
            for pid in living_descendants(os.getpid()):
                try:
                    if (b"_serve_batches" in Path(f"/proc/{pid}/cmdline").read_bytes()
                            and len(living_descendants(pid)) >= 3):  # supervisor, template and a game process
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        return
                except OSError:
                    pass
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_harness)
    killer.start()
    try:
        parallel = score(hostile.plays_slowly, games=6, seed=5, opponents=["random", "greedy"], progress=False,
                         workers=2)
    finally:
        finished.set()
        killer.join()
    assert killed, "no pool process was seen playing"
    serial = score(hostile.plays_slowly, games=6, seed=5, opponents=["random", "greedy"], progress=False)
    assert parallel.records == serial.records
    assert settled() == []


def test_errors_echo_at_most_a_few_hundred_characters_of_the_input():
    for bad in ("x" * 100_000, "\x1b[2J" + "y" * 100_000 + ":f"):
        with pytest.raises(ValueError) as error:
            score(bad, games=2, progress=False)
        assert len(str(error.value)) < 500 and "more)" in str(error.value) and "\x1b" not in str(error.value)
    with pytest.raises(ValueError) as error:
        score(hostile.plays_fair, games=2, opponents=["z" * 100_000], progress=False)
    assert len(str(error.value)) < 500 and "more)" in str(error.value)


# --------------------------------------------------------------------------- found by the red team (2026-11-23)

JSON_BOMB = '''
import struct, sys, time


def strategy(position, roll, rng):
    """Writes a JSON answer nested 100,000 deep (within the size limit) on its own socket: the parser's recursion, not the rules, is hit."""
    frame = sys._getframe()
    while frame is not None and "sock" not in frame.f_locals:
        frame = frame.f_back
    data = b"[" * 100_000
    frame.f_locals["sock"].sendall(struct.pack("!I", len(data)) + data)
    time.sleep(5)
'''


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_deeply_nested_answer_is_malformed_not_the_end_of_the_scorer(tmp_path, workers):
    bomb = tmp_path / "bomb.py"
    bomb.write_text(JSON_BOMB)
    done = run_cli(f"{bomb}:strategy", "--games", "2", "--opponents", "random", "--workers", workers)
    assert done.returncode == 0, done.stderr
    assert "malformed x2" in forfeit_line(done.stdout) and "nested too deeply" in done.stdout


def test_parallel_harnesses_do_not_open_the_teachers_current_folder(tmp_path):
    teacher, students = tmp_path / "teacher", tmp_path / "students"
    teacher.mkdir(), students.mkdir()
    secret = "SECRET-" + os.urandom(16).hex()
    (teacher / "contest.seed").write_text(secret + "\n")
    (students / "reader.py").write_text(f"def strategy(position, roll, rng):\n"
                                        f"    raise RuntimeError(open({str(teacher / 'contest.seed')!r}).read())\n")
    amoeboid = str(Path(sys.executable).with_name("amoeboid"))  # the console script: no current folder on its path
    done = subprocess.run([amoeboid, "score", f"{students / 'reader.py'}:strategy",
                           "--seed-file", "contest.seed", "--games", "2", "--opponents", "random", "--workers", "2",
                           "-q"], capture_output=True, text=True, cwd=teacher, timeout=120)
    assert done.returncode == 0, done.stderr
    assert secret not in done.stdout and "PermissionError" in forfeit_line(done.stdout), done.stdout


def test_an_echo_stays_short_after_escaping():
    from amoeboid_edu.sandbox.text import VALUE_WIDTH, shown

    text = shown("\U000e0001" * 5000)  # each one escapes to ten characters
    assert len(text) < VALUE_WIDTH + 30 and "more)" in text


# --------------------------------------------------------------------------- found by the red team (2026-11-24, third)

SYSCALL_PROBES = r'''
"""Load a game process's seccomp filter (or the template's) here, without Landlock: what a kernel with seccomp
but no Landlock (or with Landlock before its signal scope, Linux 5.13-6.11) leaves standing. Then try each
attack on a sacrificial child and files of the test, and print what each call returned."""
import ctypes, errno, json, os, signal, socket, sys, time
from amoeboid_edu.sandbox import walls as _walls

kind, scratch = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
victim = os.fork()
if victim == 0:
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # it dies with the probe
    time.sleep(60)
    os._exit(0)
victim_file = os.path.join(scratch, "victim.txt")
open(victim_file, "w").write("x")
signal.signal(signal.SIGALRM, lambda *_: None)  # as a game process does before its filter
signal.signal(signal.SIGPROF, lambda *_: None)
# made before the filter, as the game's socket is (a game process may make no pipe or socket pair of its own):
# the descriptors the attacks below turn on
early_pipe = os.pipe()
early_stream = socket.socketpair()
early_datagrams = [socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM) for _ in range(2)]
if kind == "compiled":  # the allow-list as a game process forked from the template loads it
    assert _walls.load_game_program(_walls.compile_game_program(own_seal=True)), "seccomp is not available"
else:
    assert _walls.load_seccomp(game=(kind == "game")), "seccomp is not available"

def preadv2(flags):
    buffer = ctypes.create_string_buffer(8)
    vector = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 8)  # one struct iovec
    with open(victim_file, "rb") as file:
        return raw(327, file.fileno(), ctypes.addressof(vector), 1, 0, 0, flags)


def shared_page():
    """A read-only shared mapping of a file every Python process may map: its futex key is the file's page."""
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    with open(os.__file__, "rb") as file:
        address = libc.mmap(None, 4096, 1, 1, file.fileno(), 0)  # PROT_READ, MAP_SHARED
    assert address not in (None, ctypes.c_void_p(-1).value)
    return address

def raw(number, *args):
    args = [ctypes.c_ulong(a) if isinstance(a, int) else a for a in args]
    result = libc.syscall(number, *args)
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]

def call(function):
    try:
        function()
        return "ok"
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))

def owner(command, value):
    import fcntl
    return call(lambda: fcntl.fcntl(early_pipe[0], command, value))

def socket_ioctl(request):
    import fcntl
    return call(lambda: fcntl.ioctl(early_stream[0].fileno(), request, ctypes.c_int(victim)))

def clock_of(pid):
    """clock_gettime of process ``pid``'s CPU clock (``((~pid) << 3) | CPUCLOCK_SCHED``)."""
    return raw(228, ((~pid) << 3 | 2) & 0xFFFFFFFF, ctypes.addressof(ctypes.create_string_buffer(16)))

def anonymous_mapping(flags):
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    address = libc.mmap(None, 4096, 3, flags | 0x20, -1, 0)  # PROT_READ | PROT_WRITE, MAP_ANONYMOUS
    return "ok" if address not in (None, ctypes.c_void_p(-1).value) else errno.errorcode[ctypes.get_errno()]

def sigaction_of_sigalrm(signum):
    handler = (ctypes.c_ulong * 4)(1, 0, 0, 0)  # SIG_IGN, no flags, no restorer, empty mask
    return raw(13, signum, ctypes.addressof(handler), 0, 8)  # rt_sigaction (x86_64)

def datagram_to(path):
    return call(lambda: early_datagrams[0][0].sendto(b"roll 6", path))

def bind_in(path):
    return call(lambda: early_datagrams[1][0].bind(path))

probes = {
    "prctl(1<<32 | PR_SET_PDEATHSIG, 0)": lambda: raw(157, (1 << 32) | 1, 0, 0, 0, 0),
}
if kind in ("game", "compiled"):
    probes.update({
        "fcntl F_SETOWN": lambda: owner(8, victim),
        "fcntl F_SETSIG": lambda: owner(10, signal.SIGSTOP),
        "fcntl F_SETOWN_EX": lambda: owner(15, __import__("struct").pack("ii", 1, victim)),  # F_OWNER_TID
        "fcntl F_SETOWN (1<<32 | 8)": lambda: raw(72, early_pipe[0], (1 << 32) | 8, victim),
        "ioctl FIOSETOWN": lambda: socket_ioctl(0x8901),
        "ioctl SIOCSPGRP": lambda: socket_ioctl(0x8902),
        "kill another process": lambda: call(lambda: os.kill(victim, 0)),
        "tgkill another process": lambda: raw(234, victim, victim, 0),
        "chmod": lambda: call(lambda: os.chmod(victim_file, 0o777)),
        "chown": lambda: call(lambda: os.chown(victim_file, os.getuid(), os.getgid())),
        "utime": lambda: call(lambda: os.utime(victim_file, (1, 1))),
        "setxattr": lambda: call(lambda: os.setxattr(victim_file, "user.amoeboid", b"1")),
        "open for writing": lambda: call(lambda: open(victim_file, "a")),
        "open a new file": lambda: call(lambda: open(os.path.join(scratch, "new.txt"), "w")),
        "fanotify_init": lambda: raw(300, 0, 0),
        "inotify_init1": lambda: raw(294, 0),
        "memfd_create": lambda: call(lambda: os.memfd_create("hog")),
        "sched_setaffinity another process": lambda: call(lambda: os.sched_setaffinity(victim, {0})),
        "sched_setscheduler another process": lambda: call(
            lambda: os.sched_setscheduler(victim, os.SCHED_IDLE, os.sched_param(0))),
        "setpriority another process": lambda: call(lambda: os.setpriority(os.PRIO_PROCESS, victim, 19)),
        "sethostname (the same name)": lambda: call(lambda: socket.sethostname(os.uname().nodename)),
        "sendto a named socket": lambda: datagram_to(os.path.join(scratch, "relay.sock")),
        "bind a named socket": lambda: bind_in(os.path.join(scratch, "in.sock")),
        "getrandom": lambda: raw(318, ctypes.addressof(ctypes.create_string_buffer(8)), 8, 0),
        "preadv2 RWF_NOWAIT (is a page cached?)": lambda: preadv2(os.RWF_NOWAIT),
        "SIGALRM's handler": lambda: call(lambda: signal.signal(signal.SIGALRM, signal.SIG_IGN)),
        "SIGALRM's handler as 1<<32 | 14": lambda: sigaction_of_sigalrm((1 << 32) | 14),
        "SIGPROF's handler (the CPU-time move timer)": lambda: call(lambda: signal.signal(signal.SIGPROF, signal.SIG_IGN)),
        "setsockopt SO_RCVBUFFORCE": lambda: call(
            lambda: early_stream[0].setsockopt(socket.SOL_SOCKET, 33, 1 << 30)),
        "a pipe (each takes a number from a counter every process shares)": lambda: call(os.pipe),
        "a socket pair": lambda: call(socket.socketpair),
        "shared anonymous memory (a new shmem inode)": lambda: anonymous_mapping(0x01),
        "shared anonymous memory, MAP_SHARED_VALIDATE": lambda: anonymous_mapping(0x03),
        "another process's CPU clock": lambda: clock_of(victim),
        "pid 1's CPU clock": lambda: clock_of(1),
        "prlimit64 setting its own limit": lambda: raw(302, 0, 7, ctypes.addressof((ctypes.c_ulong * 2)(64, 64)), 0),
        "futex FUTEX_WAKE on a file's page (a channel to any process mapping it)": lambda: raw(202, shared_page(), 1, 1),
        "futex FUTEX_WAIT on a file's page": lambda: raw(202, shared_page(), 0, 0, 0),
        "futex_wake, the newer call, on a file's page": lambda: raw(454, shared_page(), 1, 1, 2),
        "prctl PR_SET_NAME (its name, which any user reads in /proc)": lambda: raw(157, 15, ctypes.addressof(
            ctypes.create_string_buffer(b"R6425")), 0, 0, 0),
        "prctl PR_SET_VMA (names in /proc/PID/maps)": lambda: raw(157, 0x53564D41, 0, shared_page(), 4096,
                                                                  ctypes.addressof(ctypes.create_string_buffer(b"R6"))),
    })
    # and what a strategy needs must still work
    fine = {
        "read a file": lambda: call(lambda: open(victim_file).read()),
        "preadv2 without flags": lambda: preadv2(0),
        "list a folder": lambda: call(lambda: os.listdir(scratch)),
        "stat": lambda: call(lambda: os.stat(victim_file)),
        "a socket made before, both ways": lambda: call(lambda: (early_stream[0].sendall(b"x"), early_stream[1].recv(1))),
        "a pipe made before, and select": lambda: call(lambda: (os.write(early_pipe[1], b"x"),
                                                                __import__("select").select([early_pipe[0]], [], [], 1))),
        "private anonymous memory": lambda: anonymous_mapping(0x02),
        "its own CPU time and the clocks": lambda: call(lambda: (time.process_time(), time.thread_time(),
                                                                time.clock_gettime(time.CLOCK_MONOTONIC_RAW),
                                                                time.clock_getres(time.CLOCK_PROCESS_CPUTIME_ID))),
        "signal itself": lambda: call(lambda: os.kill(os.getpid(), 0)),
        "raise a signal it handles": lambda: call(lambda: (signal.signal(signal.SIGUSR1, lambda *_: None),
                                                         signal.raise_signal(signal.SIGUSR1))),
        "sleep": lambda: call(lambda: time.sleep(0.001)),
        "its own limits and CPUs": lambda: call(lambda: (__import__("resource").getrlimit(__import__("resource").RLIMIT_AS),
                                                        os.sched_getaffinity(0))),
        "non-blocking sockets": lambda: call(lambda: early_stream[0].settimeout(0.5)),
        "a per-move timer": lambda: call(lambda: signal.setitimer(signal.ITIMER_REAL, 0)),
        "a futex of its own (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)": lambda: raw(202, shared_page(), 1 | 128, 1),
        "a lock and a condition, as threading's": lambda: call(lambda: (lambda c: (c.acquire(), c.notify_all(),
                                                                                    c.wait(0.001), c.release()))(
            __import__("threading").Condition())),
    }
    probes.update({"FINE " + name: probe for name, probe in fine.items()})
print(json.dumps({name: probe() for name, probe in probes.items()}))
'''


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    """What each attack got behind the game's filter alone, and behind the template's alone."""
    results = {}
    for kind in ("game", "compiled", "template"):
        scratch = tmp_path_factory.mktemp(kind)
        done = subprocess.run([sys.executable, "-c", SYSCALL_PROBES, kind, str(scratch)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        results[kind] = json.loads(done.stdout)
    return results


GAME_REFUSES = ["fcntl F_SETOWN", "fcntl F_SETSIG", "fcntl F_SETOWN_EX", "fcntl F_SETOWN (1<<32 | 8)", "ioctl FIOSETOWN",
                "ioctl SIOCSPGRP", "kill another process", "tgkill another process", "chmod", "chown", "utime",
                "setxattr", "open for writing", "open a new file", "fanotify_init", "inotify_init1", "memfd_create",
                "sched_setaffinity another process", "sched_setscheduler another process",
                "setpriority another process", "sethostname (the same name)", "sendto a named socket",
                "bind a named socket", "getrandom", "SIGALRM's handler", "SIGALRM's handler as 1<<32 | 14",
                "SIGPROF's handler (the CPU-time move timer)", "preadv2 RWF_NOWAIT (is a page cached?)",
                "setsockopt SO_RCVBUFFORCE", "prlimit64 setting its own limit", "prctl(1<<32 | PR_SET_PDEATHSIG, 0)",
                "futex FUTEX_WAKE on a file's page (a channel to any process mapping it)",
                "futex FUTEX_WAIT on a file's page", "futex_wake, the newer call, on a file's page",
                "prctl PR_SET_NAME (its name, which any user reads in /proc)", "prctl PR_SET_VMA (names in /proc/PID/maps)",
                "a pipe (each takes a number from a counter every process shares)", "a socket pair",
                "shared anonymous memory (a new shmem inode)", "shared anonymous memory, MAP_SHARED_VALIDATE",
                "another process's CPU clock", "pid 1's CPU clock"]


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="raw syscall numbers of x86_64")
@pytest.mark.parametrize("attack", GAME_REFUSES)
def test_the_game_filter_alone_refuses_what_the_red_team_did(probed, attack):
    """Signals through a file's owner (Linux < 6.12 has no Landlock signal scope), file metadata, fanotify and inotify,
    memfds, other processes' scheduling, datagrams to named sockets, raw entropy, the move timer's handler, and
    int arguments with high bits set: refused by seccomp, whether or not Landlock is there."""
    assert probed["game"][attack] == "EPERM", probed["game"]


def test_the_game_filter_still_lets_a_strategy_compute(probed):
    fine = {name: result for name, result in probed["game"].items() if name.startswith("FINE ")}
    assert fine and set(fine.values()) == {"ok"}, fine


def test_the_game_filter_compiled_once_in_the_template_answers_every_probe_as_the_one_compiled_in_the_game(probed):
    assert probed["compiled"] == probed["game"]


@pytest.mark.parametrize("own_seal", [True, False])
def test_the_game_filter_compiled_once_is_the_one_libseccomp_compiles_for_each_pid(own_seal):
    """The template compiles the allow-list once and each game process writes its pid into it: the program must be
    the very one libseccomp would compile in that process, for small and large pids alike (not pid 1, which no
    game process has and for which libseccomp lays the same rules out in another order)."""
    seccomp = pytest.importorskip("pyseccomp")
    program = _walls.compile_game_program(own_seal)
    assert program is not None and program.slots
    for pid in (2, 3, 64, 65, 300, 4242, os.getpid(), 65536, 4194303):
        direct = _walls.exported(_walls._game_filter(seccomp, pid, own_seal))
        assert _walls.game_program_for(program, pid) == direct, pid


def test_the_template_filter_reads_int_arguments_as_the_kernel_does(probed):
    """Its prctl rule compared all 64 bits of an int: ``prctl(1 << 32 | PR_SET_PDEATHSIG, 0)`` cleared the signal."""
    assert probed["template"]["prctl(1<<32 | PR_SET_PDEATHSIG, 0)"] == "EPERM"


LIBRARY_USER = '''
"""A legitimate strategy: NumPy, the standard library's maths, a helper module next to it."""
import bisect, collections, decimal, fractions, functools, heapq, itertools, json, math, random, re, statistics

import numpy as np

from amoeboid_edu import legal_turns
from helper import weight


@functools.lru_cache(maxsize=None)
def bonus(length):
    return fractions.Fraction(math.comb(length % 9 + 2, 2), 7)


def strategy(position, roll, rng):
    turns = list(itertools.islice(legal_turns(position, roll), 40))
    texts = [str(turn) for turn in turns]
    grown = collections.Counter(text.split()[1] for text in texts)
    scores = np.array([weight(text) + float(bonus(len(text))) + grown[text.split()[1]] / 100 for text in texts])
    scores += float(np.linalg.solve(np.eye(3) * 2 + 1, np.ones(3))[0]) * 1e-9 + float(np.abs(np.fft.fft(scores)).sum()) * 1e-12
    scores += np.random.random(len(turns)) * 1e-3 + random.random() * 1e-6 + rng.random() * 1e-6
    scores += statistics.fmean(scores.tolist()) * 0 + float(decimal.Decimal("0.1") * 0)
    best = heapq.nlargest(3, range(len(turns)), key=lambda i: scores[i])
    assert bisect.bisect(sorted(best), best[0]) >= 1 and re.match(r"\\d", texts[0])
    json.dumps({"best": best})
    print("thinking about", texts[best[0]])
    return turns[best[0]]
'''


def test_a_legitimate_strategy_with_numpy_the_standard_library_and_a_helper_module_plays(tmp_path):
    """A helper module comes with its strategy in a folder of the student's own (a single file is played alone)."""
    (tmp_path / "helper.py").write_text("def weight(text):\n    return sum(map(ord, text)) % 17 / 17\n")
    (tmp_path / "strategy.py").write_text(LIBRARY_USER)
    card = score(f"{tmp_path}/", games=4, seed=1, opponents=["random", "greedy"], progress=False, workers=1)
    assert card.forfeits().empty, card.forfeits()
    assert WALLS in str(card) and len(card.records) == 8
    assert settled() == []


def test_game_processes_share_no_open_description_a_strategy_can_mark():
    """Each game process got the template's ``/dev/null`` on 0-2, one open description for all of them: a sealed
    process set its flags (``F_SETFL``) from its roll and the next read them at its import (the seventh red team).
    Each strategy here marks its standard input at import and forfeits if it finds a mark already there."""
    card = score("marks_stdin:strategy", games=4, seed=1, opponents=["random", "greedy"], progress=False, workers=1)
    assert card.forfeits().empty, card.forfeits()
    assert len(card.records) == 8 and WALLS in str(card)


def test_a_strategy_cannot_freeze_its_template_through_a_file_owner():
    """SIGSTOP of the template (same Landlock domain) froze every later game: "load" forfeits, a lost entrant."""
    frame = score(hostile.freezes_its_template, **dict(QUICK, games=6, per_move_limit=1.0)).to_frame()
    assert set(frame["reason"]) == {"exception"}, frame[["reason", "value"]]
    assert frame["value"].str.startswith("PermissionError").all()
    assert settled() == []


def test_file_metadata_and_named_sockets_outside_are_refused(tmp_path):
    victim, relay = tmp_path / "victim.txt", tmp_path / "relay.sock"
    victim.write_text("the teacher's")
    victim.chmod(0o600)
    os.utime(victim, (1000, 1000))
    listener = __import__("socket").socket(__import__("socket").AF_UNIX, __import__("socket").SOCK_DGRAM)
    listener.bind(str(relay))
    listener.setblocking(False)
    (tmp_path / "meddler.py").write_text(f'''
import os, socket
def strategy(position, roll, rng):
    results = []
    for name, attempt in (("chmod", lambda: os.chmod({str(victim)!r}, 0o644)), ("utime", lambda: os.utime({str(victim)!r}, (1, 1))),
                          ("chown", lambda: os.chown({str(victim)!r}, os.getuid(), os.getgid())),
                          ("setxattr", lambda: os.setxattr({str(victim)!r}, "user.x", b"1")),
                          ("relay", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0].sendto(str(roll).encode(), {str(relay)!r}))):
        try:
            attempt()
            results.append(name + " done")
        except OSError as error:
            results.append(name + " " + type(error).__name__)
    raise RuntimeError(", ".join(results))
''')
    frame = score(f"{tmp_path / 'meddler.py'}:strategy", **QUICK).to_frame()
    assert (frame["value"] == "RuntimeError: chmod PermissionError, utime PermissionError, chown PermissionError, "
                              "setxattr PermissionError, relay PermissionError").all(), frame["value"].iloc[0]
    assert victim.stat().st_mode & 0o777 == 0o600 and victim.stat().st_mtime == 1000
    with pytest.raises(BlockingIOError):
        listener.recv(100)
    listener.close()


def test_a_move_interrupted_at_its_limit_keeps_the_import_and_one_that_will_not_stop_is_killed():
    """Import once (issue 14, item 6): a 3 s import whose moves loop forever in plain Python is imported once per lane;
    a move that catches the interrupt and goes on costs its game process (and a re-import)."""
    card = score("imports_slowly:loops_every_other_move", games=8, seed=2, opponents=["random"], progress=False,
                 per_move_limit=0.3)
    frame = card.to_frame()
    assert set(frame["reason"]) == {"timeout", "exception"}, frame["reason"]
    timeouts = frame[frame["reason"] == "timeout"]
    assert timeouts["message"].str.contains("it was stopped in loops_every_other_move, line").all(), timeouts["message"]
    told = frame[frame["reason"] == "exception"]
    for _, lane in told.groupby("seat"):  # one lane per seat: the strategy's seat is fixed in a lane
        places = lane["value"].str.extract(r"imported in (\d+), move (\d+) of this import")
        assert places[0].nunique() == 1, lane["value"]  # one import per lane
        assert places[1].astype(int).tolist() == [2, 4], lane["value"]  # its module state lived on
    stubborn = score(hostile.catches_the_interrupt, **dict(QUICK, per_move_limit=0.3)).to_frame()
    assert set(stubborn["reason"]) == {"timeout"}
    assert stubborn["message"].str.contains("did not stop when interrupted").all(), stubborn["message"]
    assert settled() == []


def test_the_early_stop_is_the_same_serially_in_parallel_and_in_a_tournament():
    """A strategy failing after a while in seat A only: the stop after 5 identical forfeits is counted in the games'
    order, not in arrival order (one worker once gave a card of 5 games and two workers one of 15).  A tournament's
    table against a bot has dice of its own (keyed by the entrant), so it is compared with itself across executors."""
    serial = score(hostile.breaks_in_seat_a, games=20, seed=1, opponents=["random"], progress=False)
    parallel = score(hostile.breaks_in_seat_a, games=20, seed=1, opponents=["random"], progress=False, workers=2)
    assert serial.stopped and str(serial) == str(parallel) and serial.records == parallel.records

    def rows(records):
        return {(r.pair, r.first_seat): (r.winner, r.turns, r.reason, r.value) for r in records}

    leagues = [tournament([hostile.breaks_in_seat_a, "random"], games=20, seed=1, executor=executor, progress=False)
               for executor in ("serial", "processes:2")]
    assert rows(leagues[0].records) == rows(leagues[1].records)
    assert any(r.reason == "exception" for r in leagues[0].records)
    assert settled() == []


@pytest.mark.parametrize("command", ["score", "tournament"])
@pytest.mark.not_a_subreaper
def test_a_scorer_killed_in_a_parallel_run_leaves_no_process(tmp_path, command):
    """With --workers 2 or --executor processes:2, a SIGKILLed scorer left its parallel harnesses or pool workers
    and their sandboxes playing, re-parented to PID 1 (found by the red team).  This test process is no
    subreaper: the run's processes are found by a mark in their environment (the scorer's helpers inherit it),
    and the sandboxes (scrubbed environment) by the helper the lab names in theirs."""
    mark = f"amoeboid-test-{os.getpid()}-{time.monotonic_ns()}"
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("ann", "bob"):
        # self-contained, as a hand-in must be: the teacher's current folder is on no worker's import path
        (folder / f"{student}.py").write_text("import time\n\n\ndef strategy(position, roll, rng):\n"
                                              "    time.sleep(60)\n")
    arguments = {"score": ["score", "hostile:sleeps_a_minute", "--games", "8", "--opponents", "random,greedy",
                           "--workers", "2", "--per-move-limit", "120", "-q"],
                 "tournament": ["tournament", str(folder), "--games", "8", "--seed", "1", "--out",
                                str(tmp_path / "r.csv"), "--executor", "processes:2", "--opponents", "random",
                                "--per-move-limit", "120", "-q"]}[command]
    scorer = subprocess.Popen([sys.executable, "-m", "amoeboid_edu", *arguments], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd=STRATEGIES, env=dict(os.environ, AMOEBOID_TEST_MARK=mark))
    try:
        end = time.monotonic() + 90
        while len([pid for pid, what in ours(mark).items() if what.startswith(b"sandbox")]) < 6:
            assert time.monotonic() < end and scorer.poll() is None, "the sandboxes never started"
            time.sleep(0.05)
        time.sleep(0.5)  # games in their moves
    finally:
        scorer.kill()
        scorer.wait()
    assert left_of_run(mark, 20) == {}  # the dead scorer's helpers would otherwise wait for the move 40 s more


def left_of_run(mark: str, deadline: float) -> dict[int, bytes]:
    """The processes of the run marked ``mark`` (:func:`ours`) still alive after ``deadline`` seconds; they are
    killed, so that a failing test leaves none behind."""
    end = time.monotonic() + deadline
    while ours(mark) and time.monotonic() < end:
        time.sleep(0.05)
    left = ours(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


HELPERS_SEEN: dict[str, set[int]] = {}


def ours(mark: str) -> dict[int, bytes]:
    """Living processes of one run: those with ``mark`` in their environment, and sandboxes started by one of them
    (the lab names their harness in their environment, ``AMOEBOID_HARNESS``) -- also after that harness died.
    Nobody's command line is parsed: another program that names the sandbox there is not ours."""
    processes = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            state = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
            environment = Path(f"/proc/{name}/environ").read_bytes().split(b"\0")
        except (OSError, IndexError):
            continue
        if state != b"Z":
            harness = next((item.partition(b"=")[2] for item in environment
                            if item.startswith(_harness.HARNESS_MARK.encode() + b"=")), b"")
            marked = b"AMOEBOID_TEST_MARK=" + mark.encode() in environment
            processes[int(name)] = (marked, int(harness) if harness.isdigit() else None)
    helpers = HELPERS_SEEN.setdefault(mark, set())
    helpers |= {pid for pid, (marked, _) in processes.items() if marked}
    return {pid: b"marked" if marked else b"sandbox of %d" % harness
            for pid, (marked, harness) in processes.items() if marked or harness in helpers}


def test_the_leak_scan_is_not_fooled_by_another_program_naming_the_sandbox():
    """The scan crashed (ValueError) when another program had amoeboid_edu.sandbox.worker in its command line, as a
    teacher's contest running beside the tests has."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "amoeboid_edu.sandbox.worker", "x"])
    try:
        time.sleep(0.3)
        assert other.pid not in ours(f"amoeboid-test-{os.getpid()}-{time.monotonic_ns()}")
    finally:
        other.kill()
        other.wait()


def test_the_python_api_reads_a_seed_file_with_the_clis_checks(tmp_path, monkeypatch):
    """lab.score(seed=open("contest.seed").read()) in a notebook's folder let a strategy read the seed: the API
    now has seed_file=, refused where a strategy may read it (the notebook's folder is on the import path)."""
    notebook, home = tmp_path / "notebook", tmp_path / "home"
    notebook.mkdir(), home.mkdir()
    secret = "SECRET-" + os.urandom(16).hex()
    (notebook / "contest.seed").write_text(secret + "\n")
    (home / "contest.seed").write_text(secret + "\n")
    monkeypatch.chdir(notebook)
    monkeypatch.syspath_prepend(str(notebook))
    with pytest.raises(ValueError, match="which strategies may read"):
        score(hostile.steals_the_seed, **dict(QUICK, seed=0), seed_file="contest.seed")
    with pytest.raises(ValueError, match="which strategies may read"):
        tournament([hostile.steals_the_seed, "random"], games=2, progress=False, seed_file=notebook / "contest.seed")
    card = score(hostile.steals_the_seed, **dict(QUICK, seed=0), seed_file=home / "contest.seed")
    assert secret not in str(card) + card._repr_html_() and f"seed from {home / 'contest.seed'} (secret)" in str(card)
    assert card.records == score(hostile.steals_the_seed, **dict(QUICK, seed=secret)).records
    assert card.to_frame()["value"].str.startswith("RuntimeError: no secret in reach").all()


def test_a_weak_seed_file_is_refused(tmp_path):
    from cli_runner import amoeboid  # refused before any game: in this process (tests/cli_runner.py)

    for weak in ("0000000000000000", "abababababababababababab", "0123456"):
        (tmp_path / "weak.seed").write_text(weak + "\n")
        done = amoeboid("score", "hostile:plays_fair", "--seed-file", str(tmp_path / "weak.seed"), "-q")
        stderr = done.stderr.decode()
        assert done.returncode == 2 and "8 of them different" in stderr and stderr.count("\n") == 1, (weak, stderr)


def test_a_strategy_file_given_through_a_symbolic_link_loads(tmp_path):
    (tmp_path / "real").mkdir(), (tmp_path / "links").mkdir()
    (tmp_path / "real" / "mine.py").write_text((STRATEGIES / "student.py").read_text())
    (tmp_path / "links" / "mine.py").symlink_to(tmp_path / "real" / "mine.py")
    card = score(f"{tmp_path / 'links' / 'mine.py'}:wander", **QUICK)
    assert card.forfeits().empty, card.forfeits()


def test_the_isolation_line_names_what_this_kernels_landlock_covers():
    """On an older ABI the card said "landlock" although Landlock had no network or signal rules there."""
    program = ("import sys, landlockpy._syscall as s; s.abi_version = lambda: int(sys.argv[1]); "
               "from amoeboid_edu.sandbox import walls as _walls; print(_walls._landlock([sys.prefix]))")
    named = {abi: subprocess.run([sys.executable, "-c", program, str(abi)], capture_output=True, text=True,
                                 timeout=60).stdout.strip() for abi in (3, 4, 6)}
    assert named == {3: "landlock (files)", 4: "landlock (files, tcp)", 6: "landlock (files, tcp, signals)"}, named
