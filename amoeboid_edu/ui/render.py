"""The one drawing of a position, as SVG: the static picture a notebook shows and the clickable board's picture.

Each amoeba is a disc whose *area* is proportional to its size, split into A's share and B's share like a
pie; its outline is the owner's colour (thick), and a neutral amoeba has a dashed grey outline.  Colours
come from :mod:`amoeboid_edu.common.palette` (Okabe-Ito: A blue, B orange).  The output is a pure function of
its arguments, so notebook outputs reproduce exactly.

:func:`position_svg` is the static picture.  JupyterLab shows it as an image, which cannot see the page's
theme, so it reads on white and on dark backgrounds alike: translucent grey squares, white ``(a,b)``
labels with a dark outline inside the discs, and the status line in white on its own dark strip.  Text
is at least 14 px.

:func:`board_svg` is the same drawing for the clickable board (``widgets/board.js`` only shows it): every
cell is a ``<g data-cell="b2">`` whose classes say how it is highlighted (``amb-selectable``,
``amb-target``, ...), so ``widgets/board.css`` styles it for the page's theme, and the script finds the
clicked cell and moves the keyboard cursor by toggling a class.  The last move's arrow and the coach's
hint arrows are drawn here too.  :func:`review_chart_svg` draws a review's win-chance curve, the one
drawing of it: for the board, and as a notebook's picture (:meth:`amoeboid_edu.theory.coach.Review.chart`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from html import escape, unescape
from typing import Any

from ..common import palette as _palette
from ..engine.rules import Amoeba, Position

COLOURS = {"A": _palette.PLAYERS["A"], "B": _palette.PLAYERS["B"], "neutral": _palette.NEUTRAL}
CELL = 96  # pixels per grid cell: a 3x3 board is ~300 px wide, readable on a projector
GRAPH_LABEL_ROOM = 24  # pixels outside a graph's discs for the node names
STATUS_ROOM = 30  # the static picture's status strip under the board


def _wedge(cx: float, cy: float, r: float, fraction: float, colour: str, cls: str = "") -> str:
    """A pie slice of ``fraction`` of the disc, clockwise from 12 o'clock."""
    klass = f' class="{cls}"' if cls else ""
    if fraction >= 1:
        return f'<circle{klass} cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}"/>'
    angle = 2 * math.pi * fraction
    x, y = cx + r * math.sin(angle), cy - r * math.cos(angle)
    large = 1 if fraction > 0.5 else 0
    return (
        f'<path{klass} d="M{cx:.1f},{cy:.1f} L{cx:.1f},{cy - r:.1f} A{r:.1f},{r:.1f} 0 {large} 1 {x:.1f},{y:.1f} Z"'
        f' fill="{colour}"/>'
    )


