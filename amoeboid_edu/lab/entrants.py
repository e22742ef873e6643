"""Who plays: a strategy as the harness ships it (:class:`Entry`), its name, and a tournament's entrants.

A baseline bot runs in the harness's process; anything else is untrusted code for a sandboxed worker, and is
never run here: a target ``"module:function"`` or ``"path/to/file.py:function"`` is checked as text, a notebook's
function travels by value (cloudpickle), a class folder's hand-ins are read as text (:mod:`.roster`).
"""

from __future__ import annotations

import ast
import collections
import hashlib
import io
import os
import pickle
import sys
import tempfile
import types
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, Union

from ..players.registry import BOTS
from ..players.tracebacks import CALLED_FROM, TIMED_CELL
from .handin import _global_names, helpers_advice, notebook_helpers
from ..players.strategy import Strategy, as_function, strategy_name
from ..sandbox.text import printable, shown
from ..sandbox.importpath import caller_path
from .roster import (FOLDER_BYTES, SOURCE_LIMIT, STUDENT_FOLDER_FILE, DidNotLoad, StudentSource, _not_a_file,
                     _read_bytes, _walk_folder, folder_share, read_folder, shown_name)

# --------------------------------------------------------------------------- who plays


SourceIndex = tuple[tuple[str, int, int, str, tuple[str, ...]], ...]
"""``(function name, first line, last line, file, lines)`` of each function of a pickled strategy."""
Strategies = Union[str, "os.PathLike[str]", Iterable[Union[Strategy, str]], Mapping[str, Union[Strategy, str]]]
"""What a tournament plays: a class folder, a list of strategies, or strategies by name."""


@dataclass(frozen=True)
class Entry:
    """A strategy as the harness ships it: a trusted bot by name, or untrusted code for a worker."""

    name: str
    bot: str | None = None  # a key of BOTS: runs here, in the harness process
    load: dict[str, Any] = field(default_factory=dict)  # how the worker loads it
    payload: bytes = b""  # the cloudpickle bytes, for load == "pickle"
    code: str = ""  # a digest of its source, for a tournament's fingerprint (see _code_digest)
    sources: SourceIndex = ()  # for a pickled strategy, its functions' lines as this process sees them (_source_index)
    file: str = ""  # the hand-in's file as the teacher knows it (escaped), for the run's description: who is who
    origin: str = ""  # a student folder's own place (resolved when it was copied): a seed file there is refused

    @property
    def trusted(self) -> bool:
        return self.bot is not None


def _parse_target(target: str) -> dict[str, Any]:
    """``"module:function"``, ``"path/to/file.py:function"`` or ``"path/to/file.py"`` (its function chosen by
    :func:`_pick_function`) as a worker load request (checked, not run).

    A module is looked for on the caller's import path (:func:`~amoeboid_edu.sandbox.importpath.caller_path`, without
    importing anything); the folder it lies in (``root``) is given to that worker only, never to this process.
    A folder is a student folder, as in a class folder: its ``strategy.py`` is played, its other files are its
    helper modules (:func:`_file_entry`).
    """
    if os.path.isdir(target):
        inside = os.path.join(target, STUDENT_FOLDER_FILE)
        if not os.path.isfile(inside):
            raise ValueError(f"strategy {shown(repr(target))}: a folder is played as a student folder is, its strategy "
                             f"in {shown(inside)} (there is none) and its helper modules beside it")
        return {"load": "file", "file": os.path.abspath(inside), "name": _pick_function(inside, target)}
    if target.endswith(".py") and os.path.isfile(target):  # no ':function': the file says which (_pick_function)
        return {"load": "file", "file": os.path.abspath(target), "name": _pick_function(target, target)}
    where, colon, name = target.rpartition(":")
    if not colon and target.endswith(".py"):
        try:  # a named pipe, a folder...: say what it is (stat never opens it)
            what = _not_a_file(os.stat(target))
        except OSError:
            what = None
        if what is not None:
            raise ValueError(f"strategy {shown(repr(target))}: {what}, not read: hand in the file itself")
        raise ValueError(f"strategy {shown(repr(target))}: no such file {shown(target)}")
    if not colon and target.strip().isidentifier():  # score("always_eat"): the function's name, in quotes
        word = target.strip()
        bot = next((f"; the bot {bot!r}?" for bot in BOTS if bot.casefold() == word.casefold()), "")
        name = shown(word, 60)  # named three times: kept short, so the line stays a line
        if os.path.isfile(f"{word}.py"):  # `amoeboid score alice` beside alice.py: the file, its suffix left out
            raise ValueError(f"strategy {shown(repr(target), 60)} is neither a bot's name nor a file{bot}; to play the "
                             f"file {name}.py, write its whole name: {name}.py")
        raise ValueError(f"strategy {shown(repr(target), 60)} is neither a bot's name nor a file nor "
                         f"MODULE:FUNCTION{bot}; to play your function {name}, pass the function itself, without the "
                         f"quotes: {name}, not {shown(repr(word), 60)}")
    if not colon or not where or not name.isidentifier():
        raise ValueError(f"strategy {shown(repr(target))}: expected MODULE:FUNCTION or path/to/file.py:FUNCTION")
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ValueError(f"strategy {shown(repr(target))}: no such file {shown(where)}")
        _check_defines(where, name, target)
        return {"load": "file", "file": os.path.abspath(where), "name": name}
    if not all(part.isidentifier() for part in where.split(".")):
        raise ValueError(f"strategy {shown(repr(target))}: the part before ':' is not a module name")
    file = _module_file(where)
    if file is not None and file.endswith(".py"):
        _check_defines(file, name, target)
    root = _module_root(where, caller_path())
    return {"load": "import", "module": where, "name": name, **({"root": root} if root else {})}


