"""Build the course: turn each lesson source into an executed notebook, or check that it still reproduces.

Lessons are written as reviewable Python files in jupytext's "percent" format
(``lessons/src/NN-name.py``: ``# %% [markdown]`` and ``# %%`` cells); what students
open, and what nbval checks, is the executed ``lessons/NN-name.ipynb`` with outputs.

    python scripts/build_lessons.py                 # rebuild every lesson
    python scripts/build_lessons.py 03 06           # rebuild the lessons whose names start so
    python scripts/build_lessons.py --check         # execute, compare with the committed outputs, write nothing

A lesson with exercises also gets a teacher's edition, ``lessons/solutions/NN-name.ipynb``,
built from the same source with the answers filled in:

    my_answer = ...  # solution: "(6,5)"      the student sees ``my_answer = ...``; the solution has the answer
    # %% solution                              a code cell shown only in the solutions edition, in place of
                                               the code cell before it (for answers longer than a line)
    # %% tags=["nbval-ignore-output"]          cell tags (jupytext's form): nbval and --check skip its outputs,
                                               and it is committed without them (a progress bar's last
                                               text, say, which a student would take for a stuck run)

Every build runs each lesson top to bottom in a fresh kernel, strips widget
state and volatile metadata, and prints the lesson's wall time and the
kernel's peak resident memory.

Committed pictures must show in an *untrusted* notebook too (Binder, a school
hub, a copied folder: nobody has run or signed it).  JupyterLab then renders
only "safe" outputs: it shows no ``image/svg+xml`` and sanitises ``text/html``,
dropping every ``<svg>`` but keeping its text.  So the build gives each picture
a PNG (drawn by vl-convert; without vl-convert, no PNG):

- an ``image/svg+xml`` output (a position) gets an ``image/png`` beside it,
  which an untrusted notebook shows and nbval ignores;
- an SVG inside ``text/html`` (a chart) is wrapped so that a trusted notebook
  shows the live SVG and an untrusted one a PNG ``<img>``: a ``<style>`` (which
  the sanitiser removes) hides the ``<img>`` and shows the SVG's wrapper, whose
  own ``display: none`` (which the sanitiser keeps) hides it otherwise, text
  and all.
  ``lessons/nbval-sanitize.cfg`` and :func:`comparable` undo the wrapping, so
  the outputs are compared as the kernel made them;
- a widget's ``image/svg+xml`` gets no PNG: untrusted, the widget shows its
  ``text/plain`` placeholder, which says to run the cell (a picture of a board
  would look clickable); trusted, its static SVG.  A widget whose static form
  is HTML (the demo) says the same in its first line.  Only nbformat and nbclient are needed (both come
with JupyterLab), so the Binder test can run this script in a Binder-like venv.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import json
import re
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
SOURCES = LESSONS / "src"
SOLUTIONS = LESSONS / "solutions"
CELL_TIMEOUT = 120  # seconds; the whole course is meant to run in under 2 minutes
PEAK_MEMORY_PROBE = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

_CELL_MARKER = re.compile(r"^# %%(?P<rest>.*)$")
_TAGS = re.compile(r"tags=(?P<tags>\[.*\])")
_SOLUTION = re.compile(r"^(?P<code>.*?)\s+# solution: (?P<answer>.+)$")


def read_source(path: Path, *, solutions: bool = False) -> nbformat.NotebookNode:
    """Parse a percent-format lesson source into an unexecuted notebook with stable cell ids.

    ``solutions=True`` gives the teacher's edition: answers filled in, ``# %% solution``
    cells in place of the code cell before them.
    """
    cells: list[tuple[str, list[str], list[str]]] = []  # (kind, lines, tags)
    for line in path.read_text(encoding="utf-8").splitlines():
        marker = _CELL_MARKER.match(line)
        if marker:
            rest = marker["rest"]
            kind = "markdown" if "[markdown]" in rest else "solution" if rest.strip() == "solution" else "code"
            tags = _TAGS.search(rest)
            cells.append((kind, [], json.loads(tags["tags"]) if tags else []))
        elif cells:
            cells[-1][1].append(_fill(line, path) if solutions else _blank(line))
        elif line.strip():
            raise ValueError(f"{path.name}: text before the first '# %%' cell marker: {line!r}")
    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    for number, (kind, lines, tags) in enumerate(cells, start=1):
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if kind == "markdown":
            text = "\n".join(_uncomment(line, path) for line in lines)
            cell = nbformat.v4.new_markdown_cell(text.replace("{{binder_launch}}", binder_launch()))
        elif kind == "solution":
            if not solutions:
                continue
            if not notebook.cells or notebook.cells[-1].cell_type != "code":
                raise ValueError(f"{path.name}: a '# %% solution' cell must follow the code cell it answers")
            notebook.cells.pop()
            cell = nbformat.v4.new_code_cell("\n".join(lines))
        else:
            cell = nbformat.v4.new_code_cell("\n".join(lines))
        if tags:
            cell.metadata["tags"] = tags
        cell.id = f"cell-{number:02d}"
        notebook.cells.append(cell)
    return notebook


FIRST_LESSON = "lessons/01-start-here.ipynb"
_GITHUB = re.compile(r"github\.com[:/](?P<owner>[^/\s]+)/(?P<repo>[^/\s]+?)(?:\.git)?/?$")


def binder_ref() -> str:
    """The tag at HEAD, else the current branch: a launch link to ``HEAD`` would rebuild Binder's image after every
    push, a tag's (or a release branch's) image is built once and shared by the whole class."""
    for command in (["describe", "--tags", "--exact-match", "HEAD"], ["rev-parse", "--abbrev-ref", "HEAD"]):
        try:
            ref = subprocess.run(["git", "-C", str(ROOT), *command], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            ref = ""
        if ref and ref != "HEAD":
            return ref
    return "main"


@functools.cache  # one git call per run, not one per markdown cell
def binder_launch() -> str:
    """How to open the course on Binder: a link built from the ``origin`` remote, or how to launch it by hand.

    Never a placeholder: without a GitHub ``origin`` (a copy, a fork not yet
    pushed), the lesson says what to type into mybinder.org instead.
    """
    try:
        url = subprocess.run(["git", "-C", str(ROOT), "remote", "get-url", "origin"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        url = ""
    found = _GITHUB.search(url)
    if found:
        link = (f"https://mybinder.org/v2/gh/{found['owner']}/{found['repo']}/{binder_ref()}"
                f"?urlpath=lab/tree/{FIRST_LESSON}")
        return f"[launch this course on Binder]({link})."
    return (f"go to [mybinder.org](https://mybinder.org), paste the GitHub address of this course's repository, "
            f"and enter `{FIRST_LESSON}` as the file to open.")


def _blank(line: str) -> str:
    """The student's edition of a line: a ``# solution:`` comment is dropped."""
    marked = _SOLUTION.match(line)
    return marked["code"] if marked else line


