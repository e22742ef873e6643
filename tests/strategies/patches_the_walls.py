"""A module that rewrites the worker's wall-building code when imported, then forks during a move.

When the import ran in the template, the next game process was built by the patched code and could fork
and exec while the card said "seccomp" (found by the red team).
"""

import os
import sys

worker = sys.modules.get("__main__")
if worker is not None and hasattr(worker, "_seccomp"):
    worker._seccomp = lambda game: True


def forks_in_a_move(position, roll, rng):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    raise RuntimeError(f"forked process {pid}")
