"""A lesson's sentences agree with what its cells compute (lessons 4, 9 and 11).

A number, rank or fact that a computation produces is written by the
computation (a printed line or a generated Markdown cell); these tests read the
committed notebooks and check the words against the outputs beside them, and
that the hand-written claims that contradicted them are gone.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from amoeboid_edu import random_turn
from amoeboid_edu.theory import analysis

LESSONS = Path(__file__).resolve().parents[2] / "lessons"


def lesson(stem: str) -> nbformat.NotebookNode:
    return nbformat.read(LESSONS / f"{stem}.ipynb", as_version=4)


def markdown(notebook) -> str:
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def output_of(notebook, code: str, kind: str = "text/plain") -> str:
    """The text output (a stream, or ``kind`` of a display) of the one code cell containing ``code``."""
    (cell,) = [cell for cell in notebook.cells if cell.cell_type == "code" and code in cell.source]
    texts = [output.get("text", "") if output.output_type == "stream" else output.get("data", {}).get(kind, "")
             for output in cell.outputs]  # fmt: skip
    return "".join(texts)


def test_lesson_4_says_when_the_first_eat_happens_in_its_seeded_game():
    notebook = lesson("04-advantage-2-size")
    assert "until turn 13" not in markdown(notebook)
    frame = analysis.game_frame(analysis.play_games(random_turn, random_turn, 200, seed=4)[0])
    eats = frame[frame["event"] == "eat"]
    said = output_of(notebook, 'eats = frame[frame["event"] == "eat"]')
    if eats.empty:
        assert said.startswith("Nobody eats")
    else:
        first = eats.iloc[0]
        assert f"until turn {first['turn']} of {len(frame)}, when {first['player']} eats" in said


def test_lesson_9_ranks_and_lengths_are_the_tables():
    notebook = lesson("09-strategy-lab")
    prose = markdown(notebook)
    assert "comes out on top" not in prose and "so long" not in prose
    table = output_of(notebook, "lengths = result.table()")
    rows = {line.split()[2]: line.split() for line in table.splitlines()[1:] if line.strip()}
    assert "mean_turns" in table.splitlines()[0] and "capped" in table.splitlines()[0]  # the length column is there
    said = output_of(notebook, "def place(name", "text/markdown")
    for name in ("paper", "stalling"):
        rank, turns = rows[name][1], float(rows[name][4])
        assert f"`{name}` ranks **{rank} of {len(rows)}** ({turns:.0f} turns a game on average)" in said
    longest = max(rows.values(), key=lambda row: (float(row[4]), -int(row[1])))
    assert f"The longest games are `{longest[2]}`'s, {float(longest[4]):.0f} turns on average" in said


@pytest.mark.parametrize("game", ["Amoeboid", "Nakajima", "Oosterwal"])
def test_lesson_11_reads_the_first_player_rates_from_its_table(game):
    notebook = lesson("11-three-amoebas")
    assert "The dot is" not in markdown(notebook)  # the chart draws bars
    table = output_of(notebook, "table = compare.summary(plies, games)")
    columns = table.splitlines()[0].split()
    values = {line.split()[0]: line.split()[1:] for line in table.splitlines()[1:]}
    rate, low, high = (float(values[key][columns.index(game) - 1]) for key in ("first_rate", "ci_low", "ci_high"))
    (line,) = [line for line in output_of(notebook, "for row in table.itertuples()").splitlines()
               if line.startswith(game)]  # fmt: skip
    numbers = [float(number) for number in re.findall(r"\d\.\d\d", line)]
    assert numbers == [round(rate, 2), round(low, 2), round(high, 2)]
    assert ("cannot tell" in line) == (low <= 0.5 <= high)
