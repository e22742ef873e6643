"""Case III's plan searched as a whole: every turn its text allows A, against every roll and every legal B turn.

The claim "by moving to the center ... the opponent cannot win" is read as a guarantee A secures by following the
plan, the choices the text leaves open being A's.  So B beats the plan within N turns only if, for every turn the text
allows A at each of its turns, B has a roll-and-turn line to a win: an AND over A's allowed turns, an OR over B's legal
turns, and an OR over every roll of either player (any roll may come up, and "cannot win" excludes every B win).
:func:`plan_turns` says, and tests pin, what the text allows; :func:`plan_b_win` is the search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ...engine.rules import Amoeba, Position, Turn, apply, legal_turns
from ...players.bots import can_end_at_once, paper_case
from ...players.strategy import smallest_neutralisation
from ..search import SearchBudgetExceeded, grid_symmetries
from .case_III import a_holds_after_any_b_turn, a_keeps_an_amoeba_by_its_cells, b_out_of_reach
from .lines import paper_line, text_options

TEXT_ALLOWS = (
    "what the text allows A: on the opening turn, the whole amoeba to the center (the only turn 'move your amoeba to "
    "the center' allows; 'splitting can be ruled out'); afterwards, by the Advantage 2 (Delta) read either before A's "
    "roll ('the new Advantage 2', what B's turn left) or after it (when A decides), A's choice: while Delta > 6, "
    "'split your amoeba enough to make one of the opponent's amoeba neutral while keeping control of the center', "
    "any of B's pieces next to any amoeba A owns, with exactly the units that make it neutral, the rest staying A's; "
    "once Delta <= 6, 'eat one of the opponent's split amoebae', any of B's pieces next to any amoeba A owns, with any "
    "number of A's own units that gains control of it, from the least to all of them (the whole amoeba included), at "
    "any time Delta <= 6 (the paper does not say it happens once); and once A has eaten (an amoeba A owns holds some "
    "of B's units), 'move to an opposite square from your opponent': that amoeba, whole, to any empty cell next to it "
    "and next to none of B's pieces; the roll goes to any amoeba A owns (the plan does not say which); a turn that "
    "wins at once is always allowed (the plan's end, 'in which case you win'); where none of these sentences gives A "
    "a turn (no piece of B's it can neutralise or eat, no square away from B), the paper is silent and every legal "
    "turn is allowed")  # fmt: skip
"""Exactly what :func:`plan_turns` offers A, said on the card."""

PLAN_KEYS = {
    "centre": "Case III: move your amoeba to the center",
    "neutralise": "Case III, Delta > 6: make one of the opponent's amoeba neutral, keeping the center",
    "eat": "Case III, Delta <= 6: eat one of the opponent's split amoebae",
    "reset": "Case III: move to an opposite square from your opponent",
    "win": "a win at once (the plan's end: 'in which case you win')",
    "silent": "paper silent: any legal turn",
}
"""What each label of :func:`plan_turns` stands for (the sentence, or the silence)."""


def _grown(position: Position, index: int, roll: int) -> list[Amoeba | None]:
    cells = list(position.cells)
    cell = cells[index]
    assert cell is not None and position.to_move == "A"
    cells[index] = Amoeba(cell.a + roll, cell.b)
    return cells


def plan_turns(position: Position, roll: int) -> tuple[tuple[str, Turn], ...]:
    """Every turn the text of Case III's plan allows A here with this roll, each with its label (:data:`PLAN_KEYS`),
    exactly as :data:`TEXT_ALLOWS` says; turns with the same result are given once.  The opening is left to the paper
    bot's reading of the opening sentences (every turn of them: on 3x3 from a1, the whole amoeba to b2)."""
    return tuple((label, turn) for label, turn, _ in plan_children(position, roll))


