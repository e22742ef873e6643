"""Every bot by name: the baseline bots, and ``mcts`` when the ``openspiel`` extra is installed.

>>> from amoeboid_edu.players.registry import BOTS
>>> {'random', 'greedy', 'paper', 'expectimax'} <= set(BOTS)
True
"""

from __future__ import annotations

import importlib.util

from .bots import BASELINE_BOTS
from .strategy import StrategyFunction

BOTS: dict[str, StrategyFunction] = dict(BASELINE_BOTS)
"""The bots a board, ``score`` or a tournament accepts by name."""

if importlib.util.find_spec("pyspiel") is not None:  # the `openspiel` extra adds `mcts`
    from .openspiel import EXTRA_BOTS

    BOTS.update(EXTRA_BOTS)

__all__ = ["BOTS"]
