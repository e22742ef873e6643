"""A class's strategies from a folder: one hand-in per student, read here, run only in a sandbox worker.

What a hand-in may be:

- ``NAME.py``, one self-contained file defining ``strategy`` (a function, or an object with ``choose``) or a
  function ``choose`` (``lab.hand_in(my_strategy, "class/NAME")`` writes one from a notebook);
- ``NAME.ipynb``, whose code cell(s) tagged ``strategy`` hold it;
- ``NAME/strategy.py``, a folder of the student's own: ``strategy.py`` may import helper modules next to it.

The student's name is the file's (or the folder's) name.  Anything else that looks like a hand-in (a link, a named
pipe, a file named only ``.py``, a folder without ``strategy.py``) gets one "did not load" line saying why; names
starting with ``_`` or ``.`` and files of other kinds are the class's own and are passed over.

This process only reads the files as text (a notebook as JSON) into a :class:`StudentSource`; its text travels to
the worker as it is (the worker's load kind ``"source"``, :func:`~amoeboid_edu.lab.entrants._source_entry`) and is
compiled and run there, on whatever host the worker is, so no student code runs here.  (Unpickling a
:class:`StudentSource` also runs it, through :func:`load_source`.)
A single file's worker reads no folder of the class (a classmate's code stays private); a student folder is
readable to its own worker only, and comes last on its import path, so no file in it replaces a module of Python
or the libraries.  A class folder this process could import from is refused (:func:`read_folder`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import linecache
import os
import shutil
import stat
import sys
import tempfile
import types
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..sandbox.importpath import refuse_importable
from ..sandbox.text import not_a_formula, printable, shown, visible_spaces

NAME_WIDTH = 60
"""A student's name (from the file name) is cut to this many characters."""

STRATEGY_TAG = "strategy"


def marks_shown(name: str) -> str:
    """``name`` with its combining marks escaped (``jose\\u0301``) when it is not in NFC: two names that look the
    same (``josé`` typed as one letter, or as ``e`` and an accent) then read differently everywhere."""
    if unicodedata.is_normalized("NFC", name):
        return name
    return "".join(f"\\u{ord(c):04x}" if unicodedata.combining(c) else c for c in name)


NAME_READ = 1_000
"""Characters of a name read at all (a file name has at most 255 bytes; a name given from Python may be longer)."""


def shown_name(name: str) -> str:
    """A student's name as shown everywhere (terminal, leaderboard, results file), one-to-one: two different names
    never show alike.  The escape character ``\\`` is itself escaped, then combining marks (:func:`marks_shown`),
    invisible characters and hidden spaces are written out, and a leading ``'`` is written ``\\x27`` so that the
    ``'`` put before a spreadsheet formula (:func:`~amoeboid_edu.sandbox.text.not_a_formula`) is never the student's.
    A name longer than :data:`NAME_WIDTH` once escaped is cut there and ends with the number of characters cut and
    a short digest of the whole name, so two long names sharing their first characters still differ."""
    whole = name[:NAME_READ].replace("\\", "\\\\")
    escaped = visible_spaces(printable(marks_shown(whole)))
    if escaped.startswith("'"):
        escaped = "\\x27" + escaped[1:]
    if len(escaped) > NAME_WIDTH or len(name) > NAME_READ:
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
        more = len(escaped) - NAME_WIDTH + max(0, len(name) - NAME_READ)
        escaped = f"{escaped[:NAME_WIDTH]}… ({more} more, #{digest})"
    return not_a_formula(escaped)


class DidNotLoad(Exception):
    """A student's file could not give a strategy: the message names the file's line when there is one."""


@dataclass(frozen=True)
class StudentSource:
    """A student's source code; unpickling it (in the worker) runs it and gives the strategy."""

    name: str
    filename: str
    source: str
    function: str = ""
    """The function to play (``path.py:function``); empty: ``strategy``, else ``choose``."""
    folder: bool = False
    """A student folder's ``strategy.py``: its folder goes last on the worker's import path (helper modules)."""

    def __reduce__(self) -> tuple[Callable[[str, str, str, str, bool], object], tuple[str, str, str, str, bool]]:
        return load_source, (self.name, self.filename, self.source, self.function, self.folder)