def plan_children(position: Position, roll: int) -> Iterator[tuple[str, Turn, Position]]:
    """:func:`plan_turns` with the position after each turn, one at a time (a search that finds a turn that holds
    stops there): the neutralisations and eats (fewest units first), then the resets, else every legal turn."""
    if position.to_move != "A" or position.is_over:
        raise ValueError("plan_turns is asked for A's turns in an ongoing game")
    board, names = position.board, position.board.names
    if paper_case(position, roll) is not None:  # the opening: two pure amoebae, not adjacent
        for turn in text_options(position, roll):
            yield "centre", turn, apply(position, turn)
        return
    before, after = position.Delta, position.Delta + roll
    seen: set[tuple[Amoeba | None, ...]] = set()

    def fresh(turn: Turn) -> Position | None:
        result = apply(position, turn)
        if result.cells in seen:
            return None
        seen.add(result.cells)
        return result

    offers: list[tuple[str, Turn]] = []
    for grow in position.owned_indices("A"):
        cells = _grown(position, grow, roll)
        owned = [i for i, c in enumerate(cells) if c is not None and c.a > c.b]
        for src in owned:
            source = cells[src]
            assert source is not None
            for dst in board.neighbours[src]:
                target = cells[dst]
                if target is None or target.b <= target.a:
                    continue

                def turn_at(a: int, b: int) -> Turn:
                    return Turn(roll, names[grow], names[src], names[dst], a, b)

                if after > 6:  # "make one of the opponent's amoeba neutral while keeping control of the center"
                    counts = smallest_neutralisation(source, target)
                    if counts is not None and source.a - counts[0] > source.b - counts[1]:
                        offers.append(("neutralise", turn_at(*counts)))
                if before <= 6:  # "eat one of the opponent's split amoebae": gain control of it, A's own units
                    for x in range(max(target.size, target.b - target.a + 1), source.a + 1):
                        offers.append(("eat", turn_at(x, 0)))
                    if source.b and source.size >= target.size and source.a + target.a > source.b + target.b:  # whole
                        offers.append(("eat", turn_at(source.a, source.b)))
        if before <= 6:  # "move to an opposite square from your opponent", once A has eaten
            enemies = set(position.owned_indices("B"))
            for src in owned:
                source = cells[src]
                assert source is not None
                if not source.b:
                    continue
                for dst in board.neighbours[src]:
                    if cells[dst] is None and not enemies & set(board.neighbours[dst]):
                        offers.append(("reset", Turn(roll, names[grow], names[src], names[dst], source.a, source.b)))
    for key, turn in offers:
        if (result := fresh(turn)) is not None:
            yield key, turn, result
    if not offers:
        for turn in legal_turns(position, roll):
            if (result := fresh(turn)) is not None:
                yield "silent", turn, result


class _Lazy:
    """A generator's items, kept as they come: iterating again replays them, then goes on with the generator."""

    def __init__(self, items: Iterator[tuple[str, Turn, Position]]) -> None:
        self._items: Iterator[tuple[str, Turn, Position]] | None = items
        self._kept: list[tuple[str, Turn, Position]] = []

    def __iter__(self) -> Iterator[tuple[str, Turn, Position]]:
        index = 0
        while True:
            if index < len(self._kept):
                yield self._kept[index]
                index += 1
            elif self._items is None:
                return
            elif (item := next(self._items, None)) is None:
                self._items = None
            else:
                self._kept.append(item)


def plan_label(position: Position, turn: Turn) -> str:
    """The label of ``turn`` among :func:`plan_turns` (compared by result); ValueError if the text does not allow it."""
    result = apply(position, turn).cells
    for key, allowed in plan_turns(position, turn.roll):
        if apply(position, allowed).cells == result:
            return key
    if apply(position, turn).result == "A":
        return "win"
    raise ValueError(f"{turn} is not a turn Case III's text allows in {position}")


_EMPTY = Amoeba(0, 0)
"""An empty cell in a memo key (a value that sorts with the amoebae; no real amoeba has size 0)."""


def _lead(position: Position) -> int:
    """B's units minus A's on the board."""
    return sum(cell.b - cell.a for cell in position.cells if cell is not None)


def _out_of_reach(lead: int, player: str, turns: int, most: int) -> bool:
    """:func:`~.case_III.b_out_of_reach` from B's lead alone: ``player`` to move, ``turns`` turns, die faces 1..``most``."""
    for _ in range(turns):
        lead += most if player == "B" else -1
        if lead > 0:
            return False
        player = "A" if player == "B" else "B"
    return True


