"""The ``amoeboid`` command line.

Every error is one line on stderr (``error: ...``) and exit status 2: a
student who mistypes a position gets a sentence, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
import warnings
from itertools import islice
from typing import Callable, Iterator, NoReturn, Sequence, TextIO

from .engine.game import Game, random_playout
from .engine.seeding import seeded_rng
from .namesakes.commands import GAMES
from .engine.notation import read_record, replay_turns
from .engine.rules import (
    NotationError,
    Position,
    abbreviate,
    blank_fields,
    count_legal_turns,
    grown_cells,
    move_pairs,
    whole_number,
)

ERROR_LIMIT = 1000  # characters of one error line, a last cap behind the per-field ones


class CommandError(Exception):
    """A user-facing failure: printed as ``error: <message>``, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse prints usage over several lines; we print one
        raise CommandError(f"{message} (try '{self.prog} --help')")


def _read_text(path: str) -> str:
    """A small UTF-8 text file (a seed file), as one string."""
    return "\n".join(_read_lines(path))


def _read_lines(path: str) -> Iterator[str]:
    """The lines of a UTF-8 text file (``-``: stdin), read one at a time, as ``str.splitlines`` splits them."""
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as error:
        raise CommandError(f"cannot read {abbreviate(path)}: {error.strerror or error}") from None
    offset = 0
    with stream:
        while True:
            try:
                chunk = stream.readline()
            except OSError as error:
                raise CommandError(f"cannot read {abbreviate(path)}: {error.strerror or error}") from None
            if not chunk:
                return
            if b"\0" in chunk:
                raise CommandError(f"{abbreviate(path)} is not a text file (it contains NUL bytes)")
            try:
                text = chunk.decode("utf-8")
            except UnicodeDecodeError as error:
                raise CommandError(f"{abbreviate(path)} is not UTF-8 text (bad byte at offset {offset + error.start})") from None
            offset += len(chunk)
            yield from text.splitlines()


def _replay(args: argparse.Namespace, out: TextIO) -> None:
    """Replay a record keeping one position (and, with -v, the text of every position)."""
    if args.game != "amoeboid":  # Nakajima's and Oosterwal's games (amoeboid_edu.namesakes)
        from .namesakes import commands

        return commands.replay(args.game, _read_text(args.file), args.verbose, out)
    position, turns = read_record(_read_lines(args.file))
    shown = [str(position)] if args.verbose else []
    for _, position in replay_turns(position, turns):
        if args.verbose:
            shown.append(str(position))
    for line in shown[:-1]:
        print(line, file=out)
    print(position, file=out)
    print(f"result: {position.result}", file=out)


def _in_text_order(low: int, high: int) -> Iterator[int]:
    """The integers ``low..high`` ordered as their decimal strings sort (0, 1, 10, 100, 11, ..., 2, ...).

    A depth-first walk of the decimal prefix tree that skips every subtree
    holding nothing in range, so each number costs O(digits) at most and a
    range of 10**20 numbers starts at once.
    """
    if low > high:
        return
    if low == 0:
        yield 0
    stack = list(range(9, 0, -1))
    while stack:
        prefix = stack.pop()
        if prefix > high:
            continue
        if prefix >= low:
            yield prefix
        if prefix * 10 <= high and _reaches(prefix, low, high):
            stack.extend(range(prefix * 10 + 9, prefix * 10 - 1, -1))


def _reaches(prefix: int, low: int, high: int) -> bool:
    """Whether some number >= ``low`` and <= ``high`` has ``prefix`` as a proper decimal prefix."""
    scale = 10
    while prefix * scale <= high:
        if (prefix + 1) * scale - 1 >= low:
            return True
        scale *= 10
    return False


def _turns_in_text_order(position: Position, roll: int) -> Iterator[str]:
    """Every legal turn's notation in the order of ``LC_ALL=C sort``, lazily.

    Cell names sort as strings (a separator sorts before any name character),
    then the counts as decimal strings, so the order comes without a sort of
    all the turns: a position with 10**20 turns lists its first ones at once.
    """
    if position.is_over:
        return
    names, neighbours = position.board.names, position.board.neighbours
    mover = position.to_move
    owned = position.owned_indices(mover)
    for grow in sorted(owned, key=names.__getitem__):
        cells = grown_cells(position.cells, grow, mover, roll)
        pairs = move_pairs(cells, neighbours, owned)
        if not pairs:
            yield f"{roll} {names[grow]} -"
        for src, dst in sorted(pairs, key=lambda pair: (names[pair[0]], names[pair[1]])):
            source, target = cells[src], cells[dst]
            assert source is not None
            threshold = max(1, 0 if target is None else target.size)
            head = f"{roll} {names[grow]} {names[src]}-{names[dst]} "
            for x in _in_text_order(max(0, threshold - source.b), source.a):
                for y in _in_text_order(max(0, threshold - x), source.b):
                    yield f"{head}{x},{y}"


