import doctest

import pytest

from amoeboid_edu import Position, Turn, exercises
from amoeboid_edu.exercises import check


def test_docstring_examples():
    assert doctest.testmod(exercises).failed == 0


def test_an_unanswered_exercise_says_so_without_failing():
    verdict = check(..., 3, hint="look at the die")
    assert verdict.correct is None and not verdict
    assert repr(verdict).startswith("✎ Your turn") and "replace ..." in repr(verdict)


def test_a_wrong_answer_gets_the_hint_not_the_answer():
    verdict = check(5, 3, hint="look at the die")
    assert verdict.correct is False
    assert "look at the die" in repr(verdict) and "3" not in repr(verdict)


def test_a_right_answer_gets_the_explanation():
    verdict = check(3, 3, hint="look at the die", why="Only rolls add units.")
    assert verdict.correct is True and bool(verdict)
    assert repr(verdict) == "✓ Right: 3. Only rolls add units."


def test_positions_and_turns_may_be_answered_in_notation():
    position = Position.start()
    assert check(" (1,0) . . / . . . / . . (0,1)  A", position, hint="h").correct is True
    assert check("3 a1 a1-b1 4,0", Turn.parse("3 a1 a1-b1 4,0"), hint="h").correct is True


def test_unreadable_notation_is_a_wrong_answer_with_the_reason():
    verdict = check("(1,0) . x / . . . / . . (0,1) A", Position.start(), hint="three rows")
    assert verdict.correct is False
    assert "could not read" in repr(verdict) and "'x' is neither" in repr(verdict)
    assert "Format: write the rows top to bottom, separated by /" in repr(verdict)


@pytest.mark.parametrize(
    "typed",
    [
        "(1,0) . . / . . . / . . (0,1) A",
        "(1,0) . . . . . . . (0,1) A",  # no slashes: cut into the board's rows
        "(1, 0) . .  . . .  . . (0, 1) A",
        Position.start(),
    ],
)
def test_every_written_form_of_a_position_is_accepted(typed):
    assert check(typed, Position.start(), hint="h").correct is True


def test_a_position_with_the_wrong_number_of_cells_gets_the_format():
    verdict = check("(1,0) . . . . . (0,1) A", Position.start(), hint="count the units")
    assert verdict.correct is False
    assert "expected 9 cells and the side to move, found 8 items" in repr(verdict)
    assert "Format: write the rows top to bottom, separated by /" in repr(verdict)
    assert "count the units" not in repr(verdict)  # a format slip is not a content hint


ONE_AMOEBA = Position.parse("(6,0) . . / . . . / . . (0,1) A")


@pytest.mark.parametrize(
    "typed", ["1 a1 a1-b2", "1 a1 a1-b2 7,0", " 1  a1 a1-b2 ", Turn.parse("1 a1 a1-b2 7,0"), lambda: "1 a1 a1-b2"]
)
def test_every_written_form_of_a_turn_is_accepted_with_its_position(typed):
    assert check(typed, "1 a1 a1-b2", position=ONE_AMOEBA, hint="h").correct is True
    assert check(typed, Turn.parse("1 a1 a1-b2 7,0"), position=ONE_AMOEBA, hint="h").correct is True


def test_an_illegal_turn_is_wrong_with_the_rule_broken():
    verdict = check("1 a1 a1-c3", "1 a1 a1-b2", position=ONE_AMOEBA, hint="the centre")
    assert verdict.correct is False and "not a legal turn here" in repr(verdict) and "the centre" in repr(verdict)
    verdict = check("1 a1 a1", "1 a1 a1-b2", position=ONE_AMOEBA, hint="the centre")
    assert verdict.correct is False and "Format: write ROLL GROW SRC-DST A,B" in repr(verdict)


@pytest.mark.parametrize("typed", ["(6,5)", "(6, 5)", " (6,5) ", (6, 5)])
def test_every_written_form_of_an_amoeba_is_accepted(typed):
    assert check(typed, "(6,5)", hint="h").correct is True


def test_student_code_that_raises_is_a_friendly_wrong_answer_naming_the_line():
    def my_strategy(position, roll, rng):
        target = "b2"
        return distance(target)  # noqa: F821 - the student's bug under test

    verdict = check(lambda: my_strategy(ONE_AMOEBA, 1, None), "1 a1 a1-b2", position=ONE_AMOEBA, hint="h")
    assert verdict.correct is False
    text = repr(verdict)
    assert text.startswith("✗ Your code raised NameError: name 'distance' is not defined")
    line = my_strategy.__code__.co_firstlineno + 2
    assert f"in my_strategy, line {line} of test_exercises.py: return distance(target)" in text


def test_code_still_returning_the_placeholder_is_your_turn():
    assert check(lambda: ..., 3, hint="h").correct is None
    unchanged = check(lambda: "1 a1 a1-b1", "1 a1 a1-b2", position=ONE_AMOEBA, unanswered="1 a1 a1-b1 7,0", hint="h")
    assert unchanged.correct is None and "still the starting code's answer" in repr(unchanged)
    changed = check(lambda: "1 a1 a1-a2", "1 a1 a1-b2", position=ONE_AMOEBA, unanswered="1 a1 a1-b1", hint="h")
    assert changed.correct is False
