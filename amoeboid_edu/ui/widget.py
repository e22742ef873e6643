"""The clickable board: an anywidget students play on, and a replayer for game records.

Python is authoritative.  The browser (``widgets/board.js``) only draws the
synced ``view`` and sends *intents* -- a clicked cell, requested unit counts,
a button press -- each stamped with the ``version`` of the board it was made
on.  Every intent is checked here with the engine; a stale or malformed one
is rejected with a message in ``error`` and changes nothing.  So there is one
rules implementation, and a test can play whole games through
:meth:`Board.handle_intent` without a browser.

>>> board = Board.from_position("(4,0) . . / . . . / . . (0,2) A", seed=1)
>>> board
Board((4,0) . . / . . . / . . (0,2) A; A: human, B: human)
"""

from __future__ import annotations

import contextlib
import pathlib
import threading
from collections.abc import Callable, Iterable
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from ..common import palette as _palette
from ..common.intents import Handler, IntentChannel, Refused, field, one_at_a_time
from ..engine.game import TURN_CAP, Game
from ..engine.seeding import seed_text, seeded_rng
from .render import board_svg, position_svg, review_chart_svg
from .turns import PHASES, TurnBuilder
from ..engine.rules import (
    DEFAULT_RULES,
    IllegalTurnError,
    NotationError,
    Position,
    Rules,
    Turn,
    resolve,
)
from ..players.strategy import (
    Strategy,
    as_function,
    grown,
    strategy_name,
)


def _static_dir() -> pathlib.Path:
    """Where board.js and board.css live: ``amoeboid_edu/_static`` in a wheel, the repo's ``widgets/`` when editable."""
    packaged = pathlib.Path(__file__).resolve().parent.parent / "_static"
    if (packaged / "board.js").is_file():
        return packaged
    return pathlib.Path(__file__).resolve().parent.parent.parent / "widgets"


STATIC = _static_dir()
HUMAN = "human"
SIZES = ("normal", "presenter")  # presenter: larger text and discs, for a projector
TurnObserver = Callable[[Position, Turn], object]


def resolve_opponent(opponent: str | Strategy) -> tuple[str, Callable | None]:
    """``(name, strategy function)`` for ``"human"`` (no function), a bot name, or any strategy."""
    if opponent == HUMAN:
        return HUMAN, None
    if isinstance(opponent, str):
        from ..players.registry import BOTS  # the strategy lab's bots, imported only when a board asks for one by name

        if opponent not in BOTS:
            raise ValueError(f"unknown opponent {opponent!r}: choose 'human', one of {sorted(BOTS)}, or a strategy")
        return opponent, as_function(BOTS[opponent])
    return strategy_name(opponent), as_function(opponent)


def _stats(position: Position) -> dict:
    names = ("sigma_A", "sigma_B", "delta", "Sigma_A", "Sigma_B", "Delta")
    return {name: getattr(position, name) for name in names}


def _grid_view(position: Position) -> dict:
    board = position.board
    if not board.is_grid:
        raise ValueError("the clickable board draws grid boards; show a graph position with its static SVG")
    return {"rows": board.rows, "cols": board.cols, "names": list(board.names)}


def _turn_step(before: Position, turn: Turn, player: str) -> dict:
    """What the browser needs to show a turn in two steps: the grow, then the move (both drawn here)."""
    moved = {turn.src: "amb-source", turn.dst: "amb-target"} if turn.src and turn.dst else {}
    return {
        "turn": str(turn),
        "player": player,
        "grow": turn.grow,
        "src": turn.src,
        "dst": turn.dst,
        "before_svg": board_svg(before, marks={turn.grow: "amb-grow"}),
        "grown_svg": board_svg(grown(before, turn.grow, turn.roll), marks={turn.grow: "amb-grow", **moved},
                               arrow=[turn.src, turn.dst] if turn.src and turn.dst else None),
    }


def _marks(*groups: tuple[Iterable[str | None], str]) -> dict[str, str]:
    """Cell name -> its highlight classes, from ``(cells, class)`` pairs (``None`` cells skipped)."""
    marks: dict[str, str] = {}
    for cells, cls in groups:
        for name in cells:
            if name:
                marks[name] = f"{marks.get(name, '')} {cls}".strip()
    return marks


