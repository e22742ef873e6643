"""Speed of the namesakes' engines, in CPU seconds (time.process_time).

    python bench/namesakes.py [--depth 3] [--games 50]

Prints Nakajima's perft from the start for each depth up to ``--depth`` with
its time, then random games per CPU-second for both games and the search bots'
time per move.
"""

from __future__ import annotations

import argparse
import random
import time

from amoeboid_edu.namesakes import nakajima, oosterwal
from amoeboid_edu.namesakes.bots import nakajima_search, oosterwal_search


def timed(work):
    began = time.process_time()
    value = work()
    return value, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    start = nakajima.Position.start()
    for depth in range(1, args.depth + 1):
        count, seconds = timed(lambda: nakajima.perft(start, depth))
        print(f"nakajima perft {depth}: {count:,} in {seconds:.2f} s ({count / max(seconds, 1e-9):,.0f} leaves/s)")
    games, seconds = timed(lambda: [nakajima.random_game(random.Random(i)) for i in range(args.games)])
    plies = sum(len(game.moves) for game in games)
    print(f"nakajima random games: {args.games / seconds:.1f}/s, {plies / seconds:,.0f} plies/s")
    games, seconds = timed(lambda: [oosterwal.random_game(random.Random(i), 2) for i in range(args.games)])
    print(f"oosterwal random games (2 players): {args.games / seconds:.1f}/s")
    search = nakajima_search(2)
    _, seconds = timed(lambda: search(start, random.Random(0)))
    print(f"nakajima alpha-beta depth 2, first move: {seconds:.2f} s")
    maxn = oosterwal_search(2)
    _, seconds = timed(lambda: maxn(oosterwal.Position.start(3), random.Random(0)))
    print(f"oosterwal max-n depth 2, 3 players, first turn: {seconds:.2f} s")


if __name__ == "__main__":
    main()
