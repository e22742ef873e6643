"""Clickable boards for the namesakes: :class:`NakajimaBoard` and :class:`OosterwalBoard`.

Python is authoritative: it draws the board (:mod:`.drawing`), marks which
cells and buttons do something, and checks every intent with the engine.
``widgets/hexboard.js`` only shows the view and sends intents (a clicked
cell, a pressed button) stamped with the view's ``version``; a stale or
malformed intent is refused with a message in ``error``.  Tests and lessons
play through :meth:`click` and :meth:`press`, exactly as the browser does.

>>> board = NakajimaBoard(opponent="greedy", seed=1)
>>> board.click("e1"), board.press("move"), board.click("d1")
(True, True, True)
>>> str(board.game.moves[0]), len(board.game.moves)  # the greedy bot has replied
('e1-d1', 2)
"""

from __future__ import annotations

import pathlib
import random
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..common.intents import Handler, IntentChannel, Refused, field
from . import nakajima, oosterwal
from .bots import NAKAJIMA_BOTS, OOSTERWAL_BOTS
from .drawing import nakajima_svg, oosterwal_svg

HUMAN = "human"


def _static_dir() -> pathlib.Path:
    """``amoeboid_edu/_static`` in a wheel, the repo's ``widgets/`` when installed editable."""
    packaged = pathlib.Path(__file__).resolve().parent.parent / "_static"
    if (packaged / "hexboard.js").is_file():
        return packaged
    return pathlib.Path(__file__).resolve().parent.parent.parent / "widgets"


STATIC = _static_dir()


def _player(opponent: str | Callable, bots: dict[str, Callable]) -> Callable | None:
    if opponent == HUMAN:
        return None
    if isinstance(opponent, str):
        if opponent not in bots:
            raise ValueError(f"unknown opponent {opponent!r}: choose 'human' or one of {sorted(bots)}")
        return bots[opponent]
    if not callable(opponent):
        raise ValueError(f"an opponent is 'human', a bot name or a function (position, rng) -> move, not {opponent!r}")
    return opponent


