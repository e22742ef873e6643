"""The browser-only door (Pyodide, JupyterLite): the engine, the bots, the static board and the charts need no
subprocess, no thread and no vl-convert (which has no build for a browser kernel).

A fresh interpreter is made like Pyodide's: starting a process or a thread raises, and ``vl_convert`` cannot be
imported; it then plays a seeded game with the bots, draws the board and a chart.
"""

from __future__ import annotations

import subprocess
import sys

LIKE_PYODIDE = r'''
import _thread, os, subprocess, sys, threading

def refused(*args, **kwargs):
    raise RuntimeError("no processes or threads in a browser kernel")

subprocess.Popen.__init__ = refused
threading.Thread.start = refused
_thread.start_new_thread = refused
os.fork = refused
sys.modules["vl_convert"] = None  # no wasm build

from amoeboid_edu import Game, Position
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.ui.render import position_svg
from amoeboid_edu.ui.charts import chart_html
import altair as alt

game = Game(seed=7)
game.play_random()
assert game.position.result in ("A", "B", "tie"), game.position
position = Position.start()
turn = BOTS["greedy"](position, 4, __import__("random").Random(1))
assert "<svg" in position_svg(position) and "<svg" in position._repr_svg_()
html = chart_html(alt.Chart(alt.Data(values=[{"x": 1, "y": 2}])).mark_point().encode(x="x:Q", y="y:Q"))
assert "vegaEmbed" in html and "<svg" not in html, html[:300]
assert html == chart_html(alt.Chart(alt.Data(values=[{"x": 1, "y": 2}])).mark_point().encode(x="x:Q", y="y:Q"))
print("played", len(game.turns), "turns; chart by vega-embed")
'''


def test_engine_bots_board_and_charts_work_without_processes_threads_or_vl_convert():
    done = subprocess.run([sys.executable, "-c", LIKE_PYODIDE], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "chart by vega-embed" in done.stdout
