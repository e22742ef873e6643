"""The ``amoeboid`` command line.

Every error is one line on stderr (``error: ...``) and exit status 2: a
student who mistypes a position gets a sentence, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence, TextIO

from .game import Game, random_playout, seeded_rng
from .rules import Position, legal_turns


class CommandError(Exception):
    """A user-facing failure: printed as ``error: <message>``, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse prints usage over several lines; we print one
        raise CommandError(f"{message} (try '{self.prog} --help')")


def _read_text(path: str) -> str:
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    if b"\0" in data:
        raise CommandError(f"{path} is not a text file (it contains NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CommandError(f"{path} is not UTF-8 text (bad byte at offset {error.start})") from None


def _replay(args: argparse.Namespace, out: TextIO) -> None:
    game = Game.parse(_read_text(args.file))
    if args.verbose:
        for position in game.positions[:-1]:
            print(position, file=out)
    print(game.position, file=out)
    print(f"result: {game.result}", file=out)


def _sorted_turns(position: Position, roll: int) -> list[str]:
    """Canonical turns sorted as strings (the order of ``LC_ALL=C sort``)."""
    return sorted(str(turn) for turn in legal_turns(position, roll))


def _parse_roll(text: str) -> int:
    if not text.isdigit():
        raise CommandError(f"the roll must be a whole number, not {text!r}")
    return int(text)


def _moves(args: argparse.Namespace, out: TextIO) -> None:
    if args.position != "-":
        if args.roll is None:
            raise CommandError("give a ROLL after the POSITION (or '-' to read 'ROLL POSITION' lines from stdin)")
        position = Position.parse(args.position)
        for turn in _sorted_turns(position, _parse_roll(args.roll)):
            print(turn, file=out)
        return
    for number, line in enumerate(_read_text("-").splitlines(), start=1):
        if not line.strip():
            print(file=out)
            continue
        roll_text, _, position_text = line.strip().partition(" ")
        try:
            turns = _sorted_turns(Position.parse(position_text), _parse_roll(roll_text))
        except (ValueError, CommandError) as error:
            raise CommandError(f"line {number}: {error}") from None
        print("; ".join(turns), file=out)
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
    """Score a student's strategy; whatever the strategy does, the card is printed and the exit status is 0."""
    from .lab import score  # pandas and the lab load only for this command

    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    card = score(
        args.target,
        games=args.games,
        seed=args.seed,
        opponents=opponents,
        per_move_limit=args.per_move_limit,
        workers=args.workers,
        progress=not args.quiet,
    )
    print(card, file=out)


def _paper(args: argparse.Namespace, out: TextIO) -> None:
    from . import paper  # pandas and Altair load only for this command

    unknown = [item for item in args.items if item not in paper.ITEMS]
    if unknown:
        raise CommandError(f"unknown item {unknown[0]!r}; the items are {', '.join(paper.ITEMS)}")
    for verdict in paper.check_all(full=args.full, seed=args.seed, only=tuple(args.items) or paper.ITEMS):
        print(verdict.line, file=out)
        out.flush()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="amoeboid", description="Amoeboid, the partisan dice game: replay, list moves, benchmark, score a strategy, check the paper.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    replay = commands.add_parser("replay", help="replay a game record; print the final position and the result")
    replay.add_argument("file", help="a game record ('-' for stdin)")
    replay.add_argument("--verbose", "-v", action="store_true", help="print every position, start first")
    replay.set_defaults(run=_replay)

    moves = commands.add_parser("moves", help="list the legal turns of a position for a roll")
    moves.add_argument("position", help="a position in notation, or '-' to read 'ROLL POSITION' lines from stdin")
    moves.add_argument("roll", nargs="?", help="the die roll")
    moves.set_defaults(run=_moves)

    bench = commands.add_parser("bench", help="time random playouts (CPU time)")
    bench.add_argument("--games", type=int, default=1000)
    bench.add_argument("--board", type=int, default=3, help="K for a KxK board")
    bench.add_argument("--seed", default="0")
    bench.set_defaults(run=_bench)

    score = commands.add_parser("score", help="score a strategy (MODULE:FUNCTION or FILE.py:FUNCTION) against the bots")
    score.add_argument("target", help="the strategy: MODULE:FUNCTION or path/to/file.py:FUNCTION")
    score.add_argument("--games", type=int, default=200, help="games per opponent, even (default 200)")
    score.add_argument("--seed", default="0")
    score.add_argument("--opponents", default="random,greedy,paper,expectimax", help="comma-separated bot names")
    score.add_argument("--per-move-limit", type=float, default=1.0, metavar="SECONDS", help="default 1")
    score.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    score.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    score.set_defaults(run=_score)

    paper = commands.add_parser("paper", help="check each statement of the paper by computation; one line per item")
    paper.add_argument("items", nargs="*", help="only these items (default: all)")
    paper.add_argument("--full", action="store_true", help="the lessons' sizes (minutes) instead of the quick ones")
    paper.add_argument("--seed", default="0")
    paper.set_defaults(run=_paper)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    try:
        args = build_parser().parse_args(argv)
        args.run(args, out)
    except (CommandError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `amoeboid moves ... | head`
        return 0
    except Exception as error:  # a bug of ours: still one line, with a way to see more
        if os.environ.get("AMOEBOID_DEBUG"):
            raise
        print(f"error: internal error ({type(error).__name__}: {error}); set AMOEBOID_DEBUG=1 for details", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