class _HexBoard(IntentChannel, anywidget.AnyWidget):
    """The versioned view, the bots' turns and undo: what both boards share.

    Intents arrive through the channel the Amoeboid board shares (:mod:`amoeboid_edu.common.intents`):
    version check, lock and refusal are written once there.

    ``self.game`` is a namesake ``Game`` (``positions``, ``play``, ``undo``,
    ``is_over``); ``self._bots`` maps each seat to its bot, ``None`` for a human.
    """

    GAME = "this game"  # named in the placeholder a notebook shows before the cell is run

    _esm = STATIC / "hexboard.js"
    _css = STATIC / "hexboard.css"
    view = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)

    def __init__(self, seed: int | str) -> None:
        super().__init__()
        self.seed = seed
        self._init_channel()

    def _intents(self) -> dict[str, Handler]:
        return {
            "cell": lambda content: self._on_cell(field(content, "cell", str)),
            "button": lambda content: self._on_button(field(content, "button", str)),
        }

    def _refused(self, message: str) -> None:
        """A refusal is shown with the view redrawn (a bot's failure may have changed it)."""
        self.error = message
        self._publish(keep_error=True)

    def click(self, cell: str) -> bool:
        """Click a cell as the browser would."""
        return self.handle_intent({"kind": "cell", "cell": cell, "version": self.version})

    def press(self, button: str) -> bool:
        """Press a button as the browser would."""
        return self.handle_intent({"kind": "button", "button": button, "version": self.version})

    def _publish(self, keep_error: bool = False) -> None:
        with self.hold_sync():
            self.view = self._view()
            if not keep_error:
                self.error = ""
            self.version += 1

    def _bot_rng(self, ply: int) -> random.Random:
        return random.Random(f"{self.seed}:bot:{ply}")

    def _begin(self) -> None:
        """Let a bot holding the first seat move, then show the board (with the bot's failure, if it failed)."""
        try:
            self._let_bots_move()
        except Refused as refusal:
            self.error = str(refusal)
        self._publish(keep_error=True)

    def _let_bots_move(self) -> None:
        """Play the bots' turns until a human is to move or the game is over."""
        game = self.game
        while not game.is_over and (bot := self._bots[seat := self._seat(game.position)]) is not None:
            try:
                game.play(bot(game.position, self._bot_rng(len(game.positions) - 1)))
            except Exception as error:  # noqa: BLE001 - a student's bot may fail in any way; the board must survive
                raise Refused(
                    f"the bot playing {seat} could not move ({type(error).__name__}: {error}): press Undo or New game"
                ) from None

    def _moves(self) -> list:
        """The moves (or turns) played so far, one a ply."""
        raise NotImplementedError

    def _bot_news(self) -> str:
        """The bots' moves since a human last moved, e.g. "black (random) played d4-e5. ": a bot's move is news."""
        moves, said = self._moves(), []
        for ply in range(len(moves) - 1, -1, -1):
            seat = self._seat(self.game.positions[ply])
            if self._bots[seat] is None:
                break
            said.append(f"{seat} ({self.players[seat]}) played {moves[ply]}")
        return "; ".join(reversed(said)) + ". " if said else ""

    def _bot_is_stuck(self) -> bool:
        """A bot's seat is to move in a game that is not over: only after that bot failed."""
        return not self.game.is_over and self._bots[self._seat(self.game.position)] is not None

    def _check_seat(self) -> None:
        """Refuse a move on the board unless a human holds the seat to move."""
        if self._bot_is_stuck():
            seat = self._seat(self.game.position)
            raise Refused(f"it is {seat}'s turn and a bot plays {seat}, not you: press Undo or New game")

    def _human_plies(self) -> list[int]:
        """The plies a human played: what Undo can take back."""
        before = self.game.positions[:-1]
        return [ply for ply, position in enumerate(before) if self._bots[self._seat(position)] is None]

    def _undo(self) -> None:
        """Take back the last turn a human played and the bots' turns after it: that human is to move again.

        A bot's opening turn stays (Undo never hands a human a bot's seat);
        the bots are seeded by ply, so they would replay it anyway.
        """
        plies = self._human_plies()
        if not plies:
            raise Refused("nothing to undo: you have not moved yet")
        while len(self.game.positions) - 1 > plies[-1]:
            self.game.undo()

    def _repr_mimebundle_(self, **kwargs):
        """The live widget for a frontend; a placeholder text and the static SVG for everything else (nbval).

        A notebook opened before its cells are run (untrusted, no widget model) shows the text.
        """
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = f"▶ Run this cell to play {self.GAME} on the board."
        data["image/svg+xml"] = self.view["svg"]
        return data, metadata

    def _seat(self, position: Any) -> str:
        """The name of the seat to move in ``position``."""
        raise NotImplementedError

    def _on_cell(self, cell: str) -> None:
        raise NotImplementedError

    def _on_button(self, button: str) -> None:
        raise NotImplementedError

    def _view(self) -> dict:
        raise NotImplementedError


