"""The strategy lab's defaults, shared by ``score()`` and ``amoeboid score``.

They live below the lab, with the import path's cleaning (:mod:`.importpath`), because the command line reads
them to build its ``--help`` before it may import the lab: importing the lab imports pandas and more, and must
happen only once the folders that hold hand-ins are off the import path.
"""

DEFAULT_GAMES = 200
"""Games per opponent of ``score`` and ``amoeboid score`` alike (100 dice pairs)."""
FAST_OPPONENTS = ("random", "greedy", "paper")
"""``score``'s default opponents; ``"expectimax"`` (a two-turn search) is one name away and much slower."""

__all__ = ["DEFAULT_GAMES", "FAST_OPPONENTS"]
