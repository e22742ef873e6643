"""How long the Python side of the board takes per click (the kernel's share of click -> re-render).

    python bench/widget.py [--turns N]

Hot-seat games on 3x3 and 8x8 boards, every turn made through intents
(grow when there is a choice, source, destination; the random player picks
the turn, seeded), timing each ``handle_intent`` with time.perf_counter:
validation with the engine, the new view, and the traits set (no frontend
attached, so nothing is sent).  Prints the median and 95th percentile.
"""

from __future__ import annotations

import argparse
import statistics
import time

from amoeboid_edu import random_turn, seeded_rng
from amoeboid_edu.ui.widget import Board


def click_times(side: int, turns: int) -> list[float]:
    times: list[float] = []
    board, rng, played = Board(board=side, seed=side), seeded_rng(side, "bench-widget"), 0

    def timed(intent: dict) -> None:
        began = time.perf_counter()
        assert board.handle_intent({**intent, "version": board.version}), board.error
        times.append(time.perf_counter() - began)

    while played < turns:
        if board.game.is_over:
            timed({"kind": "new"})
        turn = random_turn(board.game.position, board.view["roll"], rng)
        if board.phase == "grow":
            timed({"kind": "cell", "cell": turn.grow})
        if not turn.is_pass:
            timed({"kind": "cell", "cell": turn.src})
            timed({"kind": "counts", "a": turn.a, "b": turn.b})
            timed({"kind": "cell", "cell": turn.dst})
        played += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args()
    for side in (3, 8):
        times = sorted(click_times(side, args.turns))
        p95 = times[round(0.95 * (len(times) - 1))]
        print(
            f"{side}x{side}: {len(times)} intents, median {statistics.median(times) * 1000:.2f} ms, "
            f"p95 {p95 * 1000:.2f} ms per intent"
        )


if __name__ == "__main__":
    main()
