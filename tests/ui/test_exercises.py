import doctest
from fractions import Fraction

import numpy as np
import pytest

from amoeboid_edu import Amoeba, Position, Turn
from amoeboid_edu.ui import exercises
from amoeboid_edu.ui.exercises import check


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


ONE_THIRD = Fraction(1, 3)


@pytest.mark.parametrize("typed", [1 / 3, 0.333, 0.33, "0.33", " 0.333 ", "1/3", " 1 / 3 ", "33.3%", Fraction(1, 3)])
def test_every_written_form_of_a_number_is_accepted(typed):
    assert check(typed, ONE_THIRD, hint="h").correct is True


@pytest.mark.parametrize("typed", [0.3, 0.32, "0.34", "1/4", Fraction(1, 2)])
def test_a_number_off_by_more_than_rounding_is_wrong_with_the_content_hint(typed):
    verdict = check(typed, ONE_THIRD, hint="dice have no memory")
    assert verdict.correct is False and "Hint: dice have no memory" in repr(verdict)


@pytest.mark.parametrize("typed", [52, 52.0, "52", np.int64(52)])
def test_whole_numbers_are_accepted_in_any_numeric_type(typed):
    assert check(typed, np.int64(52), hint="h").correct is True


@pytest.mark.parametrize("typed", ["one third", "1/0", None, True, [1, 3]])
def test_something_that_is_no_number_gets_the_number_format_not_the_hint(typed):
    verdict = check(typed, ONE_THIRD, hint="dice have no memory")
    assert verdict.correct is False
    assert repr(verdict) == f"✗ I expected a number, not {typed!r}. Format: type a number such as 1/3 or 0.33."


@pytest.mark.parametrize("typed", [[2, 3, 4], (2, 3, 4), range(2, 5), "2, 3, 4", "(2,3,4)", "[2 3 4]", {4, 3, 2}])
def test_every_written_form_of_a_sequence_is_accepted(typed):
    assert check(typed, (2, 3, 4), hint="h").correct is True


def test_a_sequence_is_read_in_order_unless_the_answer_or_the_prediction_is_a_set():
    assert check([4, 3, 2], (2, 3, 4), hint="h").correct is False
    assert check([4, 3, 2], {2, 3, 4}, hint="h").correct is True
    assert check("4, 3, 2", {2, 3, 4}, hint="h").correct is True
    assert check([2, 2, 3], {2, 3, 4}, hint="h").correct is False
    assert check([2, 3], (2, 3, 4), hint="h").correct is False


@pytest.mark.parametrize("typed", [2, "2-4", ["2", "x", "4"]])
def test_something_that_is_no_sequence_gets_the_sequence_format(typed):
    verdict = check(typed, (2, 3, 4), hint="count the rolls")
    assert verdict.correct is False and "I expected a list of items" in repr(verdict)
    assert "Format: type the items separated by commas" in repr(verdict) and "count the rolls" not in repr(verdict)


@pytest.mark.parametrize("typed", [True, np.True_, "True", "true", " yes "])
def test_every_written_form_of_true_is_accepted(typed):
    assert check(typed, True, hint="h").correct is True
    assert check(typed, np.True_, hint="h").correct is True
    assert check(typed, False, hint="h").correct is False


@pytest.mark.parametrize("typed", [1, "maybe", None])
def test_something_that_is_no_boolean_gets_the_boolean_format(typed):
    expected = f"✗ I expected True or False, not {typed!r}. Format: answer True or False."
    assert repr(check(typed, True, hint="h")) == expected


@pytest.mark.parametrize("typed", ["Oosterwal", "oosterwal", " OOSTERWAL "])
def test_a_word_is_read_in_any_case_and_spacing(typed):
    assert check(typed, "Oosterwal", hint="h").correct is True


@pytest.mark.parametrize("typed", ["8 turns", "8turns", " 8 Turns", "8", 8, "within 8 turns"])
def test_the_lessons_other_wordings_of_an_answer_are_accepted(typed):
    assert check(typed, "8 turns", accept=("8", "within 8 turns"), hint="h").correct is True


def test_a_wrong_word_is_wrong_and_a_number_for_a_word_gets_the_format():
    assert check("wins", "8 turns", accept=("8",), hint="h").correct is False
    assert check(None, "B", hint="the bigger share").correct is False  # None is an answer (neutral), not a format slip
    verdict = check(9, "8 turns", accept=("8",), hint="h")
    assert repr(verdict) == "✗ I expected text, not 9. Format: type your answer as text, in quotes."


def test_an_amoeba_may_be_given_as_an_amoeba():
    assert check(Amoeba(6, 5), "(6,5)", hint="h").correct is True
    assert check(Amoeba(6, 4), "(6,5)", hint="the size").correct is False


def test_a_position_without_slashes_and_without_the_side_to_move_says_the_side_is_missing():
    verdict = check("(1,0) . . . . . . . (0,1)", Position.start(), hint="count the units")
    assert verdict.correct is False
    assert "the side to move is missing: end the position with A or B" in repr(verdict)
    assert "count the units" not in repr(verdict)


def test_a_position_of_another_kind_gets_the_position_format():
    verdict = check(3, Position.start(), hint="count the units")
    assert repr(verdict).startswith("✗ I expected a position, not 3. Format: write the rows")


def test_a_strategy_that_forgot_to_return_is_told_to_return_a_turn():
    def my_strategy(position, roll, rng):
        position.legal_turns(roll)  # the student's bug under test: no return

    verdict = check(lambda: my_strategy(ONE_AMOEBA, 1, None), "1 a1 a1-b2", position=ONE_AMOEBA, hint="the centre")
    assert verdict.correct is False
    assert "not None: a strategy must return a turn or its notation (did a `return` go missing?)" in repr(verdict)
    assert "the centre" not in repr(verdict)
    verdict = check(3, "1 a1 a1-b2", position=ONE_AMOEBA, hint="the centre")
    assert repr(verdict).startswith("✗ I expected a turn, not 3. Format: write ROLL GROW SRC-DST A,B")
