"""SVG pictures of both namesakes, drawn as hexes: one drawing for notebooks and for the clickable board.

Every cell is a ``<g class="hx-cell" data-cell="NAME">`` so the widget's
JavaScript can find what was clicked; ``marks`` adds classes (``selectable``,
``selected``, ``target``, ``last``) that the widget's CSS highlights.  Colours
are inline, so a static SVG in a notebook looks the same without any CSS.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from html import escape

from . import nakajima, oosterwal

RADIUS = 24.0  # centre to corner of a hex, in SVG units
SQRT3 = math.sqrt(3)
SIDE_FILL = {"w": "#f7f4ea", "b": "#2b2b2b"}
SIDE_STROKE = {"w": "#555555", "b": "#000000"}
PLAYER_FILL = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#9d755d")


def _hexagon(cx: float, cy: float, radius: float, style: str, cls: str = "hx-hex") -> str:
    angles = [math.radians(60 * k - 30) for k in range(6)]
    corners = " ".join(f"{cx + radius * math.cos(a):.1f},{cy + radius * math.sin(a):.1f}" for a in angles)
    return f'<polygon class="{cls}" points="{corners}" style="{style}"/>'


LABEL_SIZE = 11  # SVG units: the board is drawn 1.3 times its units, so a cell's name is about 14 px


def _label(name: str, cx: float, y: float) -> str:
    """A cell's name, drawn over what stands on it, with a light halo so that it reads over pieces too."""
    return (f'<text x="{cx:.1f}" y="{y + 4:.1f}" font-size="{LABEL_SIZE}" text-anchor="middle" fill="#3a3a3a" '
            f'stroke="#ffffff" stroke-width="2.5" stroke-opacity="0.85" paint-order="stroke" '
            f'pointer-events="none">{escape(name)}</text>')


def _frame(cells: list[tuple[str, float, float, str, str]], title: str) -> str:
    """``cells`` are ``(name, cx, cy, classes, inner markup)``; the view box fits them all."""
    xs = [cx for _, cx, _, _, _ in cells] or [0.0]
    ys = [cy for _, _, cy, _, _ in cells] or [0.0]
    pad = RADIUS * 1.2
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    body = "".join(
        f'<g class="hx-cell {classes}" data-cell="{escape(name)}">{inner}</g>' for name, _, _, classes, inner in cells
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hx-board" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width * 1.3:.0f}" height="{height * 1.3:.0f}" font-family="sans-serif">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


# ---------------------------------------------------------------------------- Nakajima


def nakajima_centre(index: int) -> tuple[float, float]:
    q, r = nakajima.POINTS[index]
    return RADIUS * SQRT3 * (q + r / 2), RADIUS * 1.5 * r


def _stack_markup(stack: str, cx: float, cy: float) -> str:
    """Pieces as discs piled upwards, bottom first; kernels carry a gold ring; a count when taller than 1."""
    parts = []
    for level, piece in enumerate(stack[:6]):
        y = cy + 6 - level * 4
        colour = piece.lower()
        parts.append(
            f'<ellipse cx="{cx:.1f}" cy="{y:.1f}" rx="13" ry="6.5" '
            f'fill="{SIDE_FILL[colour]}" stroke="{SIDE_STROKE[colour]}"/>'
        )
        if piece.isupper():
            parts.append(
                f'<ellipse cx="{cx:.1f}" cy="{y:.1f}" rx="7" ry="3.5" fill="none" stroke="#d4a017" stroke-width="2.5"/>'
            )
    if len(stack) > 1:
        top = stack[-1].lower()
        parts.append(
            f'<text x="{cx + 14:.1f}" y="{cy - 8:.1f}" font-size="11" font-weight="bold" '
            f'fill="{SIDE_STROKE[top]}">{len(stack)}</text>'
        )
    return "".join(parts)


def nakajima_svg(position: nakajima.Position, marks: Mapping[str, str] | None = None) -> str:
    """The 37-point hexagon with every stack; ``marks`` maps point names to extra classes."""
    marks = marks or {}
    cells = []
    for index, name in enumerate(nakajima.NAMES):
        cx, cy = nakajima_centre(index)
        inner = _hexagon(cx, cy, RADIUS - 1, "fill:#e8dcc0;stroke:#a08c64;stroke-width:1")
        inner += _stack_markup(position.stacks[index], cx, cy)
        inner += _label(name, cx, cy - 12)
        cells.append((name, cx, cy, marks.get(name, ""), inner))
    counts = nakajima.stack_counts(position)
    controlled = f"white {counts['white']}, black {counts['black']}"
    title = f"Nakajima's Amoeba: {position.to_move} to move; stacks controlled: {controlled}"
    return _frame(cells, title)


# ---------------------------------------------------------------------------- Oosterwal


def oosterwal_centre(cell: oosterwal.Cell) -> tuple[float, float]:
    return RADIUS * SQRT3 / 2 * cell[0], RADIUS * 1.5 * cell[1]


def _pyramid_markup(piece: str, cx: float, cy: float) -> str:
    player, pips = oosterwal.PLAYERS.index(piece[0]), int(piece[1])
    size = 7 + 3 * pips
    points = f"{cx:.1f},{cy - size:.1f} {cx - size:.1f},{cy + size * 0.7:.1f} {cx + size:.1f},{cy + size * 0.7:.1f}"
    return (
        f'<polygon points="{points}" fill="{PLAYER_FILL[player]}" stroke="#222" stroke-width="1"/>'
        f'<text x="{cx:.1f}" y="{cy + size * 0.55:.1f}" font-size="11" text-anchor="middle" fill="#fff" '
        f'font-weight="bold">{escape(piece)}</text>'
    )


def oosterwal_svg(
    position: oosterwal.Position,
    marks: Mapping[str, str] | None = None,
    spots: Iterable[oosterwal.Cell] = (),
    pending: tuple[oosterwal.Cell, str] | None = None,
) -> str:
    """The chips as hexes (empty ones pale), pyramids as triangles; ``spots`` are drawn as dashed candidate chips.

    ``pending`` is a pyramid put down in the middle of a turn (the board shows it before the chip is chosen).
    """
    marks = marks or {}
    cells = []
    for cell, piece in position.chips:
        if pending and cell == pending[0]:
            piece = pending[1]
        name = oosterwal.cell_text(cell)
        cx, cy = oosterwal_centre(cell)
        inner = _hexagon(cx, cy, RADIUS - 1, "fill:#f2efe6;stroke:#8a8a8a;stroke-width:1.2")
        if piece:
            inner += _pyramid_markup(piece, cx, cy)
        inner += _label(name, cx, cy - 12)
        cells.append((name, cx, cy, marks.get(name, ""), inner))
    for cell in spots:
        name = oosterwal.cell_text(cell)
        cx, cy = oosterwal_centre(cell)
        inner = _hexagon(
            cx,
            cy,
            RADIUS - 3,
            "fill:#6a9f58;fill-opacity:0.12;stroke:#6a9f58;stroke-width:1.5;stroke-dasharray:4 3",
            "hx-hex hx-spot",
        )
        cells.append((name, cx, cy, "spot " + marks.get(name, ""), inner))
    scores = ", ".join(f"{oosterwal.PLAYERS[i]} {score}" for i, score in enumerate(position.scores))
    title = f"Oosterwal's Amoeba: {oosterwal.PLAYERS[position.to_move]} to place; scores {scores}"
    return _frame(cells, title)


__all__ = ["nakajima_centre", "nakajima_svg", "oosterwal_centre", "oosterwal_svg"]
