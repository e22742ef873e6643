"""Whole games: seeded dice, the random player, fast random playouts, and :class:`Game`.

Chance is kept apart from choice, as in OpenSpiel: the die is rolled by the
game's own ``random.Random`` (never the global one), and a player only ever
sees the position and the roll.
"""

from __future__ import annotations

import json
import random
from bisect import insort
from dataclasses import dataclass
from typing import Any, Iterator

from .seeding import seeded_rng
from .notation import format_record, read_record, replay_turns
from .rules import (
    DEFAULT_RULES,
    Amoeba,
    Board,
    IllegalTurnError,
    Position,
    Rules,
    Splits,
    Turn,
    abbreviate,
    grown_cells,
    legal_turns,
    move_pairs,
    play_turn,
)

DiceState = tuple[Any, ...]  # what random.Random.getstate() returns

TURN_CAP = 500
"""The one turn cap: a game still going after this many turns stops, *capped*, and counts as a tie.

Amoeboid can go on for ever (a big amoeba chasing small ones), so every game the package plays stops here:
the lab's, a board's, a playout's.
"""

CAPPED = "capped"
"""The result of a game stopped by :data:`TURN_CAP`: scored as a tie, named apart so it is never mistaken for one."""
WHOLE_MOVE_PROBABILITY = 0.9


# --------------------------------------------------------------------------- the random player


def random_turn(position: Position, roll: int, rng: random.Random) -> Turn:
    """The engine's random player: a strategy ``(position, roll, rng) -> Turn``.

    Uniform over *kinds* of decision, not over all legal turns (a uniform count
    would shatter amoebae and games would last thousands of turns):

    1. grow = ``rng.choice`` of the mover's cells in board order;
    2. the (source, destination) pairs with a legal move after the grow, in board
       order; none: the turn is ``ROLL GROW -``;
    3. (source, destination) = ``rng.choice(pairs)``;
    4. with probability 0.9 (``rng.random() < 0.9``) move the whole source,
       otherwise ``rng.choice`` of the legal counts ordered by A then B.
    """
    mover, board = position.to_move, position.board
    owned = position.owned_indices(mover)
    if not owned:
        raise IllegalTurnError(f"{mover} owns no amoeba in position {abbreviate(str(position))}: the game is over", "game-over")
    grow = rng.choice(owned)
    cells = grown_cells(position.cells, grow, mover, roll)
    pairs = move_pairs(cells, board.neighbours, owned)
    names = board.names
    if not pairs:
        return Turn(roll, names[grow])
    src, dst = rng.choice(pairs)
    source, target = cells[src], cells[dst]
    assert source is not None
    if rng.random() < WHOLE_MOVE_PROBABILITY:
        a, b = source.a, source.b
    else:
        a, b = rng.choice(Splits(source.a, source.b, 0 if target is None else target.size))
    return Turn(roll, names[grow], names[src], names[dst], a, b)


@dataclass(frozen=True)
class Playout:
    """How a random playout ended."""

    final: Position
    turns: int
    result: str


def random_playout(position: Position, rng: random.Random, max_turns: int = TURN_CAP) -> Playout:
    """Play ``position`` out with the random player, rolling dice from the same ``rng``.

    Each turn draws ``rng.randint(1, sides)``, then :func:`random_turn`'s draws.
    The result is :data:`CAPPED` if ``max_turns`` pass first.  This is the same
    game as a :class:`Game` played by :func:`random_turn` with that generator,
    computed on flat lists instead of immutable positions (about 30x faster).
    It reproduces ``Random.randint``/``choice`` exactly by calling
    ``getrandbits`` the way they do; ``tests/engine/test_game.py`` checks the two agree.
    """
    if position.is_over:
        return Playout(position, 0, position.result)
    board = position.board
    neighbours = board.neighbours
    a = [0 if cell is None else cell.a for cell in position.cells]
    b = [0 if cell is None else cell.b for cell in position.cells]
    size = [x + y for x, y in zip(a, b)]
    n = len(a)
    cell_range = range(n)
    sides = position.rules.die_sides
    getrandbits, random_float = rng.getrandbits, rng.random
    side_bits = sides.bit_length()
    mover_is_a = position.to_move == "A"
    owner = [(x > y) - (y > x) for x, y in zip(a, b)]  # +1 A, -1 B, 0 neutral or empty
    owned_by = {1: [i for i in cell_range if owner[i] == 1], -1: [i for i in cell_range if owner[i] == -1]}
    turns = 0
    while turns < max_turns:
        r = getrandbits(side_bits)
        while r >= sides:
            r = getrandbits(side_bits)
        roll = r + 1
        owned = owned_by[1 if mover_is_a else -1]
        count = len(owned)
        k = count.bit_length()
        r = getrandbits(k)
        while r >= count:
            r = getrandbits(k)
        grow = owned[r]
        if mover_is_a:
            a[grow] += roll
        else:
            b[grow] += roll
        size[grow] += roll
        pairs = []
        for src in owned:
            limit = size[src]
            for dst in neighbours[src]:
                if size[dst] <= limit:
                    pairs.append((src, dst))
        count = len(pairs)
        if count:
            k = count.bit_length()
            r = getrandbits(k)
            while r >= count:
                r = getrandbits(k)
            src, dst = pairs[r]
            if random_float() < WHOLE_MOVE_PROBABILITY:
                x, y = a[src], b[src]
            else:
                x, y = rng.choice(Splits(a[src], b[src], size[dst]))
            a[src] -= x
            b[src] -= y
            a[dst] += x
            b[dst] += y
            size[src] -= x + y
            size[dst] += x + y
            for cell in (src, dst):  # only these two can change hands; keep the lists in board order
                now = (a[cell] > b[cell]) - (b[cell] > a[cell])
                if now != owner[cell]:
                    if owner[cell]:
                        owned_by[owner[cell]].remove(cell)
                    if now:
                        insort(owned_by[now], cell)
                    owner[cell] = now
        turns += 1
        mover_is_a = not mover_is_a
        if not (owned_by[1] and owned_by[-1]):
            break
    cells = tuple(None if a[i] + b[i] == 0 else Amoeba(a[i], b[i]) for i in cell_range)
    final = Position(board, cells, "A" if mover_is_a else "B", position.rules)
    return Playout(final, turns, final.result if final.is_over else CAPPED)


