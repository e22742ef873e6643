"""Amoeboid as an OpenSpiel game, and OpenSpiel's MCTS as a strategy (``mcts``: beats greedy, not paper or expectimax).

Needs the optional extra (``pip install 'amoeboid-edu[openspiel]'``).  Importing
this module registers ``python_amoeboid`` with ``pyspiel``, so OpenSpiel's
algorithms (MCTS, expectiminimax, ``evaluate_bots``) play Amoeboid unchanged::

    >>> import pyspiel
    >>> import amoeboid_edu.players.openspiel
    >>> game = pyspiel.load_game("python_amoeboid", {"rows": 3, "columns": 3})
    >>> state = game.new_initial_state()
    >>> state.chance_outcomes()[0]
    (0, 0.16666666666666666)

The game.  Parameters: ``rows``, ``columns``, ``adjacency`` (``king`` or ``rook``),
``die_sides`` and ``turn_cap`` (a game still going after that many turns ends
as a tie, the one turn cap, :data:`~amoeboid_edu.engine.game.TURN_CAP`).  Every turn starts at a chance node,
the mover's die with exact probabilities (action ``r - 1`` rolls ``r``), then
the mover (player 0 is A, player 1 is B) picks one action: the whole turn,
grow and move.  Returns are +1/-1 for a win/loss, 0 for a tie or a capped game.

The action abstraction.  An amoeba of size s has about s**2/2 splits, so the
legal turns are unbounded; an action is a turn of
:func:`~amoeboid_edu.players.strategy.candidate_turns`, the meaningful ones that every
baseline bot chooses from.  Its id is ``(grow, source, neighbour slot, split)``
packed into one integer (see :class:`AmoeboidGame`), the split being one of
``SPLITS``: the whole amoeba, half of it, the smallest eat, the smallest
capture, the exact neutralisation; plus one "grow, no move" action per cell.
What it loses: every other split, e.g. moving 3 of 10 units to an empty cell,
or eating with more than the minimum but less than everything.  A strategy that
needs those turns cannot be played through OpenSpiel (:class:`StrategyBot`
says so), and MCTS never considers them.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Callable, Mapping, Sequence

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms.mcts import Evaluator, MCTSBot, SearchNode
except ImportError as error:  # pragma: no cover - exercised by tests/players/test_openspiel.py in a subprocess
    raise ImportError(
        f"amoeboid_edu.players.openspiel needs the optional extra: pip install 'amoeboid-edu[openspiel]' ({error})"
    ) from None

from .bots import outcome_after
from ..engine.match import register_bot
from ..engine.game import random_playout, random_turn
from ..engine.seeding import seed_bits, seeded_rng
from ..engine.rules import Amoeba, Board, Position, Rules, Turn, grown_cells, cells_after_legal, other, resolve
from .strategy import Strategy, as_function, candidate_turns, half, smallest_capture, smallest_eat
from .strategy import smallest_neutralisation

GAME_NAME = "python_amoeboid"
GameParameters = Mapping[str, int | float | str]
"""What ``pyspiel.load_game`` passes a game: each parameter's name and value."""

DEFAULT_PARAMETERS: dict[str, int | float | str] = {"rows": 3, "columns": 3, "adjacency": "king", "die_sides": 6,
                                                    "turn_cap": 500}
SPLITS = ("whole", "half", "eat", "capture", "neutralise")
"""The split of an action, in the order :func:`~amoeboid_edu.players.strategy.candidate_turns` tries them:
a turn whose counts two of them give is labelled with the first."""