def _layout(position: Position) -> list[tuple[float, float]]:
    board = position.board
    if board.is_grid:
        cols = board.cols or 1
        return [((i % cols + 0.5) * CELL, (i // cols + 0.5) * CELL) for i in range(len(board))]
    # a graph: nodes on a circle, in board order (deterministic, good enough for small graphs), with room
    # around it for the names, which sit outside the discs
    n = len(board)
    radius = max(CELL, n * CELL / (2 * math.pi))
    centre = radius + CELL / 2 + GRAPH_LABEL_ROOM
    return [
        (centre + radius * math.sin(2 * math.pi * i / n), centre - radius * math.cos(2 * math.pi * i / n))
        for i in range(n)
    ]


def _size(position: Position) -> tuple[int, int]:
    board = position.board
    if board.is_grid:
        return (board.cols or 1) * CELL, (board.rows or 1) * CELL
    side = int(2 * (CELL / 2 + GRAPH_LABEL_ROOM) + 2 * max(CELL, len(board) * CELL / (2 * math.pi)))
    return side, side


def _amoeba(cx: float, cy: float, cell: Amoeba, largest: int, live: bool) -> list[str]:
    """The disc (A's and B's shares), its owner's ring and its ``(a,b)`` label (with CSS classes when ``live``)."""
    # room for the label inside; on the clickable board the largest disc leaves the cell's name in its corner free
    r = max(CELL * 0.24, CELL * (0.36 if live else 0.42) * math.sqrt(cell.size / largest))
    parts = [_wedge(cx, cy, r, 1.0, COLOURS["B"], "amb-b" if live else "") if cell.b else ""]
    if cell.a:
        parts.append(_wedge(cx, cy, r, cell.a / cell.size, COLOURS["A"], "amb-a" if live else ""))
    owner = cell.owner
    stroke = COLOURS[owner] if owner else COLOURS["neutral"]
    ring = ' class="amb-ring ' + {"A": "amb-own-a", "B": "amb-own-b", None: "amb-neutral"}[owner] + '"' if live else ""
    dash = ' stroke-dasharray="4 3"' if owner is None else ""
    parts.append(
        f'<circle{ring} cx="{cx:.1f}" cy="{cy:.1f}" r="{r + 3:.1f}" fill="none" stroke="{stroke}" '
        f'stroke-width="3"{dash}/>'
    )
    label = f"({cell.a},{cell.b})"
    font = min(20.0, 2 * r / (0.62 * len(label)))  # the label fits inside the disc
    label_class = ' class="amb-label"' if live else ""
    parts.append(
        f'<text{label_class} x="{cx:.1f}" y="{cy + font * 0.35:.1f}" font-size="{font:.1f}" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff" stroke="#1a1a1a" stroke-width="3" paint-order="stroke">{label}</text>'
    )
    return parts


def _arrow(x1: float, y1: float, x2: float, y2: float, cls: str, start: float, end: float) -> str:
    """A line with the board's arrowhead, from ``start`` to ``end`` of the way between two centres."""
    a = (x1 + (x2 - x1) * start, y1 + (y2 - y1) * start)
    b = (x1 + (x2 - x1) * end, y1 + (y2 - y1) * end)
    return (
        f'<line class="{cls}" x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
        f'stroke="{_palette.TARGET}" stroke-width="6" stroke-linecap="round" marker-end="url(#amb-head)"/>'
    )


def _hints(centres: Mapping[str, tuple[float, float]], hints: Sequence[Mapping[str, Any]]) -> list[str]:
    """The coach's hints, numbered 1..: an arrow from source to destination, or a ring on the grow for a pass."""
    parts = []
    for k, hint in enumerate(hints):
        group = f'<g class="amb-hint amb-hint-{k + 1}">'
        if not hint.get("src") or not hint.get("dst"):
            cx, cy = centres[hint["grow"]]
            parts.append(
                f'{group}<circle class="amb-hint-ring" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL * 0.42:.1f}"/>'
                f'<text class="amb-hint-number" x="{cx + CELL * 0.3:.1f}" y="{cy - CELL * 0.25:.1f}">{k + 1}</text></g>'
            )
            continue
        (x1, y1), (x2, y2) = centres[hint["src"]], centres[hint["dst"]]
        # arrows between the same two cells (other counts) sit side by side, apart across their direction
        twin = sum(1 for h in hints[:k] if h.get("src") == hint["src"] and h.get("dst") == hint["dst"])
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        px, py = -(y2 - y1) / length, (x2 - x1) / length
        ox, oy = px * twin * 19, py * twin * 19
        dx, dy = (x2 - x1) * 0.2, (y2 - y1) * 0.2
        lx, ly = (x1 + x2) / 2 + ox + px * 14 + 5, (y1 + y2) / 2 + oy + py * 14 + 5
        parts.append(
            f'{group}<line class="amb-hint-arrow" x1="{x1 + dx + ox:.1f}" y1="{y1 + dy + oy:.1f}" '
            f'x2="{x2 - dx + ox:.1f}" y2="{y2 - dy + oy:.1f}" marker-end="url(#amb-head)"/>'
            f'<text class="amb-hint-number" x="{lx:.1f}" y="{ly:.1f}">{k + 1}</text></g>'
        )
    return parts


def _squares(position: Position, centres: list[tuple[float, float]], highlight: tuple[str, ...]) -> list[str]:
    board = position.board
    if not board.is_grid:
        parts = []
        for i, adjacent in enumerate(board.neighbours):
            for j in adjacent:
                if i < j:
                    (x1, y1), (x2, y2) = centres[i], centres[j]
                    parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#bbbbbb"/>')
        return parts
    parts = []
    cols = board.cols or 1
    for i, (cx, cy) in enumerate(centres):
        lit = board.names[i] in highlight
        fill = _palette.HIGHLIGHT if lit else "#9a9a9a"
        opacity = 0.45 if lit else 0.12 + 0.06 * ((i // cols + i) % 2)
        parts.append(
            f'<rect x="{cx - CELL / 2:.0f}" y="{cy - CELL / 2:.0f}" width="{CELL}" height="{CELL}" '
            f'fill="{fill}" fill-opacity="{opacity:.2f}" stroke="#8a8a8a" stroke-opacity="0.6"/>'
        )
    return parts


def position_svg(position: Position, *, highlight: tuple[str, ...] = ()) -> str:
    """The position as an SVG document (cells, amoebae, ``(a,b)`` labels, side to move): the static picture."""
    board = position.board
    centres = _layout(position)
    width, height = _size(position)
    largest = max((cell.size for cell in position.cells if cell is not None), default=1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + STATUS_ROOM}" width="{width}" '
        f'height="{height + STATUS_ROOM}" font-family="sans-serif" role="img">',
        f"<title>{escape(str(position))}</title>",
        *_squares(position, centres, highlight),
    ]
    middle = width / 2
    for name, (cx, cy), cell in zip(board.names, centres, position.cells):
        if board.is_grid:
            x, y, anchor = cx - CELL / 2 + 4, cy - CELL / 2 + 15, "start"
        else:  # outside the disc, away from the circle's centre
            away = math.hypot(cx - middle, cy - middle) or 1.0
            reach = CELL / 2 + GRAPH_LABEL_ROOM / 2
            x, y, anchor = cx + (cx - middle) / away * reach, cy + (cy - middle) / away * reach + 5, "middle"
        parts.append(
            f'<text x="{x:.0f}" y="{y:.0f}" font-size="14" fill="#8a8a8a" text-anchor="{anchor}">{name}</text>'
        )
        if cell is None:
            if not board.is_grid:
                parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#bbbbbb"/>')
            continue
        parts.extend(_amoeba(cx, cy, cell, largest, live=False))
    status = f"{position.to_move} to move" if not position.is_over else f"result: {position.result}"
    parts.append(f'<rect x="0" y="{height + 2}" width="{width}" height="26" rx="4" fill="{_palette.STRIP}"/>')
    parts.append(
        f'<text x="6" y="{height + 20}" font-size="15" fill="#ffffff">{status} · δ = {position.delta} · '
        f"Δ = {position.Delta}</text>"
    )
    parts.append("</svg>")
    return "".join(part for part in parts if part)


ARROW_HEAD = (
    '<marker id="amb-head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="5" markerHeight="5" orient="auto">'
    f'<path class="amb-arrowhead" d="M0,0 L10,5 L0,10 z" fill="{_palette.TARGET}"/></marker>'
)


def board_svg(
    position: Position,
    *,
    marks: Mapping[str, str] | None = None,
    arrow: Sequence[str] | None = None,
    hints: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The clickable board's picture of a grid position: a ``<g data-cell>`` per cell with its ``marks`` as CSS
    classes (e.g. ``{"b2": "amb-selectable amb-grow"}``), an ``arrow`` ``[src, dst]`` for the last move, and the
    coach's ``hints`` (``coach.Hint.as_dict()``) as numbered arrows.

    >>> from amoeboid_edu import Position
    >>> svg = board_svg(Position.parse("(2,0) . / . (0,1) A"), marks={"a1": "amb-selectable"})
    >>> '<g class="amb-cell amb-selectable" data-cell="a1" data-amoeba="(2,0)"' in svg
    True
    """
    board = position.board
    if not board.is_grid:
        raise ValueError("the clickable board draws grid boards; show a graph position with its static SVG")
    marks = marks or {}
    cols = board.cols or 1
    centres = _layout(position)
    width, height = _size(position)
    largest = max((cell.size for cell in position.cells if cell is not None), default=1)
    cells = []
    for i, (name, (cx, cy), cell) in enumerate(zip(board.names, centres, position.cells)):
        x, y = cx - CELL / 2, cy - CELL / 2
        shade = " amb-shaded" if (i // cols + i) % 2 else ""
        parts = [
            f'<rect class="amb-square" x="{x:.0f}" y="{y:.0f}" width="{CELL}" height="{CELL}" fill="#9a9a9a" '
            f'fill-opacity="{0.12 + 0.06 * ((i // cols + i) % 2):.2f}" stroke="#8a8a8a" stroke-opacity="0.6"/>',
            f'<rect class="amb-mark" x="{x + 4:.0f}" y="{y + 4:.0f}" width="{CELL - 8}" height="{CELL - 8}" rx="6" '
            'fill="none"/>',
        ]
        if cell is not None:
            parts.extend(_amoeba(cx, cy, cell, largest, live=True))
        parts.append(
            f'<rect class="amb-cursor" x="{x + 2:.0f}" y="{y + 2:.0f}" width="{CELL - 4}" height="{CELL - 4}" rx="8" '
            'fill="none"/>'
        )
        amoeba = "." if cell is None else f"({cell.a},{cell.b})"
        label = f"{name} {amoeba}" if cell is not None else f"{name} empty"
        classes = " ".join(f"amb-cell{shade} {marks.get(name, '')}".split())
        cells.append(
            f'<g class="{classes}" data-cell="{name}" data-amoeba="{amoeba}" role="gridcell" aria-label="{label}">'
            + "".join(parts) + "</g>"
        )
    named = dict(zip(board.names, centres))
    if arrow and arrow[0] and arrow[1]:  # from a quarter of the way: the head stops short of the label
        (x1, y1), (x2, y2) = named[arrow[0]], named[arrow[1]]
        cells.append(_arrow(x1, y1, x2, y2, "amb-arrow", 0.25, 0.5))
    cells.extend(_hints(named, hints))
    # cell names last, over a diagonal arrow's ends; clicks go through to the cell
    names = "".join(
        f'<text class="amb-name{" amb-last-grow" if "amb-last-grow" in marks.get(name, "") else ""}" '
        f'x="{cx - CELL / 2 + 5:.0f}" y="{cy - CELL / 2 + 17:.0f}" font-size="16" fill="#8a8a8a">{name}</text>'
        for name, (cx, cy) in named.items()
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="amb-svg" style="--amb-cols: {board.cols}" '
        f'viewBox="0 0 {width} {height}" preserveAspectRatio="xMidYMin meet" font-family="sans-serif" role="grid" '
        f'aria-label="board {escape(str(position))}"><defs>{ARROW_HEAD}</defs>{"".join(cells)}'
        f'<g class="amb-names" pointer-events="none">{names}</g></svg>'
    )


class Svg(str):
    """SVG text that a notebook shows as a picture (python-chess's ``SvgWrapper``): the text itself is the drawing;
    its repr (a notebook's plain-text view) names the picture by its label rather than printing the text."""

    def _repr_svg_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        label = re.search(r'aria-label="([^"]*)"', self[:2000])
        return f"<SVG picture: {unescape(label[1]) if label else 'unlabelled'}>"


REVIEW_LEGEND = (("amb-review-dice", "the dice's swing"), ("amb-review-choice", "the choice's swing"),
                 ("amb-review-horizon", "the horizon"))
"""The review chart's three kinds of step, as the legend under a notebook's chart names them."""
_REVIEW_STYLE = {
    "amb-review-half": f'stroke="{_palette.NEUTRAL}" stroke-dasharray="4 4"',
    "amb-review-dice": f'stroke="{_palette.NEUTRAL}" stroke-width="2" stroke-dasharray="3 3"',
    "amb-review-choice": f'stroke="{_palette.PLAYERS["A"]}" stroke-width="2.5"',
    "amb-review-horizon": f'stroke="{_palette.PLAYERS["A"]}" stroke-width="1.5" stroke-dasharray="1 3"',
}
"""Each line's own colour and dashes, so the chart reads as a picture too; on the board ``widgets/board.css`` styles
the same classes for the page's theme (a style sheet wins over these attributes)."""


REVIEW_TICK_PX = 30
"""The least room, in the review chart's pixels, between two turn labels of its axis (two digits at 14 px)."""


def review_ticks(turns: int, room: float) -> list[int]:
    """The turns a review chart of ``turns`` turns, ``room`` pixels wide, labels on its axis: every turn when there
    is room, else every 2nd, 5th, 10th, 20th... (the labelled turns 2, 4, 6... or 5, 10, 15...), so that a class can
    find any turn by counting from a label."""
    if turns < 1:
        return []
    step = next(step for scale in (1, 10, 100, 1000) for step in (scale, 2 * scale, 5 * scale)
                if room / turns * step >= REVIEW_TICK_PX or step >= turns)
    return list(range(step if step > 1 else 1, turns + 1, step))


def review_chart_svg(rows: Sequence[Mapping[str, Any]], picked: int = -1, *, title: str = "",
                     legend: bool = False) -> Svg:
    """A review's win-chance chart, the one drawing of it: A's win chance at the start of every turn, each step
    split into the dice's swing (dashed grey), the choice's (solid) and the estimate's horizon (dotted); a dot per
    turn (big and in the class's colour at an inaccuracy, a mistake or a blunder), each a ``data-ply`` the board
    lets you click, the turn ``picked`` ringed.

    ``rows`` are the review frame's records (``turn``, ``A_before``, ``A_after_roll``, ``A_after``, ``A_next``,
    ``class``, ``player``, ``played``, ``best``).  The board shows it as it is (its page gives the title and the
    legend, and sizes it); a notebook's picture (:meth:`amoeboid_edu.theory.coach.Review.chart`) gets ``title``
    above it and, with ``legend``, what the lines and the dots mean below it, and a size of its own.
    """
    width, plot, left, top = 560, 200, 52, 12 + (28 if title else 0)
    height = top - 12 + plot + (52 if legend else 0)
    n = max(1, len(rows))

    def x(t: float) -> float:
        return left + t / n * (width - left - 12)

    def y(p: float) -> float:
        return top + (1 - p) * (plot - 12 - 24)

    def line(cls: str, x1: float, y1: float, x2: float, y2: float) -> str:
        return (f'<line class="{cls}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'{_REVIEW_STYLE[cls]}/>')

    def text(x: float, y: float, words: str, anchor: str = "start", cls: str = "amb-review-axis") -> str:
        return (f'<text class="{cls}" x="{x:.0f}" y="{y:.1f}" text-anchor="{anchor}" font-size="14" '
                f'fill="{_palette.NEUTRAL}">{escape(words)}</text>')

    below = y(0.0) + 20  # the turn labels' baseline
    parts = [
        line("amb-review-half", left, y(0.5), width - 12, y(0.5)),
        *(text(left - 6, y(p) + 5, f"{p:.0%}", "end") for p in (1.0, 0.5, 0.0)),
        text(left - 12, below, "turn", "end"),  # clear of the first turn's label, centred on the axis's start
    ]
    for turn in review_ticks(len(rows), width - left - 12):  # at the start of each labelled turn
        parts += [f'<line class="amb-review-tick" x1="{x(turn - 1):.1f}" y1="{y(0.0) + 2:.1f}" x2="{x(turn - 1):.1f}" '
                  f'y2="{y(0.0) + 6:.1f}" stroke="{_palette.NEUTRAL}"/>', text(x(turn - 1), below, str(turn), "middle")]
    if title:
        parts.append(f'<text class="amb-review-heading" x="{left}" y="20" font-size="16" font-weight="bold" '
                     f'fill="{_palette.NEUTRAL}">{escape(title)}</text>')
    for i, row in enumerate(rows):
        middle = x(i + 0.5)
        parts.append(line("amb-review-dice", x(i), y(row["A_before"]), middle, y(row["A_after_roll"])))
        parts.append(line("amb-review-choice", middle, y(row["A_after_roll"]), x(i + 1), y(row["A_after"])))
        parts.append(line("amb-review-horizon", x(i + 1), y(row["A_after"]), x(i + 1), y(row["A_next"])))
    for i, row in enumerate(rows):
        marked = row["class"] in _palette.CLASSES
        tip = f"turn {row['turn']} {row['player']}: {row['played']} ({row['class']})"
        tip += f"; better: {row['best']}" if marked else ""
        classes = f"amb-review-point amb-class-{row['class']}" + (" amb-picked" if row["turn"] == picked else "")
        fill = _palette.CLASSES.get(row["class"], _palette.PLAYERS["A"])
        ring = f' stroke="{_palette.NEUTRAL}" stroke-width="3"' if row["turn"] == picked else ""
        parts.append(
            f'<circle class="{classes}" data-ply="{row["turn"]}" cx="{x(i + 1):.1f}" cy="{y(row["A_next"]):.1f}" '
            f'r="{7 if marked else 4}" fill="{fill}"{ring}><title>{escape(tip)}</title></circle>'
        )
    if legend:
        below = top - 12 + plot + 14
        for k, (cls, words) in enumerate(REVIEW_LEGEND):
            at = left + (0, 170, 350)[k]
            parts += [line(cls, at, below, at + 24, below), text(at + 30, below + 5, words, cls="amb-review-key")]
        for k, name in enumerate(_palette.CLASSES):
            at = left + (0, 170, 350)[k]
            parts += [f'<circle class="amb-review-key" cx="{at + 12}" cy="{below + 26}" r="7" '
                      f'fill="{_palette.CLASSES[name]}"/>', text(at + 30, below + 31, name, cls="amb-review-key")]
    size = f'width="{width}" height="{height}" ' if title or legend else ""
    label = escape(title) if title else "A's win chance over the game"
    return Svg(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="amb-review-chart" {size}viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" role="img" aria-label="{label}">{"".join(parts)}</svg>'
    )


__all__ = ["Svg", "board_svg", "position_svg", "review_chart_svg", "review_ticks"]
