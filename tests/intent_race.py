"""Two intents made on one board version, carried out at once on two threads, as ipykernel 7 may do."""

from __future__ import annotations

import threading


def race(widget, step: str, first: dict, second: dict) -> tuple[bool, bool]:
    """Send ``first`` on one thread and stop it half-way (in ``widget.<step>``, after its version check), send
    ``second`` on another, then let the first finish; the two ``handle_intent`` results.

    With the widget's lock the second waits and is then refused as made on an older board; without it the second is
    carried out at once, on the version the first is changing, and both say True.
    """
    inside, release, results = threading.Event(), threading.Event(), {}
    original = getattr(widget, step)

    def slow(*args):
        if not inside.is_set():
            inside.set()
            release.wait(10)
        return original(*args)

    setattr(widget, step, slow)

    def send(name: str, intent: dict) -> None:
        results[name] = widget.handle_intent(intent)

    one = threading.Thread(target=send, args=("first", first))
    one.start()
    assert inside.wait(10), "the first intent never reached its step"
    two = threading.Thread(target=send, args=("second", second))
    two.start()
    two.join(0.5)  # without a lock the second is done by now
    release.set()
    one.join(10)
    two.join(10)
    return results["first"], results["second"]