MCTS_SIMULATIONS = 400
"""Simulations per move of the ``mcts`` bot: each walks the tree and plays a random rollout.  About 0.2 s
of CPU a move on 3x3, at most about 0.3 s (``bench/openspiel.py`` prints the figures)."""
MCTS_UCT_C = 2.0
"""The exploration constant of PUCT (``c`` in ``Q/N + c * prior * sqrt(parent N) / (N + 1)``).  Against greedy,
40 seeded games each (500-turn cap, ``bench/openspiel.py`` style): with the prior, ``c`` = 1 won 17, tied 18, lost 5;
``c`` = 2 won 23, tied 15, lost 2; plain UCT (no prior) with ``c`` = 1 won 21, tied 7, lost 12 of 40 capped at 150."""
MCTS_PRIOR_TEMPERATURE = 2.0
"""The prior of a candidate turn is ``exp((Delta after it - the best Delta after any) / T)``, normalised: a turn
that leaves 2 fewer units of Advantage 2 than the best gets 1/e of its weight.  A turn that wins gets all of it."""
MCTS_ROLLOUTS = 1
"""Random games per leaf: their mean result is the leaf's value."""
MCTS_ROLLOUT_TURNS = 200
"""A rollout still going after this many turns counts as a tie."""
LEGAL_TURNS_KEPT = 1024
"""How many positions' ``{action: turn}`` a game keeps (:meth:`AmoeboidGame.legal_turns`), the least recently asked
dropped first: about 5 KB a position on 3x3, so 5 MB when full.  Two games of MCTS with 128 simulations a move
against the paper's plan ask 2,100 distinct positions and rolls 10,700 times; with 1,024 kept, every ask but the
first of each is answered from the cache (a search asks again within its own move)."""


def _split_options(source: Amoeba, target: Amoeba | None, mover: str) -> tuple[tuple[int, int] | None, ...]:
    """The counts each of ``SPLITS`` moves from ``source`` onto ``target`` (None where it has no meaning)."""
    if target is None:
        return (source.a, source.b), half(source), None, None, None
    return (
        (source.a, source.b),
        half(source),
        smallest_eat(source, target, mover),
        smallest_capture(source, target, mover),
        smallest_neutralisation(source, target),
    )


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Amoeboid (amoeboid_edu)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)

# pyspiel ships no type stubs: its classes and constants are Any to mypy, so the constants get their types here.
_TERMINAL: int = pyspiel.PlayerId.TERMINAL
_CHANCE: int = pyspiel.PlayerId.CHANCE


class AmoeboidGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no stubs: Game is Any
    """``python_amoeboid``: the rules of :mod:`amoeboid_edu.engine.rules` behind OpenSpiel's interface.

    Action ids: a move is ``((grow * cells + source) * degree + slot) * len(SPLITS) + split``,
    where ``slot`` indexes the source's neighbours in board order and ``degree`` is the
    largest number of neighbours (8 for king adjacency); ``moves + grow`` is "grow, no
    move".  3x3 king: 3,249 distinct actions; 5x5: 25,025.
    """

    def __init__(self, params: GameParameters | None = None) -> None:
        given = {**DEFAULT_PARAMETERS, **(params or {})}
        rules = Rules(adjacency=str(given["adjacency"]), die_sides=int(given["die_sides"]))
        self.rows, self.columns = int(given["rows"]), int(given["columns"])
        self.start = Position.start(self.rows, self.columns, rules)
        self.turn_cap = int(given["turn_cap"])
        if self.turn_cap < 1:
            raise ValueError(f"turn_cap must be at least 1, not {self.turn_cap}")
        board = self.start.board
        self.cells = len(board)
        self.degree = max(len(adjacent) for adjacent in board.neighbours)
        self.moves = self.cells * self.cells * self.degree * len(SPLITS)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.moves + self.cells,
            max_chance_outcomes=rules.die_sides,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.turn_cap,
        )
        super().__init__(_GAME_TYPE, info, given)
        self._legal_turns_kept = lru_cache(maxsize=LEGAL_TURNS_KEPT)(self._legal_turns)

    @property
    def board(self) -> Board:
        return self.start.board

    def new_initial_state(self) -> AmoeboidState:
        return AmoeboidState(self)

    def state_at(self, position: Position, roll: int | None = None) -> AmoeboidState:
        """A state at ``position`` (after ``roll`` if given), with no history: for bots asked to move there."""
        if position.board != self.board or position.rules != self.start.rules:
            raise ValueError(f"position {position} is not on this game's {self.board.shape} board and rules")
        return AmoeboidState(self, position, roll)

    def make_py_observer(self, iig_obs_type: object = None, params: GameParameters | None = None
                         ) -> CompositionObserver:
        return CompositionObserver(self, params)

    # -- the action abstraction ----------------------------------------------------------

    def action_of(self, position: Position, turn: Turn | str) -> int:
        """The action id of a legal ``turn`` in ``position``; ValueError if no action of the abstraction is it."""
        turn = resolve(position, turn)
        grown = None if turn.is_pass else grown_cells(position.cells, self.board.index[turn.grow], position.to_move, turn.roll)
        return self._encode(position, turn, grown)

    def _encode(self, position: Position, turn: Turn, grown: Sequence[Amoeba | None] | None) -> int:
        """``action_of`` for a resolved legal turn, given the cells after its grow (no checks: the hot path)."""
        index = self.board.index
        if turn.src is None or turn.dst is None:  # a pass (a turn has both cells of its move or neither)
            return self.moves + index[turn.grow]
        src, dst = index[turn.src], index[turn.dst]
        source = None if grown is None else grown[src]
        assert grown is not None and source is not None, "a legal move's turn grows, then moves a cell's amoeba"
        options = _split_options(source, grown[dst], position.to_move)
        counts = (turn.a, turn.b)
        if counts not in options:
            raise ValueError(
                f"turn '{turn}' is outside OpenSpiel's action abstraction: it moves {turn.a},{turn.b} of "
                f"{grown[src]}, which is none of {', '.join(SPLITS)}"
            )
        slot = self.board.neighbours[src].index(dst)
        return ((index[turn.grow] * self.cells + src) * self.degree + slot) * len(SPLITS) + options.index(counts)

    def legal_turns(self, position: Position, roll: int) -> dict[int, Turn]:
        """``{action: turn}`` for every candidate turn (the legal actions of a decision node).

        Kept for the last ``LEGAL_TURNS_KEPT`` positions and rolls asked: MCTS applies each simulation's actions to a
        fresh copy of the root, so every node on the path asks again for what an earlier simulation computed.  The
        dict returned is shared between those calls: read it, do not change it.
        """
        return self._legal_turns_kept(position, roll)

    def _legal_turns(self, position: Position, roll: int) -> dict[int, Turn]:
        mover, index, cells = position.to_move, self.board.index, position.cells
        grown: dict[str, list[Amoeba | None]] = {}
        actions: dict[int, Turn] = {}
        for turn in candidate_turns(position, roll):
            after_grow = grown.get(turn.grow)
            if after_grow is None:
                after_grow = grown[turn.grow] = grown_cells(cells, index[turn.grow], mover, roll)
            actions[self._encode(position, turn, after_grow)] = turn
        return actions

    def turn_of(self, position: Position, roll: int, action: int) -> Turn:
        """The turn an action id names in ``position`` after ``roll`` (legality is the state's business)."""
        names = self.board.names
        if not 0 <= action < self.moves + self.cells:
            raise ValueError(f"action {action} is not an action of {self} (0..{self.moves + self.cells - 1})")
        if action >= self.moves:
            return Turn(roll, names[action - self.moves])
        rest, split = divmod(action, len(SPLITS))
        rest, slot = divmod(rest, self.degree)
        grow, src = divmod(rest, self.cells)
        adjacent = self.board.neighbours[src]
        if slot >= len(adjacent):
            raise ValueError(f"action {action}: {names[src]} has no neighbour number {slot + 1}")
        dst = adjacent[slot]
        cells = grown_cells(position.cells, grow, position.to_move, roll) if position.cells[grow] else position.cells
        source = cells[src]
        counts = None if source is None else _split_options(source, cells[dst], position.to_move)[split]
        if counts is None:
            raise ValueError(f"action {action} ({SPLITS[split]} {names[src]}-{names[dst]}) means nothing in {position}")
        return Turn(roll, names[grow], names[src], names[dst], *counts)


class _Node:
    """What a state knows, shared by its clones: ``state.clone()`` deep-copies a state, and this copies as itself.

    Nothing in it changes once made (the legal actions are filled in once, from the rest).
    """

    __slots__ = ("game", "position", "roll", "turns", "actions")

    def __init__(self, game: AmoeboidGame, position: Position, roll: int | None, turns: int) -> None:
        self.game, self.position, self.roll, self.turns = game, position, roll, turns
        self.actions: dict[int, Turn] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[[str, Position, int | None, int], _Node],
                                  tuple[str, Position, int | None, int]]:
        # pickled states (serialisation) name their game: an unpickled Game lacks our fields
        return _node, (str(self.game), self.position, self.roll, self.turns)


