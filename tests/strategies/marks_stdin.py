"""A strategy that marks its standard input's status flags at import and forfeits when it finds another game
process's mark there (the seventh red team's channel across games): every game process must have its own
``/dev/null``, not the template's description shared by all it forks."""

import fcntl
import os

from student import wander

_flags = fcntl.fcntl(0, fcntl.F_GETFL)
MARKED_BEFORE = bool(_flags & os.O_APPEND)
fcntl.fcntl(0, fcntl.F_SETFL, _flags | os.O_APPEND)


def strategy(position, roll, rng):
    if MARKED_BEFORE:
        raise RuntimeError("another game process's mark on the standard input it shares with this one")
    return wander(position, roll, rng)
