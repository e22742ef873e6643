"""How the course draws charts: readable fonts, both JupyterLab themes, offline and reproducible, with tooltips.

Charts are Altair specs drawn to SVG in Python by vl-convert (no JavaScript, no
network, the same bytes every run, so nbval can compare them).  vl-convert is
optional (the ``charts`` and ``course`` extras): it has no build for a browser
kernel (Pyodide, JupyterLite), so without it :func:`chart_html` hands the same
themed spec to vega-embed in the page instead (JavaScript, fetched from a CDN).  Text and axes
use ``currentColor``: drawn *inline* in a notebook (the ``"amoeboid"`` Altair
renderer, :class:`~amoeboid_edu.ui.course.LiveChart`), a chart takes the theme's
text colour and reads on the light and the dark theme alike.

Tooltips: every mark of a layer with a ``tooltip`` encoding gets an SVG
``<title>`` with the text vl-convert already writes into its ``aria-label``
(one field a line), so hovering a point shows the browser's own tooltip:
offline, no script, and part of the SVG text nbval compares.  Why not Vega's
live tooltips: Altair's offline ``jupyter`` renderer is a widget (its state is
stripped from committed notebooks, so nbval sees nothing to compare and a fresh
notebook shows nothing), and the inline HTML template adds ~900 KB of
JavaScript per chart, against the course's 400 KB per notebook.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import altair as alt

CHART_TEXT_PX = {"normal": 14, "presenter": 22}
"""Font sizes in chart pixels.  A presenter chart is scaled down to half a 1280x720 screen (x0.8), or to half of it
at 150% zoom (x0.55, at 1.5 device pixels each): 22 keeps every text at 16 screen pixels or more."""


PRESENTER_WIDTH = 340
LABEL_SEPARATION_PX = 6
"""The least gap between two axis labels (chart pixels); closer labels are thinned out."""


def chart_config(size: str = "normal", ink: str = "currentColor") -> dict:
    """The course's Vega-Lite config: readable fonts, a transparent background, text and axes in ``ink``.

    ``currentColor`` makes an SVG drawn inline in JupyterLab take the theme's
    text colour, so the same chart reads on the light and the dark theme.
    """
    if size not in CHART_TEXT_PX:
        raise ValueError(f"chart size is one of {sorted(CHART_TEXT_PX)}, not {size!r}")
    text = CHART_TEXT_PX[size]
    labels = {"labelFontSize": text, "titleFontSize": text, "labelColor": ink, "titleColor": ink}
    return {
        "background": "transparent",
        "font": "sans-serif",
        "title": {"fontSize": text + 2, "subtitleFontSize": text, "color": ink, "subtitleColor": ink,
                  "anchor": "start"},
        # labels closer than labelSeparation count as overlapping and every other one is dropped: the last label,
        # flush with the axis's end, would otherwise run into its neighbour ("16" "18" read as "1618")
        "axis": {**labels, "domainColor": ink, "tickColor": ink, "gridColor": ink, "gridOpacity": 0.18,
                 "labelOverlap": True, "labelSeparation": LABEL_SEPARATION_PX},
        "legend": {**labels, "symbolSize": 12 * text, "symbolStrokeWidth": 3},
        "text": {"fontSize": text, "fill": ink},
        "view": {"stroke": None},
    }  # fmt: skip


def themed_spec(chart: alt.TopLevelMixin | dict, size: str, ink: str) -> dict:
    """The chart's spec with the course config under its own (the chart's own settings win).

    A presenter chart is also at most :data:`PRESENTER_WIDTH` wide, so that scaled to half a screen its text stays large.
    """
    spec = chart if isinstance(chart, dict) else chart.to_dict()
    config = chart_config(size, ink)
    for key, value in spec.get("config", {}).items():
        config[key] = {**config[key], **value} if isinstance(value, dict) and isinstance(config.get(key), dict) else value
    spec = {**spec, "config": config}
    if size == "presenter" and isinstance(spec.get("width"), (int, float)) and spec["width"] > PRESENTER_WIDTH:
        spec["width"] = PRESENTER_WIDTH
    return spec


def chart_svg(chart: alt.TopLevelMixin | dict, size: str = "normal", ink: str = "currentColor") -> str:
    """The chart as SVG, drawn in Python by vl-convert (offline, deterministic) with :func:`chart_config`.

    Marks of a layer with a tooltip encoding carry a ``<title>``: hovering shows their fields.
    """
    import vl_convert

    spec, tipped = _name_tooltip_layers(themed_spec(chart, size, ink))
    return _unique_ids(_titles(vl_convert.vegalite_to_svg(spec), tipped))


TOOLTIP_LAYER = "tooltip_layer_"
"""The name given to a layer with a tooltip encoding but no name of its own (the SVG names mark groups after it)."""

SERIES_MARKS = ("line mark", "area mark", "trail mark")
"""Marks drawn as one path per series: their ``aria-label`` describes only the first point, so they get no title."""


def _name_tooltip_layers(spec: dict) -> tuple[dict, set[str]]:
    """A copy of ``spec`` in which every unit with a tooltip has a name, and the set of those names."""
    names: set[str] = set()

    def visit(node: Any) -> Any:  # the spec is JSON: any of its values
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: visit(value) for key, value in node.items()}
        mark = node.get("mark")
        tooltip = "tooltip" in node.get("encoding", {}) or (isinstance(mark, dict) and mark.get("tooltip"))
        if mark is not None and tooltip:
            node.setdefault("name", f"{TOOLTIP_LAYER}{len(names)}")
            names.add(node["name"])
        return node

    return visit(spec), names


_MARK_GROUP = re.compile(
    r'<g class="mark-\w+ role-mark (?P<name>[^" ]+)_marks"(?P<attrs>[^>]*)>(?P<items>.*?)</g>', re.S
)  # the items of a mark that is no group are leaves: its group ends at the first </g>
_LABELLED = re.compile(r'<(?P<tag>\w+) aria-label="(?P<label>[^"]*)"(?P<rest>[^>]*?)(?P<close>/?)>')


def _titles(svg: str, tipped: set[str]) -> str:
    """Give each mark of the ``tipped`` layers a ``<title>`` child with its aria-label, one field a line."""

    def group(match: re.Match) -> str:
        if match["name"] not in tipped or any(f'aria-roledescription="{kind} container"' in match["attrs"]
                                              for kind in SERIES_MARKS):
            return match[0]
        items = _LABELLED.sub(item, match["items"])
        return match[0].replace(match["items"], items, 1)

    def item(match: re.Match) -> str:
        title = f"<title>{match['label'].replace('; ', chr(10))}</title>"
        start = f'<{match["tag"]} aria-label="{match["label"]}"{match["rest"]}>'
        return f"{start}{title}</{match['tag']}>" if match["close"] else start + title

    return _MARK_GROUP.sub(group, svg)


def _unique_ids(svg: str) -> str:
    """Prefix the SVG's element ids with a hash of it: two charts inline in one page must not share clip paths."""
    ids = set(re.findall(r'id="([^"]+)"', svg))
    if not ids:
        return svg
    prefix = "c" + hashlib.sha1(svg.encode()).hexdigest()[:8] + "-"
    pattern = re.compile(r'(id="|url\(#|href="#)(' + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r')(?=[")])')
    return pattern.sub(lambda m: m[1] + prefix + m[2], svg)


