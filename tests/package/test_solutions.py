"""The teacher's edition: every exercise has an answer, and the solutions notebooks show every check passing.

nbval replays ``lessons/solutions/*.ipynb`` (they sit under ``lessons/``, a
testpath); these tests check what nbval cannot: that they are fresh, complete
and that each check in them printed ✓.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import lesson_editions
import nbformat
import pytest
from amoeboid_edu.ui.exercises import YOUR_TURN
from lesson_editions import why_not_standing_with_the_teachers

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

WITH_EXERCISES = [source for source in build.sources() if "my_answer = ..." in source.read_text(encoding="utf-8")]
WITH_SOLUTIONS = [source for source in build.sources() if build.has_solutions(source)]


def test_every_lesson_with_exercises_has_a_teachers_edition():
    assert WITH_EXERCISES and set(WITH_EXERCISES) <= set(WITH_SOLUTIONS)
    assert sorted(path.stem for path in build.SOLUTIONS.glob("*.ipynb")) == [path.stem for path in WITH_SOLUTIONS]


@pytest.mark.parametrize("source", WITH_SOLUTIONS, ids=lambda path: path.stem)
class TestTeachersEdition:
    def notebook(self, source):
        return nbformat.read(build.solutions_path(source), as_version=4)

    def test_every_placeholder_answer_is_filled_in(self, source):
        text = source.read_text(encoding="utf-8")
        assert text.count("my_answer = ...") == text.count("my_answer = ...  # solution: ")
        code = "\n".join(cell.source for cell in self.notebook(source).cells if cell.cell_type == "code")
        assert "= ..." not in code and "# solution:" not in code

    def test_is_built_from_its_current_source(self, source):
        built = [(cell.cell_type, cell.source) for cell in build.solutions_edition(source).cells]
        committed = [(cell.cell_type, cell.source) for cell in self.notebook(source).cells]
        assert committed == built, f"rebuild it: python scripts/build_lessons.py {source.stem[:2]}"

    def test_every_check_prints_a_tick(self, source):
        verdicts = []
        for cell in self.notebook(source).cells:
            if cell.cell_type == "code" and re.search(r"^check\(", cell.source, re.MULTILINE):
                text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
                verdicts.append((cell.source, text))
        assert verdicts
        for cell_source, text in verdicts:
            assert text.startswith("✓ Right"), f"{cell_source}\n-> {text}"

    def test_has_no_errors_or_widget_state(self, source):
        notebook = self.notebook(source)
        assert "widgets" not in notebook.metadata
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                assert output.output_type != "error", f"{cell.source}\n{output.get('evalue')}"
                assert build.WIDGET_VIEW not in output.get("data", {})


def test_the_student_edition_keeps_the_placeholder_and_drops_the_marker(tmp_path):
    source = tmp_path / "99-demo.py"
    source.write_text(
        "# %% [markdown]\n# # T\n\n# %%\nmy_answer = ...  # solution: (6, 5)\n\n"
        "# %%\ndef f():\n    return 1\n\n# %% solution\ndef f():\n    return 2\n\n"
        '# %% tags=["nbval-ignore-output"]\nprint(f())\n'
    )
    student = [cell.source for cell in build.read_source(source).cells]
    assert student == ["# T", "my_answer = ...", "def f():\n    return 1", "print(f())"]
    teacher = build.read_source(source, solutions=True)
    assert [cell.source for cell in teacher.cells] == ["# T", "my_answer = (6, 5)", "def f():\n    return 2", "print(f())"]
    assert teacher.cells[-1].metadata["tags"] == ["nbval-ignore-output"]
    assert build.has_solutions(source)


def test_a_solution_marker_without_a_placeholder_is_refused(tmp_path):
    source = tmp_path / "99-bad.py"
    source.write_text("# %%\nmy_answer = 3  # solution: 4\n")
    with pytest.raises(ValueError, match="must contain the ... it fills"):
        build.read_source(source, solutions=True)


@pytest.mark.parametrize(
    "remote, expected",
    [
        ("https://github.com/someone/amoeboid_edu.git", "https://mybinder.org/v2/gh/someone/amoeboid_edu/v1.0?urlpath="),
        ("git@github.com:someone/amoeboid_edu.git", "https://mybinder.org/v2/gh/someone/amoeboid_edu/v1.0?urlpath="),
        ("", "paste the GitHub address of this course's repository"),
        ("/srv/git/amoeboid_edu", "paste the GitHub address of this course's repository"),
    ],
)
def test_the_binder_launch_comes_from_the_origin_remote_or_says_how(monkeypatch, remote, expected):
    class Done:
        def __init__(self, stdout):
            self.stdout = stdout

    def git(command, **_kwargs):  # the origin remote, and a tag at HEAD (the launch link names it, never HEAD)
        return Done(remote if "remote" in command else "v1.0")

    monkeypatch.setattr(build.subprocess, "run", git)
    build.binder_launch.cache_clear()  # (it asks git once per process)
    try:
        launch = build.binder_launch()
    finally:
        build.binder_launch.cache_clear()  # the next caller asks the real git
    assert expected in launch and "OWNER" not in launch and "{{" not in launch


STANDING_WITH_THE_TEACHERS = [source for source in WITH_SOLUTIONS if why_not_standing_with_the_teachers(source) is None]


def test_lessons_whose_students_edition_differs_by_more_than_the_answers_are_the_ones_expected():
    # (lesson 9's student writes a strategy of their own: a '# %% solution' cell; both of its editions run)
    assert [source.stem[:2] for source in WITH_SOLUTIONS if source not in STANDING_WITH_THE_TEACHERS] == ["09"]


@pytest.mark.parametrize("source", STANDING_WITH_THE_TEACHERS, ids=lambda path: path.stem)
def test_a_students_edition_nbval_leaves_out_has_the_teachers_outputs_but_for_your_turn(source):
    """nbval runs only the teacher's edition of these lessons (tests/lesson_editions.py says why that checks the
    student's too); this is the other half: the committed student's edition, built from the current source, shows
    every code cell's outputs exactly as the teacher's edition does, except the exercises, which say "your turn"."""
    student = nbformat.read(build.notebook_path(source), as_version=4)
    teacher = nbformat.read(build.solutions_path(source), as_version=4)
    code = [cell for cell in student.cells if cell.cell_type == "code"]
    assert [(cell.id, cell.source) for cell in code] == [
        (cell.id, cell.source) for cell in build.read_source(source).cells if cell.cell_type == "code"
    ], f"rebuild it: python scripts/build_lessons.py {source.stem[:2]}"
    answered = {cell.id: cell for cell in teacher.cells if cell.cell_type == "code"}
    assert list(answered) == [cell.id for cell in code]
    exercises = 0
    for cell in code:
        if cell.source == answered[cell.id].source:
            assert cell.outputs == answered[cell.id].outputs, cell.id
        else:
            exercises += 1
            assert lesson_editions.ANSWER_LINE in cell.source.splitlines(), cell.id
            assert [(output.output_type, output.data["text/plain"]) for output in cell.outputs] == [
                ("execute_result", YOUR_TURN)], cell.id  # fmt: skip
    assert exercises == source.read_text(encoding="utf-8").count("# solution: ") > 0


@pytest.mark.parametrize(("cells", "why"), [
    (['my_answer = ...  # solution: 3\ncheck(my_answer, 3, hint="h")'], None),
    (['my_answer = ...  # solution: 3\ncheck(my_answer, 3, hint="h")', "print(my_answer)"], "reads a my_answer"),
    (['my_answer = ...  # solution: 3\nx = my_answer\ncheck(my_answer, 3, hint="h")'], "does more with my_answer"),
    (['my_answer = ...  # solution: 3\ncheck(my_answer, 3, hint="h")', "print(_)"], "output history"),
    (['guess = ...  # solution: 3\ncheck(guess, 3, hint="h")'], "other than"),
    (['my_answer = ...  # solution: 3\ncheck(my_answer, 3, hint="h")', "f = 1\n# %% solution\nf = 2"], "whole cell"),
    (['my_answer = 2\ncheck(my_answer, 2, hint="h")', 'my_answer = ...  # solution: 3\ncheck(my_answer, 3, hint="h")'],
     None),  # a worked example sets its own my_answer first
])  # fmt: skip
def test_a_students_edition_stands_with_the_teachers_only_when_they_differ_by_answers_the_check_alone_reads(
        tmp_path, cells, why):
    source = tmp_path / "99-lesson.py"
    source.write_text("".join(f"# %%\n{cell}\n" for cell in cells), encoding="utf-8")
    found = why_not_standing_with_the_teachers(source)
    assert found is None if why is None else why in found, found
