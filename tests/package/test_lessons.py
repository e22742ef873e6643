"""The committed lessons are what students open and what nbval replays: check they are fresh, clean and small.

nbval (``--nbval`` in pyproject's pytest options) re-executes every lesson (or its teacher's edition, which
stands for it: tests/lesson_editions.py) and compares outputs; these tests catch what nbval cannot: a notebook edited by hand
or out of date with its source, cells run out of order, saved widget state.
"""

from __future__ import annotations

import base64
import importlib.util
import re
import struct
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
MAX_NOTEBOOK_BYTES = 400_000  # a lesson with inline JS or widget state is megabytes

_spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

SOURCES = build.sources()


def widget_repr_pattern() -> re.Pattern[str]:
    """A widget's repr as text: the name of any widget class the course can show (ipywidgets', the boards', the
    charts'), then ``(``."""
    import ipywidgets

    import amoeboid_edu.namesakes.widget  # noqa: F401 - their boards are widgets too
    import amoeboid_edu.ui.course  # noqa: F401
    import amoeboid_edu.ui.widget  # noqa: F401

    names, todo = set(), [ipywidgets.Widget]
    while todo:
        kind = todo.pop()
        names.add(kind.__name__)
        todo.extend(kind.__subclasses__())
    names = {name for name in names if not name.startswith("_") and len(name) > 2}
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\(")


def test_the_course_starts_where_the_readme_says():
    assert (LESSONS / "01-start-here.ipynb").exists(), "./dev.sh course opens lessons/01-start-here.ipynb"


def test_every_notebook_has_a_source_and_every_source_a_notebook():
    assert sorted(path.stem for path in LESSONS.glob("*.ipynb")) == [path.stem for path in SOURCES]


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
class TestCommittedLesson:
    def notebook(self, source):
        return nbformat.read(build.notebook_path(source), as_version=4)

    def test_is_built_from_its_current_source(self, source):
        built = [(cell.cell_type, cell.source) for cell in build.read_source(source).cells]
        committed = [(cell.cell_type, cell.source) for cell in self.notebook(source).cells]
        assert committed == built, f"rebuild it: python scripts/build_lessons.py {source.stem[:2]}"

    def test_was_executed_once_top_to_bottom_in_a_fresh_kernel(self, source):
        code = [cell for cell in self.notebook(source).cells if cell.cell_type == "code"]
        assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
        for cell in code:
            for output in cell.outputs:
                if "execution_count" in output:
                    assert output.execution_count == cell.execution_count, cell.source

    def test_has_no_errors_and_no_saved_widget_state(self, source):
        notebook = self.notebook(source)
        assert "widgets" not in notebook.metadata
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                assert output.output_type != "error", f"{cell.source}\n{output.get('evalue')}"
                assert "application/vnd.jupyter.widget-state+json" not in output.get("data", {})
                assert build.WIDGET_VIEW not in output.get("data", {}), "a stale widget model id: rebuild the lesson"

    def test_shows_no_widget_repr_as_text(self, source):
        """A widget's committed output shows a "run this cell" placeholder until the cell is run (untrusted, or no
        kernel yet), never its repr: ``VBox(children=(Dropdown(...`` or ``Label(value=...)``, in either edition."""
        reprs = widget_repr_pattern()
        editions = [build.notebook_path(source)] + ([build.solutions_path(source)] if build.has_solutions(source) else [])
        for path in editions:
            for cell in nbformat.read(path, as_version=4).cells:
                for output in cell.get("outputs", []):
                    texts = [output.get("text", "")] + [value for kind, value in output.get("data", {}).items()
                                                         if kind == "text/plain"]  # fmt: skip
                    shown = [found.group(0) for text in texts for found in [reprs.search(text)] if found]
                    assert not shown, f"{path.name}: {shown[0]}... shows as text in:\n{cell.source}"

    def test_keeps_no_machine_dependent_output(self, source):
        for cell in self.notebook(source).cells:
            if "nbval-ignore-output" in cell.metadata.get("tags", []):  # e.g. a progress bar stuck at "0%"
                assert cell.outputs == [], f"rebuild it: python scripts/build_lessons.py {source.stem[:2]}"

    def test_is_small(self, source):
        size = build.notebook_path(source).stat().st_size
        assert size <= MAX_NOTEBOOK_BYTES, f"{size} bytes: strip inline JS / large outputs"

    def test_opens_with_learning_goals_and_ends_with_a_summary(self, source):
        cells = self.notebook(source).cells
        assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# ")
        assert "**Learning goals**" in cells[0].source
        assert cells[-1].cell_type == "markdown" and cells[-1].source.startswith("## Summary")

    def test_links_to_other_lessons_resolve(self, source):
        for cell in self.notebook(source).cells:
            if cell.cell_type == "markdown":
                for target in re.findall(r"\]\(([^)#]+\.ipynb)", cell.source):
                    assert (LESSONS / target).exists(), f"broken link to {target}"

    def test_ignored_outputs_say_why(self, source):
        for cell in self.notebook(source).cells:
            lines = [line.strip() for line in cell.source.splitlines()]
            for number, line in enumerate(lines):
                if line.startswith("#") and line.lstrip("#").strip() == "NBVAL_IGNORE_OUTPUT":
                    assert number > 0 and lines[number - 1].startswith("#"), (
                        f"put a comment saying why just above NBVAL_IGNORE_OUTPUT in:\n{cell.source}"
                    )


def test_a_source_is_split_into_markdown_and_code_cells(tmp_path):
    source = tmp_path / "99-demo.py"
    source.write_text("# %% [markdown]\n# # Title\n#\n# Text.\n\n# %%\nx = 1\n\nx\n\n# %%\nprint(x)\n")
    notebook = build.read_source(source)
    assert [(cell.cell_type, cell.source) for cell in notebook.cells] == [
        ("markdown", "# Title\n\nText."),
        ("code", "x = 1\n\nx"),
        ("code", "print(x)"),
    ]
    assert [cell.id for cell in notebook.cells] == ["cell-01", "cell-02", "cell-03"]


@pytest.mark.parametrize(
    "text, complaint",
    [("x = 1\n# %%\n", "before the first"), ("# %% [markdown]\nnot a comment\n", "must start with '# '")],
)
def test_a_malformed_source_is_refused_with_the_line(tmp_path, text, complaint):
    source = tmp_path / "99-bad.py"
    source.write_text(text)
    with pytest.raises(ValueError, match=complaint):
        build.read_source(source)


CHART_HTML = (
    '<div class="amoeboid-chart" style="color: var(--jp-content-font-color1, #111111)">'
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 60 40">'
    '<text x="5" y="20" fill="currentColor">δ</text></svg></div>'
)


def test_a_committed_chart_shows_as_a_png_untrusted_and_compares_as_the_kernel_made_it():
    wrapped = build.wrap_pictures(CHART_HTML)
    assert '<img class="amb-fallback"' in wrapped and "data:image/png;base64," in wrapped
    assert '<span class="amb-live" style="display: none"><svg' in wrapped  # untrusted: hidden, text and all
    assert build.as_the_kernel_made_it(wrapped) == CHART_HTML
    from nbval.plugin import get_sanitize_patterns

    sanitised = wrapped
    for regex, replace in get_sanitize_patterns((LESSONS / "nbval-sanitize.cfg").read_text()):
        sanitised = re.sub(regex, replace, sanitised)
    assert sanitised == CHART_HTML  # nbval, reading the course's sanitising file, undoes it the same way


def test_a_position_gets_a_png_and_a_widget_keeps_its_placeholder():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><circle cx="9" cy="9" r="5"/></svg>'
    picture = nbformat.v4.new_output("display_data", data={"image/svg+xml": svg, "text/plain": "(1,0) . ."})
    widget = nbformat.v4.new_output("display_data", data={"image/svg+xml": svg, "text/plain": "▶ Run this cell",
                                                          build.WIDGET_VIEW: {"model_id": "x"}})
    build.add_untrusted_pictures(picture)
    build.add_untrusted_pictures(widget)
    png = base64.b64decode(picture.data["image/png"])
    assert png.startswith(b"\x89PNG") and struct.unpack(">II", png[16:24]) == (40, 30)
    assert "image/png" not in widget.data  # untrusted, JupyterLab shows the placeholder text


def test_a_built_lesson_keeps_the_kernels_language_info():
    notebook = nbformat.v4.new_notebook()
    kernel_info = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python", "file_extension": ".py"}
    notebook.metadata["language_info"] = dict(kernel_info)
    assert build.clean(notebook).metadata["language_info"] == kernel_info  # else JupyterLab marks it modified