VEGA_EMBED = "https://cdn.jsdelivr.net/npm/vega-embed@6/+esm"
"""Where a page without vl-convert's SVG loads vega-embed from (it brings Vega and Vega-Lite along)."""


def has_svg_renderer() -> bool:
    """Whether vl-convert is installed, so charts are drawn to SVG in Python (else in the browser)."""
    return find_spec("vl_convert") is not None


def browser_chart_html(chart: alt.TopLevelMixin | dict, size: str = "normal") -> str:
    """The chart drawn in the page by vega-embed (no vl-convert needed: a browser kernel's fallback).

    The element's id is a digest of the spec, so the same chart gives the same HTML on every run.
    """
    spec = json.dumps(themed_spec(chart, size, "currentColor"), sort_keys=True)
    element = "amoeboid-chart-" + hashlib.sha1(spec.encode()).hexdigest()[:12]
    # Inside <script> the page's parser reacts to "<!--", "<script" and "</script" wherever they are, strings
    # included (a data value such as a file name can hold them): every <, > and & of the spec is written as a
    # JavaScript escape, which the spec's strings read back as the same characters.
    for char in "<>&\u2028\u2029":
        spec = spec.replace(char, f"\\u{ord(char):04x}")
    script = (f'import vegaEmbed from "{VEGA_EMBED}"; '
              f'vegaEmbed("#{element}", {spec}, {{"actions": false, "renderer": "svg"}});')
    return f'<div id="{element}"></div><script type="module">{script}</script>'


def chart_html(chart: alt.TopLevelMixin | dict, size: str = "normal") -> str:
    """The chart as inline SVG in a ``div`` whose text colour is JupyterLab's, else the surrounding text's.

    JupyterLab defines ``--jp-content-font-color1`` for its light and dark themes; VS Code, Colab and a static
    page define no ``--jp-*`` variable, so the fallback ``currentColor`` inherits the colour the page gives its
    own text (a fixed dark fallback was near-black on their dark themes).
    """
    style = "color: var(--jp-content-font-color1, currentColor); max-width: 100%; overflow-x: auto"
    drawn = chart_svg(chart, size) if has_svg_renderer() else browser_chart_html(chart, size)
    return f'<div class="amoeboid-chart" style="{style}">{drawn}</div>'


def course_renderer(spec: dict, **_metadata) -> dict:
    """Altair renderer ``"amoeboid"``: inline SVG (themed, offline, reproducible under nbval)."""
    title = spec.get("title")
    title = title.get("text") if isinstance(title, dict) else title
    return {"text/html": chart_html(spec), "text/plain": f"<chart: {title or spec.get('name', 'untitled')}>"}


alt.renderers.register("amoeboid", course_renderer)


def save_chart(chart: alt.TopLevelMixin, path: str | Path, *, scale: float = 2.0, size: str = "normal") -> Path:
    """Write a chart to ``.png`` or ``.svg`` offline (vl-convert; no browser, no network) for slides."""
    try:
        import vl_convert
    except ImportError:
        raise ValueError("save_chart needs vl-convert: pip install \"amoeboid-edu[charts]\"") from None

    path = Path(path)
    spec = themed_spec(chart, size, "#111111")  # a file has no theme: dark ink
    if path.suffix == ".png":
        path.write_bytes(vl_convert.vegalite_to_png(spec, scale=scale))
    elif path.suffix == ".svg":
        path.write_text(vl_convert.vegalite_to_svg(spec), encoding="utf-8")
    else:
        raise ValueError(f"save_chart writes .png or .svg, not {path.suffix or path.name!r}")
    return path


__all__ = ["CHART_TEXT_PX", "browser_chart_html", "chart_config", "chart_html", "chart_svg", "course_renderer",
           "has_svg_renderer", "save_chart", "themed_spec"]
