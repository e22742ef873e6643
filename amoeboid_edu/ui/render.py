"""A static SVG drawing of a position: what a notebook shows without JavaScript.

Each amoeba is a disc whose *area* is proportional to its size, split into
A's share and B's share like a pie; its outline is the owner's colour (thick),
and a neutral amoeba has a dashed grey outline.  Colours are Okabe-Ito
(colour-blind safe): A blue, B orange.  The output is a pure function of the
position, so notebook outputs reproduce exactly.

JupyterLab shows an SVG output as an image, which cannot see the page's
theme, so the drawing is made to read on white and on dark backgrounds alike:
translucent grey squares, white ``(a,b)`` labels with a dark outline inside
the discs, and the status line in white on its own dark strip (a light strip
would be a white band on the dark theme).  Text is at least 14 px.
"""

from __future__ import annotations

import math
from html import escape

from ..engine.rules import Position

COLOURS = {"A": "#0072B2", "B": "#E69F00", "neutral": "#8A8A8A"}
CELL = 96  # pixels per grid cell: a 3x3 board is ~300 px wide, readable on a projector
GRAPH_LABEL_ROOM = 24  # pixels outside a graph's discs for the node names


def _wedge(cx: float, cy: float, r: float, fraction: float, colour: str) -> str:
    """A pie slice of ``fraction`` of the disc, clockwise from 12 o'clock."""
    if fraction >= 1:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}"/>'
    angle = 2 * math.pi * fraction
    x, y = cx + r * math.sin(angle), cy - r * math.cos(angle)
    large = 1 if fraction > 0.5 else 0
    return (
        f'<path d="M{cx:.1f},{cy:.1f} L{cx:.1f},{cy - r:.1f} A{r:.1f},{r:.1f} 0 {large} 1 {x:.1f},{y:.1f} Z"'
        f' fill="{colour}"/>'
    )


def _layout(position: Position) -> list[tuple[float, float]]:
    board = position.board
    if board.is_grid:
        return [((i % board.cols + 0.5) * CELL, (i // board.cols + 0.5) * CELL) for i in range(len(board))]
    # a graph: nodes on a circle, in board order (deterministic, good enough for small graphs), with room
    # around it for the names, which sit outside the discs
    n = len(board)
    radius = max(CELL, n * CELL / (2 * math.pi))
    centre = radius + CELL / 2 + GRAPH_LABEL_ROOM
    return [
        (centre + radius * math.sin(2 * math.pi * i / n), centre - radius * math.cos(2 * math.pi * i / n))
        for i in range(n)
    ]


def position_svg(position: Position, *, highlight: tuple[str, ...] = ()) -> str:
    """The position as an SVG document (cells, amoebae, ``(a,b)`` labels, side to move)."""
    board = position.board
    centres = _layout(position)
    if board.is_grid:
        width, height = board.cols * CELL, board.rows * CELL
    else:
        width = height = int(2 * (CELL / 2 + GRAPH_LABEL_ROOM) + 2 * max(CELL, len(board) * CELL / (2 * math.pi)))
    largest = max((cell.size for cell in position.cells if cell is not None), default=1)
    max_r = CELL * 0.42
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + 30}" width="{width}" '
        f'height="{height + 30}" font-family="sans-serif" role="img">',
        f"<title>{escape(str(position))}</title>",
    ]
    if board.is_grid:
        for i, (cx, cy) in enumerate(centres):
            fill = "#f5c518" if board.names[i] in highlight else "#9a9a9a"
            opacity = 0.45 if board.names[i] in highlight else 0.12 + 0.06 * ((i // board.cols + i) % 2)
            parts.append(
                f'<rect x="{cx - CELL / 2:.0f}" y="{cy - CELL / 2:.0f}" width="{CELL}" height="{CELL}" '
                f'fill="{fill}" fill-opacity="{opacity:.2f}" stroke="#8a8a8a" stroke-opacity="0.6"/>'
            )
    else:
        for i, adjacent in enumerate(board.neighbours):
            for j in adjacent:
                if i < j:
                    (x1, y1), (x2, y2) = centres[i], centres[j]
                    parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#bbbbbb"/>')
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
        r = max(CELL * 0.24, max_r * math.sqrt(cell.size / largest))  # room for the label inside
        parts.append(_wedge(cx, cy, r, 1.0, COLOURS["B"]) if cell.b else "")
        if cell.a:
            parts.append(_wedge(cx, cy, r, cell.a / cell.size, COLOURS["A"]))
        owner = cell.owner
        stroke = COLOURS[owner] if owner else COLOURS["neutral"]
        dash = ' stroke-dasharray="4 3"' if owner is None else ""
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r + 3:.1f}" fill="none" stroke="{stroke}" stroke-width="3"{dash}/>'
        )
        label = f"({cell.a},{cell.b})"
        font = min(20.0, 2 * r / (0.62 * len(label)))  # the label fits inside the disc
        parts.append(
            f'<text x="{cx:.1f}" y="{cy + font * 0.35:.1f}" font-size="{font:.1f}" font-weight="bold" '
            f'text-anchor="middle" fill="#ffffff" stroke="#1a1a1a" stroke-width="3" paint-order="stroke">{label}</text>'
        )
    status = f"{position.to_move} to move" if not position.is_over else f"result: {position.result}"
    parts.append(f'<rect x="0" y="{height + 2}" width="{width}" height="26" rx="4" fill="#3d3d3d"/>')
    parts.append(
        f'<text x="6" y="{height + 20}" font-size="15" fill="#ffffff">{status} · δ = {position.delta} · '
        f"Δ = {position.Delta}</text>"
    )
    parts.append("</svg>")
    return "".join(part for part in parts if part)
