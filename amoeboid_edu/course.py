"""What the lessons share beyond the package's modules: a chart that follows the game on a board.

A live chart must not use ``ipywidgets.Output``: output captured from a turn
callback travels as ordinary display messages, which nbval records as outputs
of whatever cell is running and nbclient files under the widget instead, so a
lesson would never replay exactly.  :class:`LiveChart` is an ``HTML`` widget
whose *value* is the chart drawn as SVG by vl-convert (offline, no JavaScript),
replaced whenever the board's game changes.
"""

from __future__ import annotations

from typing import Callable

import altair as alt
import ipywidgets as widgets
import vl_convert

from .game import Game

WAITING = "<p><em>Play a turn on the board: the chart appears here.</em></p>"


def chart_svg(chart: alt.TopLevelMixin) -> str:
    """The chart as an SVG document, drawn in Python (the same drawing as Altair's ``svg`` renderer)."""
    return vl_convert.vegalite_to_svg(chart.to_dict())


class LiveChart(widgets.HTML):
    """``draw(board.game)`` as SVG, redrawn after every turn, undo or new game on ``board``.

    ``board`` is a :class:`~amoeboid_edu.widget.Board` (anything with a ``game``
    and a synced ``history`` trait).  Before the first turn it shows a hint.
    """

    def __init__(self, board: widgets.Widget, draw: Callable[[Game], alt.TopLevelMixin]) -> None:
        super().__init__()
        self.board, self.draw = board, draw
        board.observe(self.refresh, names="history")
        self.refresh()

    def refresh(self, _change: object = None) -> None:
        game = self.board.game
        self.value = chart_svg(self.draw(game)) if len(game) else WAITING

    def __repr__(self) -> str:
        return f"LiveChart(following {self.board!r})"


__all__ = ["LiveChart", "chart_svg"]
