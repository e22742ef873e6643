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
>>> check("one third", Fraction(1, 3), hint="count the faces")
✗ I expected a number, not 'one third'. Format: type a number such as 1/3 or 0.33.

Every form a student may reasonably type is accepted, so only the content can
be wrong:

* a number as a number: ``1/3`` (a float), ``0.33`` or ``"0.333"`` (a decimal
  within rounding of the answer: off by less than 0.005), ``"1/3"``,
  ``Fraction(1, 3)``, ``"33%"``;
* a sequence as a ``list``, ``tuple``, ``range`` or text (``"2, 3, 4"``), in
  the answer's order; a ``set``, or any of them for an answer that is a set,
  in any order;
* ``True``/``False`` also as text (``"true"``, ``"yes"``, ``"no"``);
* a word in any case and spacing (``" tie "``, ``"Tie"``), a number for a word
  if it reads the same, and the lesson's other wordings (``accept=``);
* a position as a ``Position`` or as notation (with or without the ``/``
  between rows); a turn as a ``Turn`` or as notation (with ``position=``,
  counts left out mean the whole amoeba); an amoeba as ``"(6,5)"``,
  ``"(6, 5)"`` or ``(6, 5)``.

An answer of the wrong *kind* (text where a number is expected) gets the
format, not a hint about the content.  Student code that may raise is passed
as a function (``check(lambda: my_strategy(...), ...)``): an exception becomes
a ✗ naming the line of the student's code that raised.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Set
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..engine.rules import PLAYERS, IllegalTurnError, NotationError, Position, Turn, resolve
from ..players.tracebacks import describe, describe_error, student_frame

POSITION_FORMAT = "write the rows top to bottom, separated by /, then the side to move: (1,0) . . / . . . / . . (0,1) A"
TURN_FORMAT = "write ROLL GROW SRC-DST A,B, e.g. 3 a1 a1-b1 4,0 (or ROLL GROW - for a pass)"
NUMBER_FORMAT = "type a number such as 1/3 or 0.33"
SEQUENCE_FORMAT = "type the items separated by commas, e.g. (5, 6)"
BOOLEAN_FORMAT = "answer True or False"
WORD_FORMAT = "type your answer as text, in quotes"
YOUR_TURN = "✎ Your turn: replace ... with your prediction and run the cell again."
ROUNDING = 0.005
"""A decimal is right when it is this close to the answer: the answer rounded to two decimals, or better."""
CHECK_SECONDS = 10.0
"""How long :func:`check` lets the student's code run before it stops it (an endless loop must not hang the lesson)."""
_NOT_GIVEN = object()
_WHOLE_OR_FRACTION = re.compile(r"[-+]?\d+(/0*[1-9]\d*)?")  # 3, -2, 1/3 (never over 0)
_DECIMAL = re.compile(r"[-+]?(\d+\.\d*|\.\d+)")  # 0.333, .5
_TRUE, _FALSE = {"true", "yes"}, {"false", "no"}


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``correct`` is None while the exercise is unanswered."""

    correct: bool | None
    message: str

    def __bool__(self) -> bool:
        return bool(self.correct)

    def __repr__(self) -> str:
        return self.message


class _WrongKind(ValueError):
    """An answer of another kind than the exercise asks for (text for a number, say): the student gets the format."""

    def __init__(self, kind: str, typed: object, form: str, why: str = "") -> None:
        super().__init__(f"I expected {kind}, not {typed!r}{why}. Format: {form}.")


def _as_position(text: str, answer: Position) -> Position:
    """Notation for a position; without slashes, the cells are cut into the answer's rows (not read as one row)."""
    rows, cols = answer.board.rows, answer.board.cols
    if "/" in text or rows is None or cols is None or rows == 1:  # a graph board has no rows
        return Position.parse(text, answer.rules)
    tokens = re.findall(r"\([^)]*\)|\S+", text)
    cells = rows * cols
    if tokens and tokens[-1] not in PLAYERS and len(tokens) == cells:
        raise NotationError("the side to move is missing: end the position with A or B")
    if len(tokens) != cells + 1:
        raise NotationError(f"expected {cells} cells and the side to move, found {len(tokens)} items")
    lines = [" ".join(tokens[r * cols : (r + 1) * cols]) for r in range(rows)]
    return Position.parse(" / ".join(lines) + " " + tokens[-1], answer.rules)


