"""The course carried inside the wheel, and ``amoeboid course [DIR]``: copy it out, trust it, open it.

A teacher or student who installed the package (``pip install "amoeboid-edu[course]"``) has no repository to
open, so the wheel carries the lessons (``amoeboid_edu/_course``: the student editions, and the teacher's
editions under ``solutions/``).  :func:`copy_course` copies them into a folder of the user's; a file there that
differs from the shipped one (a student's answers) is never replaced without a yes, or ``force``.  The copies are
then trusted (their outputs are the course's own, so the charts and boards show at once) and, unless
``--no-browser``, JupyterLab opens on lesson 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Callable

SHIPPED = Path(__file__).resolve().parents[1] / "_course"
"""The lessons inside an installed wheel (filled by the wheel build; absent in an editable install)."""
REPOSITORY_LESSONS = Path(__file__).resolve().parents[2] / "lessons"
"""The lessons of a repository checkout, used when the package is installed editable from it."""
DEFAULT_DIR = "amoeboid-course"
START = "01-start-here.ipynb"
OPENSPIEL = "open-spiel==2.0.2"
"""Lesson 12's extra, installed on demand where it is missing (Binder leaves it out: 215 MB for one appendix)."""
VL_CONVERT = "vl-convert-python==1.9.0.post1"
"""What draws a live chart beside a board (lessons 4, 6, 7), installed on demand where it is missing (Binder leaves
it out to stay under 500 MB; its static charts are drawn by vega-embed in the page instead)."""
EXTRAS = {"pyspiel": "openspiel", "vl_convert": "charts"}
"""The package's extra that brings each module installed on demand, named in the message when pip fails."""


def course_source() -> Path:
    """Where this installation's lessons are: inside the wheel, else the repository's ``lessons/``."""
    for place in (SHIPPED, REPOSITORY_LESSONS):
        if (place / START).is_file():
            return place
    raise ValueError("this installation carries no lessons: reinstall the package from its wheel "
                     "(pip install \"amoeboid-edu[course]\")")


def course_files(teacher: bool = False) -> list[tuple[Path, str]]:
    """``(shipped file, relative destination)`` of the student editions, plus the teacher's editions if ``teacher``."""
    source = course_source()
    files = [(path, path.name) for path in sorted(source.glob("*.ipynb"))]
    files += [(source / name, name) for name in ("LICENSE",) if (source / name).is_file()]
    if teacher:
        files += [(path, f"solutions/{path.name}") for path in sorted((source / "solutions").glob("*.ipynb"))]
        files += [(source / "TEACHERS.md", "TEACHERS.md")] if (source / "TEACHERS.md").is_file() else []
    return files


@dataclass
class CopyReport:
    """What :func:`copy_course` did to each file, by its path relative to the folder."""

    folder: Path
    copied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Files that differ from the shipped ones (a student's work) and were left as they are."""

    def lines(self) -> list[str]:
        shown = [f"{len(self.copied)} copied, {len(self.unchanged)} already up to date, "
                 f"{len(self.replaced)} replaced, {len(self.kept)} kept into {self.folder}"]
        shown += [f"kept {name}: it differs from the course's copy (your changes?); --force replaces it"
                  for name in self.kept]
        return shown


def copy_course(folder: str | os.PathLike, teacher: bool = False, force: bool = False,
                ask: Callable[[str], bool] | None = None) -> CopyReport:
    """Copy the lessons into ``folder`` (created if missing).

    A file that already exists and differs from the shipped one is replaced only with ``force`` or when
    ``ask(relative name)`` says yes; otherwise it is kept and listed in the report's ``kept``.
    """
    target = Path(folder).expanduser()
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target} is a file, not a folder: give another DIR")
    report = CopyReport(target.resolve() if target.exists() else target.absolute())
    for shipped, name in course_files(teacher):
        destination = target / name
        data = shipped.read_bytes()
        if destination.exists():
            if destination.is_file() and destination.read_bytes() == data:
                report.unchanged.append(name)
                continue
            if not (force or (ask is not None and ask(name))):
                report.kept.append(name)
                continue
            bucket = report.replaced
        else:
            bucket = report.copied
        try:
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(data)
        except OSError as error:
            raise ValueError(f"cannot write {destination}: {error.strerror or error}") from None
        bucket.append(name)
    return report


def trust(paths: list[Path]) -> str:
    """Sign the notebooks as trusted (their outputs are the course's own); a line saying what was done."""
    if find_spec("nbformat") is None:
        return "not trusted: nbformat is missing (pip install \"amoeboid-edu[course]\")"
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    for path in paths:
        notary.sign(nbformat.read(path, as_version=nbformat.NO_CONVERT))
    return f"trusted {len(paths)} notebook(s)"


def jupyterlab_command(folder: Path) -> list[str] | None:
    """The command that opens JupyterLab on lesson 1 of ``folder``, or None if JupyterLab is not installed."""
    if find_spec("jupyterlab") is None:
        return None
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}",
               f"--LabApp.default_url=/lab/tree/{START}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # (a container's root user: Jupyter refuses it otherwise)
    return command


def ensure_installed(requirement: str = OPENSPIEL, module: str = "pyspiel") -> None:
    """Install ``requirement`` into this kernel's environment if ``module`` cannot be imported, saying so first.

    For a lesson's first cell: an optional extra arrives on demand (a minute, once) instead of in every
    environment.  Nothing is printed when the module is already there.
    """
    if find_spec(module) is not None:
        return
    print(f"Installing {requirement} for this lesson (under a minute, once)...", flush=True)
    # --no-compile: Python compiles (and caches) only the modules the lesson imports; pip would first compile all of
    # SciPy, which takes several times as long as the install itself
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-compile", requirement],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        extra = EXTRAS.get(module, "course")
        raise RuntimeError(f"could not install {requirement} ({last}); install it yourself with "
                           f"pip install \"amoeboid-edu[{extra}]\" and restart the kernel")
    import importlib

    importlib.invalidate_caches()
    print(f"Installed {requirement}.", flush=True)


def open_course(folder: str | os.PathLike | None = None, teacher: bool = False, force: bool = False,
                browser: bool = True, ask: Callable[[str], bool] | None = None,
                say: Callable[[str], None] = print) -> int:
    """``amoeboid course``: copy, trust, then open JupyterLab (unless ``browser`` is False); an exit status."""
    report = copy_course(folder if folder is not None else DEFAULT_DIR, teacher=teacher, force=force, ask=ask)
    for line in report.lines():
        say(line)
    notebooks = [report.folder / name for name in report.copied + report.replaced + report.unchanged
                 if name.endswith(".ipynb")]
    say(trust(notebooks))
    command = jupyterlab_command(report.folder)
    if command is None:
        say(f"JupyterLab is not installed: pip install \"amoeboid-edu[course]\", then jupyter lab {report.folder}")
        return 0
    if not browser:
        say(f"open it with: jupyter lab {report.folder}  (lesson 1 is {START})")
        return 0
    say(f"opening JupyterLab on {report.folder / START} (Ctrl+C here to stop it)")
    return subprocess.call(command, cwd=report.folder)


__all__ = ["DEFAULT_DIR", "OPENSPIEL", "CopyReport", "copy_course", "course_files", "course_source", "ensure_installed",
           "open_course", "trust"]
