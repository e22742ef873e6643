"""The one seeding scheme: every random stream in the package is ``seeded_rng(seed, *keys)``.

A stream is named by the run's seed and a label (``seeded_rng(7, "dice", 12)``), so runs reproduce
when games are played in another order, in parallel or on another machine, and any one stream can be
made again by one call.  The three helpers are views of the same scheme:

- :func:`seed_text` is the stream's name, ``"7:dice:12"``; ``seeded_rng(s, *keys)`` is
  ``seeded_rng(seed_text(s, *keys))``, so a stream can be handed on as a plain seed (a :class:`Game`'s
  dice are ``seeded_rng(game.seed)``);
- :func:`seed_bits` draws an integer seed from the stream for libraries with generators of their own
  (NumPy, OpenSpiel's MCTS).

>>> seeded_rng(7, "dice", 12).random() == seeded_rng(seed_text(7, "dice", 12)).random()
True
>>> seed_text(7, "dice", 12)
'7:dice:12'
"""

from __future__ import annotations

import random


def seed_text(seed: int | str, *keys: object) -> str:
    """The name of the stream for ``seed`` and ``keys``: itself a seed, of the stream it names."""
    return ":".join(str(part) for part in (seed, *keys))


def seeded_rng(seed: int | str, *keys: object) -> random.Random:
    """A generator for one purpose (``seeded_rng(7, "game", 12)``), independent of every other purpose."""
    return random.Random(seed_text(seed, *keys))


def seed_bits(seed: int | str, *keys: object, bits: int = 64) -> int:
    """An integer seed of ``bits`` bits drawn from the stream, for a library with its own generator."""
    return seeded_rng(seed, *keys).getrandbits(bits)


__all__ = ["seed_bits", "seed_text", "seeded_rng"]
