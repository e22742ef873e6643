"""How long the coach takes: a review of 30-turn 3x3 games, and a hint (prints figures, asserts nothing).

    .venv/bin/python bench/coach.py [--games 3] [--seed 0]

Targets (issue 13): a review of a 30-turn 3x3 game under 10 s on one core with the
default 385 rollouts per estimate; a hint under 1 s.  A review values every position
of the game over all six rolls (each of greedy's tied turns after each roll, the
reply greedy, then random) and, for the roll played, the turn played and greedy's 3
most promising turns: about ten estimates of 385 rollouts per turn.  Every figure is CPU time of
this process (``time.process_time``) with the coach's caches emptied first, so
nothing computed for one game or position helps the next.  Pin the run to one
core with ``taskset -c 0`` to see the Binder figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from amoeboid_edu import Game, random_turn, seeded_rng
from amoeboid_edu.theory import coach
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_RECORD


def forget() -> None:
    coach._CHOICES.clear()
    coach._ESTIMATES.clear()


def thirty_turn_games(count: int, seed) -> list[Game]:
    """Seeded games of the engine's random player, the first 30 turns of each that lasts that long."""
    games: list[Game] = []
    index = 0
    while len(games) < count:
        game = Game(seed=f"{seed}:{index}")
        while not game.is_over and len(game) < 30:
            game.play(random_turn(game.position, game.roll(), seeded_rng(seed, "bench-coach", index, len(game))))
        if len(game) == 30:
            games.append(game)
        index += 1
    return games


def time_review(name: str, game: Game, seed) -> float:
    forget()
    began = time.process_time()
    review = coach.review(game, seed=seed)
    seconds = time.process_time() - began
    exact = sum(estimate.exact for estimate in coach._ESTIMATES.values())
    print(f"review {name}: {len(game)} turns, {seconds:.2f} s CPU, {len(coach._ESTIMATES)} estimates "
          f"({exact} exact), {review!r}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", default="0")
    args = parser.parse_args()
    print(f"policy: {coach.POLICY}, {coach.ROLLOUTS} rollouts per estimate, "
          f"review candidates {coach.REVIEW_CANDIDATES}, hint candidates {coach.HINT_CANDIDATES}")
    games = thirty_turn_games(args.games, args.seed)
    reviews = [time_review(f"random game {i + 1}", game, args.seed) for i, game in enumerate(games)]
    time_review("the paper's example game", Game.parse(PAPER_EXAMPLE_RECORD), args.seed)
    print(f"30-turn review: mean {statistics.mean(reviews):.2f} s, max {max(reviews):.2f} s CPU (target < 10 s)")
    hint_seconds = []
    for game in [*games, Game.parse(PAPER_EXAMPLE_RECORD)]:
        for position, turn in zip(game.positions, game.turns):
            forget()
            began = time.process_time()
            coach.hints(position, turn.roll, seed=args.seed)
            hint_seconds.append(time.process_time() - began)
    hint_seconds.sort()
    print(f"hint, cold cache, {len(hint_seconds)} positions: median {statistics.median(hint_seconds):.2f} s, "
          f"90th percentile {hint_seconds[int(0.9 * len(hint_seconds))]:.2f} s, max {hint_seconds[-1]:.2f} s CPU "
          f"(target < 1 s)")


if __name__ == "__main__":
    main()
