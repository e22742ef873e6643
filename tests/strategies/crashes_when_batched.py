"""Kills its own game process on the second move of every batched round and answers properly when asked one by one:
its moves were asked again for free, and it re-imported at will (found by the red team). Hooks the worker's reader
at import, to tell the two kinds of round apart."""

import os
import sys

from student import wander

WORKER = sys.modules["__main__"]  # the game process's copy of the worker (python -m amoeboid_edu.sandbox.worker)
STATE = {"careful": False, "moves": 0, "size": 0}
_read = WORKER.receive_message


def _reads_its_rounds(sock, deadline=None, limit=None):
    data = _read(sock, deadline, limit)
    header, *moves = data.decode().split("\n")
    STATE.update(careful=header.endswith(" 1"), moves=0, size=len(moves))
    return data


WORKER.receive_message = _reads_its_rounds


def strategy(position, roll, rng):
    STATE["moves"] += 1
    if STATE["moves"] == 2 and not STATE["careful"] and STATE["size"] >= 3:
        WORKER._clock.outbox.flush()
        os._exit(0)
    return wander(position, roll, rng)
