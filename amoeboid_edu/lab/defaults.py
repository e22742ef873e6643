"""The lab's defaults, shared by ``score()`` and ``amoeboid score`` (imported by the command line before the lab)."""

DEFAULT_GAMES = 200
"""Games per opponent of ``score`` and ``amoeboid score`` alike (100 dice pairs)."""
FAST_OPPONENTS = ("random", "greedy", "paper")
"""``score``'s default opponents; ``"expectimax"`` (a two-turn search) is one name away and much slower."""

__all__ = ["DEFAULT_GAMES", "FAST_OPPONENTS"]
