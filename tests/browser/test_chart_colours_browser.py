"""Chart text reads on a dark page that defines no JupyterLab variable (VS Code's and Colab's dark themes).

The chart's HTML is put on a plain page with light text on a near-black background and no ``--jp-*``
variable; Chromium computes the colour its title, axis labels and ticks are filled with, and each must
contrast with the background by WCAG's 4.5:1 for text.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from amoeboid_edu.ui.charts import chart_html

pytestmark = pytest.mark.browser

DARK_PAGE = """<!doctype html><html><body style="background: #1e1e1e; color: #d4d4d4; margin: 0">{chart}</body></html>"""
"""VS Code's dark theme: its editor background and text colour, and no ``--jp-*`` variable."""


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG relative luminance of an sRGB colour with 0-255 channels."""
    def linear(channel: float) -> float:
        channel /= 255
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_chart_text_contrasts_with_a_dark_page_without_jupyterlab_variables(browser):
    frame = pd.DataFrame({"turn": [1, 2, 3], "delta": [0, 3, -2]})
    chart = alt.Chart(frame, title="delta by turn").mark_line().encode(x="turn", y="delta")
    page = browser.new_page()
    page.set_content(DARK_PAGE.format(chart=chart_html(chart)))
    fills = page.evaluate("""() => {
        const parse = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const texts = [...document.querySelectorAll('.amoeboid-chart svg text')];
        return {background: parse(getComputedStyle(document.body).backgroundColor),
                variable: getComputedStyle(document.body).getPropertyValue('--jp-content-font-color1'),
                fills: texts.map((t) => [t.textContent, parse(getComputedStyle(t).fill)])};
    }""")
    assert fills["variable"] == "" and len(fills["fills"]) >= 4, fills  # a title and axis labels, no --jp-*
    dim = [(text, fill, round(contrast(fill, fills["background"]), 2)) for text, fill in fills["fills"]
           if contrast(fill, fills["background"]) < 4.5]
    assert not dim, f"chart text too dim on a dark page: {dim}"