def a_holds(position: Position, turns: int) -> bool:
    """A sufficient condition, by the kinds of turn :func:`plan_turns` offers, that B cannot win within ``turns`` (1 or
    2) turns of the game from here, A to move.

    B wins only when A owns nothing.  On A's own turn (``turns`` 1) A keeps an amoeba if it owns two (a turn moves
    from one of them) or one with an empty cell next to it: every turn the text offers keeps an amoeba A's (the
    neutralisation keeps the center, an eat gains control, a move to the center or a reset moves a whole amoeba of
    A's onto an empty cell), and where the text is silent every legal turn is allowed, among them one unit moved to
    that empty cell.  With B's turn after it (``turns`` 2), B must eat A's last amoeba, so A holds if it owns three,
    or if, Delta <= 6 before its roll, it can eat a piece of B's next to one of its amoebae with part of its own units
    and keep the rest (an eat the text offers; A then owns two and one move of B's takes one)."""
    owned = position.owned_indices("A")
    cells, neighbours = position.cells, position.board.neighbours
    if turns == 1:
        return a_keeps_an_amoeba_by_its_cells(position)
    if len(owned) >= 3:
        return True
    if position.Delta > 6:
        return False
    for i in owned:
        source = cells[i]
        assert source is not None
        for j in neighbours[i]:
            target = cells[j]
            if target is not None and target.b > target.a and max(target.size, target.b - target.a + 1) <= source.a - source.b:
                return True
    return False


def _b_turns_that_can_matter(position: Position) -> set[str] | None:
    """B to move, A's last turn next: the cells a B turn must move onto for A not to hold on its turn
    (:func:`a_holds`): A's amoebae (B eats one) and the last empty cell next to an amoeba of A's; every other B turn
    leaves each amoeba of A's with an empty cell next to it.  None when that is not so already (an amoeba of A's
    with no empty cell next to it): then every B turn may matter."""
    board, cells = position.board, position.cells
    near: set[str] = set()
    for i in position.owned_indices("A"):
        empty = [j for j in board.neighbours[i] if cells[j] is None]
        if not empty:
            return None
        near.add(board.names[i])
        if len(empty) == 1:
            near.add(board.names[empty[0]])
    return near


