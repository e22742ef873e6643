"""amoeboid_edu: Amoeboid, the partisan dice game of Dabdoub and Cuellar, for teaching.

>>> from amoeboid_edu import Position, apply
>>> start = Position.start()
>>> print(apply(start, "3 a1 a1-b1"))
. (4,0) . / . . . / . . (0,1) B
"""

from .engine.game import Game, Playout, random_playout, random_turn
from .engine.seeding import seeded_rng
from .engine.notation import InvalidRecordError, format_record, parse_record
from .engine.rules import (
    Amoeba,
    Board,
    IllegalTurnError,
    InvalidPositionError,
    InvalidTurnError,
    NotationError,
    Position,
    Rules,
    Turn,
    apply,
    count_legal_turns,
    dice_outcomes,
    is_legal,
    legal_move_pairs,
    legal_turns,
    other,
    resolve,
)

__version__ = "0.1.0"

__all__ = [
    "Amoeba",
    "Board",
    "Game",
    "IllegalTurnError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidTurnError",
    "NotationError",
    "Playout",
    "Position",
    "Rules",
    "Turn",
    "apply",
    "count_legal_turns",
    "dice_outcomes",
    "format_record",
    "is_legal",
    "legal_move_pairs",
    "legal_turns",
    "other",
    "parse_record",
    "random_playout",
    "random_turn",
    "resolve",
    "seeded_rng",
]
