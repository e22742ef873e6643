"""The worker: ``python -m amoeboid_edu.sandbox.worker``, the process that loads one student's strategy behind the
walls and plays its moves.

A strategy is hostile code running as the teacher's user (docs/threat-model.md).  On Linux three processes hold
one strategy::

    harness ── life pipe ── supervisor  trusted code only: a subreaper; when the pipe closes
                              │          (the harness ended or was killed) it kills every descendant
                              └── template  walls up (Landlock, seccomp deny-list); runs no student code;
                                    │           keeps each game's seal (:mod:`.seal`)
                                    └── game  forked per generation; the seal's filter, then its own
                                              seccomp allow-list; imports the strategy, is sealed
                                              by the template (names no file again), then plays moves

No student code runs outside a game process, behind all its walls: an import in the template could rewrite the
code that puts up the game's own wall.  A game process writes nothing (Landlock grants no write right, its
filter opens files read-only), so there is no private folder to fill or to leave behind.  A move that reaches
the per-move limit of CPU time is interrupted inside the game process (SIGPROF; SIGALRM for a move that waits
too long) and forfeits; the process and its import stay.  Elsewhere (no ``/proc``, no ``prctl``) the supervisor, template
and game are one process, restarted after a kill: "process only".

How it is started: on Linux and macOS the harness (:mod:`.harness`) hands it one end of a socket pair
(``pass_fds``) and each game's socket over it (SCM_RIGHTS).  Windows has neither, so there (or wherever
``AMOEBOID_PORTABLE_SANDBOX=1`` forces it) it is started *portably*: it reads a one-time token from stdin and
opens two loopback connections to the harness (control, then its one game) with that token.

It imports only the sandbox's protocol (:mod:`.protocol`, :mod:`.text`), its walls (:mod:`.walls`, :mod:`.seal`,
:mod:`.processes`, :mod:`.importpath` to hold out missing packages), the engine and the players' helpers (and
the baseline bots, in the template), so that a strategy starts in a small, known process; never the harness, the lab or anything that starts programs.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import linecache
import math
import os
import random
import signal
import socket
import sys
import time
import types
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Callable, Optional, Sequence

from ..engine.rules import Amoeba, Board, Position, Rules, Turn
from ..players.strategy import StrategyFunction, as_function
from ..players.tracebacks import student_frame
from .importpath import hold_out_missing
from .processes import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, die_with, prctl, sweep
from .protocol import (GAME, HEADER, LOAD_LIMIT, SEAL, SEALED, SEED_BITS, receive_message, send_message,
                       wait_limit)
from .seal import GAME_FD, Sealer, load_seal, procfs_mounts, seal_available, seal_program, seal_walls
from .text import LINE_WIDTH, OutputTail, cut
from .walls import (WALLS_PLATFORM, GameProgram, close_all_but, compile_game_program, limit_resources,
                    load_game_program, load_seccomp, put_up_walls, seal)

FLUSH_AFTER = 0.01
"""Seconds a game process may hold a round's answers before sending what it has: a round's answers go back in
a message or a few (a message each would make the two processes take turns on one core, a context switch an
answer), and the harness still hears from it at least once per move's time plus this."""


_entropy = random.Random(0)
"""Stands in for the operating system's entropy in a game process; reseeded with every move, when first drawn from."""
_entropy_seed: list[int | None] = [None]
"""The seed ``_entropy`` takes before its next draw (None: it already has): most moves never draw."""


def _entropy_bits(bits: int) -> int:
    pending = _entropy_seed[0]
    if pending is not None:
        _entropy_seed[0] = None
        _entropy.seed(pending)
    return _entropy.getrandbits(bits)


def _entropy_bytes(size: int) -> bytes:
    if not isinstance(size, int) or size < 0:
        raise ValueError(f"negative or non-integer size: {size!r}")
    return _entropy_bits(size * 8).to_bytes(size, "little")


def _seeded_from_entropy(seed: Callable[..., None]) -> Callable[..., None]:
    def seed_method(self: random.Random, a: object = None, version: int = 2) -> None:
        seed(self, _entropy_bits(128) if a is None else a, version)

    return seed_method


