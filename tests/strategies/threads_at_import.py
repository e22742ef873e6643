"""Starts a thread at import: it would live on in the template (outside every game's walls) and steal games."""

import threading
import time

from student import wander

STARTED = []


def _lurk():
    STARTED.append(True)
    time.sleep(60)


threading.Thread(target=_lurk, daemon=True).start()

plays_fair = wander
