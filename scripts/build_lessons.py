"""Build the course: turn each lesson source into an executed notebook, or check that it still reproduces.

Lessons are written as reviewable Python files in jupytext's "percent" format
(``lessons/src/NN-name.py``: ``# %% [markdown]`` and ``# %%`` cells); what students
open, and what nbval checks, is the executed ``lessons/NN-name.ipynb`` with outputs.

    python scripts/build_lessons.py                 # rebuild every lesson
    python scripts/build_lessons.py 03 06           # rebuild the lessons whose names start so
    python scripts/build_lessons.py --check         # execute, compare with the committed outputs, write nothing

Every build runs each lesson top to bottom in a fresh kernel, strips widget
state and volatile metadata, and prints the lesson's wall time and the
kernel's peak resident memory.  Only nbformat and nbclient are needed (both come
with JupyterLab), so the Binder test can run this script in a Binder-like venv.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
SOURCES = LESSONS / "src"
CELL_TIMEOUT = 120  # seconds; the whole course is meant to run in under 2 minutes
PEAK_MEMORY_PROBE = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

_CELL_MARKER = re.compile(r"^# %%(?P<rest>.*)$")


def read_source(path: Path) -> nbformat.NotebookNode:
    """Parse a percent-format lesson source into an unexecuted notebook with stable cell ids."""
    cells: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        marker = _CELL_MARKER.match(line)
        if marker:
            cells.append(("markdown" if "[markdown]" in marker["rest"] else "code", []))
        elif cells:
            cells[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"{path.name}: text before the first '# %%' cell marker: {line!r}")
    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    for number, (kind, lines) in enumerate(cells, start=1):
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if kind == "markdown":
            text = "\n".join(_uncomment(line, path) for line in lines)
            cell = nbformat.v4.new_markdown_cell(text)
        else:
            cell = nbformat.v4.new_code_cell("\n".join(lines))
        cell.id = f"cell-{number:02d}"
        notebook.cells.append(cell)
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


def execute(notebook: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode, float, float]:
    """Run ``notebook`` top to bottom in a fresh kernel: (executed notebook, seconds, peak kernel MB).

    The peak memory is read by one extra cell, run last and then removed, so
    the stored execution counts are exactly 1..n.
    """
    probe = nbformat.v4.new_code_cell(PEAK_MEMORY_PROBE)
    probe.id = "peak-memory-probe"
    notebook.cells.append(probe)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(LESSONS)}},
        record_timing=False,
    )
    started = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - started
    notebook.cells.pop()
    peak_mb = int(probe.outputs[0]["text"]) / 1024  # ru_maxrss is in KiB on Linux
    return clean(notebook), seconds, peak_mb


def clean(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what would make a committed notebook big or unreproducible: widget state, run metadata."""
    notebook.metadata.pop("widgets", None)
    notebook.metadata["language_info"] = {"name": "python"}
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    return notebook


def comparable(notebook: nbformat.NotebookNode) -> list[tuple[str, list]]:
    """Cell sources and their text outputs (widget model ids and images left out, as nbval does)."""
    rows = []
    for cell in notebook.cells:
        outputs = []
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                outputs.append((output.name, output.text))
            elif output.output_type == "error":
                outputs.append(("error", output.ename, output.evalue))
            else:
                data = {
                    kind: value
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
    args = parser.parse_args(argv)
    chosen = sources(args.prefixes)
    if not chosen:
        print(f"error: no lesson source matches {args.prefixes} in {SOURCES}", file=sys.stderr)
        return 2
    failures = []
    total = 0.0
    print(f"{'lesson':<34} {'seconds':>8} {'peak MB':>8}")
    for source in chosen:
        executed, seconds, peak_mb = execute(read_source(source))
        total += seconds
        target = notebook_path(source)
        status = ""
        if args.check:
            committed = nbformat.read(target, as_version=4) if target.exists() else None
            if committed is None or comparable(committed) != comparable(executed):
                failures.append(target.name)
                status = "  DIFFERS from the committed notebook"
        else:
            nbformat.write(executed, target)
        print(f"{source.stem:<34} {seconds:8.1f} {peak_mb:8.0f}{status}", flush=True)
    print(f"{'total':<34} {total:8.1f}")
    if failures:
        print(f"error: outputs differ from the committed notebooks: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
