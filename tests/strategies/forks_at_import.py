"""A strategy module that starts a daemon when it is imported (it would run for a minute), then plays fair."""

import os
import time

from student import wander

if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    end = time.monotonic() + 60
    while time.monotonic() < end:
        time.sleep(0.05)
    os._exit(0)

plays_fair = wander
