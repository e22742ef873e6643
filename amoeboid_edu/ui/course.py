"""What the lessons share beyond the package's modules: a chart that follows the game on a board, and the demo layout.

A live chart must not use ``ipywidgets.Output``: output captured from a turn
callback travels as ordinary display messages, which nbval records as outputs
of whatever cell is running and nbclient files under the widget instead, so a
lesson would never replay exactly.  :class:`LiveChart` is an ``HTML`` widget
whose *value* is the chart drawn as inline SVG by vl-convert (offline, no
JavaScript, in the theme's text colour), replaced whenever the board's game changes.
"""

from __future__ import annotations

from html import escape
from typing import Callable

import altair as alt
import ipywidgets as widgets

from .charts import chart_html, has_svg_renderer
from ..engine.game import Game
from .render import position_svg

WAITING = "<p><em>Play a turn on the board: the chart appears here.</em></p>"
WAITING_FOR_NEXT = "<p><em>Press Next on the board: the chart appears here.</em></p>"  # a scripted line
NEEDS_VL_CONVERT = ("<p><em>This live chart is drawn by vl-convert, which this environment lacks (Binder leaves it "
                    "out): run <code>%pip install vl-convert-python</code> in a cell, then play a turn.</em></p>")
"""What a live chart shows where it cannot draw: an HTML widget runs no script, so vega-embed cannot stand in."""


class LiveChart(widgets.HTML):
    """``draw(board.game)`` as SVG, redrawn after every turn, undo or new game on ``board``.

    ``board`` is a :class:`~amoeboid_edu.ui.widget.Board`.  Before the first turn
    it says what to do (press Next in a scripted line, else play a turn).
    ``size="presenter"`` draws chart text at 22 px, for a projector
    (:data:`~amoeboid_edu.ui.charts.CHART_TEXT_PX`).
    """

    def __init__(self, board: widgets.Widget, draw: Callable[[Game], alt.TopLevelMixin], *, size: str = "normal"):
        super().__init__()
        self.board, self.draw, self.size = board, draw, size
        self._drawn = ""  # the game record the chart shows: a click that plays no turn redraws nothing
        board.observe(self.refresh, names="version")  # every change, so a line queued later changes the hint too
        self.refresh()

    def refresh(self, _change: object = None) -> None:
        game = self.board.game
        if not len(game):
            self.value, self._drawn = (WAITING_FOR_NEXT if self.board.phase == "queued" else WAITING), ""
        elif str(game) != self._drawn:
            drawn = chart_html(self.draw(game), self.size) if has_svg_renderer() else NEEDS_VL_CONVERT
            self.value, self._drawn = drawn, str(game)

    def __repr__(self) -> str:
        return f"LiveChart(following {self.board!r})"

    def _repr_mimebundle_(self, **kwargs):
        """The live chart in a frontend; a placeholder text until the cell is run."""
        data = super()._repr_mimebundle_(**kwargs)
        data = data[0] if isinstance(data, tuple) else data
        data["text/plain"] = "▶ Run this cell to see the chart follow the board."
        return data


PLACEHOLDER = "▶ Run this cell to show the demo: the board and its chart side by side."
"""What a notebook shows for the demo before its cell is run, above a static picture of both halves."""


class Demo(widgets.HBox):
    """The projector layout: the board and its live chart side by side in one output, History folded.

    ``Demo(board, draw)`` (or ``board.with_chart(draw)``); ``presenter=True``
    (the default) gives larger text and discs and chart text of 22 px.  Both
    halves scale to the window, so at 1280x720, also at 150% zoom, the board,
    its buttons and the chart fit on one screen.
    """

    def __init__(self, board: widgets.Widget, draw: Callable[[Game], alt.TopLevelMixin], *, presenter: bool = True):
        size = "presenter" if presenter else "normal"
        board.size, board.history_open = size, False
        self.board, self.chart = board, LiveChart(board, draw, size=size)
        board.add_class("amb-demo-board")
        self.chart.add_class("amb-demo-chart")
        super().__init__([board, self.chart])
        self.add_class("amb-demo")

    def _repr_mimebundle_(self, **kwargs):
        """The live widgets in a frontend; text and a static picture of both halves elsewhere (and for nbval)."""
        data = super()._repr_mimebundle_(**kwargs)
        data = data[0] if isinstance(data, tuple) else data
        board = position_svg(self.board.game.position)
        chart = self.chart.value
        data["text/plain"] = PLACEHOLDER
        data["text/html"] = (
            f"<p><em>{PLACEHOLDER}</em></p>"
            '<div class="amb-demo-static" style="display: flex; gap: 12px; align-items: flex-start">'
            f"<div>{board}</div><div>{chart}</div></div>"
        )
        return data

    def __repr__(self) -> str:
        return f"Demo({self.board!r}, {escape(type(self.chart).__name__)})"


__all__ = ["Demo", "LiveChart"]
