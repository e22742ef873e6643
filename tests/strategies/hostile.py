"""Strategies that try to break or fool the lab; each must forfeit with the right reason, and the run go on.

Imported by reference in the worker (this folder is on the test process's sys.path, which the lab passes on).
"""

import fcntl
import gc
import os
import random
import re
import signal
import socket
import sys
import tempfile
import time

from student import wander

from amoeboid_edu import Amoeba, legal_move_pairs, legal_turns


plays_fair = wander
"""The honest twin of the cheats below (the student's five-line strategy)."""


def raises(position, roll, rng):
    raise RuntimeError("boom")


def loops_forever(position, roll, rng):
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        pass


def returns_garbage(position, roll, rng):
    return 42


def returns_nonsense_text(position, roll, rng):
    return "move my amoeba please"


def returns_illegal(position, roll, rng):
    mine = position.owned()[0]
    return f"{roll} {mine} {mine}-{mine}"  # a cell is not adjacent to itself


def mutates_and_cheats(position, roll, rng):
    """Gives itself a huge amoeba, then returns a turn only legal in that doctored position."""
    mine = position.owned()[0]
    cells = list(position.cells)
    cells[position.board.index[mine]] = Amoeba(500, 0) if position.to_move == "A" else Amoeba(0, 500)
    object.__setattr__(position, "cells", tuple(cells))
    return f"{roll} {mine} {mine}-{position.board.neighbours_of(mine)[0]} 1,1"


def mutates_then_plays(position, roll, rng):
    """Wrecks its copy of the position after choosing: the game must go on exactly as for plays_fair."""
    turn = plays_fair(position, roll, rng)
    object.__setattr__(position, "cells", ())
    object.__setattr__(position, "to_move", "nobody")
    return turn


GIVEN = []


def snoops_for_dice(position, roll, rng):
    """Looks everywhere in its process for the harness's dice; plays on only if it finds them."""
    GIVEN.append(rng)  # every generator the lab ever handed us is ours, not the harness's
    # The worker's stand-in for OS entropy (in ``python -m amoeboid_edu.sandbox.worker``) is seeded from the move too.
    stand_ins = {id(getattr(sys.modules.get(name), "_entropy", None)) for name in ("__main__", "amoeboid_edu.sandbox.worker")}
    own = {id(generator) for generator in GIVEN} | {id(random._inst)} | stand_ins
    found = [obj for obj in gc.get_objects()  # a SystemRandom (NumPy's secrets) has no seed: not the dice
             if isinstance(obj, random.Random) and not isinstance(obj, random.SystemRandom) and id(obj) not in own]
    frame = sys._getframe()
    while frame is not None:
        found += [value for key, value in frame.f_locals.items() if "dice" in key.lower()]
        frame = frame.f_back
    if not found:
        raise LookupError("no dice generator in reach")
    return next(legal_turns(position, roll))


def reseeds_global_random(position, roll, rng):
    """Tries to steer the dice through the random module; must change nothing but its own moves."""
    random.seed(12345)
    random.random = lambda: 0.0
    return plays_fair(position, roll, rng)


def prints_a_megabyte(position, roll, rng):
    print("x" * 1_000_000)
    print("last words before the forfeit")
    raise ValueError("after the megabyte")


def prints_a_megabyte_and_plays(position, roll, rng):
    sys.stdout.write("y" * 1_000_000 + "\n")
    return plays_fair(position, roll, rng)


def hoards_memory(position, roll, rng):
    hoard = bytearray(8 << 30)  # 8 GiB
    return f"{roll} {hoard[0]}"


def exits(position, roll, rng):
    os._exit(3)


def reports_first_roll(position, roll, rng):
    """Forfeits at once, telling which roll it was dealt."""
    raise RuntimeError(f"rolled {roll}")


class Chooser:
    """An object strategy: ``choose`` is what the lab calls."""

    name = "chooser"

    def choose(self, position, roll, rng):
        return plays_fair(position, roll, rng)