def _parse_roll(text: str) -> int:
    try:
        return whole_number(text, "the roll")
    except NotationError as error:
        raise CommandError(str(error)) from None


def _count(text: str) -> int:
    """An argparse type: a whole number in ASCII digits (``int`` would also take '١٠' or ' +5 ')."""
    try:
        return whole_number(text, "the value")
    except NotationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _moves(args: argparse.Namespace, out: TextIO) -> None:
    """List the turns sorted as strings, at most ``--limit`` of them, streamed; then the total count."""
    if args.game != "amoeboid":  # Nakajima's and Oosterwal's games (amoeboid_edu.namesakes)
        from .namesakes import commands

        return commands.moves(args.game, args.position, args.roll, args.limit, _read_lines("-"), out)
    limit = args.limit
    if args.position != "-":
        if args.roll is None:
            raise CommandError("give a ROLL after the POSITION (or '-' to read 'ROLL POSITION' lines from stdin)")
        position = Position.parse(args.position)
        roll = _parse_roll(args.roll)
        total = count_legal_turns(position, roll)
        for turn in islice(_turns_in_text_order(position, roll), limit):
            print(turn, file=out)
        shown = f" ({limit} shown; --limit N shows more)" if total > limit else ""
        print(f"total: {total}{shown}", file=out)
        return
    for number, line in enumerate(_read_lines("-"), start=1):
        roll_text, *rest = blank_fields(line) or [""]
        if not roll_text:
            print(file=out)
            continue
        try:
            position, roll = Position.parse(" ".join(rest)), _parse_roll(roll_text)
            total = count_legal_turns(position, roll)
        except (ValueError, CommandError) as error:
            raise CommandError(f"line {number}: {error}") from None
        turns = list(islice(_turns_in_text_order(position, roll), limit))
        more = f"; … ({total - limit} more)" if total > limit else ""
        print("; ".join(turns) + more, file=out)
        out.flush()


def _bench(args: argparse.Namespace, out: TextIO) -> None:
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    start = Position.start(args.board)
    turns = 0
    began = time.process_time()
    for index in range(args.games):
        turns += random_playout(start, seeded_rng(args.seed, "bench", index)).turns
    seconds = max(time.process_time() - began, 1e-9)
    print(f"games_per_s: {args.games / seconds:.1f}", file=out)
    print(f"turns_per_s: {turns / seconds:.0f}", file=out)
    print(f"mean_turns: {turns / args.games:.2f}", file=out)


def _score(args: argparse.Namespace, out: TextIO) -> None:
    """Score a student's strategy; whatever the strategy does, the card is printed and the exit status is 0 (130
    after Ctrl-C, once the games played so far are printed)."""
    from .sandbox.importpath import trusted_imports

    with trusted_imports():  # the current folder may be the class folder: nothing is imported from it
        _score_here(args, out)


def _score_here(args: argparse.Namespace, out: TextIO) -> None:
    from .lab import score  # pandas and the lab load only for this command

    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    card = score(
        args.target,
        games=args.games,
        seed=args.seed if args.seed_file is None else 0,
        seed_file=args.seed_file,  # read and checked by the lab (lab.read_seed_file), never by a worker
        opponents=opponents,
        per_move_limit=args.per_move_limit,
        load_limit=args.load_limit,
        workers=args.workers,
        progress=not args.quiet,
    )
    print(card.terminal(), file=out)
    if card.interrupted:  # the partial card is printed; the command still ends as an interrupted one
        raise KeyboardInterrupt
    if args.printed is not None:
        try:
            printed = card.printed(args.printed)
        except IndexError as error:
            raise CommandError(f"--printed {args.printed}: {error}".replace("card.games()", "the card")) from None
        print(f"the last lines printed in game {args.printed}:" if printed else
              f"nothing was printed in game {args.printed}", file=out)
        if printed:
            print(printed, file=out)
    if args.game is not None:
        if not 0 <= args.game < len(card.records):
            raise CommandError(f"--game {args.game}: this card has games 0 to {len(card.records) - 1}")
        row = card.games().iloc[args.game]
        capped = ", stopped at the turn cap" if row["capped"] else ""
        print(f"game {args.game}: against {row['opponent']}, you played {row['seat']}: {row['result']} after "
              f"{row['turns']} turns{capped}; its record (save it in a file for amoeboid replay FILE or amoeboid "
              "review FILE):", file=out)
        print(card.game(args.game), file=out)