def _line_of(error: BaseException, filename: str) -> int | None:
    if isinstance(error, SyntaxError) and error.filename == filename:
        return error.lineno
    line, frame = None, error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == filename:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def load_source(name: str, filename: str, source: str, function: str = "", folder: bool = False) -> object:
    """Run a student's file as module ``student_NAME`` and return its strategy (in the worker only): whatever the
    file names so, unchecked here (the sandbox worker's ``as_function`` refuses what is not a strategy).

    The source is what this worker was sent, not the file (whose folder it may not read): it is registered with
    ``linecache`` so that a message names the student's line with its text.
    """
    module = types.ModuleType(f"student_{name}")
    module.__file__ = filename
    sys.modules[module.__name__] = module
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    if folder and os.path.dirname(filename) not in sys.path:
        sys.path.append(os.path.dirname(filename))
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except BaseException as error:  # noqa: BLE001 - whatever the student's file does at import
        line = _line_of(error, filename)
        where = f" line {line}" if line else ""
        detail = error.msg if isinstance(error, SyntaxError) else str(error)
        raise DidNotLoad(f"{type(error).__name__}{where}: {detail}"[:300]) from None
    for attribute in (function,) if function else ("strategy", "choose"):
        if attribute in module.__dict__:
            return module.__dict__[attribute]
    wanted = f"'{function}'" if function else "'strategy' (nor 'choose')"
    raise DidNotLoad(f"{shown(Path(filename).name)} defines no {wanted}")


RESAVE = ": save it again from Jupyter, or hand in NAME.py (lab.hand_in)"


def _notebook_source(path: Path, text: str) -> str:
    """The tagged code cells of a notebook (``text``, read from ``path``), joined: any text, any JSON shape, any
    nesting gives a DidNotLoad."""
    try:
        notebook = json.loads(text)
    except RecursionError:
        raise DidNotLoad(f"not a readable notebook (nested too deep){RESAVE}") from None
    except ValueError as error:  # JSONDecodeError, and UnicodeDecodeError (a ValueError too)
        raise DidNotLoad(f"not a readable notebook ({type(error).__name__}){RESAVE}") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise DidNotLoad(f"not a readable notebook (it has no list of cells){RESAVE}")
    tagged = []
    for cell in cells:
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
        if isinstance(tags, list) and STRATEGY_TAG in tags and cell.get("cell_type") == "code":
            tagged.append(cell.get("source"))
    if not tagged:
        raise DidNotLoad(f"no code cell tagged '{STRATEGY_TAG}' in {shown(path.name)}: tag the cell that defines the "
                         f"strategy (JupyterLab: the property inspector, Cell Tags, add '{STRATEGY_TAG}') or hand in "
                         f"from the notebook with lab.hand_in(my_strategy, \"class/{shown(path.stem)}\") instead")
    texts = []
    for source in tagged:
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise DidNotLoad(f"not a readable notebook (a tagged cell's source is not text){RESAVE}")
        texts.append(source)
    text = "\n\n".join(texts)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # JSON may spell a lone surrogate (\ud800), which no file or worker can carry
        raise DidNotLoad(f"not a readable notebook (a tagged cell holds text that is not Unicode) in "
                         f"{shown(path.name)}") from None
    return text


STUDENT_FOLDER_FILE = "strategy.py"
"""A student folder ``NAME/`` is a hand-in when it holds this file."""


FOLDER_LIMIT = 10_000
"""The most entries a student folder may hold (all levels together): a deeper or bigger one is not read."""


HAND_IN_SUFFIXES = (".py", ".ipynb")

MiB = 1 << 20
SOURCE_LIMIT = 1 * MiB
"""The largest strategy file (``NAME.py``, or a ``.py`` in a student folder) read: a strategy is a few pages."""
NOTEBOOK_LIMIT = 8 * MiB
"""The largest notebook read (its pictures and outputs count): a 30 MB one tripled the scorer's memory."""
FOLDER_BYTES = 16 * MiB
"""The most bytes a student folder may hold, all its files together."""
FOLDER_DEPTH = 32
"""The deepest a student folder's copy may be nested (its removal at the end of the run recurses)."""