# --------------------------------------------------------------------------- attacks on the harness itself
# Each one plays its attack on the first move and then forfeits with a RuntimeError saying what it achieved,
# so the card tells the test (and a teacher) whether a wall held.


def _harness_processes():
    """The processes above this one that run the lab: the parent, and ancestors whose command line names the lab."""
    found, pid = [os.getppid()], os.getppid()
    for _ in range(4):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                pid = int(stat.read().rpartition(b")")[2].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"amoeboid_edu" in cmdline.read():
                    found.append(pid)
        except (OSError, ValueError):
            break
    return found


def _signal_the_harness(signum):
    errors = []
    for pid in dict.fromkeys([*_harness_processes(), os.getsid(0)]):
        if pid in (os.getpid(), 1):
            continue
        try:
            os.kill(pid, signum)
        except OSError as error:
            errors.append(type(error).__name__)
    raise RuntimeError(f"still here: {', '.join(errors) or 'every signal was sent'}")


def kills_its_parents(position, roll, rng):
    _signal_the_harness(signal.SIGKILL)


def stops_its_parents(position, roll, rng):
    _signal_the_harness(signal.SIGSTOP)


def escapes_by_double_fork(position, roll, rng):
    """A daemon that outlives the game: fork, new session, fork again, keep running (at most a minute)."""
    if os.fork() == 0:
        try:
            os.setsid()
        except OSError:
            pass
        if os.fork() == 0:
            end = time.monotonic() + 60
            while time.monotonic() < end:
                time.sleep(0.05)
        os._exit(0)
    os.wait()
    raise RuntimeError("left a daemon behind")


SECRET = re.compile(rb"SECRET-[0-9a-f]{8}")


def _read(path, limit=1 << 20):
    with open(path, "rb") as file:
        return file.read(limit)


def _search_memory(pid, found, errors):
    try:
        maps = _read(f"/proc/{pid}/maps").decode().splitlines()
        with open(f"/proc/{pid}/mem", "rb") as memory:
            budget = 64 << 20
            for line in maps:
                span, perms = line.split()[:2]
                start, end = (int(x, 16) for x in span.split("-"))
                if "rw" not in perms or end - start > budget:
                    continue
                budget -= end - start
                try:
                    memory.seek(start)
                    found += SECRET.findall(memory.read(end - start))
                except (OSError, ValueError, OverflowError):
                    pass
    except OSError as error:
        errors.append(f"mem: {type(error).__name__}")


def steals_the_seed(position, roll, rng):
    """Looks for the contest seed (SECRET-xxxxxxxx) in its environment, its ancestors' /proc and /tmp."""
    found, errors = SECRET.findall(repr(dict(os.environ)).encode()), []
    for pid in _harness_processes():
        for name in ("cmdline", "environ"):
            try:
                found += SECRET.findall(_read(f"/proc/{pid}/{name}"))
            except OSError as error:
                errors.append(f"{name}: {type(error).__name__}")
        _search_memory(pid, found, errors)
    seen = 0
    for folder, _, files in os.walk("/tmp"):
        for name in files:
            seen += 1
            if seen > 5000:
                break
            try:
                found += SECRET.findall(_read(os.path.join(folder, name), 4096))
            except OSError:
                pass
    if found:
        raise RuntimeError(f"stole {found[0].decode()}")
    raise RuntimeError(f"no secret in reach ({'; '.join(dict.fromkeys(errors)) or 'nothing readable'})")


def inspects_its_process(position, roll, rng):
    """Reports its open file descriptors and its environment's names."""
    fds = []
    for fd in range(256):
        try:
            fcntl.fcntl(fd, fcntl.F_GETFD)  # (fstat names no path, but glibc makes it newfstatat, which a seal refuses)
            fds.append(fd)
        except OSError:
            pass
    raise RuntimeError(f"fds {fds} env {sorted(os.environ)}")


def opens_a_socket(position, roll, rng):
    reached = []
    for family, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET, socket.SOCK_DGRAM),
                         (socket.AF_INET6, socket.SOCK_STREAM)):
        try:
            with socket.socket(family, kind) as sock:
                sock.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
                reached.append(f"{family.name}/{kind.name}")
        except OSError as error:
            last = type(error).__name__
    if reached:
        raise RuntimeError(f"reached the network: {reached}")
    raise RuntimeError(f"no network ({last})")


