"""An append-only CSV of finished games that survives a crash: resume plays only what is missing.

Each row is appended, flushed and fsynced as soon as its game is known, so a
kill (even SIGKILL) loses at most the games being played.  A torn last line (the
kill came mid-write) is cut off when the file is opened again.  Every row
carries ``run``, a fingerprint of the settings that decide the games (not the
seed itself: the file may be shared while the seed stays secret), so rows of
another run are refused instead of mixed in.  :meth:`Ledger.finish` rewrites the
file sorted by its key (atomically), so a finished run's file is the same
whatever the executor or the interruptions.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
from pathlib import Path
from typing import Iterable, Sequence


def fingerprint(*settings: object) -> str:
    """A short, stable digest of the settings that decide every game."""
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:16]


class Ledger:
    """The rows of ``path`` (columns ``fields``, ``run`` first), keyed by the ``key`` columns; None: in memory only."""

    def __init__(self, path: str | Path | None, fields: Sequence[str], key: Sequence[str], run: str) -> None:
        self.path = None if path is None else Path(path)
        self.fields, self.key, self.run = ["run", *fields], list(key), run
        self.rows: dict[tuple, dict] = {}
        self.conflicts: list[tuple] = []
        self._file = None
        if self.path is not None:
            self._open()

    def _key(self, row: dict) -> tuple:
        return tuple(str(row[column]) for column in self.key)

    def _open(self) -> None:
        if self.path.exists() and self.path.stat().st_size:
            data = self.path.read_bytes()
            complete = data[: data.rfind(b"\n") + 1]  # a torn last line: the game is played again
            if len(complete) < len(data):
                with open(self.path, "r+b") as file:
                    file.truncate(len(complete))
                    os.fsync(file.fileno())
            try:
                reader = csv.DictReader(io.StringIO(complete.decode("utf-8"), newline=""))
                header = reader.fieldnames
                rows = list(reader)
            except (UnicodeDecodeError, csv.Error) as error:
                raise ValueError(f"{self.path} is not a results file of this tool ({error})") from None
            if header is not None and header != self.fields:
                raise ValueError(f"{self.path} is not a results file of this tool (its columns differ)")
            for row in rows:
                if row["run"] != self.run:
                    raise ValueError(f"{self.path} holds games of another run (other seed, board or turn limit): "
                                     "choose another --out, or delete the file to start again")
                self.rows[self._key(row)] = row
            if header is None:  # the kill came before the header was complete
                self.path.write_text("")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", newline="", encoding="utf-8")
        if self._file.tell() == 0:
            self._write([dict(zip(self.fields, self.fields))])

    def _write(self, rows: Iterable[dict]) -> None:
        writer = csv.DictWriter(self._file, self.fields, lineterminator="\n")
        writer.writerows(rows)
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, rows: Iterable[dict]) -> list[dict]:
        """Append the rows not recorded yet (durably); returns them.

        A replayed game keeps its recorded row; if the replay differs (only timing can
        make it: a move near the per-move limit), its key goes to ``conflicts``.
        """
        new = []
        for row in rows:
            row = {"run": self.run, **{column: "" if row[column] is None else str(row[column])
                                       for column in self.fields[1:]}}  # fmt: skip
            key = self._key(row)
            if key in self.rows:
                if self.rows[key] != row:
                    self.conflicts.append(key)
                continue
            self.rows[key] = row
            new.append(row)
        if new and self._file is not None:
            self._write(new)
        return new

    def finish(self) -> None:
        """Close, and rewrite the file sorted by key (write a copy, fsync, rename over)."""
        self.close()
        if self.path is None:
            return
        copy = self.path.with_name(self.path.name + ".tmp")
        with open(copy, "w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, self.fields, lineterminator="\n")
            writer.writeheader()
            writer.writerows(self.rows[key] for key in sorted(self.rows, key=_natural))
            file.flush()
            os.fsync(file.fileno())
        os.replace(copy, self.path)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _natural(key: tuple) -> tuple:
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in key)


__all__ = ["Ledger", "fingerprint"]
