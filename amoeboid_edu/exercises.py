"""Predict-then-check exercises for the lessons: a check answers with a verdict and a hint, never a bare traceback.

A lesson asks for a prediction (``my_answer = ...``), then calls
:func:`check`.  The verdict is a value whose text is the feedback, so a wrong
answer does not stop "Run all" and an unanswered exercise simply says so.

>>> check(..., 4, hint="a roll of 3 on a size-1 amoeba")
✎ Your turn: replace ... with your prediction and run the cell again.
>>> check(5, 4, hint="a roll of 3 on a size-1 amoeba")
✗ Not quite (you said 5). Hint: a roll of 3 on a size-1 amoeba
>>> check(4, 4, hint="a roll of 3 on a size-1 amoeba", why="1 + 3 = 4.")
✓ Right: 4. 1 + 3 = 4.

Every form a lesson allows is accepted: a position as a ``Position`` or as
notation (with or without the ``/`` between rows), a turn as a ``Turn`` or as
notation (with ``position=``, counts left out mean the whole amoeba), an
amoeba as ``"(6,5)"``, ``"(6, 5)"`` or ``(6, 5)``.  Student code that may
raise is passed as a function (``check(lambda: my_strategy(...), ...)``): an
exception becomes a ✗ naming the line of the student's code that raised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .rules import IllegalTurnError, NotationError, Position, Turn, resolve
from .tracebacks import describe_error

POSITION_FORMAT = "write the rows top to bottom, separated by /, then the side to move: (1,0) . . / . . . / . . (0,1) A"
TURN_FORMAT = "write ROLL GROW SRC-DST A,B, e.g. 3 a1 a1-b1 4,0 (or ROLL GROW - for a pass)"
YOUR_TURN = "✎ Your turn: replace ... with your prediction and run the cell again."
_NOT_GIVEN = object()


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``correct`` is None while the exercise is unanswered."""

    correct: bool | None
    message: str

    def __bool__(self) -> bool:
        return bool(self.correct)

    def __repr__(self) -> str:
        return self.message


def _as_position(text: str, answer: Position) -> Position:
    """Notation for a position; without slashes, the cells are cut into the answer's rows (not read as one row)."""
    board = answer.board
    if "/" in text or not board.is_grid or board.rows == 1:
        return Position.parse(text, answer.rules)
    tokens = re.findall(r"\([^)]*\)|\S+", text)
    if len(tokens) != board.rows * board.cols + 1:
        raise NotationError(f"expected {board.rows * board.cols} cells and the side to move, found {len(tokens)} items")
    rows = [" ".join(tokens[r * board.cols : (r + 1) * board.cols]) for r in range(board.rows)]
    return Position.parse(" / ".join(rows) + " " + tokens[-1], answer.rules)


def _squash(value: object) -> str:
    return "".join(str(value).split())


def _comparable(prediction: object, answer: object, position: Position | None) -> tuple[object, object]:
    """Both sides in one form: parsed notation, resolved turns, amoebae as compact text."""
    if isinstance(answer, Position) and isinstance(prediction, str):
        return _as_position(prediction, answer), answer
    if isinstance(answer, (Turn, str)) and position is not None and isinstance(prediction, (Turn, str)):
        return resolve(position, prediction), resolve(position, answer)
    if isinstance(answer, Turn) and isinstance(prediction, str):
        return Turn.parse(prediction), answer
    if isinstance(answer, str) and isinstance(prediction, (str, tuple)):
        return _squash(prediction), _squash(answer)
    return prediction, answer


def _format_hint(answer: object, position: Position | None) -> str:
    if isinstance(answer, Position):
        return POSITION_FORMAT
    if isinstance(answer, Turn) or position is not None:
        return TURN_FORMAT
    return ""


def check(
    prediction: object,
    answer: object,
    *,
    hint: str,
    why: str = "",
    position: Position | None = None,
    unanswered: object = _NOT_GIVEN,
) -> Verdict:
    """Compare a student's ``prediction`` with the ``answer`` the engine computed.

    ``hint`` is shown on a wrong answer (it should point at the rule, not give
    the answer away); ``why`` is shown on a right one.  ``prediction`` may be a
    function of no arguments that runs the student's code.  ``position``: the
    position a turn answer is played in (so ``"1 a1 a1-b2"`` equals
    ``"1 a1 a1-b2 7,0"``).  ``unanswered``: the starting code's answer, which
    still means "your turn".
    """
    if isinstance(prediction, Callable) and not isinstance(prediction, type):
        try:
            prediction = prediction()
        except Exception as error:  # noqa: BLE001 - the student's code may fail in any way; say where, kindly
            return Verdict(False, f"✗ Your code raised {describe_error(error)}. Fix that line and run again.")
    if prediction is ...:
        return Verdict(None, YOUR_TURN)
    if unanswered is not _NOT_GIVEN and _same(prediction, unanswered, answer, position):
        return Verdict(None, "✎ Your turn: this is still the starting code's answer. Change the code and run again.")
    try:
        value, expected = _comparable(prediction, answer, position)
    except NotationError as error:
        form = _format_hint(answer, position)
        return Verdict(False, f"✗ I could not read {prediction!r}: {error}." + (f" Format: {form}." if form else ""))
    except IllegalTurnError as error:
        return Verdict(False, f"✗ {prediction} is not a legal turn here: {error}. Hint: {hint}")
    if value == expected:
        return Verdict(True, " ".join(part for part in (f"✓ Right: {answer}.", why) if part))
    return Verdict(False, f"✗ Not quite (you said {prediction!r}). Hint: {hint}")


def _same(prediction: object, other: object, answer: object, position: Position | None) -> bool:
    try:
        return _comparable(prediction, answer, position)[0] == _comparable(other, answer, position)[0]
    except (NotationError, IllegalTurnError):
        return False


__all__ = ["Verdict", "check"]
