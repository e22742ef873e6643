"""The strategy lab: a student's strategy scored fairly, reproducibly and safely, and a class tournament.

``lab.score(my_strategy)`` gives a student's score card; ``lab.tournament("class/")`` plays a class contest;
``lab.hand_in(my_strategy, "class/nina")`` writes a notebook's strategy into a file the tournament loads.

The modules, each a step of the way:

- :mod:`.entrants`: who plays (a bot here, anything else in a sandboxed worker) and under which name;
- :mod:`.scoring`: the game driver (games against their workers, the twin games in lockstep), ``score`` and
  ``compare``, and the unit of work every executor runs (:func:`~.scoring.play_batch`);
- :mod:`.executors`: where batches run (serial, processes:K, dask:ADDRESS), for a score card and a tournament alike;
- :mod:`.records`, :mod:`.cards`: a game's record, and the score card, the tournament's table and leaderboard;
- :mod:`.contest`: the class tournament, with its resumable results file (:mod:`.ledger`) and class folder
  (:mod:`.roster`);
- :mod:`.seedfile`: a contest's secret seed; :mod:`.handin`: a notebook's strategy written into a file;
  :mod:`.stats`: intervals, verdicts and ratings.

Importing the lab imports all its modules at once, so that none of them is imported later, while a run's class
folder may be on the import path.
"""

from .cards import ScoreCard, TournamentResult, write_leaderboard
from .contest import leaderboard_path, tournament
from .entrants import entry
from .handin import hand_in
from .records import GameRecord
from .scoring import Batch, compare, default_workers, play_batch, score
from .seedfile import read_seed_file
from .stats import wilson_interval

__all__ = ["Batch", "GameRecord", "ScoreCard", "TournamentResult", "compare", "default_workers", "entry", "hand_in",
           "leaderboard_path", "play_batch", "read_seed_file", "score", "tournament", "wilson_interval",
           "write_leaderboard"]
