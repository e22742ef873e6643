"""Handing in a notebook's strategy: ``hand_in(my_strategy, "class/nina")`` writes the file a tournament loads.

The file holds the function and everything it uses from the notebook, written from the notebook's sources;
nothing of it is run here (the tournament runs the file in its sandbox).
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
from pathlib import Path
from typing import Any, Iterator

from ..players.strategy import Strategy, as_function
from ..sandbox.text import shown


class Refused(ValueError):
    """A call the lab refuses (a wrong argument, a file it cannot play), and what to change: shown in a notebook as
    its one line, without a traceback into the lab (the student's cell is the only code concerned)."""

    def _render_traceback_(self) -> list[str]:  # IPython's hook for how an exception is shown
        return [f"{type(self).__name__}: {self}"]


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """Around the checks a lab call makes before its first game: a ValueError they raise (a refusal, deep in the
    lab) leaves the call as one :class:`Refused` with the same message and no chained traceback."""
    try:
        yield
    except Refused:
        raise
    except ValueError as error:
        raise Refused(str(error)) from None


class HandInRefused(Refused):
    """Why a strategy cannot be handed in, and what to change (:class:`Refused`)."""


_GLOBAL_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"})


def _global_names(code: types.CodeType) -> list[str]:
    """The global names ``code`` (and the functions and classes nested in it) reads, in order of first use."""
    import dis

    names: dict[str, None] = {}
    for instruction in dis.get_instructions(code):
        if instruction.opname in _GLOBAL_LOADS and isinstance(instruction.argval, str):
            names[instruction.argval] = None
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names.update(dict.fromkeys(_global_names(constant)))
    return list(names)


def notebook_helpers(strategy: object) -> list[tuple[str, str]]:
    """The modules a notebook's strategy uses (itself, or through the notebook's functions it calls) that a worker
    could not import: modules of files beside the notebook (``import myhelpers``, ``from myhelpers import
    biggest``), found on the notebook's import path but not on the libraries' (:func:`library_path`).  Each as
    ``(module, file)``: ``("myhelpers", "myhelpers.py")``.  Nothing is imported or run to find them."""
    from ..sandbox.importpath import caller_path, library_path

    path = caller_path()
    kept = {os.path.realpath(entry) for entry in library_path(path)}
    # the folders of the notebook's import path that a worker leaves out: the notebook's own ('', the current folder)
    dropped = {os.path.realpath(entry or os.curdir) for entry in path if isinstance(entry, str)} - kept
    found: dict[str, str] = {}
    seen: set[int] = set()
    pending = [getattr(strategy, "__func__", strategy)]
    while pending:
        function = pending.pop()
        code, names = getattr(function, "__code__", None), getattr(function, "__globals__", None)
        if id(function) in seen or not isinstance(code, types.CodeType) or not isinstance(names, dict):
            continue
        seen.add(id(function))
        for name in _global_names(code):
            value = names.get(name)
            if isinstance(value, types.FunctionType) and value.__globals__ is names:
                pending.append(value)  # a helper of the same notebook
                continue
            module = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if not isinstance(module, str) or module in ("__main__", "builtins", names.get("__name__")):
                continue
            top = module.split(".")[0]
            file = getattr(sys.modules.get(top), "__file__", None)
            if top in found or top == __name__.split(".")[0] or not isinstance(file, str):
                continue
            place = Path(os.path.realpath(file))
            folder = place.parent.parent if place.name == "__init__.py" else place.parent
            if str(folder) in dropped and str(folder) not in kept:  # a module of the notebook's folder
                found[top] = f"{place.parent.name}/" if place.name == "__init__.py" else place.name
    return sorted(found.items())


def helpers_advice(owner: str, helpers: list[tuple[str, str]]) -> str:
    """Why a notebook's strategy that imports files beside the notebook cannot be played or handed in as it is,
    and the two ways to do it: one line."""
    modules = ", ".join(shown(module) for module, _ in helpers)
    files = " and ".join(shown(file) for _, file in helpers)
    return (f"{shown(owner)} uses {modules} ({files} beside the notebook), but a strategy plays in a sandbox that "
            "sees only the function and the notebook cells it uses, not the files beside the notebook: put the "
            f"helper's code in a notebook cell, or hand in a folder NAME/ holding strategy.py and {files}")


class _HandIn:
    """The text of a hand-in: the imports, plain values and definitions a strategy of a notebook uses."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace, self.module = namespace, namespace.get("__name__")
        self.imports: dict[str, None] = {}
        self.values: dict[str, str] = {}
        self.definitions: dict[str, str] = {}  # dependencies first
        self.seen: set[str] = set()

    def uses(self, owner: str, code: types.CodeType) -> None:
        for name in _global_names(code):
            if name not in self.seen and name in self.namespace:
                self.seen.add(name)
                self.add(owner, name, self.namespace[name])

    def add(self, owner: str, name: str, value: object) -> None:
        import ast

        if isinstance(value, types.ModuleType):
            module = value.__name__
            self.imports[f"import {module}" if module == name else f"import {module} as {name}"] = None
            return
        if isinstance(value, (types.FunctionType, type)) and getattr(value, "__module__", None) == self.module:
            self.define(name, value)
            return
        where = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        if (isinstance(where, str) and isinstance(qualname, str) and "." not in qualname
                and getattr(sys.modules.get(where), qualname, None) is value):
            self.imports[f"from {where} import {qualname}" + (f" as {name}" if name != qualname else "")] = None
            return
        try:
            text = repr(value)
            if ast.literal_eval(text) == value:
                self.values[name] = f"{name} = {text}"
                return
        except Exception:  # noqa: BLE001 - not a plain value: said below
            pass
        raise HandInRefused(f"{owner} uses {shown(name)}, a {type(value).__name__} made in the notebook, which cannot be "
                         f"written into a file: define it inside {owner}, or in a function {owner} calls")

    def define(self, name: str, value: types.FunctionType | type) -> None:
        import inspect
        import textwrap

        try:
            source = textwrap.dedent(inspect.getsource(value))
        except (OSError, TypeError):
            raise HandInRefused(f"cannot find the source of {shown(name)}: run its cell again, then hand in") from None
        first = source.lstrip().split("(")[0].split(":")[0].split()
        defines = first[-1] if first and first[0] in ("def", "class") else None
        if not defines:  # a lambda: named by the variable it was assigned to, if any
            named = name if name.isidentifier() else next(
                (key for key, item in self.namespace.items() if item is value and key.isidentifier()), None)
            shape = f"'def {shown(named)}(...)'" if named else "a def with a name, e.g. 'def my_strategy(...)'"
            raise HandInRefused(f"{shown(named) if named else 'this strategy'} is a lambda, not defined with def or "
                             f"class: write it as {shape}")
        if defines != name:  # a function kept under another name: the file needs the name
            source = f"{source.rstrip()}\n\n{name} = {defines}\n"
        functions: list[Any] = [value] if isinstance(value, types.FunctionType) else [
            item for item in vars(value).values() if isinstance(item, (types.FunctionType, staticmethod, classmethod))]
        for base in getattr(value, "__bases__", ()):
            if base.__name__ in self.namespace and base.__name__ not in self.seen:
                self.seen.add(base.__name__)
                self.add(name, base.__name__, base)
        for function in functions:
            function = getattr(function, "__func__", function)
            self.uses(name, function.__code__)
        self.definitions[name] = source

    def text(self, student: str, function: str) -> str:
        parts = [f"# {student}'s strategy for the class tournament: {function} and everything it uses, as the "
                 "notebook defined them\n# (written by amoeboid_edu.lab.hand_in; the line numbers in the "
                 "tournament's messages are this file's)",
                 "\n".join(self.imports), "\n".join(self.values.values()),
                 *(definition.rstrip() for definition in self.definitions.values())]
        if function != "strategy":
            parts.append(f"strategy = {function}")
        return "\n\n\n".join(part for part in parts if part) + "\n"


def hand_in(strategy: Strategy, to: str | os.PathLike[str], name: str | None = None) -> Path:
    """Write ``strategy`` (a function of this notebook) into the file a class tournament loads: ``to`` names it
    (``"class/nina"`` or ``"class/nina.py"`` -> ``class/nina.py``, entered as *nina*); returns its path.  ``to``
    may be a folder (``"class/"``, or one that exists) if ``name`` is given: ``hand_in(f, "class/", name="nina")``
    writes ``class/nina.py``.

    The file holds the function and everything it uses from the notebook, whatever the cells: the functions and
    classes it calls (and what they use), the modules and names it imports, and plain values (numbers, text,
    lists...), with ``strategy = <its name>`` at the end.  Nothing is run: the tournament runs the file in its
    sandbox.  :class:`HandInRefused` (a ValueError), naming what to change, for what cannot be written into a
    file (e.g. a Position made in the notebook: build it inside the function, or a lambda).  Handing in again
    replaces the file.
    """
    if not isinstance(strategy, types.FunctionType):
        raise HandInRefused(f"hand in a function (position, roll, rng) -> turn, not {shown(type(strategy).__name__)}")
    as_function(strategy)
    text = os.fspath(to)
    path = Path(text)
    if text.endswith(("/", os.sep)) or path.is_dir():  # a folder: the file inside it is named after the student
        if name is None:
            raise HandInRefused(f"{shown(repr(text))} is a folder: give the file's name too, e.g. "
                                f"hand_in({strategy.__name__}, {shown(repr(str(path / 'sam')))}), or "
                                f"hand_in({strategy.__name__}, {shown(repr(text))}, name=\"sam\")")
        path = path / name
    elif name is not None:
        raise HandInRefused(f"name={shown(repr(name))} is for a folder, and {shown(repr(text))} names a file: "
                            f"give one of them, e.g. hand_in({strategy.__name__}, {shown(repr(text))})")
    path = path if path.suffix == ".py" else path.with_name(path.name + ".py")
    if path.stem.startswith(("_", ".")) or not path.stem or path.is_dir():
        raise HandInRefused(f"hand_in(..., {shown(repr(text))}): name the file after yourself, e.g. "
                            "hand_in(my_strategy, \"class/nina\") (a name that does not start with '_' or '.')")
    helpers = notebook_helpers(strategy)
    if helpers:
        raise HandInRefused(f"{helpers_advice(strategy.__name__, helpers)} (e.g. "
                            f"{shown(str(path.with_suffix('') / 'strategy.py'))}); hand_in writes only the notebook's "
                            "own code")
    writer = _HandIn(strategy.__globals__)
    writer.seen.add(strategy.__name__)
    writer.define(strategy.__name__, strategy)
    source = writer.text(path.stem, strategy.__name__)
    compile(source, str(path), "exec")  # a file that would not even parse is our bug: raise here, not in the contest
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


__all__ = ["HandInRefused", "Refused", "hand_in", "helpers_advice", "notebook_helpers", "refusals"]
