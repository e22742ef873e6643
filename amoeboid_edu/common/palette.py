"""The course's one palette: the board's SVG, the charts and the board's CSS variables all take their colours here.

Players are Okabe-Ito (colour-blind safe): A blue, B orange, legal targets bluish green; A's text on a dark
theme is Okabe-Ito's sky blue (the discs keep their blue).  A review's classes go yellow, orange, red with
the size of the mistake.  It imports nothing of Amoeboid's, so every layer and the namesakes may use it.

>>> PLAYERS["A"], CLASSES["blunder"]
('#0072B2', '#D02020')
>>> ".amoeboid-board {" in css_variables() and "--amb-a: #0072B2;" in css_variables()
True
"""

from __future__ import annotations

PLAYERS = {"A": "#0072B2", "B": "#E69F00"}
"""A's and B's colour (discs, outlines, the review's curve, A's and B's names in text)."""
A_ON_DARK = "#56B4E9"
"""A's colour for text on the dark theme (Okabe-Ito's sky blue): the disc blue is too dark to read there."""
NEUTRAL = "#8A8A8A"
"""A neutral amoeba's outline, board lines, the dice's part of a swing."""
TARGET = "#009E73"
"""Legal destinations and the last move's arrow."""
HINT = "#2E9D4A"
"""The coach's hint arrows."""
HIGHLIGHT = "#f5c518"
"""A highlighted cell on a static picture."""
STRIP = "#3d3d3d"
"""The static picture's status strip (white text on it reads on a light and a dark page alike)."""
CLASSES = {"inaccuracy": "#E0B000", "mistake": "#E07000", "blunder": "#D02020"}
"""A review's classes that mark a turn, from the smallest drop to the largest."""


def css_variables() -> str:
    """The palette as the board's CSS custom properties (``--amb-a``, ``--amb-class-mistake``, ...)."""
    names = {
        "a": PLAYERS["A"], "b": PLAYERS["B"], "a-on-dark": A_ON_DARK, "target": TARGET, "hint": HINT,
        "neutral-ring": NEUTRAL, **{f"class-{name}": colour for name, colour in CLASSES.items()},
    }
    lines = "".join(f"  --amb-{name}: {colour};\n" for name, colour in names.items())
    return ".amoeboid-board {\n" + lines + "}\n"


__all__ = ["A_ON_DARK", "CLASSES", "HIGHLIGHT", "HINT", "NEUTRAL", "PLAYERS", "STRIP", "TARGET",
           "css_variables"]