class _BoardWidget(IntentChannel, anywidget.AnyWidget):
    """What both widgets share: the ES module, the versioned view, and the intent channel
    (:mod:`amoeboid_edu.common.intents`, shared with the namesakes' boards: version check, lock, refusal)."""

    _esm = STATIC / "board.js"
    _css = _palette.css_variables() + (STATIC / "board.css").read_text(encoding="utf-8")  # the one palette first
    mode = traitlets.Unicode("play").tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    history = traitlets.List(traitlets.Unicode()).tag(sync=True)
    record = traitlets.Unicode("").tag(sync=True)
    position = traitlets.Unicode("").tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)
    size = traitlets.Enum(SIZES, "normal").tag(sync=True)
    history_open = traitlets.Bool(True).tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._init_channel()

    def _intents(self) -> dict[str, Handler]:
        raise NotImplementedError

    def _publish(self) -> None:
        with self.hold_sync():
            self._update()
            self.error = ""
            self.version += 1

    def _update(self) -> None:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        """The widget for a live frontend; a placeholder text and a static SVG board for everything else.

        A notebook opened before its cells are run (untrusted, no widget model)
        shows the text: it says what running the cell gives, not the repr.
        """
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = self.placeholder()
        data["image/svg+xml"] = position_svg(self._shown_position())
        return data, metadata

    def placeholder(self) -> str:
        """What a notebook shows for this widget until its cell is run."""
        raise NotImplementedError

    def _shown_position(self) -> Position:
        raise NotImplementedError


_WARMED = threading.Event()


def _warm_the_coach() -> None:
    """Load the coach's compiled random tails (about 1 s, once per process) on a thread of their own, so that the
    first Hint on a board answers as fast as the next ones."""
    if _WARMED.is_set():
        return
    _WARMED.set()

    def warm() -> None:
        from ..theory import coach

        coach.win_chance("(3,0) . . / . . . / . . (0,3) A", seed="warm-up")

    threading.Thread(target=warm, name="amoeboid-coach-warm-up", daemon=True).start()