def opponent_list(opponents: object, strategies: bool) -> list[Any]:
    """``opponents`` as a list: a single name (``"greedy"``) is a list of one, not of its letters.  ValueError, one
    line, for a name that is no bot (nor, with ``strategies``, a target: ``FILE.py:FUNCTION``, ``FILE.py``,
    ``MODULE:FUNCTION`` or a folder), offering the bot it matches but for case (``"Greedy"``) or the bots' names,
    and for what is not a list of names."""
    bots = ", ".join(sorted(BOTS))
    offer = (f"bot names from {bots} or strategies (functions, or FILE.py:FUNCTION)" if strategies
             else f"bot names from {bots}")
    if isinstance(opponents, str):
        opponents = [opponents]
    elif isinstance(opponents, (Mapping, bytes)) or not isinstance(opponents, Iterable):
        raise ValueError(f"opponents=: give a list of {offer}, e.g. opponents=[\"greedy\", \"paper\"], not "
                         f"{shown(type(opponents).__name__)}")
    given = list(opponents)
    if not given:
        raise ValueError(f"opponents=[] is empty: give a list of {offer}, e.g. opponents=[\"greedy\"]")
    for name in given:
        if not isinstance(name, str):
            if strategies:
                continue
            raise ValueError(f"opponents=: a tournament's opponents are {offer}, not {shown(repr(name))}; a strategy "
                             "of yours enters as one of the strategies instead")
        if name in BOTS or (strategies and (":" in name or name.endswith(".py") or os.path.isdir(name))):
            continue
        alike = [bot for bot in BOTS if bot.casefold() == name.strip().casefold()]
        if len(alike) == 1:
            raise ValueError(f"opponents are {offer}, not {shown(repr(name))}: did you mean {alike[0]!r}? (a bot's "
                             "name is written in small letters)")
        raise ValueError(f"opponents are {offer}, not {shown(repr(name))} (a list of names, e.g. "
                         "opponents=[\"greedy\", \"paper\"])")
    twice = next((name for k, name in enumerate(given) if isinstance(name, str) and name in BOTS
                  and name in given[:k]), None)  # fmt: skip
    if twice is not None:  # a game's dice are keyed by its table, which a bot's name names: one table per bot
        raise ValueError(f"opponents=: {twice!r} is listed twice; list each bot once (play more games with games=)")
    return given


def _module_root(module: str, path: Sequence[str]) -> str | None:
    """The entry of ``path`` where the top package of ``module`` lies (found without importing it), or None."""
    from importlib.machinery import PathFinder

    top = module.split(".")[0]
    if top in sys.builtin_module_names:
        return None
    for place in path:
        try:
            if PathFinder.find_spec(top, [os.path.abspath(place or os.curdir)]) is not None:
                return os.path.abspath(place or os.curdir)
        except (ImportError, ValueError, OSError):
            continue
    return None


def student_name(text: str) -> str:
    """An entrant's name as shown everywhere, in every mode (a class folder, a list, names given from Python): the
    student's word escaped one-to-one and cut to ``NAME_WIDTH``, never a formula (:func:`.roster.shown_name`)."""
    return shown_name(text)


ENTRY_FUNCTIONS = ("strategy", "choose")
"""The functions every hand-in defines: an entrant is named after its file alone when it plays one of them."""


def _target_name(request: dict[str, Any]) -> str:
    """Whose strategy a target is: the file's name (``class/nina.py`` -> nina; ``class/nina/strategy.py`` -> nina)
    or the module's last part, followed by ``:function`` unless that is ``strategy`` or ``choose`` (so two
    functions of one file keep two names).  Never the bare function name "strategy" of every hand-in."""
    if request["load"] == "file":
        path = Path(request["file"])
        owner = path.parent.name if path.name == "strategy.py" and path.parent.name else path.stem
    else:
        owner = request["module"].rsplit(".", 1)[-1]
    return owner if request["name"] in ENTRY_FUNCTIONS else f"{owner}:{request['name']}"


READ_AHEAD_LIMIT = 1 << 20
"""Largest source file read here to check the function's name before any game (a bigger one is checked by loading)."""


PARSE_PIECES = 30_000
"""The most words and symbols of a student's text parsed in this process (a strategy of a few thousand lines).
Python's parser takes up to about a kilobyte per piece (``x = [a,a,a,...]``: 750 MB for a 1 MiB file), so a parse
here costs at most some tens of megabytes; a bigger text is left to its worker, which runs under its own limits."""

PIECE_CHARACTERS = 40
"""A text longer than this many characters per piece of :data:`PARSE_PIECES` is too big without counting."""
_KINDS = bytes(ord("a") if chr(byte).isalnum() or byte == ord("_") or byte >= 0x80
               else ord(" ") if chr(byte).isspace() else ord(".") for byte in range(256))
"""Each byte as its kind for :func:`_pieces`: ``a`` of a word (any byte of a non-ASCII letter), `` `` space, ``.`` a
symbol."""