def _mib(size: int) -> str:
    return f"{size / MiB:.1f} MiB" if size % MiB else f"{size // MiB} MiB"


def too_big(name: str, size: int, limit: int) -> str:
    """Why a hand-in of ``size`` bytes is not read (its name escaped)."""
    return f"{shown(name)} is {_mib(size)}; the limit is {_mib(limit)}: hand in only the strategy's own code"


def _read_bytes(path: str | Path, limit: int, dir_fd: int | None = None, follow: bool = False) -> bytes:
    """The bytes of one plain file that only it names, read through one descriptor (so what was checked is what is
    read, whatever is renamed meanwhile); never through a link (unless ``follow``: a path the teacher gave, whose
    links are the teacher's), never blocking on a pipe.  DidNotLoad with the reason when it is something else or
    bigger than ``limit``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= 0 if follow else getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as error:
        if getattr(os, "O_NOFOLLOW", 0) and error.errno in (errno.ELOOP, errno.EMLINK):  # a link (Linux; BSD and macOS)
            raise DidNotLoad("a link, not read: hand in the file itself") from None
        raise
    with os.fdopen(fd, "rb") as file:
        status = os.fstat(fd)
        what = (None if stat.S_ISREG(status.st_mode) else _not_a_file(status)) if follow else _not_a_file(status)
        if what is not None:
            raise DidNotLoad(f"{what}, not read: hand in the file itself")
        if status.st_size > limit:
            raise DidNotLoad(too_big(os.path.basename(path), status.st_size, limit))
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise DidNotLoad(too_big(os.path.basename(path), len(data), limit))
    return data


RUN_BYTES = 64 * MiB
"""The most bytes copied for one run's student folders, all together, counted by apparent size (a sparse file
counts whole, as its copy is written whole): a size limit per hand-in does not bound a class."""
_run_bytes: dict[str, int] = {}
"""Bytes copied so far into each run's snapshot folder (:func:`hand_in_snapshots`), by its path."""


