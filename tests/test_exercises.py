import doctest

from amoeboid_edu import Position, Turn, exercises
from amoeboid_edu.exercises import check


def test_docstring_examples():
    assert doctest.testmod(exercises).failed == 0


def test_an_unanswered_exercise_says_so_without_failing():
    verdict = check(..., 3, hint="look at the die")
    assert verdict.correct is None and not verdict
    assert "replace ..." in repr(verdict)


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
    assert "could not read" in repr(verdict) and "three rows" in repr(verdict)