def _entropy_getrandom(size: int, flags: int = 0) -> bytes:
    return _entropy_bytes(size)


def _entropy_from_the_move() -> None:
    """Generators a strategy seeds from the operating system draw from the move's seed instead.

    ``random.Random()``, ``random.seed()``, ``SystemRandom``, ``secrets``, ``os.urandom``, ``os.getrandom``,
    ``uuid.uuid4``, the C generator ``_random.Random()`` and NumPy's ``default_rng()`` / ``SeedSequence()`` would
    otherwise make a card change from run to run.  Done in the game process only, before the import.  The raw
    ``getrandom`` syscall is refused by the game's filter and ``/dev/urandom`` is out of Landlock's reach, so
    what goes around these (a C generator reached through ``random.Random.__mro__`` then seeds from the clock)
    is outside the promise with the clock, object addresses and pids.
    """
    import _random

    os.urandom = _entropy_bytes
    if hasattr(os, "getrandom"):
        os.getrandom = _entropy_getrandom
    random._urandom = _entropy_bytes  # type: ignore[attr-defined]  # SystemRandom and secrets
    random.Random.seed = _seeded_from_entropy(random.Random.seed)  # type: ignore[method-assign]

    class Random(_random.Random):
        """The C generator, seeded from the move's stand-in entropy when given no seed."""

        def __init__(self, *args: object) -> None:
            self.seed(_entropy_bits(128) if not args or args[0] is None else args[0])

    setattr(_random, "Random", Random)
    instance = getattr(random, "_inst", None)
    if instance is not None:  # module-level random: seeded at its first draw of a move (_seed_globals)
        _seeded_on_first_draw(random, instance, _random_seed, random.seed, ("seed", "setstate"))
        _LAZY.append("random")
    try:
        import numpy.random.bit_generator as bit_generator
        import numpy.random.mtrand as mtrand
    except ImportError:
        return
    setattr(bit_generator, "randbits", _entropy_bits)  # SeedSequence() without entropy (not in its stubs)
    legacy = getattr(mtrand, "_rand", None)  # NumPy's global generator, behind numpy.random.random() and friends
    if legacy is not None:
        import numpy.random

        seed = mtrand.seed
        for module in (numpy.random, mtrand):
            _seeded_on_first_draw(module, legacy, _numpy_seed, seed, ("seed", "set_state"))
        _LAZY.append("numpy")


Pending = list[Optional[int]]
"""A one-element list: the seed a module-level generator takes before its next draw (None: it already has)."""
_random_seed: Pending = [None]
"""The seed module-level ``random`` takes before its next draw (see :func:`_seeded_on_first_draw`)."""
_numpy_seed: Pending = [None]
"""The seed NumPy's global generator takes before its next draw."""