def _tls_files(args: argparse.Namespace) -> dict[str, str] | None:
    """The client certificates of a ``dask:tls://`` executor, from ``--tls-ca``, ``--tls-cert`` and ``--tls-key``."""
    given = {"ca": args.tls_ca, "cert": args.tls_cert, "key": args.tls_key}
    if not any(given.values()):
        return None
    if not (given["ca"] and given["cert"]):
        raise CommandError("a tls:// scheduler needs --tls-ca (the CA's certificate) and --tls-cert (this client's "
                           "certificate; its key in it or in --tls-key)")
    return given


def _tournament(args: argparse.Namespace, out: TextIO) -> None:
    """A class tournament from a folder; resumable through --out; the leaderboard printed and written as HTML."""
    from .sandbox.importpath import trusted_imports

    with trusted_imports([args.folder]):  # `tournament .` from the class folder: nothing is imported from it
        _tournament_here(args, out)


def _tournament_here(args: argparse.Namespace, out: TextIO) -> None:
    from .lab import leaderboard_path, tournament  # pandas and the lab load only for this command

    if (args.seed is None) == (args.seed_file is None):
        raise CommandError("give the dice seed with --seed S or --seed-file F (one of them)")
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    # the seed file is read and checked by the lab (lab.read_seed_file: the students' folder counts as readable)
    result = tournament(args.folder, games=args.games, seed=args.seed if args.seed_file is None else 0, out=args.out,
                        executor=args.executor, opponents=opponents, per_move_limit=args.per_move_limit,
                        load_limit=args.load_limit, progress=not args.quiet, batch_pairs=args.batch,
                        seed_file=args.seed_file, tls=_tls_files(args))  # fmt: skip
    print(result, file=out)
    print(f"games: {printable(args.out)}\nleaderboard: {printable(str(leaderboard_path(args.out)))}", file=out)


def _paper(args: argparse.Namespace, out: TextIO) -> None:
    from .theory import paper  # pandas and Altair load only for this command

    unknown = [item for item in args.items if item not in paper.ITEMS]
    if unknown:
        raise CommandError(f"unknown item {unknown[0]!r}; the items are {', '.join(paper.ITEMS)}")
    if args.workers is not None and args.workers < 1:
        raise CommandError("--workers must be at least 1")
    from .lab.estimate import cores

    workers = args.workers or cores()
    explain = args.explain or bool(args.items)
    for number, verdict in enumerate(paper.check_all(full=args.full, seed=args.seed, workers=workers,
                                                     only=tuple(args.items) or paper.ITEMS)):  # fmt: skip
        print(("\n" if number else "") + verdict.details() if explain else verdict.short, file=out)
        out.flush()


def _review(args: argparse.Namespace, out: TextIO) -> None:
    from .theory import coach  # pandas loads only for this command

    if args.rollouts < 1:
        raise CommandError("--rollouts must be at least 1")
    game = Game.parse(_read_text(args.record))
    print(coach.review(game, seed=args.seed, rollouts=args.rollouts, progress=not args.quiet).summary(), file=out)


