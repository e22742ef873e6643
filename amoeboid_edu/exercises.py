"""Predict-then-check exercises for the lessons: a check answers with a verdict and a hint, never a bare AssertionError.

A lesson asks for a prediction (``my_answer = ...``), then calls
:func:`check`.  The verdict is a value whose text is the feedback, so a wrong
answer does not stop "Run all" and an unanswered exercise simply says so.

>>> check(..., 4, hint="a roll of 3 on a size-1 amoeba")
✎ Not answered yet: replace ... with your prediction and run the cell again.
>>> check(5, 4, hint="a roll of 3 on a size-1 amoeba")
✗ Not quite (you said 5). Hint: a roll of 3 on a size-1 amoeba
>>> check(4, 4, hint="a roll of 3 on a size-1 amoeba", why="1 + 3 = 4.")
✓ Right: 4. 1 + 3 = 4.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import NotationError, Position, Turn


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``correct`` is None while the exercise is unanswered."""

    correct: bool | None
    message: str

    def __bool__(self) -> bool:
        return bool(self.correct)

    def __repr__(self) -> str:
        return self.message


def _as_answer_type(prediction: object, answer: object) -> object:
    """Let students write positions and turns as notation text."""
    if isinstance(prediction, str):
        if isinstance(answer, Position):
            return Position.parse(prediction, answer.rules)
        if isinstance(answer, Turn):
            return Turn.parse(prediction)
    return prediction


def check(prediction: object, answer: object, *, hint: str, why: str = "") -> Verdict:
    """Compare a student's ``prediction`` with the ``answer`` the engine computed.

    ``hint`` is shown on a wrong answer (it should point at the rule, not give
    the answer away); ``why`` is shown on a right one.
    """
    if prediction is ...:
        return Verdict(None, "✎ Not answered yet: replace ... with your prediction and run the cell again.")
    try:
        value = _as_answer_type(prediction, answer)
    except NotationError as error:
        return Verdict(False, f"✗ I could not read {prediction!r}: {error}. Hint: {hint}")
    if value == answer:
        return Verdict(True, " ".join(part for part in (f"✓ Right: {answer}.", why) if part))
    return Verdict(False, f"✗ Not quite (you said {prediction!r}). Hint: {hint}")


__all__ = ["Verdict", "check"]