@dataclass
class PlanSearch:
    """B against the whole plan: :meth:`b_wins` (B has a line to a win within ``turns`` turns of the game whatever
    turn the text allows A at each of its turns), :meth:`first_win` (the first such turn), :meth:`line` (one line of
    B's winning strategy tree, replayable) and :meth:`holding_turn` (A's first allowed turn with no B win within the
    turns left: the completion that holds).

    Memoised per position (the smallest depth with a B win found, the largest without one); a node or a roll from
    which B cannot win by arithmetic is not searched (:func:`~.case_III.b_out_of_reach`); an A roll with which A can
    win at once is no B win (the winning turn is always allowed); B's last turn is decided exactly
    (:func:`~amoeboid_edu.players.bots.can_end_at_once`).  ``budget`` caps the turns visited
    (:class:`~amoeboid_edu.theory.search.SearchBudgetExceeded`)."""

    budget: int = 3_000_000
    visited: int = 0
    _maps: list[tuple[int, ...]] | None = None
    _plan: dict[tuple[object, int], _Lazy] = field(default_factory=dict)
    _wins: dict[tuple[object, str], int] = field(default_factory=dict)
    _safe: dict[tuple[object, str], int] = field(default_factory=dict)

    def _tick(self) -> None:
        self.visited += 1
        if self.visited > self.budget:
            raise SearchBudgetExceeded(f"more than {self.budget:,} turns visited")

    def _key(self, position: Position) -> tuple[object, str]:
        """The memo's key: the cells up to the board's symmetries (the plan's turns and B's legal turns are the same up
        to them), and the side to move."""
        if self._maps is None:
            self._maps = grid_symmetries(position.board)
        cells = position.cells
        return min(tuple(cells[i] or _EMPTY for i in m) for m in self._maps), position.to_move

    def b_wins(self, position: Position, turns: int) -> bool:
        """True when B has a line to a win within ``turns`` turns of the game against every completion of the plan."""
        if position.result == "B":
            return True
        if position.is_over or turns <= 0:
            return False
        if position.to_move == "A" and turns <= 2 and a_holds(position, turns):
            return False
        if position.to_move == "B" and turns == 2 and a_holds_after_any_b_turn(position):
            return can_end_at_once(position, ties=False)  # B's only chance is this turn: exact
        key = self._key(position)
        if self._wins.get(key, turns + 1) <= turns:
            return True
        if self._safe.get(key, -1) >= turns:
            return False
        found = self._search(position, turns)
        if found:
            self._wins[key] = min(turns, self._wins.get(key, turns))
        else:
            self._safe[key] = max(turns, self._safe.get(key, turns))
        return found

    def _b_rolls(self, position: Position, turns: int) -> list[int]:
        """B's rolls worth searching: a win is within reach by arithmetic, and where it is not after this turn
        (units are conserved by moves, so the count after the turn is known before it is played), only a win at once."""
        rolls = []
        for roll, _ in position.dice_outcomes():
            if b_out_of_reach(position, turns, roll):
                continue
            later = turns > 1 and not _out_of_reach(_lead(position) + roll, "A", turns - 1, position.rules.die_sides)
            if later or can_end_at_once(position, roll, ties=False):
                rolls.append(roll)
        return rolls

    def _b_turns(self, position: Position, roll: int, turns: int) -> list[Turn]:
        """B's legal turns for ``roll``, eats first (a win needs one); only the eats that win when no later win is
        within reach."""
        later = turns > 1 and not _out_of_reach(_lead(position) + roll, "A", turns - 1, position.rules.die_sides)
        if not later:  # only a move onto A's last amoeba can win at once
            last = position.owned("A")
            return [turn for turn in legal_turns(position, roll) if len(last) == 1 and turn.dst == last[0]
                    and apply(position, turn).result == "B"]  # fmt: skip
        index, cells = position.board.index, position.cells
        found = legal_turns(position, roll)
        if turns == 2:  # A's last turn follows: only a B turn that leaves A unable to keep an amoeba can matter
            near = _b_turns_that_can_matter(position)
            if near is not None:
                found = (turn for turn in found if turn.dst in near)
        return sorted(found, key=lambda turn: turn.dst is None or cells[index[turn.dst]] is None)

    def _search(self, position: Position, turns: int) -> bool:
        if b_out_of_reach(position, turns):
            return False
        if position.to_move == "B":
            for roll in self._b_rolls(position, turns):
                if turns == 1 or _out_of_reach(_lead(position) + roll, "A", turns - 1, position.rules.die_sides):
                    return True  # only a win at once, and _b_rolls found one (exact)
                for turn in self._b_turns(position, roll, turns):
                    self._tick()
                    if self.b_wins(apply(position, turn), turns - 1):
                        return True
            return False
        return self._losing_a_roll(position, turns) is not None

    def _losing_a_roll(self, position: Position, turns: int) -> int | None:
        """An A roll with which every turn the text allows leads to a B win within ``turns``, or None."""
        for roll, _ in position.dice_outcomes():
            if b_out_of_reach(position, turns, roll) or can_end_at_once(position, roll, ties=False):
                continue
            if all(self._after_a(child, turns) for _, _, child in self._options(position, roll)):
                return roll
        return None

    def _options(self, position: Position, roll: int) -> _Lazy:
        """:func:`plan_turns` with the position after each (cached: the deeper searches ask again)."""
        key = (position.cells, roll)
        if key not in self._plan:
            self._plan[key] = _Lazy(plan_children(position, roll))
        return self._plan[key]

    def _after_a(self, child: Position, turns: int) -> bool:
        self._tick()
        return self.b_wins(child, turns - 1)

    def first_win(self, position: Position, turns: int) -> int | None:
        """The first turn of the game (counted from ``position``) by which B can win against every completion of the
        plan, searched one turn deeper at a time up to ``turns``; None when no such turn is within ``turns``."""
        for depth in range(1, turns + 1):
            if self.b_wins(position, depth):
                return depth
        return None

    def _depth(self, position: Position, turns: int) -> int:
        """The first depth <= ``turns`` at which B wins from ``position`` against the plan (``turns + 1`` if none)."""
        return next((d for d in range(0, turns + 1) if self.b_wins(position, d)), turns + 1)

    def line(self, position: Position, turns: int) -> list[str]:
        """One line of B's winning strategy within ``turns`` (``"A 1 a1 a1-b2 15,0"``-style entries): B's roll and
        turn that keep its win within reach, and on A's turns the roll with which every allowed turn loses and, of
        A's allowed turns, the one that holds out longest (so the line shows the most A can get from the text)."""
        if not self.b_wins(position, turns):
            raise ValueError(f"B has no win within {turns} turns against every completion from {position}")
        entries: list[str] = []
        while position.result != "B":
            if position.to_move == "B":
                choice = min(((self._depth(apply(position, turn), turns - 1), str(turn), turn)
                              for roll in self._b_rolls(position, turns) for turn in self._b_turns(position, roll, turns)
                              if self.b_wins(apply(position, turn), turns - 1)), key=lambda x: (x[0], x[1]))  # fmt: skip
                turn = choice[2]
            else:
                roll = self._losing_a_roll(position, turns)
                assert roll is not None
                options = [turn for _, turn in plan_turns(position, roll)]
                bot = paper_line(position, roll)
                turn = max(options, key=lambda t: (self._depth(apply(position, t), turns - 1),
                                                   apply(position, t).cells == apply(position, bot).cells))  # fmt: skip
            entries.append(f"{position.to_move} {turn}")
            position = apply(position, turn)
            turns -= 1
        return entries

    def holding_turn(self, position: Position, roll: int, turns: int) -> tuple[str, Turn] | None:
        """The completion that holds: A's first turn the text allows (in :func:`plan_turns` order) after which B has no
        win within ``turns - 1`` turns, or a winning turn; None when every allowed turn loses."""
        for key, turn in plan_turns(position, roll):
            after = apply(position, turn)
            if after.result == "A" or not self.b_wins(after, turns - 1):
                return key, turn
        return None