def _squash(value: object) -> str:
    """Text without case or white space: ``" Tie "``, ``"tie"`` and ``"(6, 5)"``/``"(6,5)"`` read the same."""
    return "".join(str(value).split()).casefold()


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _as_number(value: object) -> Fraction | float:
    """An exact ``Fraction`` for whole numbers, fractions and ``"1/3"``; a ``float`` for decimals (rounded values)."""
    if isinstance(value, numbers.Rational) and not isinstance(value, bool):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        text = "".join(value.split())
        scale = 100 if text.endswith("%") else 1
        text = text.removesuffix("%")
        if _WHOLE_OR_FRACTION.fullmatch(text):
            return Fraction(text) / scale
        if _DECIMAL.fullmatch(text):
            return float(text) / scale
    raise _WrongKind("a number", value, NUMBER_FORMAT)


def _same_number(prediction: object, answer: object) -> bool:
    typed, expected = _as_number(prediction), _as_number(answer)
    if isinstance(typed, Fraction) and isinstance(expected, Fraction):
        return typed == expected
    return abs(float(typed) - float(expected)) < ROUNDING  # what Fraction - float computes


def _as_items(prediction: object) -> list | Set:
    """The items of a sequence as typed: a list, tuple or range, or text like ``"(2, 3, 4)"``; a set stays a set."""
    if isinstance(prediction, (list, tuple, range)):
        return list(prediction)
    if isinstance(prediction, str):
        text = prediction.strip().strip("()[]{}")
        return [item for item in re.split(r"[\s,;]+", text) if item]
    if isinstance(prediction, Set):
        return prediction
    raise _WrongKind("a list of items", prediction, SEQUENCE_FORMAT)


def _same_items(items: list | Set, answer: list, *, ordered: bool) -> bool:
    """Item by item in order; or, for a set on either side, each item matching a different one of the answer's."""
    if ordered:
        same = [_matches(item, part, None) for item, part in zip(items, answer)]  # reads every item: typos say so
        return len(items) == len(answer) and all(same)
    unmatched = list(answer)
    for item in items:
        found = next((k for k, part in enumerate(unmatched) if _matches(item, part, None)), None)
        if found is None:
            return False
        unmatched.pop(found)
    return not unmatched


def _matches(prediction: object, answer: object, position: Position | None) -> bool:
    """Whether ``prediction`` is ``answer`` in any of the forms the module docstring lists.

    Raises :class:`_WrongKind` for an answer of another kind, and the engine's
    errors for unreadable notation or an illegal turn.
    """
    if isinstance(answer, Position):
        if isinstance(prediction, str):
            prediction = _as_position(prediction, answer)
        if not isinstance(prediction, Position):
            raise _WrongKind("a position", prediction, POSITION_FORMAT)
        return prediction == answer
    if isinstance(answer, Turn) or (isinstance(answer, str) and position is not None):
        if prediction is None:
            why = ": a strategy must return a turn or its notation (did a `return` go missing?)"
            raise _WrongKind("a turn", None, TURN_FORMAT, why)
        if not isinstance(prediction, (Turn, str)):
            raise _WrongKind("a turn", prediction, TURN_FORMAT)
        if position is None:
            return Turn.parse(prediction) == answer if isinstance(prediction, str) else prediction == answer
        return resolve(position, prediction) == resolve(position, answer)
    if isinstance(answer, (bool, np.bool_)):
        if isinstance(prediction, str) and prediction.strip().casefold() in _TRUE | _FALSE:
            return (prediction.strip().casefold() in _TRUE) == bool(answer)
        if not isinstance(prediction, (bool, np.bool_)):
            raise _WrongKind("True or False", prediction, BOOLEAN_FORMAT)
        return bool(prediction) == bool(answer)
    if _is_number(answer):
        return _same_number(prediction, answer)
    if isinstance(answer, (tuple, list, Set)):
        items = _as_items(prediction)
        try:
            return _same_items(items, list(answer), ordered=not isinstance(answer, Set) and isinstance(items, list))
        except _WrongKind:
            raise _WrongKind("a list of items", prediction, SEQUENCE_FORMAT) from None
    if isinstance(answer, str):  # a word, or an amoeba as text: "(6,5)", (6, 5) and Amoeba(6, 5) read the same
        if isinstance(prediction, (bool, numbers.Number)) and _squash(prediction) != _squash(answer):
            raise _WrongKind("text", prediction, WORD_FORMAT)  # 8 is "8", but no word
        return _squash(prediction) == _squash(answer)
    return prediction == answer


