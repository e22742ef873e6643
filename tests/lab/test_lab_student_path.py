"""What a fresh student tripped on in lesson 9 and the class tournament (issue 25, second pass): each found the way a
student found it, through ``score``, ``hand_in``, ``tournament`` and ``amoeboid``."""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
import time

import pytest

from amoeboid_edu import cli, legal_turns
from amoeboid_edu.lab import compare, hand_in, score, tournament
from amoeboid_edu.lab.cards import TournamentResult
from amoeboid_edu.lab.handin import HandInRefused
from amoeboid_edu.lab.records import GameRecord
from test_lab_new_student import terminal_card

QUIET = dict(progress=False, per_move_limit=5.0)
CARD = dict(QUIET, workers=1)
"""A card played here (``workers=1``); the default would follow the machine's cores (a pool of processes on two).
The tests of the default and of a pool ask for them."""
FIRST = "from amoeboid_edu import legal_turns\n\n\ndef strategy(position, roll, rng):\n" \
        "    return next(legal_turns(position, roll))\n"


def notebook_function(source: str, name: str, cell: str = "/tmp/ipykernel_0/cell-5.py") -> object:
    """``name`` as a notebook cell defines it: its source in ``linecache`` under the cell's file."""
    namespace: dict[str, object] = {"__name__": "a_students_notebook"}
    linecache.cache[cell] = (len(source), None, source.splitlines(keepends=True), cell)
    exec(compile(source, cell, "exec"), namespace)
    return namespace[name]

# --------------------------------------------------------------------------- the per-move limit counts CPU time

LIMIT = 0.5


def _busy_once(cpu_seconds: float):
    """A strategy whose first move computes for ``cpu_seconds`` of CPU time; the others play at once."""
    busy = [cpu_seconds]

    def strategy(position, roll, rng):
        if busy:
            start = time.process_time()
            while time.process_time() - start < busy[0]:
                pass
            busy.clear()
        return next(legal_turns(position, roll))

    return strategy