# --------------------------------------------------------------------------- Game


class Game:
    """A game being played or replayed: start, rolls, turns, undo, and its record.

    >>> game = Game(seed=1)
    >>> roll = game.roll()                          # the game's own seeded die
    >>> game.play(next(game.legal_turns()))         # any legal turn for that roll
    Position.parse('(4,0) (1,0) . / . . . / . . (0,1) B')
    >>> game.undo()
    Turn.parse('4 a1 a1-b1 1,0')
    >>> game.roll() == roll                         # undo never re-rolls the die
    True
    """

    def __init__(
        self,
        start: Position | str | None = None,
        *,
        board: int | tuple[int, int] | Board = 3,
        rules: Rules = DEFAULT_RULES,
        seed: int | str | None = 0,
        turn_cap: int = TURN_CAP,
    ) -> None:
        if isinstance(start, str):
            start = Position.parse(start, rules)
        elif start is None:
            if isinstance(board, tuple):
                start = Position.start(*board, rules=rules)
            else:
                start = Position.start(board, rules=rules)
        self.start: Position = start
        self.seed = seed
        self._dice = random.Random() if seed is None else seeded_rng(seed)  # None: unseeded, for free play
        self._positions: list[Position] = [start]
        self._turns: list[Turn] = []
        self._dice_states: list[DiceState | None] = []  # the dice state before each turn's roll
        self.pending_roll: int | None = None
        self._state_before_pending: DiceState | None = None
        self.turn_cap = turn_cap
        self.agreed_draw = False  # both sides agreed to a draw (:meth:`agree_draw`)

    # -- reading ------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start and the position after every turn."""
        return tuple(self._positions)

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(self._turns)

    @property
    def capped(self) -> bool:
        """Stopped by the turn cap (:data:`TURN_CAP`) with both sides still on the board."""
        return not self.position.is_over and not self.agreed_draw and len(self._turns) >= self.turn_cap

    @property
    def result(self) -> str:
        """The position's result (``"A"``, ``"B"``, ``"tie"``, ``"ongoing"``), ``"tie"`` after an agreed draw,
        or :data:`CAPPED`."""
        if self.agreed_draw:
            return "tie"
        return CAPPED if self.capped else self.position.result

    @property
    def is_over(self) -> bool:
        return self.position.is_over or self.agreed_draw or len(self._turns) >= self.turn_cap

    def agree_draw(self) -> None:
        """End the game as a tie by agreement (a board asks the bot first: :func:`amoeboid_edu.players.bots.accepts_draw`)."""
        if self.is_over:
            raise IllegalTurnError(f"the game is over ({self.result}): there is nothing to agree", "game-over")
        self.agreed_draw = True
        self.pending_roll = None

    def __len__(self) -> int:
        return len(self._turns)

    # -- playing ------------------------------------------------------------------------

    def roll(self) -> int:
        """Roll the game's die for the next turn (rolling again returns the same pending roll)."""
        if self.is_over:
            raise IllegalTurnError(f"the game is over ({self._over_reason()}): no more rolls", "game-over")
        if self.pending_roll is None:
            self._state_before_pending = self._dice.getstate()
            self.pending_roll = self._dice.randint(1, self.position.rules.die_sides)
        return self.pending_roll

    def legal_turns(self, roll: int | None = None) -> Iterator[Turn]:
        """Legal turns for ``roll`` (default: the pending roll, rolling if needed)."""
        return legal_turns(self.position, self.roll() if roll is None else roll)

    def play(self, turn: Turn | str) -> Position:
        """Apply ``turn``; it must use the pending roll if the game rolled one.

        An illegal turn raises :class:`IllegalTurnError` and changes nothing.
        """
        if self.is_over and not self.position.is_over:
            raise IllegalTurnError(f"the game is over ({self._over_reason()}): no more turns", "game-over")
        turn, after = play_turn(self.position, turn)
        if self.pending_roll is not None and turn.roll != self.pending_roll:
            raise IllegalTurnError(f"the die shows {self.pending_roll}, not {turn.roll}", "wrong-roll", str(turn))
        self._record(turn, after)
        return after

    def forget_roll(self) -> None:
        """Drop the pending roll unplayed: the next :meth:`roll` throws the die again (a scripted turn brings its own).

        Unlike :meth:`undo`, the die is not rewound: it has been thrown, and the throw is gone.
        """
        self.pending_roll = None

    def _over_reason(self) -> str:
        if self.capped:
            return f"capped: {self.turn_cap} turns played, counted as a tie"
        return "a draw by agreement" if self.agreed_draw else self.result

    def _record(self, turn: Turn, after: Position) -> None:
        self._dice_states.append(self._state_before_pending if self.pending_roll is not None else None)
        self._positions.append(after)
        self._turns.append(turn)
        self.pending_roll = None

    def undo(self) -> Turn:
        """Take back the last turn; the die is rewound too, so the same roll comes again."""
        if not self._turns:
            raise IndexError("nothing to undo: no turn has been played")
        state = self._dice_states.pop()
        if state is not None:
            self._dice.setstate(state)
        elif self.pending_roll is not None and self._state_before_pending is not None:
            self._dice.setstate(self._state_before_pending)
        self.pending_roll = None
        self.agreed_draw = False
        self._positions.pop()
        return self._turns.pop()

    def play_random(self) -> str:
        """Finish the game with the random player, drawing from the game's own generator.

        From a fresh ``Game(seed=s)`` this is exactly ``random_playout(start, seeded_rng(s), game.turn_cap)``.
        """
        while not self.is_over:
            roll = self.roll()
            self.play(random_turn(self.position, roll, self._dice))
        return self.result

    # -- records ------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, *, rules: Rules = DEFAULT_RULES, seed: int | str | None = 0) -> Game:
        """Replay a game record, checking every turn.

        Raises :class:`~amoeboid_edu.engine.notation.InvalidRecordError` (``turn N: reason``).
        """
        start, turns = read_record(text.splitlines(), rules)
        game = cls(start, rules=rules, seed=seed)
        for turn, after in replay_turns(start, turns):
            game._record(turn, after)
        return game

    def __str__(self) -> str:
        return format_record(self.start, self._turns, self.result)

    def __repr__(self) -> str:
        return f"<Game: {len(self._turns)} turns, {self.result}, position {self.position}>"

    def to_json(self) -> str:
        """Any game, graph boards included: start position and turns."""
        return json.dumps({"start": json.loads(self.start.to_json()), "turns": [str(t) for t in self._turns]})

    @classmethod
    def from_json(cls, text: str, *, seed: int | str | None = 0) -> Game:
        data = json.loads(text)
        game = cls(Position.from_json(json.dumps(data["start"])), seed=seed)
        for turn in data["turns"]:
            game.play(turn)
        return game

    # -- history --------------------------------------------------------------------------

    def rows(self) -> list[dict[str, object]]:
        """One dict per turn (after it): ready for ``pandas.DataFrame(game.rows())``."""
        rows = []
        for number, (turn, before, after) in enumerate(
            zip(self._turns, self._positions, self._positions[1:]), start=1
        ):
            rows.append(
                {
                    "turn": number,
                    "player": before.to_move,
                    "roll": turn.roll,
                    "notation": str(turn),
                    "sigma_A": after.sigma_A,
                    "sigma_B": after.sigma_B,
                    "delta": after.delta,
                    "Sigma_A": after.Sigma_A,
                    "Sigma_B": after.Sigma_B,
                    "Delta": after.Delta,
                    "result": after.result,
                }
            )
        return rows


__all__ = ["CAPPED", "Game", "Playout", "TURN_CAP", "random_playout", "random_turn"]