def _pieces(text: str | bytes) -> int:
    """About how many words and symbols ``text`` has: each ASCII symbol, and each run of word characters.  Counted
    in C on one copy of the text (a regular expression's ``subn`` makes an object per piece)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    kinds = data.translate(_KINDS)
    return kinds.count(b".") + kinds.count(b" a") + kinds.count(b".a") + kinds.startswith(b"a")


def _within_parse_bound(text: str | bytes) -> bool:
    """Whether ``text`` has at most :data:`PARSE_PIECES` words and symbols, so that parsing or compiling it here
    costs a bounded memory (counted by :func:`_pieces`, two copies of the text)."""
    if len(text) > PIECE_CHARACTERS * PARSE_PIECES:
        return False
    return len(text) <= PARSE_PIECES or _pieces(text) <= PARSE_PIECES


def parse_student_text(text: str | bytes, filename: str = "<hand-in>") -> ast.Module | str:
    """A student's source parsed (never run) in this process, at a bounded cost: the tree, or why not, one escaped
    line: ``SyntaxError line N: ...`` (also for a text Python refuses to decode), or that it has more than
    :data:`PARSE_PIECES` words and symbols and is left to its worker.

    The one place the trusted side parses student text (names for a hand-in's entry function, syntax before a game):
    its pieces are counted first (:func:`_pieces`: memory, two copies of the text), and only a text within the bound
    reaches :func:`ast.parse`."""
    if not _within_parse_bound(text):
        return (f"too big to check here (over {PARSE_PIECES:,} words and symbols): "
                "its worker reads it, under the sandbox's limits")
    try:
        return ast.parse(text, filename)
    except SyntaxError as error:
        where = f" line {error.lineno}" if error.lineno else ""
        return shown(f"{type(error).__name__}{where}: {error.msg}")
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, nesting, a bad encoding declaration
        return shown(f"SyntaxError: {type(error).__name__}: {error}")


def _top_level(text: str | bytes) -> tuple[list[str], list[str], set[str]] | None:
    """What a strategy file's top level defines, read as text and parsed, never run: the names of its functions and
    classes, those of its functions a strategy could be (callable with ``(position, roll, rng)``), and the names
    that some other statement (an assignment, an import, a loop...) may make or mention.  None when the text does
    not parse within :func:`parse_student_text`'s bound, or when ``from ... import *`` could make any name."""
    tree = parse_student_text(text)
    if isinstance(tree, str):
        return None
    defined: list[str] = []
    players: list[str] = []
    elsewhere: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.append(node.name)
            if isinstance(node, ast.FunctionDef) and _takes_three(node.args):
                players.append(node.name)
        elif isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
            return None
        else:
            elsewhere.update(_names_in(node))
    return defined, players, elsewhere


def _names_in(node: ast.AST) -> set[str]:
    """Every name a statement could bind or spell: its variables, imports, nested definitions, ``global`` names and
    string constants (``globals()["strategy"] = ...``)."""
    names: set[str] = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Name):
            names.add(item.id)
        elif isinstance(item, ast.alias):
            names.add(item.asname or item.name.split(".")[0])
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(item.name)
        elif isinstance(item, (ast.Global, ast.Nonlocal)):
            names.update(item.names)
        elif isinstance(item, ast.Constant) and isinstance(item.value, str):
            names.add(item.value)
        elif isinstance(item, ast.ExceptHandler) and item.name:
            names.add(item.name)
    return names


def _takes_three(arguments: ast.arguments) -> bool:
    """Whether a function with these ``ast.arguments`` can be called with three positional arguments and no other."""
    positional = len(arguments.posonlyargs) + len(arguments.args)
    required_keywords = [default for default in arguments.kw_defaults if default is None]
    return (positional - len(arguments.defaults) <= 3 and (positional >= 3 or arguments.vararg is not None)
            and not required_keywords)


def _read_text(file: str) -> bytes | None:
    """A strategy file's bytes for :func:`_top_level`, or None when it is too big or cannot be read."""
    try:  # one descriptor, never blocking: the path may be swapped for a named pipe meanwhile
        return _read_bytes(file, READ_AHEAD_LIMIT, follow=True)
    except (OSError, DidNotLoad):
        return None


def _refuse_syntax_error(text: bytes, file: str, target: str) -> None:
    """Refuse a strategy file that Python cannot compile, now and in one line (its line, its text and the error),
    rather than play every game as a load forfeit: the text is compiled, never run, and only within the bound of
    :func:`parse_student_text` (a bigger text is left to its worker)."""
    if not _within_parse_bound(text):
        return
    try:
        compile(text, file, "exec", dont_inherit=True)
    except SyntaxError as error:  # IndentationError and TabError too
        line = (error.text or "").strip()
        where = f"line {error.lineno}" if error.lineno else "it"
        raise ValueError(f"strategy {shown(repr(target))}: {shown(Path(file).name)} has a {type(error).__name__} on "
                         f"{where}" + (f" ({shown(error.msg)})" if error.msg else "")
                         + (f": {shown(line)}" if line else "") + "; fix that line, then run this again") from None
    except (ValueError, RecursionError, MemoryError):  # null bytes, nesting too deep: the worker says so
        return


def _check_defines(file: str, name: str, target: str) -> None:
    """Refuse ``FILE.py:name`` now, naming the functions the file does define, when its top level defines no
    ``name``: read as text and parsed, never run (the student's code only ever runs in a worker).  A file that
    cannot be read or parsed, or that makes names some other way (``import``, ``globals()``), is left to the worker."""
    text = _read_text(file)
    if text is not None:
        _refuse_syntax_error(text, file, target)
    found = None if text is None else _top_level(text)
    if found is None or name in found[0] or name in found[2]:
        return
    functions = [n for n in found[0] if n.isidentifier()]
    offer = f"it defines {shown(', '.join(functions))}" if functions else "it defines no function at its top level"
    raise ValueError(f"strategy {shown(repr(target))}: {shown(Path(file).name)} defines no {shown(name)} ({offer}); "
                     f"give one of its functions after the ':'")


