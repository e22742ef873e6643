"""A new student's path through lesson 9 and the class tournament (issue 25): each test makes a mistake as the student
did, and checks the one line that says what was wrong and what to do."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import traceback

import pytest

from amoeboid_edu import lab
from amoeboid_edu.lab.handin import HandInRefused, Refused

QUIET = {"progress": False}
CARD = dict(QUIET, workers=1)
"""A card played here (``workers=1``); the default would follow the machine's cores (a pool of processes on two).
The tests of the default and of a pool ask for them."""
SEED = "d41d8cd98f00b204e9800998ecf8427e"
GOOD = "import random\nfrom amoeboid_edu import legal_turns\n\n\ndef strategy(position, roll, rng):\n" \
       "    return next(iter(legal_turns(position, roll)))\n"
HELPER = "def biggest(position):\n    return position.owned()[0]\n"
USES_HELPER = "import myhelpers\nfrom amoeboid_edu import legal_turns\n\n\ndef strategy(position, roll, rng):\n" \
              "    grow = myhelpers.biggest(position)\n    return next(iter(legal_turns(position, roll)))\n"


def _one_line_refusal(error: pytest.ExceptionInfo[ValueError], *deep: str) -> str:
    """The refusal's message, checked to be a notebook's one line with no traceback through the lab's internals."""
    assert isinstance(error.value, Refused), type(error.value)
    shown = error.value._render_traceback_()
    assert len(shown) == 1 and "\n" not in shown[0], shown
    files = [frame.filename for frame in traceback.extract_tb(error.tb)]
    assert not [file for file in files if file.endswith(deep)], files
    assert error.value.__cause__ is None and error.value.__suppress_context__
    return str(error.value)


def _cell(tmp_path: os.PathLike[str], source: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """``source`` run as a notebook cell whose folder is ``tmp_path`` (the current folder, on the import path)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(os.fspath(tmp_path))
    monkeypatch.delitem(sys.modules, "myhelpers", raising=False)
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile(source, "/tmp/ipykernel_1/2.py", "exec"), namespace)
    return namespace


# --------------------------------------------------------------------------- 1. a helper file beside the strategy

BESIDE = """import myhelpers
from amoeboid_edu import legal_turns


def beside(position, roll, rng):
    grow = myhelpers.biggest(position)
    return next(iter(legal_turns(position, roll)))
"""


def test_a_notebook_strategy_that_imports_a_file_beside_the_notebook_is_told_why_and_what_to_do(tmp_path,
                                                                                               monkeypatch):
    (tmp_path / "myhelpers.py").write_text(HELPER)
    beside = _cell(tmp_path, BESIDE, monkeypatch)["beside"]
    with pytest.raises(ValueError) as error:
        lab.score(beside, games=2, opponents=["random"], **CARD)
    message = _one_line_refusal(error, "entrants.py")
    assert "beside uses myhelpers (myhelpers.py beside the notebook)" in message
    assert "not the files beside the notebook" in message
    assert "put the helper's code in a notebook cell, or hand in a folder NAME/ holding strategy.py" in message


def test_hand_in_refuses_a_strategy_that_imports_a_file_beside_the_notebook_with_the_folder_advice(tmp_path,
                                                                                                  monkeypatch):
    (tmp_path / "myhelpers.py").write_text(HELPER)
    beside = _cell(tmp_path, BESIDE, monkeypatch)["beside"]
    with pytest.raises(HandInRefused, match=r"hand in a folder NAME/ holding strategy.py and myhelpers.py \(e.g. "
                                            r"class/erin/strategy.py\)"):
        lab.hand_in(beside, "class/erin")
    assert not (tmp_path / "class" / "erin.py").exists()


def test_a_helper_file_in_a_class_folder_is_named_a_helper_of_the_file_that_imports_it(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "dave.py").write_text(USES_HELPER)
    (folder / "myhelpers.py").write_text(HELPER)
    result = lab.tournament(folder, games=2, seed=1, opponents=["random"], **QUIET)
    reasons = dict(result.not_loaded)
    assert reasons["myhelpers"] == ("myhelpers.py looks like a helper of dave.py: put both in a folder dave/ with "
                                    "strategy.py (dave/strategy.py and the helper beside it)")
    assert reasons["dave"].startswith("dave.py imports myhelpers.py from the class folder, and each file there is "
                                      "played alone")
    assert reasons["dave"].endswith("put both in a folder dave/ with strategy.py (dave/strategy.py and the helper "
                                    "beside it)")
    assert "strategy = biggest" not in str(result)


def test_the_header_advice_reproduces_what_the_tournament_sees(tmp_path):
    """`amoeboid score FILE.py`, as the header says, refuses the file for the reason the tournament did not load it."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "dave.py").write_text(USES_HELPER)
    (folder / "myhelpers.py").write_text(HELPER)
    with pytest.raises(ValueError) as error:
        lab.tournament(folder, games=2, seed=1, **QUIET)
    assert "dave: dave.py imports myhelpers.py from the class folder" in str(error.value)
    with pytest.raises(ValueError, match=r"dave.py imports myhelpers.py from its folder, and a single file is played "
                                         r"without the files beside it"):
        lab.score(str(folder / "dave.py"), games=2, opponents=["random"], **CARD)


# --------------------------------------------------------------------------- 2. one line, not a traceback


def test_a_function_name_in_quotes_says_to_drop_the_quotes():
    with pytest.raises(ValueError) as error:
        lab.score("always_eat", games=2, **CARD)
    message = _one_line_refusal(error, "entrants.py")
    assert message == ("strategy 'always_eat' is neither a bot's name nor a file nor MODULE:FUNCTION; to play your "
                       "function always_eat, pass the function itself, without the quotes: always_eat, not "
                       "'always_eat'")


def test_a_file_named_without_its_suffix_on_the_command_line_is_offered_the_file(tmp_path, monkeypatch, capsys):
    # new student 8: `amoeboid score alice` beside alice.py was told to drop the quotes, Python advice at a terminal
    from amoeboid_edu import cli

    (tmp_path / "alice.py").write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["score", "alice", "--games", "2"], io.StringIO()) == 2
    assert capsys.readouterr().err == ("error: strategy 'alice' is neither a bot's name nor a file; to play the file "
                                       "alice.py, write its whole name: alice.py\n")


