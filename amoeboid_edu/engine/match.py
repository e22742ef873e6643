"""One game between two strategies: the one match loop and the one seeding scheme.

The lab (sandboxed strategies, many games interleaved), the tournament and
:func:`~amoeboid_edu.theory.analysis.play_game` (in-process) all play through
:class:`Match`, so a game is the same game wherever it is played.

The seeding scheme (public: a strategy that knew the seed could recompute the
dice, so pick a contest seed the students do not know):

- the dice of dice-seed index ``pair`` at a ``table`` are ``seeded_rng(seed, "dice", pair,
  repr(table))`` (just ``seeded_rng(seed, "dice", pair)`` without one); the pair's two
  games (seats swapped) roll the same dice, so both sides meet the same luck.  The lab
  seats each game at a table named by its opponents (a baseline bot's name; two
  students' names), so no strategy meets the same dice twice (a process that had seen a
  pair's rolls against ``random`` would know its coming rolls against ``greedy``), while two
  students' score cards against the same bot meet the same dice (comparable cards); in a
  tournament a bot's table also names the entrant (``(bot, "against", entrant)``), so no two
  entrants meet the same dice against a bot;
- each player draws its choices from a stream keyed by
  ``("player", pair, first_seat, role, kind)``: ``role`` is ``first`` or ``second``,
  ``kind`` the bot's name for a baseline bot and ``"strategy"`` for anything else,
  never a strategy's own name, so two students scored with the same seed meet the
  same dice and the same opponent choices.  A bot keeps one ``random.Random`` for the
  whole game; a strategy gets a fresh ``random.Random(move_seed)`` for every move
  (``move_seed`` = the stream's 64-bit seed + the turn number), because a sandboxed
  strategy keeps no state between moves.  In-process play hands it exactly the same
  generator, so a strategy plays the same game in-process or in the sandbox.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, Union, cast

from .seeding import seeded_rng
from .game import TURN_CAP, random_turn
from .rules import IllegalTurnError, Position, Turn, cells_after_legal, other, play_turn

# --------------------------------------------------------------------------- the strategy interface

TurnLike = Union[Turn, str]
StrategyFunction = Callable[[Position, int, random.Random], TurnLike]


class StrategyObject(Protocol):
    def choose(self, position: Position, roll: int, rng: random.Random) -> TurnLike: ...


Strategy = Union[StrategyFunction, StrategyObject]


def as_function(strategy: Strategy) -> StrategyFunction:
    """The callable behind a strategy: the function itself, or an object's ``choose``."""
    choose = getattr(strategy, "choose", None)
    if callable(choose):
        return cast(StrategyFunction, choose)
    if callable(strategy):
        return strategy
    raise TypeError(f"a strategy is a function (position, roll, rng) or has .choose(); got {type(strategy).__name__}")


def strategy_name(strategy: Strategy) -> str:
    """A readable, stable name for score cards."""
    return getattr(strategy, "name", None) or getattr(strategy, "__name__", None) or type(strategy).__name__


STRATEGY = "strategy"
"""The ``kind`` of every player that is not a baseline bot."""


def dice_rng(seed: int | str, pair: int, table: tuple[str, ...] = ()) -> random.Random:
    """The dice of dice-seed index ``pair`` at ``table`` (the same for both games of the pair)."""
    return seeded_rng(seed, "dice", pair, repr(table)) if table else seeded_rng(seed, "dice", pair)


_BOT_KINDS: dict[int, tuple[object, str]] = {}


def register_bot(name: str, bot: object) -> None:
    """Make ``bot`` a baseline bot named ``name`` for :func:`kind_of` (the players layer registers its bots).

    A bot draws its choices from a game-long stream keyed by its name, so the engine must know a bot when it
    sees one; the registry keeps a reference, so an id is never reused.
    """
    _BOT_KINDS[id(bot)] = (bot, name)


def kind_of(strategy: object) -> str:
    """``"strategy"``, or the name of the registered baseline bot ``strategy`` is."""
    entry = _BOT_KINDS.get(id(strategy))
    return entry[1] if entry is not None and entry[0] is strategy else STRATEGY


register_bot("random", random_turn)  # the engine's own player: known whatever else was imported


