"""An append-only CSV of finished games that survives a crash: resume plays only what is missing.

Each row is appended, flushed and fsynced as soon as its game is known, so a
kill (even SIGKILL) loses at most the games being played.  A torn last line (the
kill came mid-write) is cut off when the file is opened again.  Every row
carries ``run``, a fingerprint of everything that decides its rows (not the
seed itself: the file may be shared while the seed stays secret), so rows of
another run are refused instead of mixed in.  What went into the fingerprint is
kept beside the file (``results.run.json``, :func:`run_file`: the seed only as a
digest), so a refusal can say what differs.  :meth:`Ledger.finish` rewrites the
file sorted by its key (atomically), so a finished run's file is the same
whatever the executor or the interruptions.
"""

from __future__ import annotations

import csv
import errno
import hashlib
import io
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence, TextIO

from ..sandbox.text import shown

Key = tuple[str, ...]
"""A row's key: its ``key`` columns' values, as text."""
Row = dict[str, str]
"""A recorded row: every column's value as the CSV holds it."""

SHOWN_DIFFERENCES = 4
"""A refusal names at most this many differences, then says how many more."""


NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def refuse_link(path: Path) -> None:
    """ValueError (one line, what to do) when ``path`` exists and is not one plain file of its own: a link planted
    where an output goes would make this process write (or trust) whatever file it names."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(status.st_mode) or not stat.S_ISREG(status.st_mode) or status.st_nlink > 1:
        what = "a link" if stat.S_ISLNK(status.st_mode) or stat.S_ISREG(status.st_mode) else "not a file"
        raise ValueError(f"{shown(path)} is {what}, not written: remove it, or choose another --out in a folder "
                         "of your own")


def write_whole(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` whole: into a fresh file that only this call made (``mkstemp``, in the same
    folder), fsynced, then renamed over ``path``, so a link planted at ``path`` (or at any ``.tmp`` name) is
    replaced, never written through."""
    where = Path(path)
    refuse_link(where)
    descriptor, temporary = tempfile.mkstemp(dir=where.parent or ".", prefix=f".{where.name}.", suffix=".tmp")
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, 0o644)  # as a file the teacher made: readable to share (it holds no seed)
        with os.fdopen(descriptor, "w", newline="", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, where)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _others_may_write(status: os.stat_result) -> bool:
    """Whether a folder with this ``stat`` may be written by anyone but this user: world-writable, another user's,
    or group-writable by a group with another member.  A group of this user alone (Debian's and Ubuntu's user
    private groups, whose umask 002 makes every new folder group-writable) is not "others".  Off POSIX (no
    ``getuid``) the mode bits say nothing, and nothing is refused."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return False
    if status.st_mode & stat.S_IWOTH or status.st_uid != getuid():
        return True
    if not status.st_mode & stat.S_IWGRP:
        return False
    try:
        import grp
        import pwd

        me = pwd.getpwuid(getuid()).pw_name
        members = set(grp.getgrgid(status.st_gid).gr_mem)
        members |= {user.pw_name for user in pwd.getpwall() if user.pw_gid == status.st_gid}
    except (ImportError, KeyError):  # a group or user without a name: assume others
        return True
    return bool(members - {me})


def refuse_shared_folder(out: str | os.PathLike[str], class_folders: Sequence[str] = ()) -> None:
    """ValueError (one line, what to do) when the results file ``out`` would lie in a folder that others can write
    to (group or world writable, or not this user's), or inside a class folder: a student could then plant a link
    there, or a results file of their own that a resumed run would trust."""
    folder = Path(os.path.abspath(out)).parent
    for place in class_folders:
        inside = os.path.realpath(place)
        if os.path.realpath(folder) == inside or os.path.realpath(folder).startswith(inside.rstrip(os.sep) + os.sep):
            raise ValueError(f"--out {shown(os.fspath(out))} is inside the class folder {shown(place)}: write the "
                             "results to a folder of your own, e.g. --out ~/results/results.csv")
    try:
        status = os.stat(folder)
    except OSError:
        return  # made by this run (mkdir), as this user
    if _others_may_write(status):
        raise ValueError(f"--out {shown(os.fspath(out))}: its folder {shown(folder)} can be written by others, who "
                         "could plant links or forged results there: choose a folder only you can write to")


def fingerprint(*settings: object) -> str:
    """A short, stable digest of the settings that decide every game."""
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:16]


def run_file(path: str | os.PathLike[str]) -> Path:
    """Where a results file's run description is kept: ``results.csv`` -> ``results.run.json``."""
    return Path(path).with_suffix(".run.json")


def differences(before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What differs between two run descriptions (``{"settings": {label: text}, "entrants": [[name, code], ...]}``).

    A setting is shown with both values (``batch: 50 -> 10``), except ``seed``, which is a digest; an entrant by name
    (added, removed, its code changed), and a changed order (the order decides who plays first in each pairing).
    """
    found = []
    old_settings, new_settings = dict(before.get("settings") or {}), dict(now.get("settings") or {})
    for label in dict.fromkeys([*new_settings, *old_settings]):
        old, new = old_settings.get(label), new_settings.get(label)
        if old != new:
            found.append(f"the {label} differs" if label == "seed" else f"{label}: {old} -> {new}")
    old_entrants = {str(name): code for name, code in before.get("entrants") or []}
    new_entrants = {str(name): code for name, code in now.get("entrants") or []}
    added = [name for name in new_entrants if name not in old_entrants]
    removed = [name for name in old_entrants if name not in new_entrants]
    changed = [name for name in new_entrants if name in old_entrants and old_entrants[name] != new_entrants[name]]
    found += [f"{name}'s code changed" for name in changed]
    found += [f"{name} added" for name in added] + [f"{name} gone" for name in removed]
    common = [name for name in new_entrants if name in old_entrants]
    if not found and common != [name for name in old_entrants if name in new_entrants]:
        found.append("the entrants' order changed")
    return found


class Ledger:
    """The rows of ``path`` (columns ``fields``, ``run`` first), keyed by the ``key`` columns; None: in memory only.

    ``described``: what the fingerprint ``run`` was made of (see :func:`differences`), kept in :func:`run_file` so
    that a refusal can name what differs.  ``earlier``: fingerprints an earlier version of the caller wrote for these
    settings, each with the reason such a file cannot be resumed.
    """

    def __init__(self, path: str | Path | None, fields: Sequence[str], key: Sequence[str], run: str,
                 described: Mapping[str, Any] | None = None, earlier: Mapping[str, str] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.fields, self.key, self.run = ["run", *fields], list(key), run
        self.described = None if described is None else {"run": run, **described}
        self.earlier = dict(earlier or {})
        self.rows: dict[Key, Row] = {}
        self.conflicts: list[Key] = []
        self._file: TextIO | None = None
        if self.path is not None:
            try:
                self._open(self.path)
            except OSError as error:
                if error.errno not in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a link put there meanwhile
                    raise
                raise ValueError(f"{shown(self.path)} was swapped for a link, not written: remove it, or choose "
                                 "another --out in a folder of your own") from None

    def _key(self, row: Mapping[str, object]) -> Key:
        return tuple(str(row[column]) for column in self.key)

    def _open(self, path: Path) -> None:
        refuse_link(path)
        refuse_link(run_file(path))
        data = b""
        if path.exists():
            with open(os.open(path, os.O_RDONLY | NOFOLLOW), "rb") as existing:
                data = existing.read()
        if data:
            complete = data[: data.rfind(b"\n") + 1]  # a torn last line: the game is played again
            try:
                reader = csv.DictReader(io.StringIO(complete.decode("utf-8"), newline=""))
                header = reader.fieldnames
                rows = list(reader)
            except (UnicodeDecodeError, csv.Error) as error:
                raise ValueError(f"{shown(path)} is not a results file of this tool ({shown(error)})") from None
            if header is not None and header != self.fields:
                raise ValueError(f"{shown(path)} is not a results file of this tool (its columns differ)")
            other = next((row["run"] for row in rows if row["run"] != self.run), None)
            if other is not None:  # refused before anything in the file or beside it changes
                raise ValueError(self._another_run(path, other))
            if len(complete) < len(data) or header is None:  # a torn line; or the kill came before the header
                descriptor = os.open(path, os.O_WRONLY | NOFOLLOW)
                try:
                    os.ftruncate(descriptor, len(complete) if header is not None else 0)
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
            for row in rows:
                self.rows[self._key(row)] = row
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._describe(path)
        # appended to through a descriptor that never follows a link (one planted meanwhile is refused)
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o644)
        self._file = open(descriptor, "a", newline="", encoding="utf-8")
        if self._file.tell() == 0:
            self._write(self._file, [dict(zip(self.fields, self.fields))])

    def _another_run(self, path: Path, other: str) -> str:
        """The one-line refusal of a file whose rows carry the fingerprint ``other``: what differs, if known."""
        start_again = "choose another --out, or delete it to start again"
        if other in self.earlier:
            return f"{shown(path)} {self.earlier[other]}: {start_again}"
        found: list[str] = []
        try:
            with open(os.open(run_file(path), os.O_RDONLY | NOFOLLOW), encoding="utf-8") as described:
                before = json.loads(described.read())
            if isinstance(before, dict) and before.get("run") == other and self.described is not None:
                found = differences(before, self.described)
        except (OSError, ValueError, TypeError, AttributeError):
            pass  # no description beside the file, or not one of ours: say what the fingerprint covers
        if not found:
            covered = ", ".join((self.described or {}).get("settings", {})) or "the settings"
            found = [f"its fingerprint differs: {covered}, the entrants or their code"]
        more = len(found) - SHOWN_DIFFERENCES
        listed = "; ".join(shown(item) for item in found[:SHOWN_DIFFERENCES])
        listed += f"; and {more} more" if more > 0 else ""
        return f"{shown(path)} holds games of another run ({listed}): {start_again}"

    def _describe(self, path: Path) -> None:
        """Keep what the fingerprint was made of beside the file (written whole, then renamed over)."""
        if self.described is None:
            return
        where = run_file(path)
        text = json.dumps(self.described, indent=1, ensure_ascii=False) + "\n"
        try:
            with open(os.open(where, os.O_RDONLY | NOFOLLOW), encoding="utf-8") as existing:
                if existing.read() == text:
                    return
        except (OSError, UnicodeDecodeError):
            pass
        write_whole(where, text)

    def _write(self, file: TextIO, rows: Iterable[Row]) -> None:
        writer = csv.DictWriter(file, self.fields, lineterminator="\n")
        writer.writerows(rows)
        file.flush()
        os.fsync(file.fileno())

    def add(self, rows: Iterable[Mapping[str, object]]) -> list[Row]:
        """Append the rows not recorded yet (durably); returns them.

        A replayed game keeps its recorded row; if the replay differs (only timing can
        make it: a move near the per-move limit), its key goes to ``conflicts``.
        """
        new = []
        for given in rows:
            row = {"run": self.run, **{column: "" if given[column] is None else str(given[column])
                                       for column in self.fields[1:]}}  # fmt: skip
            key = self._key(row)
            if key in self.rows:
                if self.rows[key] != row:
                    self.conflicts.append(key)
                continue
            self.rows[key] = row
            new.append(row)
        if new and self._file is not None:
            self._write(self._file, new)
        return new

    def finish(self) -> None:
        """Close, and rewrite the file sorted by key (write a copy, fsync, rename over)."""
        self.close()
        if self.path is None:
            return
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, self.fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows[key] for key in sorted(self.rows, key=_natural))
        write_whole(self.path, text.getvalue())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _natural(key: Key) -> tuple[tuple[int, int, str], ...]:
    """Numbers in ASCII digits by value, anything else as text ("²³".isdigit() is true, but not a number to int)."""
    return tuple((0, int(part), "") if part.isascii() and part.isdigit() else (1, 0, part) for part in key)


__all__ = ["Ledger", "differences", "fingerprint", "refuse_link", "refuse_shared_folder", "run_file", "write_whole"]
