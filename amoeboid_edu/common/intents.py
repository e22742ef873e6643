"""The intent channel every clickable board shares: Python holds the game, the browser sends *intents*.

A board's JavaScript knows no rules.  It shows the view Python publishes and sends back what the
user did -- ``{"kind": "cell", "cell": "b2", "version": 7}`` -- stamped with the ``version`` of the
view it was made on.  :class:`IntentChannel` is the Python half, written once for the Amoeboid board
(:mod:`amoeboid_edu.ui.widget`) and the namesakes' hex boards (:mod:`amoeboid_edu.namesakes.widget`):

- **version check**: an intent made on an older view is refused, so a double click or a click on a
  board that has changed since is never applied to the wrong position;
- **lock**: the check and the change it guards are one step.  With ipykernel 7 the kernel may carry
  out two widget messages at once on two threads (a Review on a subshell while another board is
  clicked), so every intent, and every public method that reads or changes the game, holds the
  board's re-entrant lock (:func:`one_at_a_time`);
- **refusal**: a handler raises :class:`Refused` with one line saying what was wrong and what to do;
  the channel puts it in ``error`` and changes nothing else.  An accepted intent republishes the view
  with a new version and clears ``error``.

It lives in ``common/``, importing nothing of Amoeboid's, because the namesakes may import nothing of
Amoeboid's (import-linter's independence contract) while the Amoeboid board sits in ``ui/``; both import
it from here.

>>> class Counter(IntentChannel):
...     def __init__(self):
...         self.version, self.error, self.count = 0, "", 0
...         self._init_channel()
...     def _intents(self):
...         return {"add": self._add}
...     def _add(self, content):
...         self.count += field(content, "by", int)
...     def _publish(self):
...         self.error = ""
...         self.version += 1
>>> counter = Counter()
>>> counter.handle_intent({"kind": "add", "by": 2, "version": 0}), counter.count, counter.version
(True, 2, 1)
>>> counter.handle_intent({"kind": "add", "by": 2, "version": 0}), counter.error
(False, 'ignored a click made on an older board (version 0, now 1)')
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

Handler = Callable[[dict[str, Any]], None]
Method = TypeVar("Method", bound=Callable[..., Any])


class Refused(ValueError):
    """An intent that cannot be carried out: its message (one line: what was wrong, what to do) is shown on the board."""


def field(content: Mapping[str, Any], key: str, kind: type) -> Any:
    """``content[key]`` if it is exactly of type ``kind`` (``True`` is no ``int`` here), else :class:`Refused`."""
    value = content.get(key)
    if type(value) is not kind:
        raise Refused(f"ignored a malformed {content.get('kind')!r} intent: {key!r} must be {kind.__name__}")
    return value


def one_at_a_time(method: Method) -> Method:
    """Run ``method`` holding the board's lock (see the module's docstring): for a board's public methods."""

    @functools.wraps(method)
    def locked(self: IntentChannel, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked  # type: ignore[return-value]  # the same signature as ``method``


class IntentChannel:
    """The Python half of a board's intent channel (a mixin for an ``anywidget.AnyWidget``).

    A board defines ``version`` (an int trait) and ``error`` (a text trait), calls
    :meth:`_init_channel` in its ``__init__``, and implements :meth:`_intents` (kind -> handler) and
    :meth:`_publish` (redraw the view, clear ``error``, bump ``version``).  :meth:`_refused` may be
    overridden to show a refusal differently.
    """

    version: int
    error: str
    _lock: threading.RLock

    def _init_channel(self) -> None:
        """Make the lock and, on a widget, route the browser's messages to :meth:`handle_intent`."""
        self._lock = threading.RLock()
        on_msg = getattr(self, "on_msg", None)
        if on_msg is not None:
            on_msg(lambda _widget, content, _buffers: self.handle_intent(content))

    def handle_intent(self, content: object) -> bool:
        """Carry out one intent ``{"kind": ..., "version": N, ...}``; False (and ``error`` set) if it was refused."""
        with self._lock:
            try:
                kind, checked = self._checked(content)
                self._intents()[kind](checked)
            except Refused as refusal:
                self._refused(str(refusal))
                return False
            self._publish()
            return True

    def _checked(self, content: object) -> tuple[str, dict[str, Any]]:
        """The intent's kind and body, or :class:`Refused` when it is malformed, stale or of an unknown kind."""
        if not isinstance(content, dict):
            raise Refused(f"ignored a malformed intent: expected an object, got {type(content).__name__}")
        kind, version = content.get("kind"), content.get("version")
        if type(version) is not int:
            raise Refused(f"ignored a malformed {kind!r} intent: it has no board version")
        if version != self.version:
            raise Refused(f"ignored a click made on an older board (version {version}, now {self.version})")
        if not isinstance(kind, str) or kind not in self._intents():
            raise Refused(f"ignored an intent of unknown kind {kind!r}")
        return kind, content

    def _intents(self) -> Mapping[str, Handler]:
        """The intents this board accepts: kind -> handler (which raises :class:`Refused` to refuse)."""
        raise NotImplementedError

    def _publish(self) -> None:
        """Show the new state: redraw the view, clear ``error``, bump ``version``."""
        raise NotImplementedError

    def _refused(self, message: str) -> None:
        """Show a refusal: by default only ``error`` changes (the view and its version stay)."""
        self.error = message


__all__ = ["IntentChannel", "Refused", "field", "one_at_a_time"]