def check(
    prediction: object,
    answer: object,
    *,
    hint: str,
    why: str = "",
    position: Position | None = None,
    accept: tuple = (),
    unanswered: object = _NOT_GIVEN,
    code: Callable | None = None,
    starting: str | None = None,
    seconds: float = CHECK_SECONDS,
) -> Verdict:
    """Compare a student's ``prediction`` with the ``answer`` the engine computed.

    ``hint`` is shown on a wrong answer (it should point at the rule, not give
    the answer away); ``why`` is shown on a right one.  ``prediction`` may be a
    function of no arguments that runs the student's code.  ``position``: the
    position a turn answer is played in (so ``"1 a1 a1-b2"`` equals
    ``"1 a1 a1-b2 7,0"``).  ``accept``: other wordings that mean the answer
    (``"8"`` for ``"8 turns"``).  ``unanswered``: the starting code's answer,
    which still means "your turn"; with ``code`` (the student's function) and ``starting`` (the starting code's
    body), only while that function's body is still the starting one (after an edit, the same answer is a wrong
    answer, not "your turn").  A ``prediction`` function that runs longer than ``seconds`` (an endless loop) is
    stopped, and the verdict says where.
    """
    if callable(prediction) and not isinstance(prediction, type):
        try:
            prediction = _call_bounded(prediction, seconds)
        except _TooLong as stopped:
            return Verdict(False, f"✗ Your code ran for {seconds:g} s without finishing (an endless loop?); it was "
                                  f"stopped {stopped.where()}. Fix that and run again.")
        except Exception as error:  # noqa: BLE001 - the student's code may fail in any way; say where, kindly
            return Verdict(False, f"✗ Your code raised {describe_error(error)}. Fix that line and run again.")
    if prediction is ...:
        return Verdict(None, YOUR_TURN)
    unchanged = code is None or starting is None or _same_body(code, starting)
    if unanswered is not _NOT_GIVEN and unchanged and _same(prediction, unanswered, position):
        return Verdict(None, "✎ Your turn: this is still the starting code's answer. Change the code and run again.")
    try:
        right = _matches(prediction, answer, position)
    except _WrongKind as wrong:
        if not any(_same(prediction, other, position) for other in accept):
            return Verdict(False, f"✗ {wrong}")
        right = True
    except NotationError as error:
        form = POSITION_FORMAT if isinstance(answer, Position) else TURN_FORMAT
        return Verdict(False, f"✗ I could not read {prediction!r}: {error}. Format: {form}.")
    except IllegalTurnError as error:
        return Verdict(False, f"✗ {prediction} is not a legal turn here: {error}. Hint: {hint}")
    if right or any(_same(prediction, other, position) for other in accept):
        return Verdict(True, " ".join(part for part in (f"✓ Right: {answer}.", why) if part))
    return Verdict(False, f"✗ Not quite (you said {prediction!r}). Hint: {hint}")


class _TooLong(BaseException):
    """Raised inside the student's code when :func:`check`'s time is up (not an ``Exception``: their ``except
    Exception`` does not swallow it)."""

    def where(self) -> str:
        frame = student_frame(self.__traceback__)
        return describe(*frame) if frame else "in the lesson's code"


def _call_bounded(function: Callable, seconds: float) -> object:
    """``function()``, interrupted by :class:`_TooLong` after ``seconds`` (a SIGALRM timer: in the main thread of
    a kernel or script, where signals arrive; elsewhere it simply runs)."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return function()

    def ring(signum: int, frame: object) -> None:
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _same_body(function: Callable, starting: str) -> bool:
    """Whether ``function``'s body, docstring, comments and spacing aside, is the code ``starting``; False when its
    source cannot be read (then nothing claims it is unchanged)."""
    import ast
    import inspect
    import textwrap

    def statements(body: list[ast.stmt]) -> str:
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            body = body[1:]
        return "\n".join(ast.unparse(node) for node in body)

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        defined = tree.body[0]
        if not isinstance(defined, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        return statements(defined.body) == statements(ast.parse(textwrap.dedent(starting)).body)
    except (OSError, TypeError, SyntaxError, IndexError):
        return False


def _same(prediction: object, other: object, position: Position | None) -> bool:
    """Whether ``prediction`` is ``other`` in some form; a prediction of another kind is not."""
    try:
        return _matches(prediction, other, position)
    except (_WrongKind, NotationError, IllegalTurnError):
        return False


__all__ = ["Verdict", "check"]