def writes_anywhere(position, roll, rng):
    """Tries to write next to its own source, in /tmp, in $TMPDIR, $HOME and its current folder, and a temporary file.

    A game process may write nothing at all: no disk to fill, no file left behind (found by the red team)."""
    wrote, errors = [], []
    places = [os.path.dirname(os.path.abspath(__file__)), "/tmp", os.environ.get("TMPDIR", "/tmp"),
              os.environ.get("HOME", "/tmp"), os.getcwd()]
    for folder in places:
        path = os.path.join(folder, f"pwned-{os.getpid()}.txt")
        try:
            with open(path, "w") as file:
                file.write("pwned")
            os.remove(path)
            wrote.append(path)
        except OSError as error:
            errors.append(type(error).__name__)
    try:
        with tempfile.TemporaryFile() as scratch:
            scratch.write(b"scratch")
        wrote.append("a temporary file")
    except OSError as error:
        errors.append(type(error).__name__)
    if wrote:
        raise RuntimeError(f"wrote {wrote}")
    raise RuntimeError(f"kept out ({', '.join(errors)})")


def uses_global_random(position, roll, rng):
    """Ignores its rng and uses the module-level random, as students do."""
    grow = random.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(random.choice(pairs))}" if pairs else f"{roll} {grow} -"


def uses_numpy_global(position, roll, rng):
    """Ignores its rng and uses NumPy's global generator."""
    import numpy

    owned = position.owned()
    grow = owned[numpy.random.randint(len(owned))]
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(pairs[numpy.random.randint(len(pairs))])}" if pairs else f"{roll} {grow} -"