def plan_options_per_turn(start: Position, line: Sequence[str]) -> list[int]:
    """How many turns the text allowed A on each of its turns of ``line`` (what B's strategy tree had to beat)."""
    counts, position = [], start
    for entry in line:
        player, text = entry.split(" ", 1)
        turn = Turn.parse(text)
        if player == "A":
            counts.append(len(plan_turns(position, turn.roll)))
        position = apply(position, turn)
    return counts


def annotate_plan_turn(position: Position, turn: Turn) -> str:
    """The sentence of Case III's plan (or the silence) that allows this A turn, what it does, and how many turns the
    text allowed A there (what B's strategy had to beat); ValueError if the text does not allow it."""
    from .case_III import a_turn_phrase

    label = plan_label(position, turn)
    count = len(plan_turns(position, turn.roll))
    return f"{PLAN_KEYS[label]} [here: Delta {position.Delta}; {a_turn_phrase(position, turn)}; {count} turns allowed]"


@dataclass(frozen=True)
class PlanResult:
    """The whole plan against B from one set-up: ``first`` is the first turn by which B wins against every completion
    (None: a completion holds for ``depth`` turns); ``line`` one line of B's winning strategy (A holding out longest),
    ``options`` the number of turns the text allowed A on each of its turns of it; ``where`` and ``instead`` show the
    completion that holds where a losing one (the given line) goes wrong: the A turn number, and the turn the holding
    completion plays there."""

    start: Position
    depth: int
    first: int | None
    line: tuple[str, ...]
    options: tuple[int, ...]
    where: int | None
    instead: str
    visited: int


def search_plan(start: Position, depth: int, losing: Sequence[str] = (), budget: int = 3_000_000) -> PlanResult:
    """:class:`PlanSearch` from ``start`` to ``depth`` turns; when a completion holds and ``losing`` (a line that loses,
    e.g. completion (iv)'s) is given, the first A turn of it after which B's win is within reach although the holding
    completion keeps it out, and the holding completion's turn there."""
    search = PlanSearch(budget=budget)
    first = search.first_win(start, depth)
    if first is not None:
        line = search.line(start, first)
        return PlanResult(start, depth, first, tuple(line), tuple(plan_options_per_turn(start, line)), None, "",
                          search.visited)  # fmt: skip
    position, left = start, depth
    for number, entry in enumerate(losing, 1):
        player, text = entry.split(" ", 1)
        turn = Turn.parse(text)
        if left <= 0:
            break
        after = apply(position, turn)
        if player == "A" and search.b_wins(after, left - 1) and not search.b_wins(position, left):
            held = search.holding_turn(position, turn.roll, left)
            assert held is not None
            return PlanResult(start, depth, None, (), (), number, f"{held[1]} ({PLAN_KEYS[held[0]]}: "
                              f"{_phrase(position, held[1])})", search.visited)  # fmt: skip
        position, left = after, left - 1
    return PlanResult(start, depth, None, (), (), None, "", search.visited)


def _phrase(position: Position, turn: Turn) -> str:
    from .case_III import a_turn_phrase

    return a_turn_phrase(position, turn)