def folder_share(folders: int) -> int:
    """Each of ``folders`` student folders' fair share of a run's copy budget: :data:`RUN_BYTES` among them, at most
    :data:`FOLDER_BYTES`, so that no folder can spend another's (a class folder's and a tournament list's alike)."""
    return min(FOLDER_BYTES, RUN_BYTES // max(1, folders))


def _walk_folder(source: Path, into: Path | None = None, snapshot: str | None = None,
                 folder_bytes: int = FOLDER_BYTES) -> None:  # fmt: skip
    """Walk the student folder ``source`` once, through descriptors, with a list (not recursion) and never through a
    link.  DidNotLoad at the first link inside (symbolic, or a file with other names), naming it, or past
    :data:`FOLDER_LIMIT` entries.

    With ``into``, the folder is also copied there, so that what its worker reads is what was checked here, whatever
    the student does to the class folder later; the copy is refused too (DidNotLoad) when the folder holds anything
    but files and folders, folders nested more than :data:`FOLDER_DEPTH` deep (the copy's removal recurses), a
    ``.py`` file over :data:`SOURCE_LIMIT` or more than ``folder_bytes`` (:data:`FOLDER_BYTES`, or a class folder's
    fair share of :data:`RUN_BYTES`) in all, or, with ``snapshot`` (the run's folder it is
    copied into), when the run's copies would pass :data:`RUN_BYTES`.  Without ``into`` nothing is
    read, and the folder is refused as its copy would be, its files judged by their sizes (so that a folder counted
    for a share is one that can be copied); the walk never recurses, whatever the depth.  Each folder's descriptor
    is open until it is walked: a folder of many folders holds many at once."""
    by_fd = os.open in os.supports_dir_fd and os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")
    directory = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    first: int | str = os.open(source, directory) if by_fd else os.fspath(source)
    waiting: list[tuple[int | str, Path, int]] = [(first, Path(), 0)]
    entries = size = 0
    try:
        while waiting:
            place, inside, depth = waiting.pop()
            if depth > FOLDER_DEPTH:
                if isinstance(place, int):
                    os.close(place)
                raise DidNotLoad(f"nested more than {FOLDER_DEPTH} folders deep, not read: hand in only the "
                                 "strategy's own files")
            if into is not None:
                (into / inside).mkdir(mode=0o700)
            try:
                with os.scandir(place) as found:
                    for item in found:
                        entries += 1
                        if entries > FOLDER_LIMIT:
                            raise DidNotLoad(f"holds more than {FOLDER_LIMIT:,} files and folders, not read: hand in "
                                             "only the strategy's own files")
                        status = item.stat(follow_symlinks=False)
                        if stat.S_ISLNK(status.st_mode) or (stat.S_ISREG(status.st_mode) and status.st_nlink > 1):
                            raise DidNotLoad(f"holds a link ({shown(inside / item.name)}), not read: hand in the "
                                             "files themselves")
                        if stat.S_ISDIR(status.st_mode):
                            inner = os.open(item.name, directory, dir_fd=place) if isinstance(place, int) else item.path
                            waiting.append((inner, inside / item.name, depth + 1))
                            continue
                        if not stat.S_ISREG(status.st_mode):
                            raise DidNotLoad(f"holds {_not_a_file(status)} ({shown(inside / item.name)}), not read: "
                                             "hand in the files themselves")
                        limit = SOURCE_LIMIT if item.name.endswith(".py") else FOLDER_BYTES
                        if into is None:  # judged by its size, nothing read
                            if status.st_size > limit:
                                raise DidNotLoad(too_big(item.name, status.st_size, limit))
                            size += status.st_size
                            if size > folder_bytes:
                                raise DidNotLoad(_over(folder_bytes))
                            continue
                        data = (_read_bytes(item.name, limit, dir_fd=place) if isinstance(place, int)
                                else _read_bytes(item.path, limit))
                        size += len(data)
                        if size > folder_bytes:
                            raise DidNotLoad(_over(folder_bytes))
                        if snapshot is not None and _run_bytes.get(snapshot, 0) + len(data) > RUN_BYTES:
                            raise DidNotLoad(f"not copied: the class's student folders are over {_mib(RUN_BYTES)} "
                                             "in all, this run's limit: hand in only the strategy's own files")
                        if snapshot is not None:
                            _run_bytes[snapshot] = _run_bytes.get(snapshot, 0) + len(data)
                        copy = os.open(into / inside / item.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                        with os.fdopen(copy, "wb") as file:
                            file.write(data)
            finally:
                if isinstance(place, int):
                    os.close(place)
    finally:
        for place, _, _ in waiting:
            if isinstance(place, int):
                os.close(place)


def _over(folder_bytes: int) -> str:
    """Why a student folder whose files pass ``folder_bytes`` in all is not read."""
    share = "" if folder_bytes == FOLDER_BYTES else f", each folder's share of the class's {_mib(RUN_BYTES)}"
    return (f"its files are over {_mib(folder_bytes)} in all; the limit is {_mib(folder_bytes)}{share}: hand in only "
            "the strategy's own files")


SNAPSHOT_PREFIX = "amoeboid-hand-ins-"


def _remove_stale_snapshots() -> None:
    """Remove this user's ``amoeboid-hand-ins-PID-*`` folders whose process ``PID`` is gone (a run killed before its
    end, e.g. by SIGKILL): liveness is asked with ``os.kill(pid, 0)``, nothing of other programs is read."""
    place = tempfile.gettempdir()
    try:
        names = os.listdir(place)
    except OSError:
        return
    for name in names:
        pid_text = name[len(SNAPSHOT_PREFIX):].split("-", 1)[0] if name.startswith(SNAPSHOT_PREFIX) else ""
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        path = os.path.join(place, name)
        try:
            status = os.lstat(path)
            if not stat.S_ISDIR(status.st_mode) or status.st_uid != getattr(os, "getuid", lambda: status.st_uid)():
                continue
            os.kill(int(pid_text), 0)
        except ProcessLookupError:  # its run is gone: the copy is stale
            shutil.rmtree(path, ignore_errors=True)
        except (OSError, OverflowError, ValueError):  # alive (another user's: PermissionError), or not ours to judge
            continue


@contextlib.contextmanager
def hand_in_snapshots() -> Iterator[str]:
    """A folder of this run's own (mode 0700, named with this process's id) for the copies of hand-ins
    (:func:`read_folder`, and a list's files), removed with everything in it when the block ends; first, the copies
    of runs whose process is gone (killed) are removed."""
    _remove_stale_snapshots()
    place = tempfile.mkdtemp(prefix=f"{SNAPSHOT_PREFIX}{os.getpid()}-")
    try:
        yield place
    finally:
        try:
            shutil.rmtree(place)
        except (OSError, RecursionError):  # never the end of a finished run; the folder is private to this user
            pass


def _not_a_file(status: os.stat_result) -> str | None:
    """Why a hand-in's path is not one plain file that only it names (never followed, never opened), or None."""
    mode = status.st_mode
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISREG(mode):
        return "a file with other names (a hard link)" if status.st_nlink > 1 else None
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((what for test, what in kinds if test(mode)), "not a regular file")


def _hand_ins(folder: Path) -> list[Path]:
    """What in ``folder`` is, or looks like, a hand-in: ``*.py`` and ``*.ipynb`` of any kind (a link, a pipe...),
    and every folder; names starting with ``_`` or ``.`` are the class's own (``__pycache__``,
    ``.ipynb_checkpoints``), except a file named only ``.py`` or ``.ipynb``, which is a hand-in without a name."""
    found = []
    for path in folder.iterdir():
        if path.name.startswith(("_", ".")) and path.name not in HAND_IN_SUFFIXES:
            continue
        if path.suffix in HAND_IN_SUFFIXES or path.name in HAND_IN_SUFFIXES or _maybe_folder(path):
            found.append(path)
    return sorted(found)


def _maybe_folder(path: Path) -> bool:
    """Whether ``path`` is, or may be, a folder (a link to one included): what cannot be looked at (a link into a
    folder this user may not enter) is kept too, and :func:`_entrant_check` gives it its one line."""
    try:
        return path.is_dir()
    except OSError:
        return True


def _entrant_check(path: Path) -> tuple[str | None, bool]:
    """Whether ``path`` (a candidate of :func:`_hand_ins`) becomes an entrant: why not (one line, escaped) or None,
    and whether it is a student folder.  The one predicate of :func:`read_folder`, asked once per hand-in at the
    start of the run, by ``lstat`` (no link followed): the fair share of the copy budget counts exactly the student
    folders it accepts, and only those are copied.  Whatever the path is (a folder this user may not enter, one
    that vanished), the answer is a line, never an exception."""
    try:
        status = path.lstat()
        reason = _why_not_read(path, status)
    except OSError as error:  # it vanished or cannot be looked at: the tournament goes on
        return shown(f"not read ({type(error).__name__}: {error.strerror or error})"), False
    except (RecursionError, MemoryError) as error:  # whatever the folder is, the tournament goes on
        return shown(f"not read ({type(error).__name__})"), False
    return reason, reason is None and stat.S_ISDIR(status.st_mode)


def _why_not_read(path: Path, status: os.stat_result) -> str | None:
    """Why a hand-in (``NAME.py``, ``NAME.ipynb`` or a folder ``NAME/``, whose ``lstat`` is ``status``) is not read
    at all, or None: one reason, saying what to hand in instead.  A student folder is walked as its copy will be
    (:func:`_walk_folder`): one that holds a link, anything but files and folders, or more than its limits is
    refused here."""
    if path.name in HAND_IN_SUFFIXES:
        return f"a file with no name before {path.name}, not read: name it after the student (NAME{path.name})"
    if stat.S_ISDIR(status.st_mode) and path.suffix not in HAND_IN_SUFFIXES:  # a student folder
        inside = path / STUDENT_FOLDER_FILE
        try:
            status = inside.lstat()
        except FileNotFoundError:
            return (f"a folder without {STUDENT_FOLDER_FILE}, not read: put the strategy in "
                    f"{shown(path.name, NAME_WIDTH)}/{STUDENT_FOLDER_FILE}, or hand in one file NAME.py")
        what = _not_a_file(status)
        if what is not None:
            return f"its {STUDENT_FOLDER_FILE} is {what}, not read: hand in the file itself"
        try:
            _walk_folder(path)
        except DidNotLoad as error:
            return str(error)
        return None
    # never followed: a link could name the contest's seed file, whose text would come back in the load error on
    # the leaderboard; never opened: a named pipe would block the reading for good
    what = _not_a_file(status)
    return None if what is None else f"{what}, not read: hand in the file itself"


def read_folder(folder: str | Path, snapshot: str | None = None) -> tuple[list[StudentSource], list[tuple[str, str]]]:
    """The students of ``folder`` (see the module's docstring for what a hand-in may be), sorted by name.

    Returns the sources, and ``(name, reason)`` for each hand-in that cannot even be read (not UTF-8, any
    notebook that is not one with a tagged cell, a link, a named pipe, a folder without ``strategy.py``, a file
    named only ``.py``, a file or folder over its size limit), both escaped; a source that fails to run is found
    out by its worker.  Each file is read once, here, through one descriptor; with ``snapshot`` (a folder of the
    run's own, :func:`hand_in_snapshots`) each student folder is copied there and its worker reads the copy, so a
    folder swapped for a link during the run changes nothing.  ValueError when ``folder`` holds no hand-in, or when
    this process could import from it (:func:`refuse_importable`).
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{shown(folder)} is not a folder of strategies")
    refuse_importable(folder)
    files = _hand_ins(folder)
    if not files:
        raise ValueError(f"{shown(folder)} holds no strategy files (NAME.py, NAME.ipynb or NAME/strategy.py)")
    stems = [p.stem for p in files]
    # every hand-in is judged once, now (_entrant_check): each student folder's fair share of the run's copy budget
    # is counted over exactly the folders that become entrants, and only those are copied, so neither junk folders
    # nor folders that gain a strategy.py during the run can shrink or spend an honest folder's share
    checked = {path: _entrant_check(path) for path in files}
    share = folder_share(sum(folder for _, folder in checked.values()))
    sources, unread = [], []
    for path in files:
        reason, student_folder = checked[path]
        # a file name is the student's word: escaped and cut like anything else they say (it reaches the terminal,
        # the chart renderer and the results file); a folder that shares its name with a file shows as NAME/
        plain = path.stem if stems.count(path.stem) == 1 else path.name + ("/" if _maybe_folder(path) else "")
        name = shown_name(plain)
        if reason is not None:
            unread.append((name, reason))
            continue
        try:
            if student_folder and snapshot is not None:
                copy = Path(tempfile.mkdtemp(dir=snapshot)) / path.name
                _walk_folder(path, copy, snapshot, folder_bytes=share)
                path = copy
            if student_folder:
                path = path / STUDENT_FOLDER_FILE
            limit = SOURCE_LIMIT if path.suffix == ".py" else NOTEBOOK_LIMIT
            # utf-8-sig: an editor's byte-order mark is not part of the code
            text = _read_bytes(path, limit).decode("utf-8-sig")
            if path.suffix != ".py":
                text = _notebook_source(path, text)
        except UnicodeDecodeError as error:
            unread.append((name, f"not UTF-8 text (bad byte at offset {error.start})"))
            continue
        except DidNotLoad as error:
            unread.append((name, shown(error)))
            continue
        except (OSError, RecursionError, MemoryError) as error:  # whatever the file is, the tournament goes on
            unread.append((name, shown(f"not read ({type(error).__name__}: {error})")))
            continue
        sources.append(StudentSource(name, str(path.resolve()), text, folder=student_folder))
    return sources, unread


__all__ = ["DidNotLoad", "StudentSource", "folder_share", "hand_in_snapshots", "load_source", "read_folder",
           "shown_name", "too_big"]
