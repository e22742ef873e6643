"""A human's turn built by clicks -- grow, then source, counts, destination -- as a plain class, without a widget.

The clickable board (:mod:`amoeboid_edu.ui.widget`) holds one :class:`TurnBuilder` while a human is to
move and passes it the clicks; the builder says which cells may be clicked, checks every click with the
engine, and hands back the finished :class:`~amoeboid_edu.engine.rules.Turn` (a move, or a pass when no
move is left after the grow).  A click that cannot be carried out raises
:class:`~amoeboid_edu.common.intents.Refused` with one line saying why and what to click instead.

>>> from amoeboid_edu import Position
>>> builder = TurnBuilder(Position.parse("(4,0) . . / . . . / . . (0,2) A"), roll=2)
>>> builder.phase, builder.grow  # one amoeba: its grow is automatic
('source', 'a1')
>>> builder.click("a1"), builder.phase, builder.counts
(None, 'destination', (6, 0))
>>> builder.set_counts(3, 0)
>>> str(builder.click("b1"))
'2 a1 a1-b1 3,0'
"""

from __future__ import annotations

from ..common.intents import Refused
from ..engine.rules import IllegalTurnError, Position, Turn, is_legal, legal_move_pairs
from ..players.strategy import grown, half, smallest_capture, smallest_eat, smallest_neutralisation

PHASES = ("grow", "source", "destination")
"""A turn being built is in one of these phases: choose the amoeba to grow, the amoeba to move from, the cell
to move to (with the counts)."""