def test_a_bot_name_with_a_capital_is_offered_the_bot():
    with pytest.raises(ValueError) as error:
        lab.score("random", games=2, opponents=["Greedy"], **CARD)
    message = _one_line_refusal(error, "entrants.py")
    assert message.startswith("opponents are bot names from ") and "not 'Greedy': did you mean 'greedy'?" in message


def test_an_unknown_opponent_gets_the_bots_names():
    with pytest.raises(ValueError) as error:
        lab.tournament(["random", "greedy"], games=2, opponents=["grady"], **QUIET)
    message = _one_line_refusal(error, "entrants.py")
    assert message.startswith("opponents are bot names from ") and "greedy" in message
    assert message.endswith(", not 'grady' (a list of names, e.g. opponents=[\"greedy\", \"paper\"])")


@pytest.mark.parametrize("run", ["score", "tournament"])
def test_a_bot_listed_twice_is_refused_in_one_line(run):
    # red team 8: both tables of "random" and "random 2" dealt the same dice, so those games counted twice
    with pytest.raises(ValueError) as error:
        if run == "score":
            lab.score("greedy", games=2, opponents=["random", "greedy", "random"], **CARD)
        else:
            lab.tournament(["greedy", "paper"], games=2, opponents=["random", "random"], **QUIET)
    message = _one_line_refusal(error, "entrants.py")
    assert message == "opponents=: 'random' is listed twice; list each bot once (play more games with games=)"


def test_a_single_opponent_name_is_a_list_of_one_not_of_letters():
    card = lab.score("random", games=2, opponents="greedy", **CARD)
    assert card.summary()["opponent"].tolist() == ["greedy"]