def uses_os_entropy(position, roll, rng):
    """Ignores its rng and draws from generators the operating system seeds (``default_rng()`` and friends)."""
    import secrets
    import uuid

    import numpy

    draws = [int(numpy.random.default_rng().integers(1 << 30)), random.Random().randrange(1 << 30),
             random.SystemRandom().randrange(1 << 30), secrets.randbelow(1 << 30),
             int.from_bytes(os.urandom(4), "big"), uuid.uuid4().int]
    owned = position.owned()
    grow = owned[sum(draws) % len(owned)]
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(pairs[sum(draws) // 7 % len(pairs)])}" if pairs else f"{roll} {grow} -"


def uses_raw_entropy(position, roll, rng):
    """Draws from what the red team found still changed between runs: ``os.getrandom``, the C generator
    ``_random.Random()``, ``/dev/urandom``, the raw ``getrandom`` syscall, and the names of its folders."""
    import _random
    import ctypes

    draws = [int.from_bytes(os.getrandom(4), "big"), int(_random.Random().random() * (1 << 30)),
             sum((os.getcwd() + os.environ.get("HOME", "") + os.environ.get("TMPDIR", "")).encode())]
    try:
        with open("/dev/urandom", "rb") as device:
            draws.append(int.from_bytes(device.read(4), "big"))
    except OSError as error:
        draws.append(error.errno)
    buffer = ctypes.create_string_buffer(4)
    libc = ctypes.CDLL(None, use_errno=True)
    draws.append(libc.syscall(318, buffer, 4, 0) if os.uname().machine == "x86_64" else -1)  # SYS_getrandom
    draws.append(int.from_bytes(buffer.raw, "big"))
    owned = position.owned()
    grow = owned[sum(draws) % len(owned)]
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(pairs[sum(draws) // 7 % len(pairs)])}" if pairs else f"{roll} {grow} -"


MOVES_MADE = [0]


def counts_its_moves(position, roll, rng):
    """Keeps state in its module, across moves and games: its choice depends on every move it made before."""
    MOVES_MADE[0] += 1
    owned = position.owned()
    grow = owned[MOVES_MADE[0] % len(owned)]
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(pairs[MOVES_MADE[0] * 7919 % len(pairs)])}" if pairs else f"{roll} {grow} -"


def prints_ansi(position, roll, rng):
    """Terminal control in its output and in its error: clear the screen, retitle the window, turn red."""
    print("\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b[31mred alert\u202e")
    raise ValueError("\x1b[2Jscreen cleared")


def returns_huge(position, roll, rng):
    return f"{roll} {position.owned()[0]} " + "9" * 5_000_000


def raises_huge(position, roll, rng):
    raise ValueError("x" * 5_000_000)


def sleeps_a_minute(position, roll, rng):
    """Asleep in its move for a minute (no CPU): a run to be killed in the middle, whose harness sends nothing
    meanwhile (a harness writing records would die of a broken pipe sooner)."""
    time.sleep(60)
    return plays_fair(position, roll, rng)


MOVES_IN_THIS_PROCESS = [0]


def breaks_in_seat_a(position, roll, rng):
    """Not even hostile: a bug after its 60th move in seat A; fine in seat B.  With the early stop counted in the
    order records arrived, one worker gave a card of 5 games and two workers one of 15 (the red team's streak.py)."""
    MOVES_IN_THIS_PROCESS[0] += 1
    if position.to_move == "A":
        time.sleep(0.02)
        if MOVES_IN_THIS_PROCESS[0] > 60:
            raise ValueError("bug in seat A")
    return next(iter(legal_turns(position, roll)))


def freezes_its_template(position, roll, rng):
    """SIGSTOP to the template (its parent, in its own Landlock domain) through a pipe's owner (F_SETOWN, F_SETSIG,
    O_ASYNC): no later game process could be forked; then it loops (found by the red team)."""
    import fcntl

    read_end, write_end = os.pipe()
    fcntl.fcntl(read_end, fcntl.F_SETOWN, os.getppid())
    fcntl.fcntl(read_end, 10, signal.SIGSTOP)  # F_SETSIG
    fcntl.fcntl(read_end, fcntl.F_SETFL, fcntl.fcntl(read_end, fcntl.F_GETFL) | os.O_ASYNC)
    os.write(write_end, b"x")
    while True:
        pass


def catches_the_interrupt(position, roll, rng):
    """Catches the lab's interrupt at the per-move limit and goes on looping: its game process must be killed."""
    while True:
        try:
            while True:
                pass
        except BaseException:  # noqa: BLE001
            pass


def stuck_in_c_on_a_five(position, roll, rng):
    """Honest, except that a roll of 5 starts a loop inside one C call, where no signal handler runs: the
    interrupt cannot stop it, so its game process is killed, and the harness must tell which move it was."""
    if roll == 5:
        sum(range(10**15))
    return wander(position, roll, rng)


def plays_slowly(position, roll, rng):
    """The honest strategy, a little slow: long enough a run to be interrupted from outside."""
    time.sleep(0.02)
    return plays_fair(position, roll, rng)


SEATS_SEEN = set()


def sees_both_seats(position, roll, rng):
    """Twin games of a dice pair share their dice: a process that plays both seats could learn future rolls."""
    SEATS_SEEN.add(position.to_move)
    if len(SEATS_SEEN) > 1:
        raise RuntimeError("one process saw both seats of a dice pair")
    return plays_fair(position, roll, rng)


ROLLS_BY_MOVE = {}  # the rng's first draw (the same for a pair's move against every opponent) -> the roll seen
KNOWN = [0, 0]


def remembers_rolls_by_move(position, roll, rng):
    """Games of a pair against different opponents once shared their dice: a roll seen against random was the roll
    to come against greedy (found by the red team). It raises once it has known the roll far more than by luck."""
    key = rng.random()
    if key in ROLLS_BY_MOVE:
        KNOWN[0] += 1
        KNOWN[1] += ROLLS_BY_MOVE[key] == roll
        if KNOWN[0] >= 30 and KNOWN[1] > 0.8 * KNOWN[0]:
            raise RuntimeError(f"knew {KNOWN[1]} of {KNOWN[0]} rolls before they were dealt")
    ROLLS_BY_MOVE[key] = roll
    return plays_fair(position, roll, rng)


def raises_from_a_file_it_names(position, roll, rng):
    """The worker says where it raised; the scorer once read that file itself (found by the red team)."""
    exec(compile("raise ValueError('see my line')", "secret-of-the-scorer.txt", "exec"))


def _nasty_function():
    raise ValueError("see my name")


_nasty_function.__code__ = _nasty_function.__code__.replace(co_name="\x1b]0;pwned\x07\u202e" + "B" * 500_000)


def raises_with_a_nasty_name(position, roll, rng):
    """A function name is the worker's word too: escaped and cut like everything else it says."""
    _nasty_function()


# ---- fourth red-team pass: what a strategy can do to the game process's own code (it runs in that interpreter)


def _worker_module():
    """The game process's copy of the worker (``python -m amoeboid_edu.sandbox.worker`` runs it as ``__main__``)."""
    return sys.modules["__main__"]


def blocks_the_alarm_and_thinks(position, roll, rng):
    """Blocks both move timers' signals, then waits 2.4 s: past the wall-clock guard at a 0.2 s limit (2 s), but
    before the harness's kill (3 s); the game process's own timers cannot stop it, the harness's clock must."""
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM, signal.SIGPROF])
    time.sleep(2.4)
    return wander(position, roll, rng)


def _never_read(sock, deadline=None, limit=None):
    time.sleep(3600)


def stops_reading_its_moves(position, roll, rng):
    """Answers once, then replaces the worker's reader by one that never reads: the harness's sends pile up."""
    _worker_module().receive_message = _never_read
    return wander(position, roll, rng)


SPIN_CPU = [0.0]


def _spinning_read(sock, deadline=None, limit=None, _original=[]):  # noqa: B006 - kept across calls on purpose
    if not _original:
        _original.append(_worker_module().receive_message_original)
    sock.setblocking(False)
    while True:
        try:
            message = _original[0](sock)
        except BlockingIOError:
            continue
        sock.setblocking(True)
        return message


def spins_between_its_moves(position, roll, rng):
    """Busy-polls its socket between moves instead of waiting (it slowed everyone else's moves: red team)."""
    worker = _worker_module()
    if not hasattr(worker, "receive_message_original"):
        worker.receive_message_original = worker.receive_message
        worker.receive_message = _spinning_read
    return wander(position, roll, rng)


# ---- the time per move, measured from outside (issue 23)

_CPU_NOW = time.process_time  # the real clock, kept before the strategy replaces the game process's


def lies_about_its_time(position, roll, rng):
    """Replaces the game process's ``time.process_time`` with a clock that stands still, then thinks for 0.15 s
    of CPU time a move: its own measure said "0.0 ms on average" (the fifth red team)."""
    time.process_time = lambda: 0.0
    began = _CPU_NOW()
    while _CPU_NOW() - began < 0.15:
        pass
    return wander(position, roll, rng)


def blocks_its_timers_and_computes(position, roll, rng):
    """Blocks both move timers' signals, then computes for ever: only a clock outside its process can stop it, and
    the harness's wall-clock guard alone let it use ten times the per-move limit."""
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM, signal.SIGPROF])
    while True:
        pass