class NakajimaBoard(_HexBoard):
    """Nakajima's Amoeba by clicking: a stack you control, then its destination; ``sow``/``move`` toggles.

    ``opponent`` plays the side that is not ``human``: ``"human"`` (two
    players at one screen), ``"random"``, ``"greedy"``, ``"alphabeta"`` or a
    function ``(position, rng) -> move``.  Undo takes back your last move and
    the bot's reply.
    """

    GAME = "Nakajima's Amoeba"

    def __init__(self, *, opponent: str | Callable = HUMAN, human: str = nakajima.WHITE, seed: int | str = 0,
                 start: nakajima.Position | str | None = None) -> None:  # fmt: skip
        if human not in nakajima.SIDES:
            raise ValueError(f"human plays 'white' or 'black', not {human!r}")
        super().__init__(seed)
        start = nakajima.Position.parse(start) if isinstance(start, str) else start
        self.game = nakajima.Game(start or nakajima.Position.start())
        self.players = {human: HUMAN, nakajima.other(human): opponent if isinstance(opponent, str) else "bot"}
        self._bots = {human: None, nakajima.other(human): _player(opponent, NAKAJIMA_BOTS)}
        self.selected: int | None = None
        self.sow = False
        self._begin()

    def __repr__(self) -> str:
        return f"NakajimaBoard({self.game.position}; white: {self.players['white']}, black: {self.players['black']})"

    def _seat(self, position: nakajima.Position) -> str:
        return position.to_move

    def _moves(self) -> list:
        return self.game.moves

    def _targets(self) -> dict[int, nakajima.Move]:
        if self.selected is None or self.game.is_over:
            return {}
        return {
            move.dst: move
            for move in self.game.legal_moves()
            if move.src == self.selected and move.sow == (self.sow and len(self.game.position.stacks[move.src]) > 1)
        }

    def _on_cell(self, cell: str) -> None:
        if cell not in nakajima.NAME_INDEX:
            raise Refused(f"ignored a click on {cell!r}: no such point")
        if self.game.is_over:
            raise Refused("the game is over: press New game or Undo")
        self._check_seat()
        index = nakajima.NAME_INDEX[cell]
        targets = self._targets()
        if index in targets:
            self.game.play(targets[index])
            self.selected, self.sow = None, False  # each turn starts as a move: sowing is chosen again
            self._let_bots_move()
        elif index == self.selected:
            self.selected = None
        elif self.game.position.controller(index) == self.game.position.to_move:
            self.selected = index
        else:
            raise Refused(
                f"{cell}: choose a stack with a {self.game.position.to_move} piece on top, then where it goes"
            )

    def _on_button(self, button: str) -> None:
        if button in ("move", "sow"):
            self.sow = button == "sow"
        elif button == "undo":
            self.selected, self.sow = None, False
            self._undo()
        elif button == "new":
            self.game = nakajima.Game(self.game.start, cap=self.game.cap)
            self.selected, self.sow = None, False
            self._let_bots_move()
        else:
            raise Refused(f"ignored an unknown button {button!r}")

    def _view(self) -> dict:
        game, position = self.game, self.game.position
        marks: dict[str, str] = {}
        if game.moves:
            marks[nakajima.NAMES[game.moves[-1].dst]] = "last"
        stuck = self._bot_is_stuck()
        if not game.is_over and not stuck:
            for index in {move.src for move in game.legal_moves()}:
                marks[nakajima.NAMES[index]] = "selectable"
        if self.selected is not None:
            marks[nakajima.NAMES[self.selected]] = "selectable selected"
        for index in self._targets():
            marks[nakajima.NAMES[index]] = "target"
        counts = nakajima.stack_counts(position)
        stacks = f"stacks: white {counts['white']}, black {counts['black']}"
        if game.is_over:
            loser = nakajima.other(game.result) if game.result in nakajima.SIDES else position.to_move
            why = {"kernel": f"{loser}'s kernel is taken", "no moves": f"{loser} cannot move",
                   "repetition": f"the same position three times; {stacks}",
                   "cap": f"{game.cap} moves played; {stacks}"}.get(game.reason, game.reason)  # fmt: skip
            end = f"{game.result} wins" if game.result != "draw" else "a draw"
            prompt = f"Game over: {end} ({why}). Press New game to play again."
        elif stuck:
            prompt = f"{position.to_move}'s bot could not move: press Undo or New game"
        elif self.selected is None:
            prompt = f"{position.to_move} to move: click a stack with a {position.to_move} piece on top"
        else:
            how = "sow" if self.sow else "move"
            prompt = f"{position.to_move}: click where {nakajima.NAMES[self.selected]} goes ({how})"
        return {
            "svg": nakajima_svg(position, marks),
            "prompt": self._bot_news() + prompt,
            "status": stacks,
            "buttons": [
                {"id": "move", "label": "Move", "active": not self.sow},
                {"id": "sow", "label": "Sow", "active": self.sow},
                {"id": "undo", "label": "Undo", "disabled": not self._human_plies()},
                {"id": "new", "label": "New game"},
            ],
            "log": [str(move) for move in game.moves],
        }