def test_a_notebook_tournament_with_a_seed_file_strategies_may_read_is_one_line(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(os.fspath(tmp_path))  # the notebook's folder is on its import path
    (tmp_path / "seed.txt").write_text(SEED)
    with pytest.raises(ValueError) as error:
        lab.tournament(["random", "greedy"], games=2, seed_file=tmp_path / "seed.txt", **QUIET)
    message = _one_line_refusal(error, "seedfile.py", "entrants.py")
    assert "seed.txt lies in" in message and "which strategies may read" in message


# --------------------------------------------------------------------------- 4. python -m and the seed file


def test_python_m_says_why_a_seed_file_in_the_current_folder_is_refused(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    (tmp_path / "seed.txt").write_text(SEED)
    done = subprocess.run([sys.executable, "-m", "amoeboid_edu", "tournament", "class", "--seed-file", "seed.txt",
                           "--games", "2", "--out", str(tmp_path / "out" / "results.csv"), "-q"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "which strategies may read (python -m amoeboid_edu puts the current folder on the import path" in done.stderr
    assert "run the command as amoeboid ... instead, or as python -P -m amoeboid_edu ..." in done.stderr


# --------------------------------------------------------------------------- 5. changing the position

CHANGES = """from amoeboid_edu import legal_turns


def grow_it(position, roll, rng):
    me = position.owned()[0]
    position[me].a += roll
    return next(iter(legal_turns(position, roll)))


def set_board(position, roll, rng):
    position.board[0] = None
    return next(iter(legal_turns(position, roll)))


def add_cell(position, roll, rng):
    position.cells.append(None)
    return next(iter(legal_turns(position, roll)))


def own_tuple(position, roll, rng):
    mine = (1, 2)
    mine.append(3)
    return next(iter(legal_turns(position, roll)))
"""


@pytest.mark.parametrize("function, line", [("grow_it", "position[me].a += roll"),
                                            ("set_board", "position.board[0] = None"),
                                            ("add_cell", "position.cells.append(None)")])
def test_changing_the_position_the_natural_ways_names_the_change_and_suggests_apply(tmp_path, function, line):
    (tmp_path / "changes.py").write_text(CHANGES)
    card = lab.score(f"{tmp_path / 'changes.py'}:{function}", games=2, seed=1, opponents=["random"], **CARD)
    message = card.records[0].message
    assert f"`{line}` tries to change the position" in message, message
    assert "to see a position after a turn, make a new one with apply(position, turn)" in message


def test_a_tuple_of_the_students_own_gets_no_position_hint_the_positions_cells_do(tmp_path):
    (tmp_path / "changes.py").write_text(CHANGES)
    own = lab.score(f"{tmp_path / 'changes.py'}:own_tuple", games=2, seed=1, opponents=["random"], **CARD)
    assert "mine.append(3)" in own.records[0].message and "apply(" not in own.records[0].message
    cells = lab.score(f"{tmp_path / 'changes.py'}:add_cell", games=2, seed=1, opponents=["random"], **CARD)
    assert own.records[0].value == "AttributeError: 'tuple' object has no attribute 'append'" == cells.records[0].value
    assert "apply(position, turn)" in cells.records[0].message


# --------------------------------------------------------------------------- 10. a seed file in a listed student folder


def test_a_seed_file_inside_a_listed_student_folder_is_refused(tmp_path):
    dave = tmp_path / "dave"
    dave.mkdir()
    (dave / "strategy.py").write_text(GOOD)
    (dave / "seed.txt").write_text(SEED)
    with pytest.raises(ValueError, match=r"seed.txt lies in .*dave, which strategies may read"):
        lab.tournament([f"{dave}/", "random"], games=2, seed_file=dave / "seed.txt", **QUIET)


# --------------------------------------------------------------------------- 3. the terminal card's capped games


def test_the_terminal_card_points_to_what_the_terminal_has_for_capped_games(capsys):
    from amoeboid_edu.cli import main
    from amoeboid_edu.engine.game import Game

    card = lab.score("random", games=2, seed=1, opponents=["random"], max_turns=4, **CARD)
    first = card.games()["capped"].tolist().index(True)
    assert f"(amoeboid score ... --game {first} prints the first of them)" in card.terminal()
    assert "card.games()" not in card.terminal()
    assert f"card.game({first}) is the first" in str(card)
    assert main(["score", "random", "--games", "2", "--opponents", "greedy", "--game", "1", "-q"]) == 0
    printed = capsys.readouterr().out
    heading, record = printed.split("its record (save it in a file for amoeboid replay FILE or amoeboid review FILE):\n")
    assert heading.splitlines()[-1].startswith("game 1: against greedy, you played ")
    assert Game.parse(record).turns == lab.score("random", games=2, opponents=["greedy"], **CARD).game(1).turns


# --------------------------------------------------------------------------- 6. the games the progress bar counted


def test_the_result_counts_the_games_of_an_entrant_that_did_not_load_as_the_progress_bar_did(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text(GOOD)
    (folder / "carol.py").write_text("raise RuntimeError('not today')\n")
    result = lab.tournament(folder, games=2, seed=1, **QUIET)
    assert [name for name, _ in result.not_loaded] == ["carol"]
    assert result.title == "round robin of 2: 2 games (and 4 of entrants that did not load, not counted), seed 1"


# --------------------------------------------------------------------------- 7. a strategy that sleeps


def test_a_strategy_that_sleeps_is_told_its_moves_waited_on_the_wall_clock(tmp_path):
    from amoeboid_edu.sandbox.protocol import wait_limit

    (tmp_path / "sleepy.py").write_text("import time\n" + GOOD.replace("    return", "    time.sleep(0.1)\n    return"))
    card = lab.score(str(tmp_path / "sleepy.py"), games=2, seed=1, opponents=["random"], max_turns=12, **CARD)
    assert card.forfeits().empty, card.forfeits()
    waited = [line for line in card.plain() if line.startswith("Moves waited ")]
    assert len(waited) == 1 and waited[0].endswith(f"(wall clock): the limit counts CPU time, the wait guard is "
                                                   f"{wait_limit(1.0):g} s (a move that waits that long, in a "
                                                   "time.sleep or an input(), is stopped).")
    assert sum(record.waited[0] for record in card.records) >= 0.1 * sum(record.asked[0] for record in card.records)


# --------------------------------------------------------------------------- 6. a strategy of a %%time cell

TIMED_BODY = """from amoeboid_edu import legal_turns


def timed(position, roll, rng):
    turns = list(legal_turns(position, roll))
    return turns[len(turns) + 5]
"""


def test_a_strategy_defined_in_a_time_cell_names_its_notebook_cell_and_line(monkeypatch):
    """IPython compiles a %%time cell's body as ``<timed exec>`` and keeps it only in its history of cells."""
    import types

    IPython = pytest.importorskip("IPython")
    history = types.SimpleNamespace(input_hist_raw=["", "%%time\n" + TIMED_BODY, "score(timed)"])
    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(history_manager=history))
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile(TIMED_BODY, "<timed exec>", "exec"), namespace)
    card = lab.score(namespace["timed"], games=2, seed=1, opponents=["random"], **CARD)
    message = card.records[0].message
    assert "in timed, line 7 of its notebook cell: return turns[len(turns) + 5]" in message, message
    assert "<timed exec>" not in message


# --------------------------------------------------------------------------- 9. a hand-in travels as its text


def test_a_class_folders_hand_ins_travel_as_text_run_by_the_worker_itself(tmp_path):
    """No game process of a hand-in unpickles a lab object (importing the lab takes about half a second a lane)."""
    from amoeboid_edu.lab.entrants import _entrants
    from amoeboid_edu.lab.roster import hand_in_snapshots

    folder = tmp_path / "class"
    (folder / "carol").mkdir(parents=True)
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text("from amoeboid_edu import legal_turns\n\n\ndef choose(position, roll, rng):\n"
                                   "    return next(iter(legal_turns(position, roll)))\n")
    (folder / "carol" / "strategy.py").write_text(GOOD)
    (folder / "dora.py").write_text("limit = 3\n")
    with hand_in_snapshots() as snapshot:
        entries, unread = _entrants(folder, [], snapshot)
        assert {name: (entry.load["load"], entry.load["name"]) for name, entry in entries.items()} == {
            "alice": ("source", "strategy"), "bob": ("source", "choose"), "carol": ("source", "strategy"),
            "dora": ("source", "strategy")}
    result = lab.tournament(folder, games=2, seed=1, **QUIET)
    assert set(result.names) == {"alice", "bob", "carol"} and result.forfeits().empty, result.forfeits()
    assert dict(result.not_loaded) == {"dora": "it defines no 'strategy' (nor 'choose'): name the function to play "
                                                "strategy"}


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_score_returns_the_games_played_so_far_with_a_banner(monkeypatch, capsys, workers):
    # new student 7: Ctrl-C in a long score gave a 40-line KeyboardInterrupt traceback and lost the games played
    from amoeboid_edu.lab import estimate

    arrived = []

    def finished(self):
        arrived.append(1)
        if len(arrived) == 6:  # as if the student pressed Ctrl-C (a notebook's interrupt) after the sixth game
            raise KeyboardInterrupt

    monkeypatch.setattr(estimate.RunEstimate, "finished", finished)
    card = lab.score("greedy", games=10, opponents=["random", "greedy"], progress=True, workers=workers)
    games = card.to_frame()
    assert len(games) == 6 and card.stopped.startswith("stopped by you (an interrupt) after 6 of 20 games")
    assert card.stopped in str(card) and str(card).count("stopped by you") == 1  # said once, on the card
    assert "stopped by you" not in capsys.readouterr().err  # not a second time beside it (new student 8)
    # the games that finished first are the short ones: no verdict from them (new student 8: "loses to paper")
    assert set(card.verdicts()["verdict"]) == {"stopped early"} and "not a fair sample" in card.stopped
    assert "--games on the command line" in card.stopped


def test_the_cli_prints_an_interrupted_card_and_ends_as_interrupted(monkeypatch):
    from amoeboid_edu import cli
    from amoeboid_edu.lab import estimate

    arrived = []

    def finished(self):
        arrived.append(1)
        if len(arrived) == 4:  # Ctrl-C after the fourth game
            raise KeyboardInterrupt

    monkeypatch.setattr(estimate.RunEstimate, "finished", finished)
    out = io.StringIO()
    status = cli.main(["score", "greedy", "--games", "10", "--opponents", "random", "--workers", "1"], out)
    assert status == 130 and out.getvalue().count("stopped by you (an interrupt) after 4 of 10 games") == 1
    assert "stopped early" in out.getvalue()
