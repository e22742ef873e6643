"""What a strategy says, made safe to show: cut to a bounded length, with every character that could act on a
terminal, a spreadsheet or a reader's eye written out visibly.

A student's text (a returned value, an error message, printed output, a file name) reaches the teacher's terminal,
the results CSV and the leaderboard.  :func:`shown` is how the harness shows any of it; :class:`OutputTail` is how a
worker keeps what a strategy prints.  Standard library only: the worker imports it before any wall goes up.
"""

from __future__ import annotations

import collections
import io
import unicodedata

KEEP_LINES = 20
"""Lines of a strategy's printed output kept per move (and per game on the card)."""
LINE_WIDTH = 200
"""Characters kept of each printed line."""
VALUE_WIDTH = 300
"""Characters of a returned value or an error message shown before "… (N more)"."""


INVISIBLE_NAMES = ("VARIATION SELECTOR", "FILLER", "COMBINING GRAPHEME JOINER", "KHMER VOWEL INHERENT",
                   "BRAILLE PATTERN BLANK")
"""Words in the Unicode names of printable characters that show nothing: variation selectors (U+FE0F, and
Mongolian's), the Hangul fillers (U+3164, U+115F, U+1160, U+FFA0), the grapheme joiner, the Khmer inherent vowels
and the blank Braille pattern.  Letters and marks (``Lo``, ``Mn``, ``So``) by category, so they are looked up by
name; everything else invisible is in a category :meth:`str.isprintable` refuses."""


def visible(char: str) -> bool:
    """Whether ``char`` shows as itself: not a control, format (zero-width, bidi), surrogate, private-use,
    unassigned or separator character other than the space (the categories :meth:`str.isprintable` refuses), nor
    a printable character that shows nothing (:data:`INVISIBLE_NAMES`)."""
    if not char.isprintable():
        return False
    if char.isascii() or unicodedata.category(char) not in ("Lo", "Mn", "So"):
        return True
    name = unicodedata.name(char, "")
    return not any(word in name for word in INVISIBLE_NAMES)


def printable(text: str) -> str:
    """``text`` with every character that does not show as itself written as ``\\xNN``/``\\uNNNN``/``\\UNNNNNNNN``.

    Control characters (ANSI escapes) could act on a terminal, bidi overrides reorder what is shown, and invisible
    ones (zero-width, variation selectors, fillers) make two different names look alike on a leaderboard: each is
    written out, so what is shown is what was sent.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(char if visible(char) else char.encode("unicode_escape").decode("ascii") for char in text)


def cut(text: str, width: int = VALUE_WIDTH) -> str:
    """``text`` up to ``width`` characters, then "… (N more)"."""
    return text if len(text) <= width else f"{text[:width]}… ({len(text) - width} more)"


def shown(text: object, width: int = VALUE_WIDTH) -> str:
    """What the harness shows of a worker's text: cut (bounded work), made printable, and cut again.

    The second cut matters: escaping can make each kept character ten long.
    """
    return cut(printable(cut(str(text), width)), width)


def visible_spaces(text: str) -> str:
    """``text`` with each space written ``\\x20`` where a table or a page would hide it: at either end, and beside
    another space (HTML shows a run of spaces as one), so ``alice``, ``alice `` and ``alice  b`` look different."""
    out = []
    for at, char in enumerate(text):
        hidden = char == " " and (at == 0 or at == len(text) - 1 or text[at - 1] == " "
                                  or (at + 1 < len(text) and text[at + 1] == " "))
        out.append("\\x20" if hidden else char)
    return "".join(out)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet cell that it would read as a formula begins (``=HYPERLINK(...)``)."""


def not_a_formula(text: str) -> str:
    """``text`` with a ``'`` in front if a spreadsheet opening the results file would run it as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


class OutputTail(io.TextIOBase):
    """A write-only text stream that keeps the last ``KEEP_LINES`` lines (each cut to ``LINE_WIDTH``).

    Memory stays bounded whatever is printed: a megabyte costs a few hundred characters.
    """

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=KEEP_LINES)
        self.partial = ""
        self.printed = 0
        self.line_count = 0  # lines printed (for the card's "printed N lines"), counted however many are kept

    def reset(self) -> None:
        self.lines.clear()
        self.partial = ""
        self.printed = 0
        self.line_count = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.printed += len(text)
        parts = text.split("\n")
        self.line_count += len(parts) - 1
        if len(parts) > 1:
            self.lines.append((self.partial + parts[0])[:LINE_WIDTH])
            for line in parts[1:-1][-KEEP_LINES:]:
                self.lines.append(line[:LINE_WIDTH])
            self.partial = ""
        self.partial = (self.partial + parts[-1][:LINE_WIDTH])[:LINE_WIDTH]
        return len(text)

    def tail(self) -> list[str]:
        return list(self.lines) + ([self.partial] if self.partial else [])