def _fill(line: str, path: Path) -> str:
    """The teacher's edition of a line: ``...`` replaced by the ``# solution:`` answer."""
    marked = _SOLUTION.match(line)
    if not marked:
        return line
    if "..." not in marked["code"]:
        raise ValueError(f"{path.name}: a '# solution:' line must contain the ... it fills: {line!r}")
    return marked["code"].replace("...", marked["answer"], 1)


def has_solutions(path: Path) -> bool:
    """Whether the lesson has exercises with answers to fill in (and so a teacher's edition)."""
    text = path.read_text(encoding="utf-8")
    return "# solution: " in text or "\n# %% solution\n" in text


def solutions_path(source: Path) -> Path:
    return SOLUTIONS / (source.stem + ".ipynb")


TEACHERS_NOTE = (
    "**Teacher's edition** of [lesson {name}](../{name}.ipynb): the same lesson with every exercise answered "
    "(built from `lessons/src/{name}.py` by `scripts/build_lessons.py`). Every check below prints ✓."
)


def solutions_edition(source: Path) -> nbformat.NotebookNode:
    notebook = read_source(source, solutions=True)
    note = nbformat.v4.new_markdown_cell(TEACHERS_NOTE.format(name=source.stem))
    note.id = "teachers-edition"
    notebook.cells.insert(0, note)
    return notebook


def _uncomment(line: str, path: Path) -> str:
    if line == "#":
        return ""
    if not line.startswith("# "):
        raise ValueError(f"{path.name}: a markdown line must start with '# ': {line!r}")
    return line[2:]


def notebook_path(source: Path) -> Path:
    return LESSONS / (source.stem + ".ipynb")


def sources(prefixes: list[str] | None = None) -> list[Path]:
    found = sorted(SOURCES.glob("[0-9][0-9]-*.py"))
    if prefixes:
        found = [path for path in found if any(path.stem.startswith(prefix) for prefix in prefixes)]
    return found