@lru_cache(maxsize=None)
def _loaded(game_string: str) -> AmoeboidGame:
    game: AmoeboidGame = pyspiel.load_game(game_string)  # a python_amoeboid game string loads our class
    return game


def _node(game_string: str, position: Position, roll: int | None, turns: int) -> _Node:
    return _Node(_loaded(game_string), position, roll, turns)


class AmoeboidState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no stubs: State is Any
    """A position, the roll when it has been thrown, and the number of turns played."""

    def __init__(self, game: AmoeboidGame, position: Position | None = None, roll: int | None = None) -> None:
        super().__init__(game)
        self._node = _Node(game, game.start if position is None else position, roll, 0)

    @property
    def position(self) -> Position:
        return self._node.position

    @property
    def roll(self) -> int | None:
        """The mover's roll, None at a chance node."""
        return self._node.roll

    @property
    def turns(self) -> int:
        """Turns played since this state's start."""
        return self._node.turns

    @property
    def game(self) -> AmoeboidGame:
        return self._node.game

    # -- OpenSpiel's interface ---------------------------------------------------------

    def current_player(self) -> int:
        node = self._node
        if node.turns >= node.game.turn_cap or node.position.is_over:
            return _TERMINAL
        if node.roll is None:
            return _CHANCE
        return 0 if node.position.to_move == "A" else 1

    def is_terminal(self) -> bool:
        node = self._node
        return node.turns >= node.game.turn_cap or node.position.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The die: action ``r - 1`` rolls ``r``, every face with the same exact probability."""
        return [(roll - 1, float(p)) for roll, p in self.position.dice_outcomes()]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.turns_by_action())

    def turns_by_action(self) -> dict[int, Turn]:
        """``{action: turn}`` for every legal action here (computed once: MCTS asks at every visit)."""
        node = self._node
        if node.actions is None:
            node.actions = node.game.legal_turns(node.position, self.rolled())
        return node.actions

    def _apply_action(self, action: int) -> None:
        node = self._node
        if node.roll is None:
            if not 0 <= action < node.position.rules.die_sides:
                raise ValueError(f"chance action {action} is not a face of the die")
            self._node = _Node(node.game, node.position, action + 1, node.turns)
            return
        turn = self.turns_by_action().get(action)
        if turn is None:
            raise ValueError(f"action {action} is not legal in {self}")
        position = node.position
        after = Position(position.board, tuple(cells_after_legal(position, turn)), other(position.to_move),
                         position.rules)
        self._node = _Node(node.game, after, None, node.turns + 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {action + 1}"
        legal = self.turns_by_action().get(action) if self.roll is not None else None
        if legal is not None:
            return str(legal)
        return f"action {action} (not legal here)"

    def returns(self) -> list[float]:
        result = self.position.result
        if result == "A":
            return [1.0, -1.0]
        if result == "B":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        """The position in the project's notation; after the roll, a second line ``roll N``."""
        return str(self.position) if self.roll is None else f"{self.position}\nroll {self.roll}"

    # -- ours ----------------------------------------------------------------------------

    def rolled(self) -> int:
        """The mover's roll at a decision node; ValueError at a chance node, where the die is still to be thrown."""
        roll = self._node.roll
        if roll is None:
            raise ValueError(f"{self} is a chance node: apply a roll (actions 0..{self.position.rules.die_sides - 1}) "
                             "before asking for its turns")
        return roll

    def turn(self, action: int) -> Turn:
        """The turn a legal action plays here."""
        turn = self.turns_by_action().get(action) if self.roll is not None else None
        if turn is None:
            raise ValueError(f"action {action} is not legal in {self}")
        return turn