class _Coaching(traitlets.HasTraits):
    """The coach on the board (``amoeboid_edu.theory.coach``): the Hint, Review and Cancel buttons' Python side.

    Hints are the top 3 turns for the human's pending roll (only the grown cell's
    turns once the student has grown), drawn into the board's picture as numbered
    arrows and shown as a clickable list; ``hints=True`` computes them at every human
    turn.  Review is offered when the game is over: A's win chance per turn, each
    turn's class, and the chart (drawn here, :func:`~amoeboid_edu.ui.render.review_chart_svg`);
    a turn picked on it is answered with the board after that turn.

    The Review button's review runs on a thread of its own, turn by turn, without the
    board's lock: the board keeps answering clicks, ``review_progress`` shows how far
    it got, and Cancel (or a new game) ends it on the board at once, whatever the thread
    is in the middle of; the thread stops before its next turn and drops its work.  Its
    result is shown only if the game is still the one it reviewed.
    """

    hints = traitlets.List(traitlets.Dict()).tag(sync=True)
    review_view = traitlets.Dict().tag(sync=True)
    review_progress = traitlets.Dict().tag(sync=True)  # {"done": turns reviewed, "total": turns} while it runs

    # what the board this is mixed into provides (Board)
    _game: Game
    seed: int | str
    error: str
    _lock: threading.RLock
    _notices: list[str]
    _publish: Callable[[], None]
    _play: Callable[..., None]
    _begin_turn: Callable[[], None]
    _phase: Callable[[], str]
    hold_sync: Callable[[], contextlib.AbstractContextManager[Any]]
    _hinted: tuple[object, ...] | None = None  # the turn the hints shown were made for

    @property
    def _roll(self) -> int | None:
        """The roll of the human's turn at hand (None when no human is to move)."""
        raise NotImplementedError

    @property
    def _grow(self) -> str | None:
        """The cell the human grew this turn, if any."""
        raise NotImplementedError
    auto_hints = traitlets.Bool(False).tag(sync=True)
    _prefetched_start = None  # the start of the game whose first _prefetched_count turns were valued ahead
    _prefetched_count = 0

    @one_at_a_time
    def hint(self) -> list:
        """The hints for the turn at hand (what the Hint button shows): ``coach.Hint`` objects, best first."""
        from ..theory import coach

        roll = self._roll
        if self._phase() not in PHASES or roll is None:
            raise Refused("hints are for a human's turn: there is no roll to play now")
        found = coach.hints(self._game.position, roll, grow=self._grow, seed=self.seed)
        self._hinted = self._hint_key()
        self.hints = [hint.as_dict() for hint in found]
        return found

    def review(self):
        """The review of the game on the board, computed here and shown on the board: a ``coach.Review``.

        (The Review button runs the same review on a thread: :meth:`start_review`.)
        """
        with self._lock:
            game = self._reviewable()
        result = self._compute_review(game)
        with self._lock:
            self._show_review(game, result)
            self._publish()
        return result

    def start_review(self) -> threading.Thread:
        """Start the review on a thread (what the Review button does) and return the thread; :meth:`cancel_review`
        stops it.  Progress goes to ``review_progress``, the result to ``review_view``."""
        with self._lock:
            game = self._reviewable()
            if self.review_progress:
                raise Refused("the review is already running: wait for it, or press Cancel")
            cancel = self._review_cancel = threading.Event()
            self.review_progress = {"done": 0, "total": len(game)}
            worker = threading.Thread(target=self._review_worker, args=(game, cancel), name="amoeboid-review", daemon=True)
            self._review_thread = worker
        worker.start()
        return worker

    @one_at_a_time
    def cancel_review(self) -> None:
        """Stop a running review; the board says so at once (nothing happens when none runs)."""
        if self._stop_review():
            self._publish()

    def _stop_review(self, notice: bool = True) -> bool:
        """End the running review as far as the board is concerned: the next redraw says (with ``notice``) that it
        was cancelled and drops its progress (:meth:`_settle_review`).  Its thread stops before its next turn and
        drops what it computed; the turn it is computing (or a first compilation of the coach's kernel) may take a
        while on a loaded machine, and the board does not wait for it.  Whether a review was running.  (Called
        holding the board's lock.)"""
        cancel = getattr(self, "_review_cancel", None)
        if cancel is None or cancel.is_set():
            return False
        cancel.set()
        if notice:
            self._notices.append("The review was cancelled.")
        return True

    def _settle_review(self) -> None:
        """At the end of a redraw: a review that ended or was stopped loses its progress, last, so that whoever sees
        the progress go sees the board's answer (its notice, or its result) with it."""
        cancel = getattr(self, "_review_cancel", None)
        if self.review_progress and cancel is not None and cancel.is_set():
            self.review_progress = {}

    def _reviewable(self) -> Game:
        if not len(self._game):
            raise Refused("there is nothing to review: no turn has been played")
        copy = Game(self._game.start, rules=self._game.start.rules, seed=None)  # the game as it is now, kept apart
        for turn, after in zip(self._game.turns, self._game.positions[1:]):
            copy._record(turn, after)
        return copy

    def _compute_review(self, game: Game, cancel: threading.Event | None = None):
        from ..theory import coach

        def progress(done: int, total: int) -> None:
            # under the lock: a Cancel answered between the check and the change would see its cleared progress
            # come back (and the widget's held sync is not safe across threads)
            with self._lock:
                if cancel is not None and not cancel.is_set():
                    self.review_progress = {"done": done, "total": total}

        return coach.review(game, seed=self.seed, on_turn=progress, cancel=cancel)

    def _review_worker(self, game: Game, cancel: threading.Event) -> None:
        from ..theory import coach

        try:
            result = self._compute_review(game, cancel)
        except coach.ReviewCancelled:
            return  # the board said so when it was cancelled (_stop_review)
        except Exception as failure:  # shown on the board: a thread's exception would vanish
            with self._lock:
                if not cancel.is_set():
                    cancel.set()
                    self.review_progress = {}
                    self.error = f"the review failed: {failure}"
            return
        with self._lock, self.hold_sync():
            if cancel.is_set():  # cancelled (or its game left) while its last turn was computed
                return
            cancel.set()  # done: a Cancel from now on finds nothing to stop
            if game.start == self._game.start and game.turns == self._game.turns:
                self._show_review(game, result)
            self._publish()  # which drops its progress, last (_settle_review)

    def _show_review(self, game: Game, result) -> None:
        self._reviewed = game
        rows = [
            {key: (round(value, 4) if isinstance(value, float) else value) for key, value in row.items()}
            for row in result.frame.drop(columns=["roll"]).to_dict("records")
        ]
        self.review_view = {
            "start": round(result.start.value, 4),
            "accuracy": result.accuracy,
            "rows": rows,
            "picked": -1,
            "chart": review_chart_svg(rows),
        }

    def _pick_review_turn(self, ply: int) -> None:
        """Show the position after turn ``ply`` of the review beside its chart (the turn's dot ringed)."""
        review, game = self.review_view, getattr(self, "_reviewed", None)
        if not review.get("rows") or game is None:
            raise Refused("there is no review to pick a turn from: press Review when the game is over")
        if not 1 <= ply <= len(game):
            raise Refused(f"the review has turns 1 to {len(game)}, not {ply}")
        turn = game.turns[ply - 1]
        self.review_view = {
            **review,
            "picked": ply,
            "chart": review_chart_svg(review["rows"], ply),
            "picked_svg": board_svg(game.positions[ply], arrow=None if turn.is_pass else [turn.src, turn.dst]),
        }

    def _hint_key(self) -> tuple:
        return (str(self._game.position), self._roll, self._grow)

    def _coach_intents(self) -> dict[str, Handler]:
        def hint(_content: dict) -> None:
            self.hint()

        def play_hint(content: dict) -> None:
            turn = field(content, "turn", str)
            if turn not in [hint["turn"] for hint in self.hints] or self._hinted != self._hint_key():
                raise Refused(f"{turn!r} is not one of the hints shown for this turn")
            self._play(turn, show_steps=False)
            self._begin_turn()

        def review(_content: dict) -> None:
            self.start_review()

        def cancel_review(_content: dict) -> None:
            self._stop_review()

        def pick(content: dict) -> None:
            self._pick_review_turn(field(content, "ply", int))

        return {"hint": hint, "play_hint": play_hint, "review": review, "cancel_review": cancel_review,
                "review_pick": pick}

    def _prefetch_rows(self) -> None:
        """While a human thinks, value the turns played so far as the review will (on a thread, without the lock),
        so that Review at the end finds most of its estimates cached.  One thread at a time; it stops when it has
        caught up with the game."""
        running = getattr(self, "_prefetcher", None)
        if running is not None and running.is_alive():
            return

        def work() -> None:
            from ..theory import coach

            while True:
                with self._lock:
                    game, seed = self._game, self.seed
                    turns, positions = game.turns, game.positions
                    number = self._prefetched_count if self._prefetched_start == game.start else 0
                    if number >= len(turns) or self.review_progress:
                        return
                    self._prefetched_start, self._prefetched_count = game.start, number + 1
                coach.review_turn(number + 1, positions[number], turns[number], positions[number + 1], seed=seed)

        self._prefetcher = threading.Thread(target=work, name="amoeboid-review-ahead", daemon=True)
        self._prefetcher.start()

    def _coach_update(self) -> None:
        """After every change: drop hints made for another turn; with ``hints=True`` make the new ones; a game that
        is no longer over drops its review and stops a running one; at a human's turn, the review's rows for the
        turns played are computed ahead."""
        if self._hinted != self._hint_key():
            self.hints = []
            self._hinted = None
            human_to_move = self._phase() in ("grow", "source", "destination")
            if self.auto_hints and human_to_move:
                self.hint()
        if self._phase() != "over":
            if self.review_view:
                self.review_view = {}
            self._stop_review(notice=False)  # a game that goes on (a new one, an undo) drops its review
        if self._phase() in ("grow", "queued") and len(self._game):
            self._prefetch_rows()