def _seed_globals(seed: int) -> None:
    """Module-level ``random``, NumPy's global generator and the stand-in entropy, from the move's (or import's) seed.

    Each takes its seed before its first draw of the move, not here: a ``Random``'s seeding costs about 15 µs, and
    most strategies draw from neither (the stream drawn is the same: :func:`_seeded_on_first_draw`).  Until
    :func:`_entropy_from_the_move` has made them lazy (a plain call, as in the tests), they are seeded at once.
    """
    _entropy_seed[0] = seed + (2 << SEED_BITS)
    _random_seed[0] = seed + (1 << SEED_BITS)  # not the rng's own stream
    _numpy_seed[0] = seed % (1 << 32)
    if "random" not in _LAZY:
        _take_pending(_random_seed, random.seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None and "numpy" not in _LAZY:
        _take_pending(_numpy_seed, numpy.random.seed)


_LAZY: list[str] = []
"""The modules whose generators :func:`_seeded_on_first_draw` has made lazy in this process."""


def _take_pending(pending: Pending, seed: Callable[[int], object]) -> None:
    """Seed with the pending seed, if there is one, and clear it."""
    value = pending[0]
    if value is None:
        return
    pending[0] = None
    try:
        seed(value)
    except Exception:  # noqa: BLE001 - a strategy that replaced them loses its own determinism, not ours
        pass


def _seeded_on_first_draw(module: types.ModuleType, instance: object, pending: Pending,
                          seed: Callable[[int], object], replacing: Sequence[str]) -> None:
    """Make each of ``module``'s functions that are methods of ``instance`` (the module's hidden generator) seed it
    first with ``pending``'s seed, if one is pending: the draw is the one an eager seeding gives, and a move that
    draws nothing costs no seeding.  The functions named in ``replacing`` (``seed``, ``setstate``) set the state
    themselves: they drop the pending seed.  Done before the strategy's import, so ``from random import choice``
    binds the lazy function too.
    """
    for name, method in list(vars(module).items()):
        if getattr(method, "__self__", None) is not instance or not callable(method):
            continue
        setattr(module, name, _lazy_method(method, pending, seed, drops=name in replacing))


def _lazy_method(method: Callable[..., Any], pending: Pending, seed: Callable[[int], object],
                 drops: bool) -> Callable[..., Any]:
    if drops:
        def call(*args: Any, **kwargs: Any) -> Any:
            pending[0] = None
            return method(*args, **kwargs)
    else:
        def call(*args: Any, **kwargs: Any) -> Any:
            if pending[0] is not None:
                _take_pending(pending, seed)
            return method(*args, **kwargs)
    call.__name__ = call.__qualname__ = getattr(method, "__name__", "call")
    call.__doc__ = getattr(method, "__doc__", None)
    return call


def _load(request: dict[str, Any], payload: bytes) -> StrategyFunction:
    for entry in reversed(request.get("path", [])):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    kind = request["load"]
    if kind == "pickle":
        import pickle

        import cloudpickle  # type: ignore[import-untyped, unused-ignore]  # noqa: F401 - registers by-value pickling

        strategy = pickle.loads(payload)
    elif kind == "source":
        # a file's text, read by the lab once before any game (``score``): no folder on the import path, or for a
        # student folder its copy, last (its helper modules), as for a file below
        if request.get("file"):
            sys.path.append(os.path.dirname(request["file"]))
        filename, source = request["filename"], payload.decode("utf-8")
        module = types.ModuleType("student_strategy")
        module.__file__ = filename
        sys.modules["student_strategy"] = module
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        exec(compile(source, filename, "exec"), module.__dict__)
        strategy = getattr(module, request["name"])
    elif kind == "import":
        if request.get("root"):  # where the caller found the module: last, like a student's folder below
            sys.path.append(request["root"])
        strategy = getattr(importlib.import_module(request["module"]), request["name"])
    else:
        # a file: its folder comes *last* on the import path, so a helper module next to it imports, but no
        # file there (a classmate's heapq.py in a shared folder) replaces a module of Python or of the libraries
        sys.path.append(os.path.dirname(os.path.realpath(request["file"])))
        spec = importlib.util.spec_from_file_location("student_strategy", request["file"])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {request['file']}")
        module = importlib.util.module_from_spec(spec)
        sys.modules["student_strategy"] = module
        spec.loader.exec_module(module)
        strategy = getattr(module, request["name"])
    return as_function(strategy)


def _describe(value: object) -> str:
    """``repr(value)``, shortened, and never failing (a student's ``__repr__`` may raise)."""
    try:
        return cut(repr(value))
    except BaseException:  # noqa: BLE001 - anything the student's __repr__ does
        return f"<unprintable {type(value).__name__}>"


def _where(tb: TracebackType | None) -> list[Any] | None:
    """``[file, line, function, source line]`` of the student's frame, the line read here, behind the walls."""
    frame = student_frame(tb)
    if frame is None:
        return None
    try:
        source = linecache.getline(*frame[:2])
    except BaseException:  # noqa: BLE001 - a file the walls refuse, or a loader the student replaced
        source = ""
    return [cut(frame[0], LINE_WIDTH), frame[1], cut(frame[2], LINE_WIDTH), cut(source, LINE_WIDTH)]


class MoveInterrupted(BaseException):
    """Raised inside a strategy whose move reached the per-move limit (SIGPROF: its CPU time) or waited too long
    (SIGALRM); not an ``Exception``, so that ``except Exception`` in a strategy does not swallow it."""


@dataclass
class _MoveClock:
    """The per-move timers of a game process: the move is interrupted, and forfeits, when it has used ``limit``
    seconds of CPU time (ITIMER_PROF, SIGPROF), or when it has waited (a sleep, a blocking read) for
    :func:`.protocol.wait_limit` seconds on the wall clock (ITIMER_REAL, SIGALRM).

    CPU time, because it is what the strategy itself spends: the same move takes the same CPU time on an idle
    machine and on one at load 7, where it takes several times as long on the wall clock.  Two syscalls a move:
    each move's ``setitimer`` calls replace the previous one's timers, which are never disarmed; an alarm that
    still arrives from an earlier move (or between moves) is told apart by the current deadlines.
    """

    running: bool = False
    rang: bool = False
    waited: bool = False
    deadline: float = 0.0
    wall_deadline: float = 0.0
    outbox: _Outbox | None = None

    def ring(self, signum: int, frame: object) -> None:
        if not self.running:
            return
        left = self.deadline - time.process_time()
        if signum == signal.SIGPROF and left > 0:  # the kernel's CPU count ran ahead of process_time's: wait on
            signal.setitimer(signal.ITIMER_PROF, max(left, 0.001))
            return
        used_up = left <= 0
        if used_up or (signum == signal.SIGALRM and time.monotonic() >= self.wall_deadline):
            self.rang, self.waited, self.running = True, not used_up, False  # once: one that goes on is killed
            if self.outbox is not None:  # the answers before this move reach the harness, whatever it does next
                self.outbox.flush()
            raise MoveInterrupted("the move reached the per-move limit")

    def call(self, choose: StrategyFunction, position: Position, roll: int, rng: random.Random, limit: float) -> object:
        self.rang = self.waited = False
        if not hasattr(signal, "setitimer"):
            return choose(position, roll, rng)
        self.deadline = time.process_time() + limit
        self.wall_deadline = time.monotonic() + wait_limit(limit)
        signal.setitimer(signal.ITIMER_PROF, limit)
        signal.setitimer(signal.ITIMER_REAL, wait_limit(limit))
        self.running = True
        try:
            return choose(position, roll, rng)
        finally:
            self.running = False


_clock = _MoveClock()


def _waited() -> dict[str, str]:
    """How a timeout answer says the move waited rather than computed (the harness words the message)."""
    return {"value": "waited"} if _clock.waited else {}


def _answer(choose: StrategyFunction, position: Position, roll: int, rng: random.Random,
            limit: float) -> dict[str, Any]:
    try:
        value = _clock.call(choose, position, roll, rng, limit)
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt forfeit too
        if _clock.rang:  # where the move was when the limit stopped it: the student's line, to say where it was stuck
            return {"kind": "timeout", "where": _where(error.__traceback__), **_waited()}
        try:
            message = f"{type(error).__name__}: {error}"
        except BaseException:  # noqa: BLE001
            message = type(error).__name__
        return {"kind": "error", "value": cut(message), "where": _where(error.__traceback__)}
    if _clock.rang:  # interrupted, and the strategy caught it: the move is lost all the same
        return {"kind": "timeout", **_waited()}
    if isinstance(value, Turn):
        try:
            return {"kind": "turn", "value": cut(Turn.__str__(value))}
        except BaseException:  # noqa: BLE001 - a Turn built with nonsense fields
            return {"kind": "other", "value": _describe(value)}
    if isinstance(value, str):
        return {"kind": "text", "value": cut(str.__str__(value))}
    return {"kind": "other", "value": _describe(value)}


_AMOEBAE: dict[str, Amoeba | None] = {}
"""Cell tokens read so far (``"."``, ``"(3,1)"``) and what they stand for: a move's position is mostly old tokens."""


CELL_DIGITS = 18
"""Digits of a count :func:`_cell` reads itself; a longer one (never met in play) goes to the parser."""


def _cell(token: str, rules: Rules) -> Amoeba | None:
    """The amoeba a cell token of the harness's text stands for: ``(a,b)`` as ``str(Amoeba)`` writes it is read at
    once (amoebae grow every turn, so a long game meets a new token or two a move, and the parser takes about
    15 µs each); anything else is read by the parser, which refuses what is not a cell."""
    a, comma, b = token[1:-1].partition(",")
    if (comma and token[0] == "(" and token[-1] == ")" and a.isascii() and a.isdigit() and b.isascii()
            and b.isdigit() and len(a) <= CELL_DIGITS and len(b) <= CELL_DIGITS):
        cell = Amoeba(int(a), int(b))
        if cell.a + cell.b and str(cell) == token:  # written as str(Amoeba) writes it, and not empty
            return cell
    return Position.parse(f"{token} . A", rules).cells[0]


def position_from_harness(text: str, rules: Rules) -> Position:
    """Read back the harness's own ``str(position)`` of a grid: the hot path of every move.

    The text comes from the trusted side, made by ``Position.__str__``, so the cells are looked up by
    token and the position is built unchecked; a token not seen before is read by the parser (and a text
    the harness did not make is then refused as any position is).  Bounded: the table starts again when full.
    """
    tokens = text.split(" ")
    cells = []
    for token in tokens[:-1]:
        if token == "/":
            continue
        try:
            cells.append(_AMOEBAE[token])
        except KeyError:
            if len(_AMOEBAE) >= 1 << 16:
                _AMOEBAE.clear()
            cell = _AMOEBAE[token] = _cell(token, rules)
            cells.append(cell)
    rows = len(tokens) - len(cells)  # the slashes between rows, and the side to move
    if not cells or len(cells) % rows or tokens[-1] not in ("A", "B"):
        return Position.parse(text, rules)
    return Position.unchecked(Board.grid(rows, len(cells) // rows, rules.adjacency), tuple(cells), tokens[-1], rules)


def _encoded(answer: dict[str, Any]) -> bytes:
    """``json.dumps(answer).encode()``, the usual answer (a turn's text and its time) written out directly: the
    same bytes at half the cost (``tests/sandbox`` compares them), on a path every move takes."""
    if len(answer) == 3:
        kind, value, took = answer.get("kind"), answer.get("value"), answer.get("took")
        if (type(kind) is str and type(value) is str and type(took) is float and math.isfinite(took)
                and list(answer) == ["kind", "value", "took"]):
            return (f'{{"kind": {json.dumps(kind)}, "value": {json.dumps(value)}, '
                    f'"took": {float.__repr__(took)}}}').encode()
    return json.dumps(answer).encode()


@dataclass
class _Outbox:
    """A game process's answers on their way: sent when the round is answered, when ``FLUSH_AFTER`` has passed
    since the last send, or when a move is interrupted (so the harness can tell which move did not stop);
    with ``each``, after every answer (the harness asks so when it must find a move that stopped the process)."""

    sock: socket.socket
    each: bool = False
    frames: list[bytes] = field(default_factory=list)
    sent: float = 0.0

    def add(self, answer: dict[str, Any], began: float) -> None:
        """Queue the answer to a move that began at ``began``; a slow move's answer goes at once."""
        data = _encoded(answer)
        self.frames.append(HEADER.pack(len(data)) + data)
        now = time.monotonic()
        if self.each or now - self.sent >= FLUSH_AFTER or now - began >= FLUSH_AFTER:
            self.flush()

    def flush(self) -> None:
        if self.frames:
            frames, self.frames = self.frames, []
            self.sock.sendall(b"".join(frames))
        self.sent = time.monotonic()


def _play(sock: socket.socket, choose: StrategyFunction, rules: Rules, tail: OutputTail) -> None:
    """Answer each round's moves on ``sock``, a message per answer, until the harness hangs up.

    A round is ``LIMIT EACH`` on its first line (EACH ``1``: send every answer at once), then a
    ``SEED ROLL POSITION`` line per move.
    """
    outbox = _clock.outbox = _Outbox(sock)
    while True:
        try:
            message = receive_message(sock).decode()
        except (EOFError, OSError):
            return
        header, *moves = message.split("\n")
        limit, each = header.split(" ")
        outbox.each = each == "1"
        outbox.flush()  # starts the clock of the round
        for move in moves:
            seed, roll, text = move.split(" ", 2)
            began, cpu = time.monotonic(), time.process_time()
            tail.reset()
            _seed_globals(int(seed))
            answer = _answer(choose, position_from_harness(text, rules), int(roll), random.Random(int(seed)),
                             float(limit))
            # its own measure, which a strategy can rewrite: where the harness reads this process's CPU clock
            # (Linux) it only splits the harness's figure among answers sent together
            answer["took"] = time.process_time() - cpu
            if tail.printed:
                answer["output"] = tail.tail()
                answer["printed"] = tail.printed
                answer["lines"] = tail.line_count + (1 if tail.partial else 0)
            outbox.add(answer, began)
        outbox.flush()


def _game_walls(walls: Sequence[str], sealing: tuple[bytes, socket.socket] | None = None,
                allow_list: GameProgram | None = None) -> None:
    """A game process's own walls, before any student code: the move timers' handler, the seal's filter (its
    listener handed to the template over ``sealing``'s socket, :mod:`.seal`), then its allow-list (``allow_list``:
    as the template compiled it, else compiled here).

    The allow-list refuses changing SIGALRM's and SIGPROF's handlers afterwards; if a filter cannot be loaded where the card says
    "seccomp" or "seal", the process exits rather than play without it.
    """
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _clock.ring)
        signal.signal(signal.SIGPROF, _clock.ring)
    if sealing is not None:
        program, report = sealing
        try:
            load_seal(program, report)
        except OSError:
            os._exit(1)
        report.close()
    if "seccomp" in walls and not (load_game_program(allow_list) if allow_list is not None else
                                   load_seccomp(game=True, own_seal="seal" not in walls)):
        os._exit(1)


def _only_the_game(game: socket.socket, keep: socket.socket) -> socket.socket:
    """In a game process the template just forked: its game socket moved to ``GAME_FD``, every other descriptor
    closed but ``keep`` (its way to the template) and 0-2.  What it inherited (the control connection, the seal's
    listeners of the other game processes) must be gone before any student code runs: a listener would let the
    strategy answer for another game's seal."""
    fd = game.detach()
    if keep.fileno() == GAME_FD:  # the template holds all but one of its descriptors: no room for a game
        os._exit(1)
    os.dup2(fd, GAME_FD, inheritable=False)
    close_all_but({0, 1, 2, GAME_FD, keep.fileno()})
    return socket.socket(fileno=GAME_FD)


def _loaded(game: socket.socket, request: dict[str, Any], payload: bytes, tail: OutputTail, walls: Sequence[str],
            keep: Sequence[socket.socket] = ()) -> StrategyFunction | None:
    """Import the strategy here and say so on ``game`` first: ``{"ok": true}``, or the error and None.

    Loaded, the process is sealed before any roll reaches it: by the template, which the harness tells to once
    this answer is in (:mod:`.seal`), and here only ``game`` and ``keep`` stay open and a late import gets a clear
    message (:func:`.walls.seal`, which loads the seal's filter itself in a plainly started worker); if that
    filter cannot go up where the walls include seccomp, it exits.
    """
    sealing = seal  # bound before the import: a strategy that rebinds the worker's names does not reach it
    sys.stdout = sys.stderr = tail
    _entropy_from_the_move()
    _seed_globals(int(request.get("import_seed", 0)))
    try:
        choose = _load(request, payload)
    except BaseException as error:  # noqa: BLE001 - a broken student module must not kill the run silently
        send_message(game, json.dumps({"ok": False, "error": cut(f"{type(error).__name__}: {error}")}).encode())
        return None
    if not sealing([game.fileno(), *(sock.fileno() for sock in keep)], walls):
        os._exit(1)
    send_message(game, json.dumps({"ok": True}).encode())
    return choose


_SEAL_HANDOVER = 5.0
"""Seconds the template waits for a new game process's seal listener (sent before any student code, at once)."""


def _template(control: socket.socket, fork_server: bool, games: list[socket.socket] | None = None) -> None:
    """Put the walls up, then start a game process per socket the harness sends; it imports the strategy.

    No student code ever runs in the template: an import that ran here could rewrite the code that puts up a
    game process's own wall (no processes, no programs) and leave the card claiming it.  So each game process imports the strategy after its wall is up, and an import that forks is refused.
    For the same reason the template keeps the game processes' seal (:mod:`.seal`, where this kernel has it): it
    answers their file syscalls while they import, and refuses them from the harness's ``SEAL`` on.
    ``games``: a portable start's game socket, connected at start; the harness then sends ``GAME`` alone.
    """
    # NumPy (and cloudpickle) before the walls: the game processes inherit them imported, NumPy's global
    # generator is seeded before every move, and its BLAS may start threads, which the walls then refuse to anyone.
    # NumPy before the request, too: a worker started ahead of its first use (Sandbox.spawn) imports it meanwhile.
    import numpy
    import numpy.random  # noqa: F401 - NumPy 2 imports it lazily: each game process would import it again
    import numpy.fft  # noqa: F401 - lazily too; a sealed game imports nothing (others: "import numpy.ma at the top")
    # The baseline bots too (trusted code, no student's): a strategy that falls back on ``greedy`` (lesson 9's all
    # do) would import them in each game process, about 17 ms of CPU each, 40 times in lesson 9's tournament.
    from ..players import bots  # noqa: F401

    request = json.loads(receive_message(control))
    payload = receive_message(control) if request["load"] in ("pickle", "source") else b""
    if request["load"] == "pickle":
        import cloudpickle  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    import fcntl  # noqa: F401 - the seal's answers (:mod:`.seal`)

    procfs = procfs_mounts() if fork_server and WALLS_PLATFORM else ()  # /proc is out of reach behind the walls
    walls = put_up_walls(request)
    # the seal is kept here, where no student code runs, for every game process forked from here
    program = seal_program() if fork_server and "seccomp" in walls and seal_available() else None
    sealer = Sealer(procfs) if program is not None else None
    if sealer is not None:
        walls += seal_walls(sealer)
    # the games' allow-list, compiled once here for every game process (each fills in its pid and loads it)
    game_program = compile_game_program("seal" not in walls) if fork_server and "seccomp" in walls else None
    send_message(control, json.dumps({"isolation": walls}).encode())
    rules = Rules(request["adjacency"], request["die_sides"])
    tail = OutputTail()
    choose: StrategyFunction | None = None
    template = os.getpid()
    while True:
        if games is not None:
            try:
                if control.recv(1) != GAME or not games:
                    return  # the harness hung up (a plain worker has one game)
            except OSError:
                return
            game = games.pop()
        else:
            try:
                if sealer is not None:
                    sealer.serve_until(control.fileno())
                word, fds, _, _ = socket.recv_fds(control, 1, 1)
                if word == SEAL and sealer is not None:  # a game process loaded its strategy: seal it now
                    pid = int(receive_message(control, time.monotonic() + LOAD_LIMIT, 32))
                    send_message(control, SEALED if sealer.arm(pid) else b"not sealed")
                    continue
            except (OSError, EOFError, ValueError):
                return
            if not fds:
                return  # the harness hung up
            game = socket.socket(fileno=fds[0])
        if not fork_server:  # one plain process: it imports once, and is killed and restarted after a timeout
            if choose is None:
                _game_walls(walls)
                choose = _loaded(game, request, payload, tail, walls, keep=[control])
                if choose is None:
                    return
            else:
                send_message(game, json.dumps({"ok": True}).encode())
            _play(game, choose, rules, tail)
            game.close()
            continue
        report = socket.socketpair() if sealer is not None else None
        child = os.fork()
        if child == 0:
            try:
                os.setpgid(0, 0)  # its own group: kill(0, ...) cannot reach the template
                die_with(template)
                _own_stdio()
                if report is not None and program is not None:
                    control.detach()  # closed below, with everything else it inherited
                    report[0].detach()
                    game = _only_the_game(game, report[1])
                    _game_walls(walls, (program, report[1]), game_program)
                else:
                    control.close()
                    _game_walls(walls, allow_list=game_program)
                choose = _loaded(game, request, payload, tail, walls)
                if choose is not None:
                    _play(game, choose, rules, tail)
            finally:
                os._exit(0)
        if report is not None and sealer is not None:
            report[1].close()
            sealer.adopt(child, report[0], _SEAL_HANDOVER)  # none: the harness hears "not sealed" and stops it
            report[0].close()
        send_message(control, str(child).encode())  # the harness stops it between rounds
        game.close()


def _own_stdio() -> None:
    """A game process's own ``/dev/null`` on 0-2, before any student code runs.  The template's is one open
    description shared by every game process it forks, and its status flags (``F_SETFL``: ``O_APPEND``,
    ``O_NONBLOCK``, ``O_NOATIME``) are state of that description: a sealed game process could set them from the
    roll it was dealt and the next one read them while importing, unsealed, and leave a mark for a later run.
    Opened read-only where the walls refuse more (writes to 1 and 2 then fail, as nothing should write there);
    closed where even that is refused."""
    for flags in (os.O_RDWR, os.O_RDONLY):
        try:
            null = os.open(os.devnull, flags)
        except OSError:
            continue
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        if null > 2:
            os.close(null)
        return
    for fd in (0, 1, 2):
        try:
            os.close(fd)
        except OSError:
            pass


def _quiet_stdio() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _supervise(control_fd: int, harness: int) -> None:
    """The supervisor: fork the template, tell the harness its pid, and clean up when the harness goes."""
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children and adopted orphans are reaped by the kernel
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the harness died: clean up, then exit
    supervisor = os.getpid()
    if os.getppid() != harness:
        return
    template = os.fork()
    if template == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.setpgid(0, 0)  # its own group, away from the supervisor's
            die_with(supervisor)
            _quiet_stdio()
            _template(socket.socket(fileno=control_fd), fork_server=True)
        finally:
            os._exit(0)
    os.close(control_fd)
    try:
        os.write(1, f"{template}\n".encode())
        while os.read(0, 1 << 12):  # until the harness closes the pipe or dies
            pass
    finally:
        sweep(supervisor)



def _connect_portably(address: str) -> tuple[socket.socket, socket.socket]:
    """A portable start's two connections to the harness at ``HOST:PORT``, each opened with the token from stdin."""
    token = bytes.fromhex(sys.stdin.readline().strip())
    host, _, port = address.rpartition(":")
    connections = []
    for role in (b"C", b"G"):
        connection = socket.create_connection((host, int(port)), timeout=LOAD_LIMIT)
        connection.settimeout(None)
        connection.sendall(token + role)
        connections.append(connection)
    return connections[0], connections[1]


def main() -> None:
    """``python -m amoeboid_edu.sandbox.worker CONTROL_FD HARNESS_PID fork|plain`` (a supervisor or a plain worker),
    or ``python -m amoeboid_edu.sandbox.worker HOST:PORT HARNESS_PID portable`` (a plain worker started portably)."""
    # The worker starts in "/" (see Sandbox._start): never on its import path, where the walls would open it all.
    sys.path[:] = [entry for entry in sys.path if entry and os.path.realpath(entry) != os.path.realpath(os.sep)]
    hold_out_missing()  # before any student's folder joins the path: no hand-in stands in for a missing package
    limit_resources()
    mode = sys.argv[3]
    if mode == "portable":
        control, game = _connect_portably(sys.argv[1])
        _quiet_stdio()
        _template(control, fork_server=False, games=[game])
        return
    control_fd, harness = int(sys.argv[1]), int(sys.argv[2])
    if mode == "fork":
        _supervise(control_fd, harness)
    else:
        _quiet_stdio()
        _template(socket.socket(fileno=control_fd), fork_server=False)


if __name__ == "__main__":
    main()
