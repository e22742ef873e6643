"""What a new student tripped on, alone from lesson 9 to the class tournament (issue 25): each message names what was
wrong and what to do, on the card, in the terminal and when handing in."""

from __future__ import annotations

import json
import linecache
import re
from pathlib import Path

import pytest

import student_mistakes as mistakes
from amoeboid_edu import cli, lab
from amoeboid_edu.lab import score, tournament
from amoeboid_edu.lab.entrants import ENTRY_FUNCTIONS
from amoeboid_edu.lab.roster import STRATEGY_TAG

REPO = Path(__file__).resolve().parents[2]
QUIET = dict(progress=False, per_move_limit=5.0)
CARD = dict(QUIET, workers=1)
"""A card played here (``workers=1``); the default would follow the machine's cores (a pool of processes on two).
The tests of the default and of a pool ask for them."""
GOOD = "from amoeboid_edu import legal_turns\n\n\ndef strategy(position, roll, rng):\n" \
       "    return next(legal_turns(position, roll))\n"


def notebook_function(source: str, name: str, cell: str = "/tmp/ipykernel_0/cell-7.py") -> object:
    """``name`` as a notebook cell defines it: its source in ``linecache`` under the cell's file, its module the
    notebook's (so that it travels to the worker by value)."""
    namespace: dict[str, object] = {"__name__": "a_students_notebook"}
    linecache.cache[cell] = (len(source), None, source.splitlines(keepends=True), cell)
    exec(compile(source, cell, "exec"), namespace)
    return namespace[name]


# --------------------------------------------------------------------------- the card


def test_a_card_whose_every_move_ran_out_of_time_says_how_many_did():
    card = score(mistakes.loops_forever, games=2, seed=1, opponents=["greedy"], progress=False, per_move_limit=0.2)
    timeouts = sum(record.reason == "timeout" for record in card.records)
    assert timeouts == len(card.records)
    text = str(card)
    assert "well within" not in text and "well within" not in card._repr_html_()
    assert f"Time per move: {timeouts} moves ran out of time (the limit is 0.2 s of CPU time a move)" in text


def test_games_stopped_at_the_turn_cap_are_named_on_the_card():
    card = score(mistakes.best_delta, games=4, seed=1, opponents=["greedy"], max_turns=2, **CARD)
    capped = sum(record.capped for record in card.records)
    assert capped > 1 and capped == sum(card.games()["capped"])
    line = f"Against greedy: {capped} games were stopped at the 2-turn cap with no winner, counted as ties"
    assert line in str(card) and line in card._repr_html_()


def test_the_cards_frame_numbers_its_games_as_games_does():
    card = score(mistakes.first_turn, games=4, seed=1, opponents=["greedy", "random"], **CARD)
    frame, games = card.to_frame(), card.games()
    assert list(frame["game"]) == list(games["game"])
    assert list(frame["opponent"]) == list(games["opponent"]) and list(frame["result"]) == list(games["result"])


def terminal_card(file, source: str, capsys, *options: str) -> str:
    """What ``amoeboid score FILE --games 2 -q OPTIONS`` prints for a strategy file of ``source`` (it must exit 0)."""
    file.write_text(source)
    assert cli.main(["score", str(file), "--games", "2", "-q", *options]) == 0
    return capsys.readouterr().out


def test_the_terminal_card_prints_the_time_per_move_instead_of_pointing_at_card_timing(tmp_path, capsys):
    out = terminal_card(tmp_path / "bob.py", GOOD, capsys, "--opponents", "greedy", "--per-move-limit", "5")
    assert "card.timing()" not in out
    assert re.search(r"Time per move: every move well within the limit of 5 s of CPU time \([\d.]+ ms on average, "
                     r"[\d.]+ ms at most\)", out)


def test_a_repeated_forfeit_names_its_game_in_the_banner_and_in_the_forfeits():
    card = score(mistakes.malformed_each_time_differently, games=8, seed=1, opponents=["greedy"], **CARD)
    named = re.search(r"the last of them, game (\d+) as card.games\(\) numbers them: ", card.stopped)
    assert named is not None
    last = card.records[int(named.group(1))]  # the game the banner names is the one whose value and message it quotes
    assert card.stopped.endswith(f"game {named.group(1)} as card.games() numbers them: {last.value}: {last.message}")
    forfeits = card.forfeits()
    first = int(card.games().query("forfeit == 'you'")["game"].iloc[0])
    assert forfeits["first game"].tolist() == [first]
    assert f"malformed x{len(card.records)}: {card.records[first].value} (first in game {first}: " in str(card)


# --------------------------------------------------------------------------- messages that say what to do


def test_a_strategy_with_the_wrong_parameters_is_told_the_three_and_shown_its_def_line():
    two_args = notebook_function("def two_args(position, roll):\n    return None\n", "two_args")
    card = score(two_args, games=2, seed=1, opponents=["greedy"], **CARD)
    message = card.records[0].message
    assert card.records[0].reason == "exception"
    assert "yours is `def two_args(position, roll):`" in message
    assert "a strategy takes those three parameters, e.g. `def two_args(position, roll, rng):`" in message


def test_a_timeout_in_a_tournament_points_to_the_tournaments_own_option():
    result = tournament([mistakes.loops_forever, "greedy"], games=2, seed=1, progress=False, per_move_limit=0.2)
    messages = result.forfeits()["message"].tolist()
    assert messages and "tournament(..., per_move_limit=0.4) or amoeboid tournament --per-move-limit 0.4" in messages[0]
    assert "score(" not in messages[0]


def test_handing_in_a_lambda_names_the_variable_or_asks_for_a_def_with_a_name(tmp_path):
    my_strategy = notebook_function("my_strategy = lambda position, roll, rng: None\n", "my_strategy")
    with pytest.raises(ValueError, match=r"my_strategy is a lambda.*write it as 'def my_strategy\(\.\.\.\)'"):
        lab.hand_in(my_strategy, tmp_path / "nina")
    unnamed = notebook_function("strategies = [lambda position, roll, rng: None]\n", "strategies")[0]
    with pytest.raises(ValueError, match=r"write it as a def with a name") as refused:
        lab.hand_in(unnamed, tmp_path / "nina")
    assert "<lambda>" not in str(refused.value)


def test_a_notebook_handed_in_without_a_tagged_cell_says_how_to_tag_one_or_to_use_hand_in(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    cell = {"cell_type": "code", "metadata": {}, "source": GOOD, "outputs": [], "execution_count": None}
    (folder / "nina.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                                   "nbformat_minor": 5}))
    (folder / "bob.py").write_text(GOOD)
    result = tournament(folder, games=2, seed=1, opponents=["greedy"], **QUIET)
    (name, error), = result.not_loaded
    assert name == "nina"
    assert "Cell Tags" in error and f"add '{STRATEGY_TAG}'" in error
    assert 'lab.hand_in(my_strategy, "class/nina")' in error


def test_lesson_nine_says_how_to_tag_a_notebooks_cell_where_it_says_how_to_hand_in():
    lesson = (REPO / "lessons" / "src" / "09-strategy-lab.py").read_text()
    hand_in = lesson[lesson.index("## ✎ Hand in your strategy"):]
    assert "Cell Tags" in hand_in[:hand_in.index("# %%\n")]


def test_the_contest_command_of_the_students_page_plays_the_function_a_tournament_loads():
    page = (REPO / "docs" / "students.md").read_text()
    targets = re.findall(r"amoeboid score \S+\.py:(\w+)[^\n]*--seed-file", page)
    assert targets and set(targets) == {ENTRY_FUNCTIONS[0]}