def _pick_function(file: str, target: str) -> str:
    """The function to play of a file given without ``:function``: ``strategy`` (the documented name), else the one
    function of its top level that takes ``(position, roll, rng)``; ValueError (one line listing the candidates)
    when there are none or several.  A file that cannot be read or parsed is left to the worker (as ``strategy``:
    its message then names the student's line)."""
    text = _read_text(file)
    if text is not None:
        _refuse_syntax_error(text, file, target)
    found = None if text is None else _top_level(text)
    if found is None or "strategy" in found[0] or "strategy" in found[2]:
        return "strategy"
    defined, players, _ = found
    if len(players) == 1:
        return players[0]
    named = shown(Path(file).name)
    if players:
        listed = shown(", ".join(players))
        raise ValueError(f"strategy {shown(repr(target))}: {named} defines no 'strategy' but {len(players)} functions "
                         f"that take (position, roll, rng): {listed}; say which one to play after a ':', e.g. "
                         f"{shown(target)}:{shown(players[0])}")
    others = f" (it defines {shown(', '.join(defined))})" if defined else ""
    raise ValueError(f"strategy {shown(repr(target))}: {named} defines no function that takes (position, roll, rng)"
                     f"{others}: write one, def strategy(position, roll, rng): ..., or give the function to play "
                     f"after a ':' ({shown(target)}:NAME)")


def _missing_entry(source: StudentSource) -> str | None:
    """Why a class folder's hand-in cannot give a strategy, found by reading its text (never run) before any worker
    starts: its top level defines functions, but neither ``strategy`` nor ``choose``.  The reason names the functions it
    does define (escaped) and how to name the one to play; None when it defines one, when it defines no function at
    all (its worker then reports what running it gives), or when only running it can tell."""
    if source.function:
        return None
    found = _top_level(source.source)
    if found is None or any(name in found[0] or name in found[2] for name in ENTRY_FUNCTIONS):
        return None
    defined, players, _ = found
    if not defined:  # nothing to point at: its worker says what running it gives (an error at import, say)
        return None
    file = shown(Path(source.filename).name)
    where = "its cell tagged 'strategy'" if source.filename.endswith(".ipynb") else file
    pick = (players or defined)[0]
    return (f"{file} defines no 'strategy' (it defines {shown(', '.join(defined))}): name the one to play strategy, "
            f"e.g. add the line strategy = {shown(pick)} at the end of {where}, or hand it in with "
            f"lab.hand_in({shown(pick)}, \"class/NAME\")")


_MODULE_NAMES = frozenset({"__name__", "__file__", "__doc__", "__builtins__", "__spec__", "__loader__", "__package__"})