def _course(args: argparse.Namespace, out: TextIO) -> None:
    from .ui.course_files import open_course

    def ask(name: str) -> bool:  # only a person at a terminal is asked; elsewhere a changed file is kept
        if not sys.stdin.isatty():
            return False
        answer = input(f"{name} differs from the course's copy (your changes?): replace it? [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    def say(line: str) -> None:
        print(line, file=out)
        out.flush()

    status = open_course(args.dir, teacher=args.teacher, force=args.force, browser=not args.no_browser, ask=ask,
                         say=say)
    if status:
        raise CommandError(f"JupyterLab exited with status {status}")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="amoeboid", description="Amoeboid, the partisan dice game: copy out the course, replay, list moves, benchmark, score a strategy, run a class tournament, check the paper, review a game.")
    parser.add_argument("--version", action="version", version=f"amoeboid-edu {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    course = commands.add_parser("course", help="copy the lessons into DIR, trust them and open JupyterLab on lesson 1")
    course.add_argument("dir", nargs="?", default=None, metavar="DIR", help="where to put the lessons (default ./amoeboid-course)")
    course.add_argument("--no-browser", action="store_true", help="only copy (and trust) the lessons; do not start JupyterLab")
    course.add_argument("--force", action="store_true", help="replace files that differ from the course's copies (your changes are lost)")
    course.add_argument("--teacher", action="store_true", help="also copy the teacher's editions (solutions/) and TEACHERS.md")
    course.set_defaults(run=_course)

    replay = commands.add_parser("replay", help="replay a game record; print the final position and the result")
    replay.add_argument("file", help="a game record ('-' for stdin)")
    replay.add_argument("--verbose", "-v", action="store_true", help="print every position, start first")
    replay.add_argument("--game", choices=GAMES, default="amoeboid", help="which game called Amoeba (default amoeboid)")
    replay.set_defaults(run=_replay)

    moves = commands.add_parser("moves", help="list the legal turns of a position for a roll")
    moves.add_argument("position", help="a position in notation, or '-' to read 'ROLL POSITION' lines from stdin")
    moves.add_argument("roll", nargs="?", help="the die roll (Amoeboid only)")
    moves.add_argument("--limit", type=_count, default=10_000, metavar="N",
                       help="list at most N turns (default 10000); the total count is always printed")
    moves.add_argument("--game", choices=GAMES, default="amoeboid", help="nakajima or oosterwal: no ROLL")
    moves.set_defaults(run=_moves)

    bench = commands.add_parser("bench", help="time random playouts (CPU time)")
    bench.add_argument("--games", type=_count, default=1000)
    bench.add_argument("--board", type=_count, default=3, help="K for a KxK board")
    bench.add_argument("--seed", default="0")
    bench.set_defaults(run=_bench)

    score = commands.add_parser("score", help="score a strategy (FILE.py, FILE.py:FUNCTION, FOLDER/ or MODULE:FUNCTION) "
                                "against the bots; a run longer than about 30 s says so at its start, with ways to "
                                "shorten it")
    score.add_argument("target", help="the strategy: path/to/file.py:FUNCTION or MODULE:FUNCTION; path/to/file.py "
                                      "alone plays its function strategy, else its one function taking "
                                      "(position, roll, rng); a file is read once and played without the files "
                                      "beside it; a folder of your own, FOLDER/, plays FOLDER/strategy.py with its "
                                      "helper modules beside it")
    from .sandbox.defaults import DEFAULT_GAMES, FAST_OPPONENTS  # the API's defaults: score() and `amoeboid score` agree

    score.add_argument("--games", type=int, default=DEFAULT_GAMES,
                       help=f"games per opponent, even (default {DEFAULT_GAMES})")
    seeds = score.add_mutually_exclusive_group()
    seeds.add_argument("--seed", default="0", help="the dice seed, shown on the card (default 0)")
    seeds.add_argument("--seed-file", metavar="FILE",
                       help="a contest's secret seed, read by this process only; keep FILE away from the strategies")
    score.add_argument("--opponents", default=",".join(FAST_OPPONENTS),
                       help=f"comma-separated bot names (default {','.join(FAST_OPPONENTS)}; add expectimax, a "
                            "two-turn search, for a much slower and stronger opponent)")
    score.add_argument("--per-move-limit", type=float, default=1.0, metavar="SECONDS",
                       help="CPU seconds a move may use (default 1); a move that waits is stopped after 10 times that")
    score.add_argument("--load-limit", type=float, default=30.0, metavar="SECONDS",
                       help="seconds to start a worker, and to import the strategy in each game process (default 30)")
    score.add_argument("--printed", type=int, default=None, metavar="GAME",
                       help="after the card, print the last lines the strategy printed in game GAME (hidden on the "
                            "card; the card says which game printed first)")
    score.add_argument("--game", type=int, default=None, metavar="GAME",
                       help="after the card, print game GAME (numbered as on the card) as a game record, for "
                            "amoeboid replay or amoeboid review")
    score.add_argument("--workers", type=int, default=None,
                       help="processes playing games in parallel (default: one per core, at most one per opponent "
                            "and seat)")
    score.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    score.set_defaults(run=_score)

    tournament = commands.add_parser("tournament", help="a class round robin: one strategy file per student in FOLDER")
    tournament.add_argument("folder", help="NAME.py files defining strategy, NAME.ipynb with the cell tagged strategy")
    tournament.add_argument("--games", type=int, default=100, help="games per pairing, even (default 100)")
    tournament.add_argument("--seed", help="the dice seed (keep it from the students)")
    tournament.add_argument("--seed-file", metavar="FILE", help="read the seed from FILE (it is then never printed)")
    tournament.add_argument("--out", required=True, metavar="RESULTS.csv",
                            help="every game is appended here; run again to resume; the leaderboard goes next to it")
    tournament.add_argument("--executor", default="serial",
                            help="serial (default), processes:K or dask:ADDRESS (tls://HOST:PORT beyond one machine)")
    tournament.add_argument("--tls-ca", metavar="PEM",
                            help="dask:tls://: the certificate of the CA that signed every member's")
    tournament.add_argument("--tls-cert", metavar="PEM", help="dask:tls://: this client's certificate")
    tournament.add_argument("--tls-key", metavar="PEM", help="dask:tls://: this client's private key")
    tournament.add_argument("--opponents", default="", help="baseline bots to add, comma-separated (default none)")
    tournament.add_argument("--per-move-limit", type=float, default=1.0, metavar="SECONDS",
                            help="CPU seconds a move may use (default 1); a move that waits is stopped after 10 times "
                                 "that")
    tournament.add_argument("--load-limit", type=float, default=30.0, metavar="SECONDS",
                            help="seconds a strategy may take to import (default 30)")
    tournament.add_argument("--batch", type=int, default=50, metavar="SEEDS",
                            help="dice seeds per unit of work: one pairing x SEEDS x 2 seats (default 50: 100 games)")
    tournament.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    tournament.set_defaults(run=_tournament)

    paper = commands.add_parser("paper", help="check each statement of the paper by computation; one short line per "
                                "item, or the details of the items named")  # fmt: skip
    paper.add_argument("items", nargs="*", help="only these items, each with its evidence, scope and counter-lines in "
                       "sections (default: every item, one short line each)")  # fmt: skip
    paper.add_argument("--explain", action="store_true", help="the details of every item, not one line each")
    paper.add_argument("--full", action="store_true", help="the lessons' sizes (minutes) instead of the quick ones")
    paper.add_argument("--seed", default="0")
    paper.add_argument("--workers", type=int, default=None,
                       help="processes computing items in parallel (default: one per core; 1: all in this one)")
    paper.set_defaults(run=_paper)

    review = commands.add_parser("review", help="review a game record: win chances, each turn's class, accuracy")
    review.add_argument("record", help="a game record ('-' for stdin)")
    review.add_argument("--seed", default="0", help="seed of the rollouts' dice (default 0)")
    review.add_argument("--rollouts", type=int, default=385, help="rollouts per estimate (default 385: a ±5-point 95%% interval)")
    review.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    review.set_defaults(run=_review)
    return parser


def printable(text: str) -> str:
    """``text`` with control and format characters (a file name's ESC sequences, bidi overrides) written as
    ``\\xNN``/``\\uNNNN``: nothing a user names reaches the terminal raw."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)


def _one_line(message: str) -> str:
    """An error message as one capped line with nothing raw for the terminal, whatever input it repeats."""
    return printable(abbreviate(" ".join(message.splitlines()), ERROR_LIMIT))


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out

    def show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                     file: TextIO | None = None, line: str | None = None) -> None:  # one line, no source
        print(f"warning: {_one_line(str(message))}", file=sys.stderr)

    with _terminate_as_exit():
        return _main(argv, out, show_warning)


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """SIGTERM (``kill``, a job's time limit) ends the command as ``sys.exit(143)`` would, so its ``finally`` blocks
    run: a tournament's copies of the hand-ins are removed (only SIGKILL leaves them, until the next run starts)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return

    def terminated(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None, out: TextIO, show_warning: Callable[..., None]) -> int:
    try:
        args = build_parser().parse_args(argv)
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            args.run(args, out)
    except (CommandError, ValueError) as error:
        print(f"error: {_one_line(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130  # as a shell reports a command stopped by Ctrl-C (128 + SIGINT)
    except BrokenPipeError:  # e.g. `amoeboid moves ... | head`
        return 0
    except Exception as error:  # a bug of ours: still one line, with a way to see more
        if os.environ.get("AMOEBOID_DEBUG"):
            raise
        what = _one_line(f"{type(error).__name__}: {error}")
        print(f"error: internal error ({what}); set AMOEBOID_DEBUG=1 for details", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
