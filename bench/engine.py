"""Random-playout speed of the engine, in turns per CPU-second (time.process_time).

    python bench/engine.py [--games N]

Plays the spec's random policy (``random_playout``) on 3x3 and 8x8 boards, and
for scale the same games through the public immutable API
(``apply(position, random_turn(...))``), the "straightforward implementation".
Both play identical games (tests/test_game.py checks it), so the ratio is a
fair speed-up.
"""

from __future__ import annotations

import argparse
import time

from amoeboid_edu import Position, apply, random_playout, random_turn, seeded_rng


def straightforward_playout(start: Position, rng, max_turns: int = 1000) -> int:
    position, turns = start, 0
    while not position.is_over and turns < max_turns:
        roll = rng.randint(1, 6)
        position = apply(position, random_turn(position, roll, rng))
        turns += 1
    return turns


def measure(play, start: Position, games: int) -> tuple[float, float]:
    began = time.process_time()
    turns = sum(play(start, seeded_rng(0, "bench", i)) for i in range(games))
    seconds = time.process_time() - began
    return turns / seconds, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="3x3 games (8x8 plays a fiftieth of that)")
    games = parser.parse_args().games
    for side, count in ((3, games), (8, max(1, games // 50))):
        start = Position.start(side)
        fast, mean = measure(lambda p, rng: random_playout(p, rng).turns, start, count)
        slow, _ = measure(straightforward_playout, start, max(1, count // 10))
        print(
            f"{side}x{side}: random_playout {fast:,.0f} turns/CPU-s | public API {slow:,.0f} turns/CPU-s"
            f" | speed-up {fast / slow:.1f}x | {count} games, mean {mean:.1f} turns"
        )


if __name__ == "__main__":
    main()