class Board(_Coaching, _BoardWidget):
    """A game students play by clicking: hot seat, or against a bot or their own strategy.

    ``opponent`` plays the side that is not ``human`` ("A" or "B"): ``"human"``
    for two players at one screen, a bot name (``"random"``, ...), or any
    strategy ``(position, roll, rng) -> Turn | str``.  The dice come from the
    game's seeded die and each bot turn from ``seeded_rng(seed, game, ply)``,
    so the same clicks always give the same game.
    """

    def __init__(
        self,
        start: Position | str | None = None,
        *,
        board: int | tuple[int, int] = 3,
        opponent: str | Strategy = HUMAN,
        human: str = "A",
        seed: int | str = 0,
        rules: Rules = DEFAULT_RULES,
        hints: bool = False,
    ) -> None:
        if human not in ("A", "B"):
            raise ValueError(f"human plays 'A' or 'B', not {human!r}")
        super().__init__(auto_hints=hints)  # hints=True: the coach's hints at every human turn
        _warm_the_coach()
        opponent_name, opponent_strategy = resolve_opponent(opponent)
        other = "B" if human == "A" else "A"
        self.players = {human: HUMAN, other: opponent_name}
        self._strategies = {human: None, other: opponent_strategy}
        self.seed = seed
        self._games_started = 0
        self._new_game = lambda game_seed: Game(start, board=board, rules=rules, seed=game_seed)
        self._observers: list[TurnObserver] = []
        self._script: list[Turn] = []  # the scripted line (board.queue), kept whole so Undo and Next can walk it
        self._script_from: Position | None = None  # where the line starts
        self._script_start: int | None = None  # the game's length when the line starts; None once a new game left it
        self._marked: Turn | None = None  # a bot's or the script's last turn, marked until the next action
        self._revealed = False  # whether the scripted line's next turn is shown (the teacher's Reveal)
        self._steps: list[dict] = []  # turns played since the last publish that the browser shows step by step
        self._notices: list[str] = []  # observer failures, shown once with the next view
        self._start_game()
        self._publish()

    @classmethod
    def from_position(cls, text: str, **options) -> Board:
        """A board starting from a position in notation, e.g. pasted from a slide."""
        return cls(Position.parse(text, options.get("rules", DEFAULT_RULES)), **options)

    # -- the teacher's API ---------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game being played (its record, rows, positions); change it only through the board."""
        return self._game

    @property
    def phase(self) -> str:
        """``grow``, ``source``, ``destination``, ``queued``, ``over`` or ``stuck`` (a bot failed)."""
        return self.view["phase"]

    def observe_turns(self, callback: TurnObserver) -> TurnObserver:
        """Call ``callback(position_after, turn)`` after every applied turn (usable as a decorator)."""
        self._observers.append(callback)
        return callback

    def unobserve_turns(self, callback: TurnObserver) -> None:
        self._observers.remove(callback)

    @one_at_a_time
    def queue(self, turns: str | Iterable[Turn | str]) -> None:
        """Queue a scripted line (turns, or one turn per line) to step through with the Next button.

        Every turn is checked now, in order from the current position, so a
        typo fails in the teacher's cell (``ValueError`` naming the turn) and
        the board is left as it was.  The queued turns bring their own rolls.
        Next and Undo walk the whole line, both ways; "Restart line" (also
        offered after New game) goes back to its first turn.
        """
        if isinstance(turns, str):
            lines = [line.split("#")[0] for line in turns.splitlines()]
            turns = [line for line in lines if line.strip()]
        position, checked = self._game.position, []
        for number, turn in enumerate(turns, start=1):
            try:
                turn = resolve(position, turn)
                after = position.apply(turn)
            except (NotationError, IllegalTurnError, TypeError) as error:
                raise ValueError(f"queued turn {number}: {error}") from None
            checked.append(turn)
            position = after
        self._script, self._script_from, self._script_start = checked, self._game.position, len(self._game)
        # The die's pending roll is not used: each queued turn brings its own.
        self._game.forget_roll()
        self._begin_turn()
        self._publish()

    @one_at_a_time
    def next(self) -> Turn:
        """Play the next queued turn (what the Next button does)."""
        queued = self._queued()
        if not queued:
            raise IndexError("no queued turn: queue some with board.queue(...)")
        self._next({})
        self._publish()
        return queued[0]

    @one_at_a_time
    def reveal(self) -> Turn:
        """Show the scripted line's next turn (what the Reveal button does): until then the board names only the mover.

        A presenter asks the class for the move first; Next plays it, revealed or not.
        """
        if not self._queued():
            raise IndexError("no queued turn: queue some with board.queue(...)")
        self._reveal({})
        self._publish()
        return self._queued()[0]

    def with_chart(self, draw: Callable[[Game], Any], *, presenter: bool = True) -> Any:
        """The projector layout: this board and ``draw(game)``'s chart side by side, History folded."""
        from .course import Demo  # the live chart lives with the lessons' helpers

        return Demo(self, draw, presenter=presenter)

    def click(self, cell: str) -> bool:
        """Click ``cell`` as the browser would (handy in tests and lessons)."""
        return self.handle_intent({"kind": "cell", "cell": cell, "version": self.version})

    def __repr__(self) -> str:
        players = ", ".join(f"{side}: {self.players[side]}" for side in ("A", "B"))
        return f"Board({self._game.position}; {players})"

    def placeholder(self) -> str:
        players = ", ".join(f"{side}: {self.players[side]}" for side in ("A", "B"))
        what = "step through the scripted line" if self._script else "play"
        return f"▶ Run this cell to {what} on the board ({players})."

    # -- turns -----------------------------------------------------------------------------

    def _start_game(self) -> None:
        game_seed = self.seed if self._games_started == 0 else seed_text(self.seed, self._games_started)
        self._games_started += 1
        self._game = self._new_game(game_seed)
        self._script_start = None  # a fresh game leaves the scripted line; "Restart line" brings it back
        self._steps = []
        self._marked = None
        self._begin_turn()

    # -- the scripted line -----------------------------------------------------------------

    def _script_index(self) -> int | None:
        """How many turns of the scripted line have been played, or None outside it."""
        if self._script_start is None:
            return None
        played = len(self._game) - self._script_start
        return played if 0 <= played <= len(self._script) else None

    def _queued(self) -> list[Turn]:
        index = self._script_index()
        return [] if index is None or self._game.is_over else self._script[index:]

    def _restart(self, _content: dict) -> None:
        """Back to the first turn of the scripted line (a new game from its start if the game left it)."""
        if not self._script:
            raise Refused("no scripted line to restart: queue one with board.queue(...)")
        if self._script_start is None or len(self._game) < self._script_start:
            self._start_game()
            if self._script_from is not None and self._game.position != self._script_from:
                self._game = Game(self._script_from, rules=self._script_from.rules, seed=self._game.seed)
            self._script_start = len(self._game)
        while len(self._game) > self._script_start:
            self._game.undo()
        self._game.forget_roll()
        self._steps = []
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Reset the selection; let bots move; roll for a human; grow automatically when there is one choice."""
        self._builder: TurnBuilder | None = None  # a human's turn being built, while a human is to move
        self._revealed = False  # each turn of a scripted line is hidden until revealed
        self._stuck = ""
        game = self._game
        while not game.is_over and not self._queued():
            strategy = self._strategies[game.position.to_move]
            if strategy is None:
                break
            if not self._play_bot(strategy):
                return
        if game.is_over or self._queued():
            return
        self._builder = TurnBuilder(game.position, game.roll())  # one amoeba: it grows at once
        if self._builder.passed is not None:
            self._pass(self._builder.passed)

    @property
    def _roll(self) -> int | None:
        return None if self._builder is None else self._builder.roll

    @property
    def _grow(self) -> str | None:
        return None if self._builder is None else self._builder.grow

    def _play_bot(self, strategy: Callable) -> bool:
        game = self._game
        mover = game.position.to_move
        roll = game.roll()
        rng = seeded_rng(self.seed, "bot", self._games_started, len(game))
        try:
            turn = strategy(game.position, roll, rng)
            self._play(turn, show_steps=True)
        except Exception as error:  # noqa: BLE001 - a student's strategy may fail in any way; the board must survive
            self._stuck = f"{self.players[mover]} ({mover}) could not play: {error}. Undo or start a new game."
            return False
        return True

    def _play(self, turn: Turn | str, *, show_steps: bool) -> None:
        before = self._game.position
        self._game.play(turn)
        turn = self._game.turns[-1]
        if show_steps:
            self._steps.append(_turn_step(before, turn, before.to_move))
            self._marked = turn
        for callback in list(self._observers):
            try:
                callback(self._game.position, turn)
            except Exception as error:  # noqa: BLE001 - a lesson's callback must not break the game
                self._notices.append(f"turn observer {getattr(callback, '__name__', callback)!r} failed: {error!r}")

    # -- intents ---------------------------------------------------------------------------

    def _intents(self) -> dict[str, Handler]:
        return {
            "cell": self._click,
            "counts": self._set_counts,
            "undo": self._undo,
            "new": self._new,
            "draw": self._offer_draw,
            "next": self._next,
            "reveal": self._reveal,
            "restart": self._restart,
            **self._coach_intents(),
        }

    @one_at_a_time
    def handle_intent(self, content: object) -> bool:
        self._marked = None  # any action ends the mark on the last bot or scripted turn
        return super().handle_intent(content)

    def _click(self, content: dict) -> None:
        cell = field(content, "cell", str)
        if cell not in self._game.position.board.index:
            raise Refused(f"there is no cell {cell!r} on this board")
        if self._builder is None or self._phase() not in PHASES:
            raise Refused(self.view["prompt"])
        turn = self._builder.click(cell)
        if turn is not None and turn.is_pass:
            self._pass(turn)
        elif turn is not None:
            self._play(turn, show_steps=False)
            self._begin_turn()

    def _pass(self, turn: Turn) -> None:
        """Play the pass a grow made (no legal move was left after it), say so, and go on to the next turn."""
        mover = self._game.position.to_move
        self._play(turn, show_steps=False)
        self._notices.append(f"{mover} grew {turn.grow} by {turn.roll} and had no legal move, so the turn passed.")
        self._begin_turn()

    def _set_counts(self, content: dict) -> None:
        a, b = field(content, "a", int), field(content, "b", int)
        if self._builder is None:
            raise Refused("choose an amoeba to move from before choosing counts")
        self._builder.set_counts(a, b)

    def _undo(self, _content: dict) -> None:
        """Cancel a half-made turn; in a scripted line step back one turn; else back to a human's turn."""
        if self._builder is not None and self._builder.can_cancel:
            self._begin_turn()
            return
        game, index = self._game, self._script_index()
        if index == 0:
            raise Refused("this is the start of the scripted line: press Next to play its first turn")
        if not len(game):
            raise Refused("nothing to undo")
        game.undo()
        if index is None:  # live play: take back the bots' turns too, but never into the scripted line
            while len(game) and self._strategies[game.position.to_move] is not None and self._script_index() is None:
                game.undo()
        game.forget_roll()
        self._steps = []
        self._begin_turn()
        if self._script_index():
            self._marked = game.turns[-1]  # stepping back through the line shows the turn before

    def _new(self, _content: dict) -> None:
        self._start_game()

    def offer_draw(self) -> bool:
        """Offer a draw for the side to move; a bot accepts by :func:`~amoeboid_edu.players.bots.accepts_draw`.

        At one screen (both sides human) the offer is the agreement.  Returns whether the game ended.
        """
        return self.handle_intent({"kind": "draw", "version": self.version})

    def _offer_draw(self, _content: dict) -> None:
        from ..players.bots import accepts_draw  # the rule lives with the bots

        game = self._game
        if game.is_over:
            raise Refused("the game is over: press New game to play again")
        if self._queued():
            raise Refused("a scripted line is being shown: press Next, or New game to play freely")
        opponents = [seat for seat in "AB" if self._strategies[seat] is not None]
        for seat in opponents:
            if not accepts_draw(game.position, seat, len(game)):
                delta = game.position.Delta  # A's size minus B's, signed as the status line shows it
                raise Refused(f"{self.players[seat]} ({seat}) declines the draw: {seat} is ahead in size, "
                              f"Δ {delta:+d}. A bot accepts when it is not ahead, or after {TURN_CAP // 2} "
                              f"turns; this is turn {len(game) + 1}")
        game.agree_draw()
        self._begin_turn()

    def _reveal(self, _content: dict) -> None:
        if not self._queued():
            raise Refused("no queued turn to reveal")
        self._revealed = True

    def _next(self, _content: dict) -> None:
        queued = self._queued()
        if not queued:
            raise Refused("no queued turn")
        self._play(queued[0], show_steps=True)
        self._begin_turn()

    # -- the view --------------------------------------------------------------------------

    def _phase(self) -> str:
        if self._stuck:
            return "stuck"
        if self._game.is_over:
            return "over"
        if self._queued():
            return "queued"
        return "grow" if self._builder is None else self._builder.phase

    def _prompt(self, phase: str) -> str:
        position, mover = self._game.position, self._game.position.to_move
        who = f"{mover} ({self.players[mover]})"
        if phase == "stuck":
            return self._stuck
        if phase == "over":
            result = position.result
            end = "End of the scripted line. " if self._script_index() == len(self._script) else ""
            if self._game.agreed_draw:
                return "Draw agreed: the game is a tie."
            if self._game.capped:
                return f"The game stopped at the turn cap ({self._game.turn_cap} turns): it counts as a tie."
            return end + ("The game is a tie." if result == "tie" else f"{result} wins: the other side owns no amoeba.")
        if phase == "queued":  # the status line says where in the line we are
            turn = self._queued()[0]
            if self._revealed:
                return f"Next: {self._next_label()}: {turn}. Press Next to play it."
            return f"Next: {self._next_label()}, with a roll of {turn.roll}. Ask the class, then press Reveal or Next."
        if phase == "grow":
            return f"{who} rolled {self._roll}: click one of your amoebae to grow it."
        builder = self._builder
        assert builder is not None and builder.grow is not None  # a human's turn after the grow
        grew = f"{who} rolled {self._roll} and grew {self._grow} to {builder.grown()[builder.grow]}"
        if phase == "source":
            return f"{grew}: click an amoeba to move from."
        a, b = builder.counts or (0, 0)
        return f"{grew}. Move {a},{b} from {builder.src}: click a highlighted cell."

    def _next_label(self) -> str:
        """The next scripted turn without its move: "A's turn" to open the line, then "B's reply", "A's reply"..."""
        mover = self._game.position.to_move
        return f"{mover}'s turn" if not self._script_index() else f"{mover}'s reply"

    def _script_status(self) -> str:
        """E.g. "Scripted line, turn 4 of 11: B to move"."""
        index = self._script_index() or 0
        return f"Scripted line, turn {index + 1} of {len(self._script)}: {self._game.position.to_move} to move"

    def _shown_position(self) -> Position:
        return self._game.position if self._builder is None else self._builder.grown()

    def _update(self) -> None:
        self._coach_update()  # first: it settles the hints the picture shows
        game, phase = self._game, self._phase()
        shown = self._shown_position()
        selectable, targets, counts, presets = [], [], None, []
        builder = self._builder if phase in PHASES else None
        if builder is not None:
            selectable = builder.selectable()
        if builder is not None and builder.src is not None and builder.counts is not None:
            targets = builder.destinations()
            source = shown[builder.src]
            assert source is not None  # a source holds an amoeba
            counts = {"a": builder.counts[0], "b": builder.counts[1], "max_a": source.a, "max_b": source.b}
            presets = builder.presets()
        src = None if builder is None else builder.src
        last, marked = (game.turns[-1] if len(game) else None), self._marked
        index = self._script_index()
        move = None if marked is None or marked.src is None or marked.dst is None else [marked.src, marked.dst]
        marks = _marks(
            (selectable, "amb-selectable"), (targets, "amb-target"), ([self._grow], "amb-grow"),
            ([src], "amb-source"), (move[:1] if move else [], "amb-last-src"), (move[1:] if move else [], "amb-last-dst"),
            ([None if marked is None else marked.grow], "amb-last-grow"),
        )
        hints = self.hints if phase in ("grow", "source", "destination") else []
        self.view = {
            **_grid_view(shown),
            "svg": board_svg(shown, marks=marks, arrow=move, hints=hints),
            "shown": str(shown),
            "to_move": shown.to_move,
            "players": self.players,
            "phase": phase,
            "prompt": self._prompt(phase),
            "roll": self._roll,
            "last_turn": None if last is None else str(last),
            "pass_note": f"{game.positions[-2].to_move} had to pass (no legal move)" if last and last.is_pass else None,
            "grow": self._grow,
            "src": src,
            "selectable": selectable,
            "targets": targets,
            "counts": counts,
            "presets": presets,
            "stats": _stats(game.position),
            "result": game.result,
            "steps": self._steps,
            "queued": len(self._queued()),  # how many; the next one only once revealed
            "next_turn": str(self._queued()[0]) if self._revealed and self._queued() else None,
            "script": None if index is None else {"turn": index, "of": len(self._script)},
            "script_status": self._script_status() if phase == "queued" else None,
            "can_restart": bool(self._script) and index != 0,
            "move": move,
            "marked_grow": None if marked is None else marked.grow,
            "can_offer_draw": not game.is_over and not self._queued() and phase != "stuck"
            and any(self.players[seat] == HUMAN for seat in "AB"),
            "can_undo": (len(game) > 0 and index != 0) or (builder is not None and builder.can_cancel),
        }
        self._steps = []
        self.message = " ".join([self.view["prompt"], *self._notices])
        self._notices = []
        self.position = str(game.position)
        self.history = [str(turn) for turn in game.turns]
        self.record = str(game)
        self._settle_review()


