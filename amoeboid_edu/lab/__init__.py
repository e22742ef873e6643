"""The strategy lab: a student's strategy scored fairly, reproducibly and safely, and a class tournament.

``lab.score(my_strategy)`` gives a student's score card; ``lab.tournament("class/")`` plays a class contest;
``lab.hand_in(my_strategy, "class/nina")`` writes a notebook's strategy into a file the tournament loads.

Scoring and the tournament (:mod:`.scoring`) run strategies behind the walls of :mod:`amoeboid_edu.sandbox`
on one executor abstraction (:mod:`.executors`), keep a resumable ledger (:mod:`.ledger`), read a class folder
(:mod:`.roster`) and turn games into statistics (:mod:`.stats`).  The names below load :mod:`.scoring` (and
pandas) when first used, so that importing a part of the lab, as the command line does for its defaults before
it cleans its import path, costs nothing more.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scoring import (
        Batch,
        GameRecord,
        ScoreCard,
        TournamentResult,
        compare,
        default_workers,
        entry,
        hand_in,
        leaderboard_path,
        play_batch,
        read_seed_file,
        score,
        tournament,
        wilson_interval,
        write_leaderboard,
    )

__all__ = ["Batch", "GameRecord", "ScoreCard", "TournamentResult", "compare", "default_workers", "entry", "hand_in",
           "leaderboard_path", "play_batch", "read_seed_file", "score", "tournament", "wilson_interval",
           "write_leaderboard"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return getattr(importlib.import_module(".scoring", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