class CompositionObserver:
    """Observation tensor ``(3 + die_sides, rows, columns)``: A's units, B's units, B to move, the roll.

    Plane 0 holds each cell's A units, plane 1 its B units (raw counts), plane 2 is all ones
    when B is to move, plane ``2 + r`` is all ones once ``r`` has been rolled.  The game has
    perfect information, so both players see the same.
    """

    def __init__(self, game: AmoeboidGame, params: GameParameters | None) -> None:
        if params:
            raise ValueError(f"python_amoeboid's observer takes no parameters, not {params}")
        self.shape = (3 + game.start.rules.die_sides, game.rows, game.columns)
        self.tensor = np.zeros(int(np.prod(self.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.shape)}

    def set_from(self, state: AmoeboidState, player: int) -> None:
        planes = self.dict["observation"]
        planes.fill(0)
        cols = self.shape[2]
        for index, cell in enumerate(state.position.cells):
            if cell is not None:
                planes[0, index // cols, index % cols] = cell.a
                planes[1, index // cols, index % cols] = cell.b
        if state.position.to_move == "B":
            planes[2] = 1
        if state.roll is not None:
            planes[2 + state.roll] = 1

    def string_from(self, state: AmoeboidState, player: int) -> str:
        return str(state)


pyspiel.register_game(_GAME_TYPE, AmoeboidGame)


@lru_cache(maxsize=None)
def _game(rows: int, cols: int, adjacency: str, sides: int) -> AmoeboidGame:
    params = {"rows": rows, "columns": cols, "adjacency": adjacency, "die_sides": sides}
    game: AmoeboidGame = pyspiel.load_game(GAME_NAME, params)  # GAME_NAME is registered to our class
    return game


def game_for(position: Position) -> AmoeboidGame:
    """The ``python_amoeboid`` game of ``position``'s board and rules (grid boards only)."""
    board = position.board
    if not board.is_grid:
        raise ValueError("python_amoeboid plays grid boards only, not graph boards")
    return _game(board.rows, board.cols, board.adjacency, position.rules.die_sides)


# --------------------------------------------------------------------------- bots both ways


def strategy_from_bot(make_bot: Callable[[AmoeboidGame, int], pyspiel.Bot], name: str
                      ) -> Callable[[Position, int, random.Random], Turn]:
    """Any OpenSpiel bot as our strategy ``(position, roll, rng) -> Turn``.

    ``make_bot(game, seed)`` builds the bot for each move with a seed drawn from the
    strategy's ``rng``, so the same ``rng`` gives the same turn.
    """

    def strategy(position: Position, roll: int, rng: random.Random) -> Turn:
        game = game_for(position)
        state = game.state_at(position, roll)
        return state.turn(make_bot(game, rng.getrandbits(32)).step(state))

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


class StrategyBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no stubs: Bot is Any
    """Our strategy as an OpenSpiel bot, for ``evaluate_bots`` and OpenSpiel's tools.

    Each move gets its own generator, ``seeded_rng(seed, move number)``.  A turn outside the
    action abstraction raises ValueError naming it.
    """

    def __init__(self, strategy: Strategy, seed: int | str = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.choose, self.seed = as_function(strategy), seed

    def step(self, state: AmoeboidState) -> int:
        position, roll = state.position, state.rolled()
        turn = self.choose(position, roll, seeded_rng(self.seed, "move", state.move_number()))
        return state.game.action_of(position, turn)

    def restart_at(self, state: AmoeboidState) -> None:
        pass

    def inform_action(self, state: AmoeboidState, player: int, action: int) -> None:
        pass


class RandomPlayoutEvaluator(Evaluator):  # type: ignore[misc]  # open_spiel ships no types: Evaluator is Any
    """Random rollouts played by the engine's random player (:func:`~amoeboid_edu.engine.game.random_playout`),
    and a prior that favours the turns greedy would like.

    OpenSpiel's ``RandomRolloutEvaluator`` steps states through this interface, picking
    uniformly among the abstraction's actions: about 100 turns a game on 3x3 and 1,500 steps
    a second, a quarter of a second per rollout.  The engine's random player (uniform over
    grows and moves, the whole amoeba 9 times in 10) ends a 3x3 game in 12 turns (median) on
    flat lists, about 10,000 rollouts a second: MCTS gets 100 times the rollouts per second.
    """

    def __init__(self, seed: int, rollouts: int = MCTS_ROLLOUTS, max_turns: int = MCTS_ROLLOUT_TURNS,
                 temperature: float = MCTS_PRIOR_TEMPERATURE) -> None:
        self.rng, self.rollouts, self.max_turns = seeded_rng(seed, "mcts-rollouts"), rollouts, max_turns
        self.temperature = temperature

    def evaluate(self, state: AmoeboidState) -> np.ndarray:
        """A's mean result over ``rollouts`` random games from ``state`` (+1 won, -1 lost, 0 tie or capped)."""
        total = 0
        for _ in range(self.rollouts):
            position, left = state.position, min(self.max_turns, state.game.turn_cap - state.turns)
            if state.roll is not None:  # a decision node: the mover plays its roll at random first
                turn = random_turn(position, state.roll, self.rng)
                position = Position(position.board, tuple(cells_after_legal(position, turn)),
                                    other(position.to_move), position.rules)
                left -= 1
            result = random_playout(position, self.rng, max(0, left)).result
            total += 1 if result == "A" else -1 if result == "B" else 0
        return np.array([total / self.rollouts, -total / self.rollouts])

    def prior(self, state: AmoeboidState) -> list[tuple[int, float]]:
        """The die's exact odds at a chance node; at a decision node a softmax of the Delta each turn leaves.

        The prior only orders the search (PUCT tries likely turns first and longer); every value still
        comes from random rollouts.  The Delta is greedy's measure (:func:`~amoeboid_edu.players.bots.outcome_after`).
        """
        if state.is_chance_node():
            return state.chance_outcomes()

        position, turns = state.position, state.turns_by_action()
        outcomes = {action: outcome_after(position, turn) for action, turn in turns.items()}
        if any(wins for wins, *_ in outcomes.values()):
            weights = {action: float(outcome[0]) for action, outcome in outcomes.items()}
        else:
            best = max(delta for _, delta, *_ in outcomes.values())
            weights = {action: math.exp((outcome[1] - best) / self.temperature) for action, outcome in outcomes.items()}
        total = sum(weights.values())
        return [(action, weights[action] / total) for action in sorted(weights)]


def mcts_bot(game: pyspiel.Game, seed: int, simulations: int = MCTS_SIMULATIONS, uct_c: float = MCTS_UCT_C,
             rollouts: int = MCTS_ROLLOUTS) -> MCTSBot:
    """OpenSpiel's MCTS: PUCT with the Delta prior, random rollouts, chance nodes sampled; seeded for repeatability."""
    evaluator = RandomPlayoutEvaluator(seed, rollouts)
    return MCTSBot(game, uct_c, simulations, evaluator, solve=True, random_state=np.random.RandomState(seed_bits(seed, "mcts", bits=32)),
                   child_selection_fn=SearchNode.puct_value)


def mcts_strategy(simulations: int = MCTS_SIMULATIONS, uct_c: float = MCTS_UCT_C, rollouts: int = MCTS_ROLLOUTS
                  ) -> Callable[[Position, int, random.Random], Turn]:
    """The ``mcts`` bot with another budget (the appendix lesson's question: how many does it need?)."""
    return strategy_from_bot(lambda game, seed: mcts_bot(game, seed, simulations, uct_c, rollouts),
                             f"mcts{simulations}")


mcts = strategy_from_bot(mcts_bot, "mcts")
"""OpenSpiel's MCTS with ``MCTS_SIMULATIONS`` simulations per move (README: it beats greedy; paper and expectimax beat it)."""

EXTRA_BOTS = {"mcts": mcts}
"""What :data:`amoeboid_edu.players.registry.BOTS` gains when this extra is installed."""

register_bot("mcts", mcts)

__all__ = [
    "EXTRA_BOTS",
    "GAME_NAME",
    "MCTS_SIMULATIONS",
    "SPLITS",
    "AmoeboidGame",
    "AmoeboidState",
    "StrategyBot",
    "game_for",
    "mcts",
    "mcts_bot",
    "mcts_strategy",
    "strategy_from_bot",
]
