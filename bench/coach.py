"""How long the coach takes and how much its classes depend on the rollouts' seed (prints figures, asserts nothing).

    .venv/bin/python bench/coach.py [--lengths 10 30 60 100 200] [--games 2] [--seed 0] [--agreement 3]

For each length: seeded games of the engine's random player cut at that many turns,
each reviewed with the coach's defaults (CPU time of this process, ``time.process_time``,
caches emptied first, so nothing computed for one review helps the next; the compiled
kernel is loaded before timing: a first use on a machine pays its compilation once).
Then the share of turns whose class is the same under two rollout seeds (0 and 1), over
``--agreement`` games of each length up to 100 turns; the review of the paper's example
game (what ``amoeboid review`` does); and a hint for every position of those games.
Goals (issue 24): a 100-turn review under 5 s, two seeds agreeing on at least 90% of
turns, a hint under 0.3 s, the paper's game under 3 s.  Pin the run to one core with
``taskset -c 0`` to see the Binder figure.

``--cold N`` first reviews an N-turn game in fresh processes, as a class's first Review does: the CPU time of
the whole process (imports, the kernel, the review), once with Numba's cache as installed and once with an
empty cache (the kernel compiled on the spot); set ``AMOEBOID_PURE_PYTHON=1`` for the figures without Numba.
The machine's load average is printed: CPU seconds grow with it on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from amoeboid_edu import Game, random_turn, seeded_rng
from amoeboid_edu.theory import _tails, coach
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_RECORD


def forget() -> None:
    coach._CHOICES.clear()
    coach._ESTIMATES.clear()


def games_of(length: int, count: int, seed) -> list[Game]:
    """Seeded games of the engine's random player, the first ``length`` turns of each that lasts that long."""
    games: list[Game] = []
    index = 0
    while len(games) < count:
        game = Game(seed=f"{seed}:{length}:{index}")
        while not game.is_over and len(game) < length:
            game.play(random_turn(game.position, game.roll(), seeded_rng(seed, "bench-coach", length, index, len(game))))
        if len(game) == length:
            games.append(game)
        index += 1
    return games


def timed_review(game: Game, seed) -> tuple[float, coach.Review]:
    forget()
    began = time.process_time()
    review = coach.review(game, seed=seed)
    return time.process_time() - began, review


COLD = """
import sys, time
sys.path.insert(0, {bench!r})
from coach import games_of
from amoeboid_edu.theory import _tails, coach
(game,) = games_of({length}, 1, "0")
coach.review(game, seed=0)
print(f"{{time.process_time():.2f}} {{_tails.implementation()}}")
"""


def cold_review(length: int, empty_cache: bool) -> str:
    """The CPU time of a fresh process that imports the coach and reviews one ``length``-turn game."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if empty_cache:
            env["NUMBA_CACHE_DIR"] = cache
        script = COLD.format(bench=os.path.dirname(os.path.abspath(__file__)), length=length)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    seconds, kernel = done.stdout.split()
    return f"{seconds} s CPU ({kernel})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[10, 30, 60, 100, 200])
    parser.add_argument("--games", type=int, default=2, help="games timed per length")
    parser.add_argument("--agreement", type=int, default=3, help="games per length (up to 100 turns) for seed agreement")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--cold", type=int, default=100, help="turns of the game reviewed in fresh processes (0: none)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.cold:
        print(f"cold review of {args.cold} turns in a fresh process: {cold_review(args.cold, False)} with Numba's cache, "
              f"{cold_review(args.cold, True)} with an empty cache (the kernel compiled)")
    began = time.process_time()
    _tails.compiled()
    coach.win_chance("(3,0) . . / . . . / . . (0,3) A", seed="bench-warm-up")  # the kernel loaded before timing
    print(f"policy: {coach.POLICY}; {coach.ROLLOUTS} tails per estimate, refined x{coach.REFINE_FACTOR} up to "
          f"{coach.REFINE_LEVELS - 1} times near a class line; random tails: {_tails.implementation()} "
          f"(loaded in {time.process_time() - began:.2f} s CPU)")
    for length in args.lengths:
        seconds = [timed_review(game, args.seed)[0] for game in games_of(length, args.games, args.seed)]
        print(f"review of {length:3d} turns: mean {statistics.mean(seconds):.2f} s, max {max(seconds):.2f} s CPU "
              f"({len(seconds)} games)")
    same = total = 0
    for length in [n for n in args.lengths if n <= 100]:
        for game in games_of(length, args.agreement, f"{args.seed}-agree"):
            first = timed_review(game, 0)[1].frame["class"]
            second = timed_review(game, 1)[1].frame["class"]
            same += int((first == second).sum())
            total += len(first)
    if total:
        print(f"seeds 0 and 1 give the same class on {same} of {total} turns ({same / total:.1%})")
    seconds, review = timed_review(Game.parse(PAPER_EXAMPLE_RECORD), args.seed)
    print(f"the paper's example game ({len(review.frame)} turns): {seconds:.2f} s CPU, {review!r}")
    hint_seconds = []
    for game in [*games_of(30, args.games, args.seed), Game.parse(PAPER_EXAMPLE_RECORD)]:
        for position, turn in zip(game.positions, game.turns):
            forget()
            began = time.process_time()
            coach.hints(position, turn.roll, seed=args.seed)
            hint_seconds.append(time.process_time() - began)
    hint_seconds.sort()
    print(f"hint, cold cache, {len(hint_seconds)} positions: median {statistics.median(hint_seconds):.3f} s, "
          f"90th percentile {hint_seconds[int(0.9 * len(hint_seconds))]:.3f} s, max {hint_seconds[-1]:.3f} s CPU")


if __name__ == "__main__":
    main()
