"""The worker process that runs one untrusted strategy for the lab (``python -m amoeboid_edu._sandbox FD``).

It is started fresh (never forked from the notebook), so it holds nothing of
the harness: no dice generator, no seeds, no game objects.  It receives a
position as text and a roll, calls the strategy, and answers with plain JSON
describing what came back; the harness validates that answer with the engine.
Anything the strategy prints is kept in a short tail, never shown directly.

Messages (``multiprocessing.connection`` framing over the inherited socket):

- harness -> worker, once: ``{"load": "pickle"|"import"|"file", ..., "adjacency", "die_sides"}``
  (+ the pickle bytes); worker -> harness: ``{"ok": true}`` or ``{"ok": false, "error": "..."}``.
- harness -> worker, per move: ``"SEED ROLL POSITION"`` (text; SEED seeds the strategy's
  ``random.Random`` for this move); worker -> harness, in the same order:
  ``{"kind": "turn"|"text"|"other"|"error", "value": str, "output": [...], "printed": int}``
  (``output``: the last lines printed during the move, only when something was printed).

The harness may send several requests (moves of different games) before
reading the answers: the worker answers them one by one, and the harness
times each answer separately.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import io
import json
import random
import sys
from multiprocessing.connection import Connection

from .rules import Position, Rules, Turn
from .strategy import as_function

KEEP_LINES = 20
LINE_WIDTH = 200
VALUE_WIDTH = 300


class OutputTail(io.TextIOBase):
    """A write-only text stream that keeps the last ``KEEP_LINES`` lines (each cut to ``LINE_WIDTH``).

    Memory stays bounded whatever is printed: a megabyte costs a few hundred characters.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=KEEP_LINES)
        self.partial = ""
        self.printed = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.printed += len(text)
        parts = text.split("\n")
        if len(parts) > 1:
            self.lines.append((self.partial + parts[0])[:LINE_WIDTH])
            for line in parts[1:-1][-KEEP_LINES:]:
                self.lines.append(line[:LINE_WIDTH])
            self.partial = ""
        self.partial = (self.partial + parts[-1][:LINE_WIDTH])[:LINE_WIDTH]
        return len(text)

    def tail(self) -> list[str]:
        return list(self.lines) + ([self.partial] if self.partial else [])


def _cut(text: str) -> str:
    return text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 3] + "..."


def _describe(value: object) -> str:
    """``repr(value)``, shortened, and never failing (a student's ``__repr__`` may raise)."""
    try:
        return _cut(repr(value))
    except BaseException:  # noqa: BLE001 - anything the student's __repr__ does
        return f"<unprintable {type(value).__name__}>"


def _load(request: dict, payload: bytes):
    for entry in reversed(request.get("path", [])):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    kind = request["load"]
    if kind == "pickle":
        import cloudpickle  # noqa: F401 - registers what plain pickle needs for by-value functions
        import pickle

        strategy = pickle.loads(payload)
    elif kind == "import":
        strategy = getattr(importlib.import_module(request["module"]), request["name"])
    else:
        spec = importlib.util.spec_from_file_location("student_strategy", request["file"])
        module = importlib.util.module_from_spec(spec)
        sys.modules["student_strategy"] = module
        spec.loader.exec_module(module)
        strategy = getattr(module, request["name"])
    return as_function(strategy)


def _answer(choose, position: Position, roll: int, rng: random.Random) -> dict:
    try:
        value = choose(position, roll, rng)
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt forfeit too
        try:
            message = f"{type(error).__name__}: {error}"
        except BaseException:  # noqa: BLE001
            message = type(error).__name__
        return {"kind": "error", "value": _cut(message)}
    if isinstance(value, Turn):
        try:
            return {"kind": "turn", "value": _cut(Turn.__str__(value))}
        except BaseException:  # noqa: BLE001 - a Turn built with nonsense fields
            return {"kind": "other", "value": _describe(value)}
    if isinstance(value, str):
        return {"kind": "text", "value": _cut(str.__str__(value))}
    return {"kind": "other", "value": _describe(value)}


def serve(connection: Connection) -> None:
    tail = OutputTail()
    sys.stdout = sys.stderr = tail
    request = json.loads(connection.recv_bytes())
    payload = connection.recv_bytes() if request["load"] == "pickle" else b""
    try:
        choose = _load(request, payload)
    except BaseException as error:  # noqa: BLE001 - a broken student module must not kill the run silently
        connection.send_bytes(json.dumps({"ok": False, "error": _cut(f"{type(error).__name__}: {error}")}).encode())
        return
    rules = Rules(request["adjacency"], request["die_sides"])
    connection.send_bytes(json.dumps({"ok": True}).encode())
    while True:
        try:
            message = connection.recv_bytes().decode()
        except EOFError:
            return
        seed, roll, text = message.split(" ", 2)
        tail.reset()
        answer = _answer(choose, Position.parse(text, rules), int(roll), random.Random(int(seed)))
        if tail.printed:
            answer["output"] = tail.tail()
            answer["printed"] = tail.printed
        connection.send_bytes(json.dumps(answer).encode())


MEMORY_LIMIT = 4 << 30
"""Address space the worker may use (4 GiB): a runaway allocation is a MemoryError, not a frozen machine."""


def main() -> None:
    # The harness starts us with stdin, stdout and stderr on /dev/null: what the strategy
    # writes to file descriptors directly goes nowhere; what it prints goes to the tail.
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):  # not on this platform, or already lower
        pass
    serve(Connection(int(sys.argv[1])))


if __name__ == "__main__":
    main()