class TurnBuilder:
    """The turn the side to move in ``position`` is building with ``roll``: what is chosen so far, what may be
    clicked next, and the finished turn once the last click makes it.

    With a single amoeba the grow is chosen at once (``auto_grow``); if that grow leaves no move,
    ``passed`` holds the pass it makes.
    """

    def __init__(self, position: Position, roll: int) -> None:
        self.position, self.roll = position, roll
        self.grow: str | None = None
        self.src: str | None = None
        self.counts: tuple[int, int] | None = None
        owned = position.owned()
        self.auto_grow = len(owned) == 1
        self.passed: Turn | None = self.choose_grow(owned[0]) if self.auto_grow else None

    # -- what is chosen and what may be clicked --------------------------------------------

    @property
    def phase(self) -> str:
        """``grow``, ``source`` or ``destination``."""
        if self.grow is None:
            return "grow"
        return "source" if self.src is None else "destination"

    def grown(self) -> Position:
        """The position after the grow (the position itself before it)."""
        return self.position if self.grow is None else grown(self.position, self.grow, self.roll)

    def sources(self) -> list[str]:
        """The amoebae that have a legal move after the grow."""
        if self.grow is None:
            return []
        return list(dict.fromkeys(src for src, _ in legal_move_pairs(self.position, self.roll, self.grow)))

    def destinations(self) -> list[str]:
        """The neighbours the current counts may move to, as the engine judges them."""
        if self.grow is None or self.src is None or self.counts is None:
            return []
        pairs = legal_move_pairs(self.position, self.roll, self.grow)
        return [dst for src, dst in pairs if src == self.src and is_legal(self.position, self._turn_to(dst, *self.counts))]

    def selectable(self) -> list[str]:
        """The cells a click does something on: the owned amoebae, the sources, or the sources and destinations."""
        phase = self.phase
        if phase == "grow":
            return self.position.owned()
        if phase == "source":
            return self.sources()
        return self.sources() + self.destinations()

    def presets(self) -> list[dict[str, object]]:
        """One-click counts: the whole amoeba, half, and just enough to eat, neutralise or capture a neighbour."""
        if self.grow is None or self.src is None:
            return []
        mid, mover = self.grown(), self.position.to_move
        source = mid[self.src]
        assert source is not None
        options: list[tuple[str, str | None, tuple[int, int] | None]] = [
            ("whole", None, (source.a, source.b)), ("half", None, half(source))
        ]
        for src, dst in legal_move_pairs(self.position, self.roll, self.grow):
            target = mid[dst]
            if src != self.src or target is None or target.owner == mover:
                continue
            options.append(("eat", dst, smallest_eat(source, target, mover)))
            if target.owner is not None:
                options.append(("neutralise", dst, smallest_neutralisation(source, target)))
                options.append(("capture", dst, smallest_capture(source, target, mover)))
        presets: dict[tuple[str | None, tuple[int, int]], dict[str, object]] = {}  # a later label wins over "eat"
        for label, target_name, counts in options:
            if counts is None or (
                target_name is not None and not is_legal(self.position, self._turn_to(target_name, *counts))
            ):
                continue
            presets[target_name, counts] = {"label": label, "target": target_name, "a": counts[0], "b": counts[1]}
        return list(presets.values())

    # -- clicks ----------------------------------------------------------------------------

    def choose_grow(self, cell: str) -> Turn | None:
        """Grow ``cell``; the pass it makes if no legal move is left after that grow, else None."""
        if not legal_move_pairs(self.position, self.roll, cell):
            return Turn(self.roll, cell)
        self.grow = cell
        return None

    def click(self, cell: str) -> Turn | None:
        """Carry out a click on ``cell``: the finished turn when it finishes one (a move or a pass), else None."""
        position = self.position
        if cell not in position.board.index:
            raise Refused(f"there is no cell {cell!r} on this board")
        phase = self.phase
        if phase == "grow":
            if cell not in position.owned():
                raise Refused(f"{self._what_is(cell)}: click one of {position.to_move}'s amoebae "
                              f"({', '.join(position.owned())}) to grow it")
            return self.choose_grow(cell)
        if phase == "destination" and self.counts is not None and cell in self.destinations():
            return self._turn_to(cell, *self.counts)  # a move (or a merge into your own amoeba)
        if phase == "destination" and cell == self.src:
            self.src = self.counts = None
            return None
        if cell in self.sources():
            source = self.grown()[cell]
            assert source is not None
            self.src, self.counts = cell, (source.a, source.b)
            return None
        if phase == "source":
            amoeba, mover = position[cell], position.to_move
            if amoeba is not None and amoeba.owner == mover:
                reason = f"{cell} has no legal move after the grow"
            elif amoeba is not None and amoeba.owner is not None:
                reason = f"{cell} holds {amoeba}, {amoeba.owner}'s amoeba: you move only your own ({mover}'s)"
            else:
                reason = self._what_is(cell)
            raise Refused(f"{reason}: click a highlighted amoeba ({', '.join(self.sources())}) to move from")
        if position[cell] is None and cell not in self._neighbours_of_source():
            raise Refused(f"{cell} is empty and not next to {self.src}: click a highlighted cell to move there")
        raise Refused(self._why_not(cell))

    def set_counts(self, a: int, b: int) -> None:
        """Move ``a`` of A's and ``b`` of B's units from the chosen source."""
        if self.phase != "destination" or self.src is None:
            raise Refused("choose an amoeba to move from before choosing counts")
        source = self.grown()[self.src]
        assert source is not None
        if 0 <= a <= source.a and 0 <= b <= source.b and a + b < 1:
            raise Refused("a move takes at least 1 unit: press + to move more")
        if not (0 <= a <= source.a and 0 <= b <= source.b):
            sides = [f"0..{count} of {side}'s units" for side, count in (("A", source.a), ("B", source.b)) if count]
            raise Refused(f"{self.src} holds {source}: move {' and '.join(sides)}")
        self.counts = (a, b)

    @property
    def can_cancel(self) -> bool:
        """Whether something chosen by a click may be taken back (a source, or a grow that was not automatic)."""
        return self.src is not None or (self.grow is not None and not self.auto_grow)

    # -- reasons ---------------------------------------------------------------------------

    def _turn_to(self, dst: str, a: int, b: int) -> Turn:
        assert self.grow is not None  # a move is made after the grow
        return Turn(self.roll, self.grow, self.src, dst, a, b)

    def _what_is(self, cell: str) -> str:
        amoeba = self.position[cell]
        if amoeba is None:
            return f"{cell} is empty"
        return f"{cell} holds {amoeba}, " + ("a neutral amoeba" if amoeba.owner is None else f"{amoeba.owner}'s")

    def _neighbours_of_source(self) -> list[str]:
        board = self.position.board
        if self.src is None:
            return []
        return [board.names[j] for j in board.neighbours[board.index[self.src]]]

    def _why_not(self, cell: str) -> str:
        """The engine's own reason a move of the current counts to ``cell`` is illegal."""
        if self.counts is None:
            return f"{cell} is not a legal destination"
        try:
            self.position.apply(self._turn_to(cell, *self.counts))
        except IllegalTurnError as error:
            return str(error.rule)
        return f"{cell} is not a legal destination"


__all__ = ["PHASES", "TurnBuilder"]