def execute(notebook: nbformat.NotebookNode, where: Path = LESSONS,
            cell_timeout: float = CELL_TIMEOUT) -> tuple[nbformat.NotebookNode, float, float]:
    """Run ``notebook`` top to bottom in a fresh kernel: (executed notebook, seconds, peak kernel MB).

    The peak memory is read by one extra cell, run last and then removed, so
    the stored execution counts are exactly 1..n.
    """
    probe = nbformat.v4.new_code_cell(PEAK_MEMORY_PROBE)
    probe.id = "peak-memory-probe"
    notebook.cells.append(probe)
    client = NotebookClient(
        notebook,
        timeout=cell_timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(where)}},
        record_timing=False,
    )
    started = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - started
    notebook.cells.pop()
    peak_mb = int(probe.outputs[0]["text"]) / 1024  # ru_maxrss is in KiB on Linux
    return clean(notebook), seconds, peak_mb


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_WRAPPED = re.compile(r'<div class="amb-untrusted-[0-9a-f]+"><style>[^<]*</style>'
                      r'|<span class="amb-live" style="display: none">'
                      r'|</span><img class="amb-fallback"[^>]*>|</div><!--/amb-untrusted-->')
"""What :func:`wrap_pictures` adds to an output's HTML: removing it gives back the kernel's HTML (nbval's
``[untrusted-pictures]`` section is this pattern)."""
INK_ON_PAPER = "#1a1a1a"  # a PNG cannot follow the theme: dark ink on a white card reads in both


def png_base64(svg: str) -> str | None:
    """The SVG drawn as a PNG on a white card in dark ink (base64), or None without vl-convert.

    A PNG cannot follow the theme, so it is a card that reads on both.  It is
    re-encoded with a palette (a sixth of the size, or less).
    """
    try:
        import vl_convert
    except ImportError:
        return None
    svg = svg.replace("currentColor", INK_ON_PAPER)
    box = re.search(r'<svg\b[^>]*?viewBox="([-\d.]+)[ ,]+([-\d.]+)[ ,]+([-\d.]+)[ ,]+([-\d.]+)"', svg)
    card = 'x="{}" y="{}" width="{}" height="{}"'.format(*box.groups()) if box else 'width="100%" height="100%"'
    svg = re.sub(r"(<svg\b[^>]*>)", rf'\1<rect {card} fill="#ffffff"/>', svg, count=1)  # the whole view box
    return base64.b64encode(_compact_png(vl_convert.svg_to_png(svg))).decode("ascii")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _compact_png(png: bytes) -> bytes:
    """``png`` (8-bit RGBA from vl-convert, a white card) as an 8-bit palette PNG on white; else unchanged.

    The same pixels when they have at most 256 colours; else the rarest colours (the edges of anti-aliased
    gradients) become the nearest of the 256 commonest.
    """
    import numpy as np

    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + png[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    if (depth, colour, interlace) != (8, 6, 0):
        return png
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, width * 4 + 1)
    pixels = rows[:, 1:].reshape(height, width, 4)
    if set(rows[:, 0].tolist()) - {0, 1}:
        return png  # only "none" and "sub" row filters are undone here
    pixels = np.where(rows[:, :1, None] == 1, np.cumsum(pixels, axis=1, dtype=np.uint8), pixels)
    alpha = pixels[..., 3:].astype(np.float32) / 255  # the card is white: its anti-aliased edges go on white
    rgb = np.round(pixels[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    colours, index = np.unique(rgb.reshape(-1, 3), axis=0, return_inverse=True)
    if len(colours) > 256:  # the 256 commonest colours, every other one drawn in the nearest of them
        common = np.argsort(-np.bincount(index.ravel()), kind="stable")[:256]
        distance = ((colours[:, None, :].astype(np.int32) - colours[common][None, :, :].astype(np.int32)) ** 2)
        index, colours = distance.sum(axis=2).argmin(axis=1)[index.ravel()], colours[common]
    index = index.reshape(height, width).astype(np.uint8)
    raw = b"".join(b"\x00" + row.tobytes() for row in index)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"PLTE", colours.tobytes())
            + _png_chunk(b"IDAT", zlib.compress(raw, 9)) + _png_chunk(b"IEND", b""))


def wrap_pictures(html: str) -> str:
    """``html`` whose every ``<svg>`` shows as itself when trusted and as a PNG ``<img>`` when untrusted."""
    if "<svg" not in html:
        return html
    pictures = 0

    def wrap(match: re.Match) -> str:
        nonlocal pictures
        png = png_base64(match[0])
        if png is None:
            return match[0]
        pictures += 1
        return (f'<span class="amb-live" style="display: none">{match[0]}</span><img class="amb-fallback" '
                f'alt="a picture: run the cell to see it live" src="data:image/png;base64,{png}">')

    body = _SVG.sub(wrap, html)
    if not pictures:
        return html
    key = "amb-untrusted-" + hashlib.sha1(html.encode()).hexdigest()[:10]
    style = f".{key} .amb-fallback {{ display: none }} .{key} .amb-live {{ display: contents !important }}"
    return f'<div class="{key}"><style>{style}</style>{body}</div><!--/amb-untrusted-->'


