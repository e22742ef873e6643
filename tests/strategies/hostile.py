"""Strategies that try to break or fool the lab; each must forfeit with the right reason, and the run go on.

Imported by reference in the worker (this folder is on the test process's sys.path, which the lab passes on).
"""

import gc
import os
import random
import signal
import sys

from student import wander

from amoeboid_edu import Amoeba, legal_turns


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
    own = {id(generator) for generator in GIVEN} | {id(random._inst)}
    found = [obj for obj in gc.get_objects() if isinstance(obj, random.Random) and id(obj) not in own]
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