def _global_stores(codes: Iterable[types.CodeType]) -> set[str]:
    """The names the functions of ``codes`` (and those nested in them) assign as globals (``global x; x = 1``)."""
    import dis

    names: set[str] = set()
    for code in codes:
        names.update(str(instruction.argval) for instruction in dis.get_instructions(code)
                     if instruction.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"))
        names |= _global_stores(constant for constant in code.co_consts if isinstance(constant, types.CodeType))
    return names


def _untagged_helpers(source: StudentSource) -> str | None:
    """Why a notebook hand-in would fail in every game, found by reading its tagged cells (compiled, never run): its
    functions call names that no tagged cell defines, as when the strategy's cell is tagged and its helpers' cells
    are not (only tagged cells are read).  None when every name is defined, or when only running it can tell."""
    import builtins

    if not source.filename.endswith(".ipynb"):
        return None
    found = _top_level(source.source)  # None beyond parse_student_text's bound: nothing is compiled here then
    if found is None:
        return None
    try:
        code = compile(source.source, source.filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # its worker says what is wrong
        return None
    functions = [constant for constant in code.co_consts if isinstance(constant, types.CodeType)]
    known = set(found[0]) | found[2] | set(dir(builtins)) | _MODULE_NAMES | _global_stores(functions)
    used: dict[str, None] = {}
    for function in functions:  # a function (or class) of the tagged cells
        used.update(dict.fromkeys(name for name in _global_names(function) if name not in known))
    if not used:
        return None
    names = shown(", ".join(used))
    file = shown(Path(source.filename).name)
    return (f"{file}: only its cells tagged 'strategy' are read, and they use {names}, which no tagged cell defines: "
            f"tag the cell that defines {'it' if len(used) == 1 else 'each'} too, or hand in from the notebook with "
            f"lab.hand_in(my_strategy, \"class/{shown(source.name)}\") (it writes the helpers into the file)")


def entry(strategy: Strategy | str, name: str | None = None) -> Entry:
    """How ``strategy`` will be run: a baseline bot (name or function) here, anything else in a worker.

    Its name: ``name``, else the student's file or module name for a target, else the function's name.
    """
    if name is not None:
        name = student_name(name)
    if isinstance(strategy, str):
        if strategy in BOTS:
            return Entry(name or strategy, bot=strategy)
        request = _parse_target(strategy)
        return Entry(name or student_name(_target_name(request)), load=request)
    for bot_name, bot in BOTS.items():
        if strategy is bot:
            return Entry(name or bot_name, bot=bot_name)
    as_function(strategy)  # a clear TypeError now rather than a forfeit per game
    helpers = notebook_helpers(strategy)
    if helpers:  # its worker could not import them: every game would be a load forfeit
        raise ValueError(helpers_advice(strategy_name(strategy), helpers))
    import cloudpickle

    try:
        payload = cloudpickle.dumps(strategy)
    except Exception as error:
        raise ValueError(f"cannot send strategy {shown(strategy_name(strategy))} to a worker process: {shown(error)}") from None
    return Entry(name or student_name(strategy_name(strategy)), load={"load": "pickle"}, payload=payload,
                 sources=_source_index(strategy))


SOURCE_INDEX_LIMIT = 200
"""Functions indexed per strategy (its own, nested ones and the helpers it calls) for naming a forfeit's line."""


def _source_index(strategy: Strategy) -> SourceIndex:
    """``(function name, first line, last line, file, lines)`` for the strategy's function, the code nested in it and
    the functions of its globals that it uses (helpers from other cells), read here from ``linecache`` (a notebook
    cell's source is in this kernel's memory).

    A worker names where a pickled strategy raised by file, line and function; what the file is called depends on
    the cloudpickle release (the cell's file name up to 3.1.2, ``<dynamic-code>`` from 3.1.3), so the line is found
    here by function name and line range instead, with nothing but Python's own code objects.
    """
    import linecache

    index: list[tuple[str, int, int, str, tuple[str, ...]]] = []
    seen: set[types.CodeType] = set()
    pending: list[object] = [as_function(strategy)]
    while pending and len(index) < SOURCE_INDEX_LIMIT:
        function = pending.pop()
        code = getattr(function, "__code__", None)
        if not isinstance(code, types.CodeType) or code in seen:
            continue
        codes = [code]
        while codes:
            current = codes.pop()
            if current in seen:
                continue
            seen.add(current)
            lines = [line for _, _, line in current.co_lines() if line is not None]
            first, last = current.co_firstlineno, max(lines, default=current.co_firstlineno)
            text = tuple(linecache.getline(current.co_filename, n) for n in range(first, last + 1))
            if current.co_filename == TIMED_CELL and not any(text):
                text = _timed_cell_lines(current.co_name, first, last)
            index.append((current.co_name, first, last, current.co_filename, text))
            codes += [const for const in current.co_consts if isinstance(const, types.CodeType)]
            names = getattr(function, "__globals__", {})
            pending += [names[n] for n in current.co_names if isinstance(names.get(n), types.FunctionType)]
    return tuple(index)


def _timed_cell_lines(function: str, first: int, last: int) -> tuple[str, ...]:
    """Lines ``first`` to ``last`` of the body of the ``%%time`` cell that defines ``function``, from IPython's history
    of the cells as typed (IPython keeps no other copy of a timed cell's body); empty outside IPython or when no
    such cell is found (the latest cell whose line ``first`` defines ``function`` is taken)."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)()
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if not isinstance(history, list):
        return ()
    for cell in reversed(history):
        if not isinstance(cell, str) or not cell.lstrip().startswith("%%time"):
            continue
        body = cell.lstrip().partition("\n")[2].splitlines(keepends=True)
        if len(body) >= last and body[first - 1].lstrip().startswith(("def ", "async def ", "@", "class ")) \
                and function in body[first - 1]:
            return tuple(body[first - 1:last])
    return ()


def _with_source(where: object, sources: SourceIndex) -> object:
    """The worker's ``[file, line, function, source]`` with the line's text (and real file) from ``sources`` when the
    worker could not read it: the innermost indexed function of that name whose lines hold that line."""
    if not sources or not (isinstance(where, list) and len(where) == 4 and isinstance(where[1], int)
                           and isinstance(where[2], str) and isinstance(where[3], str)) or where[3].strip():
        return where
    _, lineno, name, _ = where
    library, _, caller = name.rpartition(CALLED_FROM)  # raised in a library: the student's line that called it
    found = [item for item in sources if item[0] == caller and item[1] <= lineno <= item[2]]
    if not found:
        return where
    function, first, last, file, text = min(found, key=lambda item: item[2] - item[1])
    return [file, lineno, f"{library}{CALLED_FROM}{function}" if library else function, text[lineno - first]]


def _entrants(strategies: Strategies, opponents: Sequence[str],
              snapshot: str | None = None) -> tuple[dict[str, Entry], list[tuple[str, str]]]:
    """The entries by unique name (a folder's students, or the given strategies), the bots, and the unreadable files.

    ``snapshot``: the run's own folder where a class's student folders are copied (:func:`.roster.read_folder`)."""
    opponents = opponent_list(opponents, strategies=False) if opponents else []
    unread: list[tuple[str, str]] = []
    if isinstance(strategies, (str, os.PathLike)) and os.path.isdir(strategies):
        sources, unread = read_folder(os.fspath(strategies), snapshot)
        items = []
        importers = _class_imports(sources)
        for source in sources:
            missing = _helper_of(source, importers) or _missing_entry(source) or _untagged_helpers(source)
            if missing:
                unread.append((source.name, missing))
            else:
                items.append(_source_entry(source))
    elif isinstance(strategies, (str, os.PathLike)):
        raise ValueError(f"{shown(os.fspath(strategies))} is not a folder: give a folder of strategy files or a list "
                         "of strategies")
    else:
        given: Iterable[tuple[str | None, Strategy | str]] = (
            strategies.items() if isinstance(strategies, Mapping) else [(None, strategy) for strategy in strategies])
        items, made = [], []
        for name, strategy in given:
            try:
                made.append((strategy, entry(strategy, name)))
            except ValueError as error:
                # a file's name may hold a ':' (evil:x.py): a target ending in .py is a file, as in _parse_target
                file = ("" if not isinstance(strategy, str) else strategy if strategy.endswith(".py")
                        else strategy.rpartition(":")[0])
                if not file.endswith(".py"):
                    raise
                # one student's file that cannot give a strategy: one line, and the tournament goes on
                unread.append((student_name(name or _target_name({"load": "file", "file": file, "name": "strategy"})),
                               str(error)))
        share = _list_share(item for _, item in made)
        for strategy, item in made:
            if item.load.get("load") == "file":  # read here as text, like a class folder's file: see _file_entry
                item, reason = _file_entry(item, snapshot, share)
                if reason:
                    unread.append((item.name, reason))
                    continue
                items.append(item)
            else:
                items.append(replace(item, code=_code_digest(strategy, item)))
    bots = [str(item.bot) for item in items if item.trusted]
    twice = next((bot for k, bot in enumerate(bots) if bot in bots[:k] or bot in opponents), None)
    if twice is not None:  # a bot's games against an entrant are keyed by the bot's name: a second copy repeats them
        where = ("in the strategies and in opponents=: name each bot once, in one of the two lists"
                 if twice in opponents else "twice in the strategies: name each bot once")
        raise ValueError(f"the bot {twice!r} is named {where} (its games against each entrant would be played twice "
                         "with the same dice; play more with games=)")
    entries: dict[str, Entry] = {}
    for item in [*items, *(Entry(o, bot=o, code=f"bot {o}") for o in opponents)]:
        name, number = item.name, 2
        while name in entries or (not item.trusted and name in opponents):
            name, number = f"{item.name} {number}", number + 1
        entries[name] = replace(item, name=name)
    return entries, unread


def _class_imports(sources: Sequence[StudentSource]) -> dict[str, list[str]]:
    """For a class folder's hand-ins: each module name that a single file or a notebook's tagged cells import
    (outside a ``try``), with the files that import it (``myhelpers`` -> ``[dave.py]``).  Texts beyond
    :func:`parse_student_text`'s bound are passed over."""
    found: dict[str, list[str]] = {}
    for source in sources:
        if source.folder:  # a student folder imports its own helpers
            continue
        tree = parse_student_text(source.source)
        if isinstance(tree, str):
            continue
        for module in _unguarded_imports(tree):
            found.setdefault(module, []).append(Path(source.filename).name)
    return found


def _own_folder(stem: str) -> str:
    return f"put both in a folder {shown(stem)}/ with strategy.py ({shown(stem)}/strategy.py and the helper beside it)"


def _helper_of(source: StudentSource, importers: Mapping[str, Sequence[str]]) -> str | None:
    """Why a single file of a class folder is not an entrant when it is a helper module of another: it defines no
    ``strategy`` (nor ``choose``) and another hand-in imports it (``myhelpers.py`` looks like a helper of
    ``dave.py``); or why an entrant cannot play, when it imports a helper module beside it (each file of a class
    folder is played alone).  Either way the line says to make a student folder.  None otherwise."""
    if source.folder or not source.filename.endswith(".py"):
        return None
    file = Path(source.filename)
    users = [name for name in importers.get(file.stem, []) if name != file.name]
    found = _top_level(source.source)
    if users and found is not None and not any(name in found[0] or name in found[2] for name in ENTRY_FUNCTIONS):
        owner = Path(users[0]).stem
        return f"{shown(file.name)} looks like a helper of {shown(users[0])}: {_own_folder(owner)}"
    helpers = _helpers_beside(source.filename, source.source)
    if helpers:
        return (f"{shown(file.name)} imports {shown(', '.join(helpers))} from the class folder, and each file there is "
                f"played alone (a classmate's module must never stand in for one it imports): "
                f"{_own_folder(file.stem)}")
    return None


def look_alikes(entries: Mapping[str, Entry]) -> list[list[str]]:
    """Groups of two or more entrants' names that are equal once compatibility characters are folded and case is
    ignored (NFKC, then casefold): ``𝖺𝗅𝗂𝖼𝖾`` and ``alice``, ``ﬁona`` and ``fiona`` are different names that a reader
    takes for one.  Letters of other scripts that look like Latin ones (Cyrillic ``а``) are not folded by NFKC."""
    groups: dict[str, list[str]] = {}
    for name, item in entries.items():
        if not item.trusted:
            groups.setdefault(unicodedata.normalize("NFKC", name).casefold(), []).append(name)
    return [names for names in groups.values() if len(names) > 1]


def _entry_function(text: str) -> str:
    """The function a hand-in's text plays when none is named: ``strategy``, else ``choose`` when its top level
    makes that name and not ``strategy`` (read as text, never run; ``strategy`` when it cannot tell)."""
    found = _top_level(text)
    if found is None:
        return "strategy"
    made = set(found[0]) | found[2]
    return "choose" if "strategy" not in made and "choose" in made else "strategy"


def _source_entry(source: StudentSource) -> Entry:
    """A hand-in read as text (:class:`~amoeboid_edu.lab.roster.StudentSource`), for a worker that runs it; a student
    folder's worker may read that folder (its helper modules), no other worker reads any folder of the class.

    The text travels as it is, run by the worker itself (its load kind ``"source"``, as :func:`scored_entry`'s):
    a game process then imports nothing of the lab's to load it."""
    load = {"load": "source", "name": source.function or _entry_function(source.source), "filename": source.filename,
            **({"file": source.filename} if source.folder else {})}
    path = Path(source.filename)
    file = f"{path.parent.name}/{path.name}" if source.folder else path.name
    return Entry(source.name, load=load, payload=source.source.encode("utf-8"), code=_digest(source.source),
                 file=printable(file.replace("\\", "\\\\")))


def _student_folder(item: Entry) -> str | None:
    """The student folder a ``path.py:function`` entrant plays from (its file is ``NAME/strategy.py``, resolved), or
    None: what :func:`_file_source` copies."""
    if item.load.get("load") != "file":
        return None
    path = os.path.realpath(item.load["file"])
    return os.path.dirname(path) if os.path.basename(path) == STUDENT_FOLDER_FILE else None


def _list_share(items: Iterable[Entry]) -> int:
    """Each student folder's fair share of the run's copy budget when a tournament is given a list
    (:func:`~amoeboid_edu.lab.roster.folder_share` among the distinct folders of the listed files), as a class folder
    shares it: no listed folder can spend another's."""
    return folder_share(len({folder for folder in map(_student_folder, items) if folder is not None}))


def _file_source(item: Entry, snapshot: str | None = None,
                 folder_bytes: int = FOLDER_BYTES) -> tuple[StudentSource | None, str]:  # fmt: skip
    """The source of a ``path.py:function`` entrant, read here once through one descriptor that never blocks, or
    None and the reason it cannot be read.  ``NAME/strategy.py`` is a student folder: with ``snapshot`` (the run's
    own folder) the folder is copied there now, at most ``folder_bytes`` of it (:func:`_list_share` in a
    tournament), and its worker reads the copy, so a folder swapped for a link later (to reach the seed file)
    changes nothing."""
    path = Path(os.path.realpath(item.load["file"]))
    folder = path.name == STUDENT_FOLDER_FILE
    try:
        if folder and snapshot is not None:
            copy = Path(tempfile.mkdtemp(dir=snapshot)) / path.parent.name
            _walk_folder(path.parent, copy, snapshot, folder_bytes=folder_bytes)
            path = copy / STUDENT_FOLDER_FILE
        text = _read_bytes(path, SOURCE_LIMIT, follow=not folder).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text (bad byte at offset {error.start})"
    except DidNotLoad as error:
        return None, shown(error)
    except (OSError, RecursionError, MemoryError) as error:
        return None, shown(f"not read ({getattr(error, 'strerror', None) or error})")
    return StudentSource(item.name, str(path), text, item.load["name"], folder), ""


def _file_entry(item: Entry, snapshot: str | None = None, folder_bytes: int = FOLDER_BYTES) -> tuple[Entry, str]:
    """A tournament's ``path.py:function`` entrant as a :func:`_source_entry`: its worker reads no folder, so the
    classmates' files beside it stay private (``NAME/strategy.py`` is a student folder, readable to its worker,
    copied with at most ``folder_bytes``, see :func:`_file_source`).  The reason it cannot be read, if so."""
    real = os.path.realpath(item.load["file"])  # resolved once: the folder copied is the folder named as its origin
    source, reason = _file_source(replace(item, load={**item.load, "file": real}), snapshot, folder_bytes)
    if source is None:
        return item, reason
    return replace(_source_entry(source), origin=os.path.dirname(real) if source.folder else ""), ""


def _unguarded_imports(tree: ast.Module) -> list[str]:
    """The top-level modules ``tree`` imports (``import x.y``, ``from x import y``, at any depth) outside every
    ``try`` block: an import in a ``try`` may be meant to fail (``try: import sympy except ImportError: ...``)."""
    tries = tuple(kind for kind in (getattr(ast, "Try", None), getattr(ast, "TryStar", None)) if kind is not None)
    names: dict[str, None] = {}
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:  # a list, not recursion: the text may nest deeply
        node, guarded = stack.pop()
        if isinstance(node, ast.Import) and not guarded:
            names.update(dict.fromkeys(alias.name.split(".")[0] for alias in node.names))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and not guarded:
            names[node.module.split(".")[0]] = None
        if isinstance(node, tries):
            body = {id(child) for child in getattr(node, "body", [])}
            stack += [(child, guarded or id(child) in body) for child in ast.iter_child_nodes(node)]
        else:
            stack += [(child, guarded) for child in ast.iter_child_nodes(node)]
    return sorted(names)


def _helpers_beside(file: str, text: str) -> list[str]:
    """The modules the text of ``file`` imports outside a ``try`` (:func:`_unguarded_imports`) that only its folder
    holds: an ``x.py`` or a folder ``x`` beside it, and no module ``x`` on this process's import path without that
    folder (found without importing anything).  Each as its file's name (``helpers.py``, ``helpers/``).  Empty
    when the text does not parse within :func:`parse_student_text`'s bound."""
    from importlib.machinery import FrozenImporter, PathFinder

    tree = parse_student_text(text)
    if isinstance(tree, str):
        return []
    names = _unguarded_imports(tree)
    folder = os.path.dirname(os.path.realpath(file))
    elsewhere = [entry for entry in sys.path if entry and os.path.realpath(entry) != folder]
    found = []
    for name in names:
        beside = ((f"{name}.py", os.path.isfile(os.path.join(folder, f"{name}.py"))),
                  (f"{name}/", os.path.isdir(os.path.join(folder, name))))
        shown_as = next((label for label, there in beside if there), None)
        if shown_as is None or name in sys.builtin_module_names:
            continue
        try:
            if FrozenImporter.find_spec(name) is not None or PathFinder.find_spec(name, elsewhere) is not None:
                continue
        except (ImportError, ValueError, OSError):
            continue
        found.append(shown_as)
    return found


def scored_entry(item: Entry, target: str, snapshot: str) -> Entry:
    """How :func:`~amoeboid_edu.lab.scoring.score` plays a file (``target`` as given): as a tournament plays a
    single file or a student folder.  The text is read now, once (:func:`_file_source`): a single file's worker
    reads no folder, so a classmate's module beside it never stands in for one it imports, and a file changed
    during the run changes nothing; a student folder (``NAME/strategy.py``, or ``NAME/`` given) is copied into the
    run's ``snapshot`` and its worker reads the copy.  Other entries are returned as they are.

    ValueError, one line, when the file cannot be read, or when a single file imports a module that only its folder
    holds (:func:`_helpers_beside`): it would fail in every game, and the line says how to bring the helpers."""
    if item.load.get("load") != "file":
        return item
    source, reason = _file_source(item, snapshot)
    if source is None:
        raise ValueError(f"strategy {shown(repr(target))}: {reason}")
    if not source.folder:
        helpers = _helpers_beside(item.load["file"], source.source)
        if helpers:
            file = Path(item.load["file"])
            folder = os.path.dirname(target.rpartition(":")[0] if not target.endswith(".py") else target) or "."
            own = os.path.join(folder, file.stem) + os.sep  # a new folder of its own: never the class folder itself
            raise ValueError(
                f"{shown(file.name)} imports {shown(', '.join(helpers))} from its folder, and a single file is played "
                f"without the files beside it (a classmate's module there must never stand in for one it imports): "
                f"make a folder of its own, move it there as {shown(os.path.join(own, STUDENT_FOLDER_FILE))} with "
                f"{shown(', '.join(helpers))} beside it, and score that folder, amoeboid score {shown(own)} "
                f"(score(\"{shown(own)}\") in Python; all of the folder is read)")
    # its text, run by the worker itself (load "source"): a game process then imports nothing of the lab's
    load = {"load": "source", "name": source.function or "strategy", "filename": source.filename,
            **({"file": source.filename} if source.folder else {})}
    return Entry(item.name, load=load, payload=source.source.encode("utf-8"), code=_digest(source.source))


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:16]


def _module_file(module: str, root: str | None = None) -> str | None:
    """The file of ``module`` in ``root`` (else on this process's import path), found without importing anything (so
    without running the student's package ``__init__``); None if there is none."""
    from importlib.machinery import PathFinder

    parts, where, spec = module.split("."), None if root is None else [root], None
    for depth in range(1, len(parts) + 1):
        try:
            spec = PathFinder.find_spec(".".join(parts[:depth]), where)
        except (ImportError, ValueError, OSError):
            return None
        if spec is None:
            return None
        where = spec.submodule_search_locations
        if depth < len(parts) and where is None:
            return None
    return spec.origin if spec is not None and spec.has_location else None


def _anonymous(code: types.CodeType) -> types.CodeType:
    """``code`` and the code nested in it with the file name left out."""
    consts = tuple(_anonymous(const) if isinstance(const, types.CodeType) else const for const in code.co_consts)
    return code.replace(co_filename="", co_consts=consts)


def _neutral_pickle(strategy: object) -> bytes:
    """cloudpickle's bytes for ``strategy`` without the file name of each code object, which changes from one session
    to the next for the same code (a notebook cell's names the kernel's process; cloudpickle 3.1.3 writes
    ``<dynamic-code>`` instead).  Only public interfaces: ``cloudpickle.Pickler``, a pickler's ``dispatch_table``
    and ``marshal``.  A class defined in a notebook still carries cloudpickle's per-session id, so a tournament
    of such a strategy resumes only in the session that started it (the refusal says so)."""
    import copyreg
    import marshal

    import cloudpickle

    def reduce_code(code: types.CodeType) -> tuple[Callable[[bytes], Any], tuple[bytes]]:
        return marshal.loads, (marshal.dumps(_anonymous(code)),)

    class Neutral(cloudpickle.Pickler):  # type: ignore[misc]  # cloudpickle is not annotated
        dispatch_table = collections.ChainMap({types.CodeType: reduce_code},
                                              getattr(cloudpickle.Pickler, "dispatch_table", copyreg.dispatch_table))

    buffer = io.BytesIO()
    Neutral(buffer, protocol=pickle.DEFAULT_PROTOCOL).dump(strategy)
    return buffer.getvalue()


DIGEST_LIMIT = 64 << 20
"""The largest module file read for a tournament's fingerprint (a bigger one is fingerprinted as unreadable)."""


def _code_digest(strategy: object, item: Entry) -> str:
    """A digest of the code an entrant plays with, for a tournament's fingerprint: a bot's name (the package version is
    in the fingerprint too), a file's text, the text of an imported module's file, or for a strategy of this process
    its by-value pickle with the session's file names left out, plus its module's file when it is pickled by name.
    Changing a student's code then refuses a resume instead of mixing games of the old code with the new."""
    if item.trusted:
        return f"bot {item.bot}"
    kind = item.load.get("load")
    if kind in ("file", "import"):
        target = item.load["file"] if kind == "file" else _module_file(item.load["module"], item.load.get("root"))
        try:
            # one descriptor that never blocks: a module's file swapped for a named pipe cannot freeze the scorer
            return (_digest(_read_bytes(target, DIGEST_LIMIT, follow=True)) if target
                    else _digest(f"import {item.load['module']}"))
        except (OSError, DidNotLoad):
            return _digest(f"unreadable {target}")
    try:
        data = _neutral_pickle(strategy)
    except Exception:  # noqa: BLE001 - not picklable this way: the payload's bytes (a new session refuses a resume)
        data = item.payload
    name = getattr(strategy, "__module__", None)
    module = sys.modules.get(name) if isinstance(name, str) and name != "__main__" else None
    file = getattr(module, "__file__", None)
    if isinstance(file, str):
        try:
            data += Path(file).read_bytes()
        except OSError:
            pass
    return _digest(data)


def _target_folders(strategies: Strategies) -> list[str]:
    """The folders that hold hand-ins: a class folder, and each strategy file's (kept off this process's import
    path)."""
    if isinstance(strategies, (str, os.PathLike)):
        return [os.fspath(strategies)] if os.path.isdir(strategies) else []
    targets = [target for target in (strategies.values() if isinstance(strategies, Mapping) else strategies)
               if isinstance(target, str)]
    files = [target if target.endswith(".py") else target.rpartition(":")[0] for target in targets]
    return ([os.path.dirname(os.path.abspath(file)) for file in files if file.endswith(".py")]
            + [os.path.abspath(target) for target in targets if os.path.isdir(target)])



__all__ = ["ENTRY_FUNCTIONS", "PARSE_PIECES", "Entry", "entry", "look_alikes", "opponent_list", "parse_student_text",
           "student_name"]
