"""A strategy module that takes a second to import, then loops forever on odd rolls (per-move timeouts)."""

import os
import time

time.sleep(1.0)
IMPORTED_IN = os.getpid()


def loops_on_odd_rolls(position, roll, rng):
    if roll % 2:
        while True:
            pass
    raise RuntimeError(f"imported in {IMPORTED_IN}, playing in {os.getpid()}")
