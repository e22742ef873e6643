"""A strategy module that takes 3 s to import, then loops forever (plain Python) on every other move it makes.

On the other moves it raises, saying in which process it was imported and how many moves that import has made:
a move interrupted at the per-move limit must keep the process and its import (issue 14, item 6: a re-import
after every timeout made 16 timed-out games of a 3 s import take 27 s; found again by the red team).
"""

import os
import time

time.sleep(3.0)
IMPORTED_IN = os.getpid()
MOVES = [0]


def loops_every_other_move(position, roll, rng):
    MOVES[0] += 1
    if MOVES[0] % 2:
        while True:
            pass
    raise RuntimeError(f"imported in {IMPORTED_IN}, move {MOVES[0]} of this import")