class OosterwalBoard(_HexBoard):
    """Oosterwal's Amoeba by clicking: choose the pips, click an empty chip, then click where the new chip goes.

    ``human`` is the player you are (``"A"`` .. ); every other seat is
    ``opponent``: ``"human"`` (hot seat), ``"random"``, ``"greedy"``, ``"maxn"``
    or a function ``(position, rng) -> turn``.  Undo takes back your last turn
    and the bots' replies.
    """

    GAME = "Oosterwal's Amoeba"

    def __init__(self, players: int = 2, *, opponent: str | Callable = HUMAN, human: str = "A", seed: int | str = 0,
                 start: oosterwal.Position | str | None = None) -> None:  # fmt: skip
        super().__init__(seed)
        start = oosterwal.Position.parse(start) if isinstance(start, str) else start
        start = start or oosterwal.Position.start(players)
        if human not in oosterwal.PLAYERS[: start.players]:
            raise ValueError(f"human is one of {oosterwal.PLAYERS[: start.players]}, not {human!r}")
        bot = _player(opponent, OOSTERWAL_BOTS)
        self.game = oosterwal.Game(start)
        self.players = {
            name: HUMAN if name == human or bot is None else (opponent if isinstance(opponent, str) else "bot")
            for name in oosterwal.PLAYERS[: start.players]
        }
        self._bots = {name: None if kind == HUMAN else bot for name, kind in self.players.items()}
        self.pips = 3
        self.placed: oosterwal.Cell | None = None
        self._begin()

    def __repr__(self) -> str:
        seats = ", ".join(f"{name}: {kind}" for name, kind in self.players.items())
        return f"OosterwalBoard({self.game.position}; {seats})"

    def _seat(self, position: oosterwal.Position) -> str:
        return oosterwal.PLAYERS[position.to_move]

    def _moves(self) -> list:
        return self.game.turns

    def _on_cell(self, cell: str) -> None:
        try:
            where = oosterwal.parse_cell(cell)
        except oosterwal.NotationError as error:
            raise Refused(f"ignored a click: {error}") from None
        position = self.game.position
        if self.game.is_over:
            raise Refused("the game is over: press New game or Undo")
        self._check_seat()
        if self.placed is None:
            if position.board.get(where, None) != "":
                raise Refused(f"{cell}: place your pyramid on an empty chip")
            if position.hand(position.to_move, self.pips) == 0:
                raise Refused(f"no {self.pips}-pip pyramid left: choose another size")
            self.placed = where
        elif where == self.placed:
            self.placed = None  # a second click on the pyramid takes it back
        elif where in position.chip_spots():
            self.game.play(oosterwal.Turn(self.placed, self.pips, where))
            self.placed = None
            self._let_bots_move()
        else:
            raise Refused(f"{cell}: the new chip goes on a dashed spot (touching at least two chips)")

    def _on_button(self, button: str) -> None:
        if button in ("1", "2", "3"):
            if self.placed is not None:
                raise Refused("the pyramid is placed: click it again to take it back, then change its size")
            self.pips = int(button)
        elif button == "undo":
            if self.placed is not None:
                self.placed = None
                return
            self._undo()
        elif button == "new":
            self.game = oosterwal.Game(self.game.start)
            self.placed = None
            self._let_bots_move()
        else:
            raise Refused(f"ignored an unknown button {button!r}")

    def _view(self) -> dict:
        """The view; a pyramid size the mover has run out of gives way to the largest size left."""
        game, position = self.game, self.game.position
        name = oosterwal.PLAYERS[position.to_move]
        if not game.is_over and position.hand(position.to_move, self.pips) == 0:
            self.pips = max((p for p in oosterwal.PIPS if position.hand(position.to_move, p)), default=self.pips)
        marks: dict[str, str] = {}
        if game.turns:
            marks[oosterwal.cell_text(game.turns[-1].place)] = "last"
        spots: list[oosterwal.Cell] = []
        scores = ", ".join(f"{p} {s}" for p, s in zip(oosterwal.PLAYERS, position.scores))
        if game.is_over:
            winner = f"shared win {game.result}" if "=" in game.result else f"{game.result} wins"
            prompt = f"Game over: {winner} (scores: {scores}). Press New game to play again."
        elif self._bot_is_stuck():
            prompt = f"{name}'s bot could not move: press Undo or New game"
        elif self.placed is None:
            for cell in position.empty_chips():
                marks[oosterwal.cell_text(cell)] = "selectable"
            prompt = f"{name}: click an empty chip for your {self.pips}-pip pyramid"
        else:
            marks[oosterwal.cell_text(self.placed)] = "selected"
            spots = position.chip_spots()
            score = position.score(self.placed, self.pips)
            placed = f"{self.pips}@{oosterwal.cell_text(self.placed)}"
            prompt = f"{name}: {placed} scores {score}; click a dashed spot for the new chip"
        hand = position.hand
        pending = None if self.placed is None else (self.placed, f"{name}{self.pips}")
        return {
            "svg": oosterwal_svg(position, marks, spots, pending),
            "prompt": self._bot_news() + prompt,
            "status": f"scores: {scores}",
            "buttons": [
                *(
                    {
                        "id": str(p),
                        "label": f"{p} pip{'s' * (p > 1)} ({hand(position.to_move, p)} left)",
                        "active": p == self.pips,
                        "disabled": game.is_over or hand(position.to_move, p) == 0,
                    }
                    for p in oosterwal.PIPS
                ),
                {"id": "undo", "label": "Undo", "disabled": not self._human_plies() and self.placed is None},
                {"id": "new", "label": "New game"},
            ],
            "log": [str(turn) for turn in game.turns],
        }


__all__ = ["NakajimaBoard", "OosterwalBoard"]
