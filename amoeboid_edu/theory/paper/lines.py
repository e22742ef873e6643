"""Shared by the opening Cases: set-ups on any n x n board, the paper bot as a line, annotated counter-lines."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable, Iterator

from ...players.bots import PaperChoice, paper_choice
from ...engine.seeding import seeded_rng
from ...engine.rules import Amoeba, Position, Turn, apply, legal_turns
from ...players.strategy import candidate_turns

BOARDS = (3, 4, 5)
"""The paper plays "a n x n Board": every game-dependent verdict is run on these sizes."""


def opening_position(a_size: int, b_size: int, a_cell: str = "a1", b_cell: str = "c3", to_move: str = "A",
                     board: int = 3) -> Position:  # fmt: skip
    """One pure amoeba each on an ``board`` x ``board`` grid (the paper's opening cases); A's on ``a_cell``.

    The default cells a1 and c3 are two steps apart on every board: "the center"
    of the paper is b2, next to both (on 3x3 it is the centre).
    """
    start = Position.start(board)
    cells: list[Amoeba | None] = [None] * len(start.board)
    cells[start.board.index[a_cell]] = Amoeba(a_size, 0)
    cells[start.board.index[b_cell]] = Amoeba(0, b_size)
    return Position(start.board, tuple(cells), to_move, start.rules)


def corner_cells(board: int = 3) -> tuple[str, str, str]:
    """``(A's cell, the centre, B's corner)`` on a ``board`` x ``board`` grid: B in its starting corner, A two steps
    away on the diagonal, the centre next to both (a1, b2, c3 on 3x3; b2, c3, d4 on 4x4; c3, d4, e5 on 5x5).

    This is the paper's set-up for Cases II-IV on any board: in a corner B cannot get away from the centre.
    """
    letters = "abcdefghijklmnopqrstuvwxyz"
    return (f"{letters[board - 3]}{board - 2}", f"{letters[board - 2]}{board - 1}", f"{letters[board - 1]}{board}")


def at(position: Position, name: str | None) -> Amoeba:
    """The amoeba on cell ``name``: ValueError when that cell is empty or no cell is named (a pass has no ends)."""
    found = position[name] if name is not None else None
    if found is None:
        raise ValueError(f"no amoeba on {name!r} in {position}")
    return found


def ends(turn: Turn) -> tuple[str, str]:
    """``(src, dst)`` of a turn that moves: ValueError for a pass."""
    if turn.src is None or turn.dst is None:
        raise ValueError(f"{turn} moves nothing")
    return turn.src, turn.dst


def piece_sizes(position: Position, cell: str, owner: str) -> list[int]:
    """The sizes of ``owner``'s amoebae next to ``cell``, biggest first."""
    board = position.board
    return sorted((amoeba.size for j in board.neighbours[board.index[cell]]
                   if (amoeba := position.cells[j]) is not None and amoeba.owner == owner), reverse=True)  # fmt: skip


@lru_cache(maxsize=500_000)
def _paper_choice(position: Position, roll: int) -> PaperChoice:
    return paper_choice(position, roll, seeded_rng("paper-line", position, roll))


def paper_line(position: Position, roll: int) -> Turn:
    """The paper bot's turn, its rng fixed by (position, roll) so that the line is a function (cached, for searches)."""
    return _paper_choice(position, roll).turn


def paper_rule_key(position: Position, roll: int) -> str:
    """The key of the sentence (or default) that applies here for this roll (cached with :func:`paper_line`): the
    same rule :func:`~amoeboid_edu.players.bots.paper_options` finds, since both take the first stage with a turn."""
    return _paper_choice(position, roll).rule.key


def paper_annotation(position: Position, roll: int) -> str:
    """The sentence (or named default) behind :func:`paper_line`'s turn (for a played turn: :func:`annotate_paper_turn`)."""
    return _paper_choice(position, roll).annotation


def only_the_line(position: Position, roll: int) -> list[Turn]:
    return [paper_line(position, roll)]


def line_then_candidates(position: Position, roll: int) -> Iterator[Turn]:
    """A's options for a forced-win search: the paper's line first, then every other candidate turn."""
    line = paper_line(position, roll)
    yield line
    for turn in candidate_turns(position, roll):
        if turn != line:
            yield turn


def half_splits(position: Position, roll: int) -> list[Turn]:
    """B "as the paper plays it": split a grown amoeba in half onto an empty cell (every such choice).

    "B's only option is to split his amoeba, obviously in half."  An odd
    amoeba has two halves: the smaller one moves (as in the paper's example,
    17 -> 8 moved, 9 stayed) or the bigger one does; both are offered.  When no
    half split exists (the board is full, or the amoeba has size 1), every legal turn.
    """
    board, mover = position.board, position.to_move
    turns: list[Turn] = []
    for grow in position.owned_indices(mover):
        cell = at(position, board.names[grow])
        grown = Amoeba(cell.a + roll, cell.b) if mover == "A" else Amoeba(cell.a, cell.b + roll)
        halves: list[tuple[int, int]] = []
        for counts in ((grown.a // 2, grown.b // 2), ((grown.a + 1) // 2, (grown.b + 1) // 2)):
            if 0 < sum(counts) < grown.size and counts not in halves:
                halves.append(counts)
        for dst in board.neighbours[grow]:
            if position.cells[dst] is None:
                turns.extend(Turn(roll, board.names[grow], board.names[grow], board.names[dst], *counts)
                             for counts in halves)  # fmt: skip
    return turns or list(legal_turns(position, roll))


def annotate_paper_turn(position: Position, turn: Turn, plans: tuple[str, ...] = ("paper", "case IV")) -> str:
    """The sentence (or named default) that allows *this* turn, with what it does; ValueError if no plan allows it.

    ``plans`` are tried in order (:data:`~amoeboid_edu.players.bots.PLANS`): the paper bot's reading of Cases I-III, then
    Case IV's steps alone; a Case IV counter-line passes ``("case IV", "paper")``.
    """
    from ...players.bots import paper_annotation_of

    errors = []
    for plan in plans:
        try:
            return paper_annotation_of(position, turn, plan)
        except ValueError as error:
            errors.append(str(error))
    raise ValueError(errors[0])


def describe_turn(position: Position, turn: Turn) -> str:
    """What a turn does, in words: a half split, a smaller split, a move, an eat (of what), a pass."""
    if turn.is_pass:
        return "no legal move: passes"
    mover = position.to_move
    src, dst = ends(turn)
    cell = at(position, turn.grow)
    grown = Amoeba(cell.a + turn.roll, cell.b) if mover == "A" else Amoeba(cell.a, cell.b + turn.roll)
    source = grown if src == turn.grow else at(position, src)
    moved = (source.a, source.b) if turn.a is None or turn.b is None else (turn.a, turn.b)
    size = sum(moved)
    target = position[dst]
    if target is not None:
        whose = "the neutral" if target.is_neutral else f"{target.owner}'s"
        return f"eats {whose} ({target.a},{target.b}) on {dst} with {size} units"
    if moved == (source.a, source.b):
        return "moves its whole amoeba onto an empty cell"
    if size in (source.size // 2, (source.size + 1) // 2):
        return "splits in half onto an empty cell"
    return f"splits off {size} of {source.size} units onto an empty cell"


def annotated_record(start: Position, entries: Iterable[str], claimant: str = "A",
                     annotate: Callable[[Position, Turn], str] = annotate_paper_turn,
                     describe: Callable[[Position, Turn], str] = describe_turn) -> str:  # fmt: skip
    """A game record (spec notation, replayable with ``amoeboid replay``) with every turn annotated.

    ``entries`` are ``"A 3 a1 a1-b2 8,0"``-style strings (player, then the turn);
    the claimant's turns carry the sentence that allows *that* turn (``annotate``,
    which raises if none does: a counter-line cannot claim the paper for a turn
    it does not allow), the other side's say what they do (``describe``).
    Every turn is checked as it is replayed.
    """
    board = start.board
    lines = [f"board {board.rows}x{board.cols}", f"start {start}"]
    position = start
    for entry in entries:
        player, text = entry.split(" ", 1)
        turn = Turn.parse(text)
        if position.to_move != player:
            raise ValueError(f"{entry!r}: it is {position.to_move}'s turn")
        note = annotate(position, turn) if player == claimant else describe(position, turn)
        lines.append(f"{text:<22} # {player}: {note}")
        position = apply(position, turn)
    lines.append(f"# ends: {position} — result {position.result}")
    return "\n".join(lines)


@lru_cache(maxsize=500_000)
def text_options(position: Position, roll: int) -> tuple[Turn, ...]:
    """Every turn the applicable sentence of the paper allows (with the named defaults): A's options in a search."""
    from ...players.bots import paper_options

    return tuple(paper_options(position, roll)[1])


@lru_cache(maxsize=500_000)
def case_IV_options(position: Position, roll: int) -> tuple[Turn, ...]:
    """Every turn Case IV's steps allow (the paper's line for delta > 44; the named defaults where it is silent)."""
    from ...players.bots import paper_options

    return tuple(paper_options(position, roll, plan="case IV")[1])


def plan_options(position: Position, roll: int) -> tuple[Turn, ...]:
    """Every turn the paper's text allows A here, read generously: Case IV's steps, or Cases I-III as the paper bot
    reads them (Case III's eat once Delta <= 6, the reset, ...), the named defaults where both are silent."""
    first = case_IV_options(position, roll)
    return first + tuple(turn for turn in text_options(position, roll) if turn not in first)


def annotate_case_IV_turn(position: Position, turn: Turn) -> str:
    """:func:`annotate_paper_turn` citing Case IV's steps first."""
    return annotate_paper_turn(position, turn, ("case IV", "paper"))


EATS_ONLY = ("A: only eats of a piece B owns, with any number of A's own units from any amoeba A owns (at least the "
             "piece's size), after any grow; the paper bot's turn (the move to the centre) when there is nothing to eat")  # fmt: skip
"""The A action set of the Case IV forced-win searches that decide words (a forced win with fewer options for A is a
forced win: A may play these turns whatever else it may play)."""

NO_TURN_PASSES = "a player with no legal turn passes (as in the paper's step 5: 'B doesn't have where to go')"
"""The default where the paper is silent on a player who cannot move: the spec's ``ROLL GROW -``."""


def eats_only(position: Position, roll: int) -> Iterator[Turn]:
    """A's options in :data:`EATS_ONLY`: every eat of a B-owned piece with x of A's own units (x >= its size), for every
    grow and every A-owned source; the paper bot's turn when no eat exists (the move to the centre at the start)."""
    from ...players.strategy import grown, neighbours, owned_amoebae

    found = False
    mover, enemy = position.to_move, "B" if position.to_move == "A" else "A"
    for grow in position.owned():
        mid = grown(position, grow, roll)
        for src, source in owned_amoebae(mid).items():
            mine = source.a if mover == "A" else source.b
            for dst in neighbours(mid, src):
                target = mid[dst]
                if target is None or target.owner != enemy:
                    continue
                for x in range(target.size, mine + 1):
                    found = True
                    if x == source.size:
                        yield Turn(roll, grow, src, dst)
                    else:
                        yield Turn(roll, grow, src, dst, *((x, 0) if mover == "A" else (0, x)))
    if not found:
        yield paper_line(position, roll)


def dice_sums_fit_the_start(position: Position) -> bool:
    """Could a game from the paper's start (one unit each, A first) reach a position with these amounts of each
    player's units and this side to move, by the dice alone?  Each player has rolled some number of times (A once
    more than B when B is to move), each roll 1 to 6, and units are made by rolls only.  A necessary condition, so
    False means no game the paper describes reaches the position."""
    sigma_a = sum(cell.a for cell in position.cells if cell is not None) - 1
    sigma_b = sum(cell.b for cell in position.cells if cell is not None) - 1
    extra_a = 1 if position.to_move == "B" else 0
    return any(k + extra_a <= sigma_a <= 6 * (k + extra_a) and k <= sigma_b <= 6 * k
               for k in range(0, max(sigma_a, sigma_b) + 1))  # fmt: skip


def reachability(position: Position) -> str:
    """'reachable ...' or 'cannot arise ...': :func:`dice_sums_fit_the_start` in words, for a card's scope."""
    sigma_a = sum(cell.a for cell in position.cells if cell is not None) - 1
    sigma_b = sum(cell.b for cell in position.cells if cell is not None) - 1
    if dice_sums_fit_the_start(position):
        return f"its dice sums (A {sigma_a}, B {sigma_b}, {position.to_move} to move) fit a game from the paper's start"
    return (f"cannot arise in a game from the paper's start (A has rolled {sigma_a}, B {sigma_b}, with "
            f"{position.to_move} to move: no number of rolls of 1 to 6 gives both)")