def play(
    opponent: str | Strategy = "random", board: int | tuple[int, int] = 3, seed: int | str = 0, **options
) -> Board:
    """A new game on the clickable board: ``play("random")``, ``play("human")``, ``play(my_strategy, board=5)``."""
    return Board(board=board, opponent=opponent, seed=seed, **options)


class Replay(_BoardWidget):
    """Step forwards and backwards through a game record (text or a :class:`Game`) with a slider."""

    def __init__(self, record: str | Game, *, ply: int = 0) -> None:
        super().__init__(mode="replay")
        self._game = Game.parse(record) if isinstance(record, str) else record
        self._positions = self._game.positions
        self._turns = self._game.turns
        _grid_view(self._positions[0])  # fail now, in the teacher's cell, for a board it cannot draw
        self.ply = self._checked_ply(ply)
        self._publish()

    @one_at_a_time
    def seek(self, ply: int) -> None:
        """Show the position after ``ply`` turns (0 is the start)."""
        self.ply = self._checked_ply(ply)
        self._publish()

    def _checked_ply(self, ply: object) -> int:
        if type(ply) is not int or not 0 <= ply <= len(self._turns):
            raise Refused(f"a ply is a whole number from 0 to {len(self._turns)}, not {ply!r}")
        return ply

    def _intents(self) -> dict[str, Handler]:
        def seek(content: dict) -> None:
            self.ply = self._checked_ply(content.get("ply"))

        return {"seek": seek}

    def _shown_position(self) -> Position:
        return self._positions[self.ply]

    def _update(self) -> None:
        shown, ply = self._shown_position(), self.ply
        last = self._turns[ply - 1] if ply else None
        move = None if last is None or last.src is None or last.dst is None else [last.src, last.dst]
        marks = _marks(([None if last is None else last.grow], "amb-grow"), (move[:1] if move else [], "amb-source"),
                       (move[1:] if move else [], "amb-target"))
        self.view = {
            **_grid_view(shown),
            "svg": board_svg(shown, marks=marks, arrow=move),
            "shown": str(shown),
            "to_move": shown.to_move,
            "phase": "replay",
            "ply": ply,
            "plies": len(self._turns),
            "prompt": f"After turn {ply} of {len(self._turns)}" + (f": {last}" if last else " (the start)"),
            "last_turn": None if last is None else str(last),
            "grow": None if last is None else last.grow,
            "move": move,
            "stats": _stats(shown),
            "result": shown.result,
        }
        self.message = self.view["prompt"]
        self.position = str(shown)
        self.history = [str(turn) for turn in self._turns]
        self.record = str(self._game)

    def placeholder(self) -> str:
        return "▶ Run this cell to replay the game on the board."

    def __repr__(self) -> str:
        return f"Replay(turn {self.ply} of {len(self._turns)}: {self._shown_position()})"


