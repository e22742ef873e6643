"""The strategy lab: a student's strategy scored fairly, reproducibly and safely, and a class tournament.

``lab.score(my_strategy)`` gives a student's score card; ``lab.tournament("class/")`` plays a class contest;
``lab.hand_in(my_strategy, "class/nina")`` writes a notebook's strategy into a file the tournament loads.

Scoring and the tournament (:mod:`.scoring`) run strategies behind the walls of :mod:`amoeboid_edu.sandbox`
on one executor abstraction (:mod:`.executors`), keep a resumable ledger (:mod:`.ledger`), read a class folder
(:mod:`.roster`) and turn games into statistics (:mod:`.stats`).  Importing the lab imports all it needs at once
(pandas included), so that nothing is imported later, while a run's class folder may be on the import path.
"""

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
