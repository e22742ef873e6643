"""The lab's worker protocol: length-prefixed messages over stream sockets, and what the harness accepts in them.

Messages are ``HEADER`` (a 4-byte length) then the bytes:

- harness -> template, once: the load request (JSON: ``load``, ``path``, ``name``..., ``adjacency``,
  ``die_sides``, ``import_seed``) and, for ``load == "pickle"``, the cloudpickle bytes (for ``load == "source"``,
  a file's text read by the lab, UTF-8);
  template -> harness: ``{"isolation": [...]}`` (the walls that went up, sent before any student code runs).
- harness -> template, per generation: the byte ``GAME`` with one socket passed along (SCM_RIGHTS; a portable
  start sends ``GAME`` alone on its control connection); the game process imports the strategy, says
  ``{"ok": true}`` or ``{"ok": false, "error": "..."}`` on it, then serves moves on it.  Where the template keeps
  the seal (``seal`` among the walls): harness -> template ``SEAL`` and a message with the game process's pid once
  it said ``ok``; template -> harness ``SEALED`` once that game process can name no file (:mod:`.seal`).
- harness -> game, per round: ``LIMIT EACH`` on the first line (the per-move limit; EACH ``1``: send every answer
  at once), then a ``SEED ROLL POSITION`` line per move; game -> harness, a message per move:
  ``{"kind": "turn"|"text"|"other"|"error"|"timeout", "value": str, "output": [...], "printed": int, ...}``.
  SEED (derived by the harness; it reveals neither the run's seed nor the dice) seeds the strategy's ``rng``,
  the module-level ``random`` and NumPy's global generator for that move.

Everything a worker sends is untrusted: :func:`untrusted_object` and :func:`untrusted_answer` turn any bytes into
a bounded, typed dict or a ValueError.  Standard library only: the worker imports it before any wall goes up.
"""

from __future__ import annotations

import json
import select
import socket
import struct
import time
from typing import Any

MAX_MESSAGE = 1 << 20
"""Largest message the harness reads from a worker while it starts; anything bigger is a malformed answer."""
MAX_ANSWER = 1 << 17
"""Largest answer to a move: its value, 20 printed lines and where it raised fit, each character escaped.  Kept small
because parsing is what costs memory: a message of ``[],`` parses to about twenty times its size in objects."""
ANSWER_KEYS = {"kind": str, "value": str, "output": list, "printed": int, "lines": int, "where": list, "took": float}
"""What the harness keeps of an answer; anything else a worker sends is dropped at once."""
LOAD_LIMIT = 30.0
"""Seconds a worker may take to start, put its walls up and import the strategy."""
WAIT_FACTOR = 10.0
"""The per-move limit counts the CPU time a move uses, so that a card does not change with the machine's load; a
move that waits (a sleep, ``input()``, a blocking read) uses none, so it is stopped after this many times the
limit by the clock on the wall instead: a move that computes reaches it only on a machine ten times overloaded."""


def wait_limit(limit: float) -> float:
    """Seconds on the wall clock a move of per-move limit ``limit`` (CPU seconds) may take before it is stopped."""
    return WAIT_FACTOR * limit


SEED_BITS = 64
"""A per-move seed is a whole number below 2**SEED_BITS."""
HEADER = struct.Struct("!I")
"""A message's length, before its bytes."""
GAME = b"G"
"""The harness's word for "start a game process" (on the control connection)."""
SEAL = b"S"
"""The harness's word for "seal this game process now" (on the control connection, followed by a message with the
game process's pid): sent once its strategy is loaded, before its first roll; the template answers ``SEALED``."""
SEALED = b"sealed"
TOKEN_BYTES = 16
"""Bytes of the one-time token a portably started worker opens its connections with."""


def send_message(sock: socket.socket, data: bytes) -> None:
    """Send ``data`` as one message."""
    sock.sendall(HEADER.pack(len(data)) + data)


def read_exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    """``size`` bytes from ``sock``; EOFError if it closes first, ``socket.timeout`` past ``deadline``."""
    chunks, left = [], size
    while left:
        if deadline is not None:
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
        chunk = sock.recv(min(left, 1 << 16))
        if not chunk:
            raise EOFError("the other end closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive_message(sock: socket.socket, deadline: float | None = None, limit: int | None = None) -> bytes:
    """The next message; EOFError at the end, ``socket.timeout`` past ``deadline``, ValueError above ``limit``."""
    try:
        (size,) = HEADER.unpack(read_exactly(sock, HEADER.size, deadline))
        if limit is not None and size > limit:
            raise ValueError(f"a message of {size} bytes (the limit is {limit})")
        return read_exactly(sock, size, deadline)
    finally:
        if deadline is not None:
            sock.settimeout(None)


class MessageReader:
    """The messages of one socket, read in large chunks: a round's answers cost a ``recv`` or two, not three
    system calls each (on a single core, each call can hand the core to the other process and back)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.waited = False
        """Whether the last message had to be waited for (False: it came in with the one before)."""

    def next(self, deadline: float, limit: int) -> bytes:
        """The next message; EOFError at the end, ``socket.timeout`` past ``deadline``, ValueError above ``limit``."""
        self.waited = False
        while True:
            if len(self.buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(self.buffer)
                if size > limit:
                    raise ValueError(f"a message of {size} bytes (the limit is {limit})")
                end = HEADER.size + size
                if len(self.buffer) >= end:
                    message = bytes(self.buffer[HEADER.size : end])
                    del self.buffer[:end]
                    return message
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([self.sock], [], [], wait)[0]:
                raise socket.timeout
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the other end closed the connection")
            self.buffer += chunk
            self.waited = True

def untrusted_object(data: bytes) -> dict[str, Any]:
    """A JSON object from a process student code runs in: anything else, however odd, is a ValueError.

    Nesting deep enough to exhaust the parser's recursion is a ValueError too, not a RecursionError that would take
    the scorer down.
    """
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def untrusted_answer(data: bytes) -> dict[str, Any]:
    """An answer to a move, with only the keys the harness reads, each of its type; the numbers clamped.

    Clamped because they reach the card: a number thousands of digits long could not even be displayed.
    """
    raw = untrusted_object(data)
    answer = {key: raw[key] for key, kind in ANSWER_KEYS.items()
              if isinstance(raw.get(key), kind) and not isinstance(raw.get(key), bool)}  # fmt: skip
    for key in ("printed", "lines"):
        if key in answer:
            answer[key] = min(max(answer[key], 0), 1 << 40)
    if "took" in answer:  # the worker's own clock: never used to judge a move (see Sandbox._settle_times)
        took = answer["took"]
        answer["took"] = min(max(took, 0.0), 1e6) if took == took else 0.0
    return answer