class Column(widgets.VBox):
    """Widgets one above the other, around one board: ``Column([replay, caption])``.

    A notebook shows a committed widget output as its text until the cell is run (untrusted, or with no kernel),
    and a plain ``VBox``'s text is its repr, ``VBox(children=(Dropdown(...``.  A column shows what its board
    shows instead: the board's "run this cell" placeholder and its static picture.
    """

    def __init__(self, children: Iterable[widgets.Widget], **kwargs: Any) -> None:
        children = list(children)
        boards = [child for child in children if isinstance(child, _BoardWidget)]
        if not boards:
            raise ValueError("a Column needs a Board or Replay among its widgets: its placeholder is the board's")
        super().__init__(children, **kwargs)
        self.board = boards[0]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live widgets in a frontend; the board's placeholder text and static picture elsewhere."""
        data = super()._repr_mimebundle_(**kwargs)
        data = data[0] if isinstance(data, tuple) else data
        data["text/plain"] = self.board.placeholder()
        data["image/svg+xml"] = position_svg(self.board._shown_position())
        return data

    def __repr__(self) -> str:
        return f"Column({self.board!r})"


def explore(review: Any) -> Column:
    """A turn picker above a :class:`Replay` of a reviewed game (:func:`amoeboid_edu.theory.coach.review`).

    Picking a turn jumps the board to the position after it (the start is turn 0).  The review's chart is a
    separate, static picture: its markers cannot be clicked.
    """
    board = Replay(review.game)
    options = [("the start", 0)] + [
        (f"{row['turn']} {row['player']} {row['played']} — {row['class']}", int(row["turn"]))
        for row in review.frame.to_dict("records")
    ]
    picker = widgets.Dropdown(options=options, value=0, description="turn")
    picker.observe(lambda change: board.seek(change["new"]), names="value")
    return Column([picker, board])


__all__ = ["Board", "Column", "Replay", "explore", "play", "resolve_opponent"]