class Match:
    """One game in progress between ``first`` and ``second`` (of the given kinds): dice, streams, turns.

    The caller asks :meth:`due` whose move it is, gets the roll with :meth:`roll`
    and the mover's generator with :meth:`rng` (or :meth:`move_seed` to ship it),
    and plays the answer with :meth:`play`.
    """

    def __init__(self, first_kind: str, second_kind: str, *, seed: int | str, pair: int, first_seat: str = "A",
                 start: Position | None = None, board: int = 3, max_turns: int, table: tuple[str, ...] = ()) -> None:
        if first_seat not in ("A", "B"):
            raise ValueError(f"first_seat is 'A' or 'B', not {first_seat!r}")
        self.start = Position.start(board) if start is None else start
        self.position = self.start
        self.first_seat, self.max_turns = first_seat, max_turns
        self.turns: list[Turn] = []
        self.role = {first_seat: "first", other(first_seat): "second"}
        self.kinds = {first_seat: first_kind, other(first_seat): second_kind}
        self._dice = dice_rng(seed, pair, table)
        keys = {seat: ("player", pair, first_seat, self.role[seat], self.kinds[seat]) for seat in "AB"}
        self._bot_rngs = {seat: seeded_rng(seed, *keys[seat]) for seat in "AB" if self.kinds[seat] != STRATEGY}
        self._move_seeds = {seat: seeded_rng(seed, *keys[seat]).getrandbits(64) for seat in "AB"}
        self._roll: int | None = None  # drawn once per move, kept until the move is played

    def due(self) -> str | None:
        """The seat to move, or None when the game is over or has reached ``max_turns``."""
        if self.position.is_over or len(self.turns) >= self.max_turns:
            return None
        return self.position.to_move

    def roll(self) -> int:
        if self._roll is None:
            self._roll = self._dice.randint(1, self.position.rules.die_sides)
        return self._roll

    def move_seed(self) -> int:
        """The seed of the mover's generator for this move (a strategy's; it reveals nothing of the dice)."""
        return (self._move_seeds[self.position.to_move] + len(self.turns)) % (1 << 64)

    def rng(self) -> random.Random:
        """The mover's generator for this move: a bot's game-long stream, a strategy's fresh per-move one."""
        seat = self.position.to_move
        return self._bot_rngs[seat] if seat in self._bot_rngs else random.Random(self.move_seed())

    def play(self, turn: Turn | str) -> None:
        """Play the mover's turn for the pending roll; IllegalTurnError (nothing changes) if it is not legal.

        A :class:`Turn` is recorded as given, notation as read with its counts filled in; either is checked once.
        """
        roll = self.roll()
        if isinstance(turn, Turn):
            if turn.roll != roll:
                raise IllegalTurnError(f"illegal turn '{turn}': the die shows {roll}, not {turn.roll}")
            after = play_turn(self.position, turn)[1]
        else:
            turn, after = play_turn(self.position, turn)
            if turn.roll != roll:
                raise IllegalTurnError(f"illegal turn '{turn}': the die shows {roll}, not {turn.roll}")
        self.position = after
        self.turns.append(turn)
        self._roll = None

    def play_trusted(self, turn: Turn | str) -> None:
        """Play a baseline bot's turn (the engine's own, from its turn generators) without checking it again.

        The referee's check is for untrusted answers; re-checking every bot turn cost about a tenth of a scoring
        run.  The position is the one :meth:`play` makes (``tests/lab/test_lab.py`` plays bots both ways).
        """
        if not isinstance(turn, Turn) or turn.roll != self.roll():
            return self.play(turn)  # notation, or a wrong roll: the checked path (which raises for a wrong roll)
        position = self.position
        cells = tuple(cells_after_legal(position, turn))
        self.position = Position.unchecked(position.board, cells, other(position.to_move), position.rules)
        self.turns.append(turn)
        self._roll = None

    @property
    def capped(self) -> bool:
        """Stopped at ``max_turns`` (:data:`~amoeboid_edu.engine.game.TURN_CAP`) before anyone won: scored as a tie."""
        return not self.position.is_over and len(self.turns) >= self.max_turns

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"``, or None for a tie, a capped game or a game still going."""
        result = self.position.result
        return self.role[result] if result in ("A", "B") else None


def play_match(first: Strategy, second: Strategy, *, seed: int | str = 0, pair: int = 0, first_seat: str = "A",
               start: Position | None = None, board: int = 3, max_turns: int = TURN_CAP,
               table: tuple[str, ...] = (),
               observe: Callable[[Position, int], object] | None = None) -> Match:
    """Play one whole game in this process (trusted code: a strategy's exception propagates).

    ``first`` sits at ``first_seat``; the dice are those of dice-seed index ``pair`` at ``table``.
    A baseline bot's turns (:func:`kind_of`) are played unchecked (:meth:`Match.play_trusted`), anything else's
    checked: the same positions either way.
    ``observe(position, roll)``, if given, sees every position and its roll before the mover answers.
    For untrusted code use :func:`amoeboid_edu.lab.scoring.score`, which plays the same game in a sandbox.
    """
    match = Match(kind_of(first), kind_of(second), seed=seed, pair=pair, first_seat=first_seat, start=start,
                  board=board, max_turns=max_turns, table=table)
    choose: dict[str, StrategyFunction] = {first_seat: as_function(first), other(first_seat): as_function(second)}
    play = {seat: match.play_trusted if match.kinds[seat] != STRATEGY else match.play for seat in "AB"}
    while (seat := match.due()) is not None:
        roll = match.roll()
        if observe is not None:
            observe(match.position, roll)
        play[seat](choose[seat](match.position, roll, match.rng()))
    return match


__all__ = ["Match", "STRATEGY", "dice_rng", "kind_of", "play_match"]
