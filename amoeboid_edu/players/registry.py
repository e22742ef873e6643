"""Every bot by name: the baseline bots, and ``mcts`` when the ``openspiel`` extra is installed.

>>> from amoeboid_edu.players.registry import BOTS
>>> {'random', 'greedy', 'paper', 'expectimax'} <= set(BOTS)
True

``mcts`` is imported at its first move, not here: OpenSpiel and NumPy take a third of a second or more to import,
and every process of the lab (each ``processes:K`` pool process, each tournament batch) imports this registry
whether or not anyone plays ``mcts``.
"""

from __future__ import annotations

import importlib.util
import random

from ..engine.match import register_bot
from ..engine.rules import Position, Turn
from .bots import BASELINE_BOTS
from .strategy import StrategyFunction

BOTS: dict[str, StrategyFunction] = dict(BASELINE_BOTS)
"""The bots a board, ``score`` or a tournament accepts by name."""


def mcts(position: Position, roll: int, rng: random.Random) -> Turn:
    """OpenSpiel's MCTS bot (:func:`amoeboid_edu.players.openspiel.mcts`), imported at its first move: the same
    turn for the same ``rng``."""
    from .openspiel import mcts as search

    return search(position, roll, rng)


if importlib.util.find_spec("pyspiel") is not None:  # the `openspiel` extra adds `mcts`
    BOTS["mcts"] = mcts
    register_bot("mcts", mcts)

__all__ = ["BOTS"]