def as_the_kernel_made_it(text: str) -> str:
    """An output's text without what :func:`wrap_pictures` added."""
    return _WRAPPED.sub("", text)


def add_untrusted_pictures(output: nbformat.NotebookNode) -> None:
    """Give a display output the PNGs an untrusted notebook shows (widgets excepted: they say to run the cell)."""
    data = output.get("data", {})
    if "text/html" in data:  # a widget's static HTML too (the demo's): its placeholder line, then its pictures
        data["text/html"] = wrap_pictures(data["text/html"])
    elif "image/svg+xml" in data and "image/png" not in data and WIDGET_VIEW not in data:
        # a widget's SVG gets no PNG: a picture of a board would look clickable; its text placeholder shows
        png = png_base64(data["image/svg+xml"])
        if png is not None:
            data["image/png"] = png


def clean(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what would make a committed notebook big or unreproducible: widget state, model ids, run metadata.

    A stored widget view only points at a model that no longer exists once the
    kernel is gone (and its id changes every run); without it a widget output
    shows its placeholder text until the cell is run.  Pictures get their
    untrusted fallbacks (:func:`add_untrusted_pictures`).

    The kernel's ``language_info`` is kept whole: JupyterLab writes it into the
    notebook when the kernel starts, so any other value marks a lesson modified
    the moment it is opened (and autosave rewrites it).  A kernel of another
    Python version still does that, once.
    """
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if "nbval-ignore-output" in cell.metadata.get("tags", []):
            cell.outputs = []  # machine-dependent, e.g. a closed progress bar's "0%" fallback text
        for output in cell.get("outputs", []):
            add_untrusted_pictures(output)
            output.get("data", {}).pop(WIDGET_VIEW, None)
    return notebook


def comparable(notebook: nbformat.NotebookNode) -> list[tuple[str, list]]:
    """Cell sources and their text outputs (widget model ids and images left out, as nbval does)."""
    rows = []
    for cell in notebook.cells:
        outputs = []
        if "nbval-ignore-output" in cell.metadata.get("tags", []):
            rows.append((cell.source, outputs))
            continue
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                outputs.append((output.name, output.text))
            elif output.output_type == "error":
                outputs.append(("error", output.ename, output.evalue))
            else:
                data = {
                    kind: as_the_kernel_made_it(value)
                    for kind, value in output.data.items()
                    if kind.startswith("text/") or kind == "image/svg+xml"
                }
                outputs.append((output.output_type, data))
        rows.append((cell.source, outputs))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefixes", nargs="*", help="build only lessons whose file names start with these")
    parser.add_argument("--check", action="store_true", help="execute and compare with the committed notebooks")
    parser.add_argument("--cell-timeout", type=float, default=CELL_TIMEOUT, metavar="SECONDS",
                        help=f"stop a cell that runs longer (default {CELL_TIMEOUT}; more on a loaded machine)")
    parser.add_argument("--lessons-only", action="store_true",
                        help="leave out the teacher's editions (what students run, e.g. on Binder)")
    args = parser.parse_args(argv)
    chosen = sources(args.prefixes)
    if not chosen:
        print(f"error: no lesson source matches {args.prefixes} in {SOURCES}", file=sys.stderr)
        return 2
    failures = []
    total = 0.0
    print(f"{'lesson':<44} {'seconds':>8} {'peak MB':>8}")
    editions = [(source.stem, read_source(source), notebook_path(source), LESSONS) for source in chosen]
    editions += [
        (f"solutions/{source.stem}", solutions_edition(source), solutions_path(source), SOLUTIONS)
        for source in chosen
        if has_solutions(source) and not args.lessons_only
    ]
    SOLUTIONS.mkdir(exist_ok=True)
    for name, notebook, target, where in editions:
        executed, seconds, peak_mb = execute(notebook, where, args.cell_timeout)
        total += seconds
        status = ""
        if args.check:
            committed = nbformat.read(target, as_version=4) if target.exists() else None
            if committed is None or comparable(committed) != comparable(executed):
                failures.append(str(target.relative_to(LESSONS)))
                status = "  DIFFERS from the committed notebook"
        else:
            nbformat.write(executed, target)
        print(f"{name:<44} {seconds:8.1f} {peak_mb:8.0f}{status}", flush=True)
    print(f"{'total':<44} {total:8.1f}")
    if failures:
        print(f"error: outputs differ from the committed notebooks: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