@pytest.fixture
def a_busy_core():
    """This process and its future workers on one core, beside three processes that keep that core busy: a move
    gets a quarter of the core or less, as on a class's machine at load 7."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("needs sched_setaffinity (Linux)")
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, before)


def test_a_move_that_computes_within_the_limit_is_not_forfeited_on_a_loaded_machine(a_busy_core):
    card = score(_busy_once(0.6 * LIMIT), games=2, seed=4, opponents=["random"], progress=False,
                 per_move_limit=LIMIT, workers=1)
    assert card.forfeits().empty, card.forfeits()[["reason", "value"]].to_string()


def test_a_move_that_computes_for_three_times_the_limit_is_forfeited():
    card = score(_busy_once(3 * LIMIT), games=2, seed=4, opponents=["random"], progress=False,
                 per_move_limit=LIMIT, workers=1)
    forfeits = card.forfeits()
    assert list(forfeits["reason"]) == ["timeout"], forfeits
    assert f"{LIMIT:g} s of CPU time" in forfeits["value"].iloc[0]


def test_a_move_that_waits_is_stopped_by_the_wall_clock_and_told_so():
    def waits(position, roll, rng):
        time.sleep(60)

    card = score(waits, games=2, seed=4, opponents=["random"], progress=False, per_move_limit=0.1, workers=1)
    forfeits = card.forfeits()
    assert list(forfeits["reason"]) == ["timeout"], forfeits
    assert "waited 1 s without using the CPU" in forfeits["value"].iloc[0]


# --------------------------------------------------------------------------- handing in


def test_hand_in_to_a_folder_writes_the_named_file_inside_it_or_says_to_name_the_file(tmp_path):
    mine = notebook_function(FIRST.replace("def strategy", "def my_strategy"), "my_strategy")
    folder = tmp_path / "handins"
    with pytest.raises(HandInRefused, match=r"is a folder: give the file's name too, e.g. hand_in\(my_strategy, "):
        hand_in(mine, f"{folder}/")
    assert not (tmp_path / "handins.py").exists()  # nothing written beside the folder
    folder.mkdir()
    with pytest.raises(HandInRefused, match="is a folder"):
        hand_in(mine, folder)
    assert hand_in(mine, f"{folder}/", name="sam") == folder / "sam.py"
    assert "strategy = my_strategy" in (folder / "sam.py").read_text()


def test_a_lambda_handed_in_from_a_notebook_is_refused_in_one_line(tmp_path, capsys):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell(f"from amoeboid_edu.lab import hand_in\n"
                       f"hand_in(lambda position, roll, rng: None, {str(tmp_path / 'sam')!r})")
    finally:
        InteractiveShell.clear_instance()
    shown = capsys.readouterr().out.strip()
    assert shown.startswith("HandInRefused: this strategy is a lambda") and "\n" not in shown, shown


# --------------------------------------------------------------------------- messages on the card


def picks_from_nothing(position, roll, rng):
    bigger = [cell for cell in position.amoebae() if cell == "z9"]
    return rng.choice(bigger)


def test_an_error_inside_the_library_names_the_students_line_that_called_it():
    card = score(picks_from_nothing, games=2, seed=1, opponents=["random"], **CARD)
    message = card.forfeits()["message"].iloc[0]
    assert "raised in choice (line " in message and "of random.py), called from picks_from_nothing, line " in message
    assert message.endswith("of test_lab_student_path.py: return rng.choice(bigger)"), message


def test_amoeboid_score_refuses_a_file_with_a_syntax_error_before_any_game(tmp_path, capsys):
    path = tmp_path / "sam.py"
    path.write_text("from amoeboid_edu import legal_turns\n\ndef strategy(position, roll, rng)\n    return None\n")
    assert cli.main(["score", str(path), "--games", "2", "--opponents", "random", "-q"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no card: no game was played
    assert captured.err.count("\n") == 1, captured.err
    assert "sam.py has a SyntaxError on line 3" in captured.err
    assert "def strategy(position, roll, rng)" in captured.err


def _round_robin(outcomes: dict[tuple[str, str], str], games: int) -> tuple[GameRecord, ...]:
    """Records of a round robin where each pairing ends the same way every game (``first`` wins, say)."""
    return tuple(GameRecord(first, second, pair, seat, winner, 20)
                 for (first, second), winner in outcomes.items()
                 for pair in range(games // 2) for seat in "AB")


def test_a_rank_is_clear_only_when_the_win_rates_say_so_at_the_sample_size():
    # four games a pairing, each won by the same side: every bootstrap refit agrees, so the rating intervals are
    # single points, while the win rates' intervals still overlap
    records = _round_robin({("sam", "alice"): "first", ("sam", "erin"): "first", ("alice", "erin"): "first"}, 4)
    result = TournamentResult(("sam", "alice", "erin"), 0, records)
    table = result.table().set_index("player")
    assert (table["rating_low"] == table["rating_high"]).all()  # the case the student met (1898-1898)
    assert table.loc["alice", "could_be"] == "1-3"
    assert "Every rank is clear" not in str(result)
    assert "Could be: a rank range under 'could_be' such as 1-2" in str(result)


def raises_every_move(position, roll, rng):
    raise RuntimeError("not written yet")


def test_a_card_whose_games_were_all_forfeited_says_so_not_too_close_to_call():
    card = score(raises_every_move, games=4, seed=1, opponents=["random"], **CARD)
    assert card.verdicts()["verdict"].tolist() == ["every game forfeited"]
    assert "too close to call" not in str(card)
    assert "Against random: every game forfeited (all 4 games were forfeited" in str(card)


def passes(position, roll, rng):
    turns = list(legal_turns(position, roll))
    return next((turn for turn in turns if turn.is_pass), turns[0])


def passes_too(position, roll, rng):
    return passes(position, roll, rng)


def test_a_comparison_where_every_game_tied_says_they_tied_every_game():
    card = compare(passes, passes_too, games=4, seed=1, max_turns=12, **CARD)
    assert {record.winner for record in card.records} == {None}
    assert card.verdicts()["verdict"].tolist() == ["tied every game"]
    assert "more games may tell them apart" not in str(card)
    capped = sum(record.capped for record in card.records)
    assert f"all 4 games were ties, {capped} of them stopped at the 12-turn cap" in str(card)


# --------------------------------------------------------------------------- the tournament and the terminal


def prints_then_raises(position, roll, rng):
    print("thinking about", roll)
    raise RuntimeError("a bug")


def test_the_tournaments_forfeits_show_the_last_lines_the_strategy_printed():
    result = tournament([prints_then_raises, "random"], games=2, seed=1, **QUIET)
    forfeits = result.forfeits()
    assert len(forfeits) == 1
    assert "thinking about" in forfeits["last output"].iloc[0]
    assert "| thinking about" in str(result)


PRINTS = FIRST.replace("    return next", "    print('considering', roll)\n    return next")


def test_the_terminal_card_says_how_to_see_the_hidden_prints_with_the_command(tmp_path, capsys):
    out = terminal_card(tmp_path / "sam.py", PRINTS, capsys, "--opponents", "random", "--printed", "0")
    assert "card.printed(" not in out
    assert "amoeboid score ... --printed 0 prints the last lines it printed in game 0" in out
    assert "the last lines printed in game 0:\nconsidering " in out


def test_the_terminal_card_of_an_early_stop_starts_with_fix_this_first(tmp_path, capsys):
    path = tmp_path / "sam.py"
    path.write_text("def strategy(position, roll, rng):\n    return undefined_helper(position)\n")
    assert cli.main(["score", str(path), "--games", "8", "--opponents", "random", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("⚠ your strategy fails the same way every game: fix this first."), out[:300]


def test_a_notebook_whose_tagged_cell_calls_an_untagged_helper_is_told_to_tag_that_cell_too(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    helper = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": "def neutraliser(position, roll, rng):\n    return next(legal_turns(position, roll))\n"}
    mine = {"cell_type": "code", "metadata": {"tags": ["strategy"]}, "outputs": [], "execution_count": None,
            "source": "from amoeboid_edu import legal_turns\n\ndef strategy(position, roll, rng):\n"
                      "    return neutraliser(position, roll, rng)\n"}
    (folder / "erin.ipynb").write_text(json.dumps({"cells": [helper, mine], "metadata": {}, "nbformat": 4,
                                                   "nbformat_minor": 5}))
    (folder / "bob.py").write_text(FIRST)
    result = tournament(folder, games=2, seed=1, opponents=["random"], **QUIET)
    (name, error), = result.not_loaded
    assert name == "erin"
    assert "only its cells tagged 'strategy' are read" in error and "neutraliser" in error
    assert "tag the cell that defines it too" in error


# --------------------------------------------------------------------------- the time estimate


def _timed_run(seconds_per_game: list[float]) -> list[str]:
    """What a run of ``len(seconds_per_game)`` games says when its games take these many seconds each."""
    from amoeboid_edu.lab import estimate

    said: list[str] = []
    now = [0.0]
    run = estimate.RunEstimate("tournament", len(seconds_per_game), estimate.tournament_advice(8, [], 1),
                               said.append, clock=lambda: now[0])
    for seconds in seconds_per_game:
        now[0] += seconds
        run.finished()
    return said


def test_a_run_that_looked_short_on_its_first_games_says_so_when_it_turns_out_long():
    from amoeboid_edu.lab.estimate import duration

    said = _timed_run([0.05] * 40 + [1.0] * 200)  # 2 s of quick games, then 200 s of slow ones
    assert said and said[0].startswith("tournament: about ") and "(timed again after " in said[0], said
    assert f"about {duration(202.0)} " in said[-1]  # the last word is right


def test_an_estimate_that_turns_out_far_off_is_corrected_as_the_run_goes():
    from amoeboid_edu.lab.estimate import CORRECTIONS, duration

    said = _timed_run([0.5] * 60 + [2.0] * 300)  # said about 3 min at first; the games then take 4 times as long
    assert said[0].startswith(f"tournament: about {duration(0.5 * 360)} for 360 games (timed on the first ")
    assert 2 <= len(said) <= 1 + CORRECTIONS, said
    assert said[-1].startswith(f"tournament: now about {duration(30 + 600)} in all, "), said
