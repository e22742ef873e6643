"""What the strategy lab's walls cost: worker start-up, a move's round trip, and recovering from a timeout.

    python bench/sandbox.py [--repeat N]

Wall-clock medians (time.perf_counter) over N runs, with the walls up (seccomp + Landlock, as
the lab runs) and down (``Sandbox(walls=False)``: process only), for the student's five-line
``wander`` loaded as ``module:function``:

- start: from a new Sandbox to the first answer (interpreter start, walls, import, fork a game);
- move: one move per round trip, and 64 moves per round trip (the lab's batches);
- timeout: a move interrupted at the per-move limit (0.1 s here) inside its process, which keeps the import:
  the time past the limit until its "timeout" answer; the kill path for a move that will not stop (a new game
  process from the same import, fork server) versus a whole new worker (what a timeout cost before the fork
  server).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from amoeboid_edu import Position
from amoeboid_edu.sandbox.harness import Sandbox
from amoeboid_edu.sandbox.processes import sweep

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "strategies"))
WANDER = {"load": "import", "module": "student", "name": "wander"}
LOOPS = {"load": "import", "module": "hostile", "name": "loops_forever"}
LIMIT = 0.1


def median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def bench(walls: bool, repeat: int) -> dict[str, float]:
    position = Position.start(3)
    starts, singles, batches, recoveries, restarts, interrupts = [], [], [], [], [], []
    for _ in range(repeat):
        looping = Sandbox(LOOPS, b"", position.rules, walls=walls)
        looping.ask([(1, 3, position)], LIMIT)  # started and imported (the first move is interrupted too)
        for seed in range(5):
            began = time.perf_counter()
            answer = looping.ask([(seed, 3, position)], LIMIT)[0]
            assert isinstance(answer, dict) and answer["kind"] == "timeout", answer
            interrupts.append(time.perf_counter() - began - LIMIT)
        looping.close()
        sandbox = Sandbox(WANDER, b"", position.rules, walls=walls)
        began = time.perf_counter()
        sandbox.ask([(1, 3, position)], 10.0)
        starts.append(time.perf_counter() - began)
        for seed in range(20):
            began = time.perf_counter()
            sandbox.ask([(seed, 3, position)], 10.0)
            singles.append(time.perf_counter() - began)
        began = time.perf_counter()
        sandbox.ask([(seed, 3, position) for seed in range(64)], 10.0)
        batches.append((time.perf_counter() - began) / 64)
        assert sandbox.worker.process is not None and sandbox.worker.template is not None
        began = time.perf_counter()
        sandbox._end_game()  # what a timeout does
        sandbox.ask([(1, 3, position)], 10.0)
        recoveries.append(time.perf_counter() - began)
        isolation = sandbox.worker.isolation
        began = time.perf_counter()
        sweep(sandbox.worker.process.pid)
        sandbox.kill()
        sandbox.ask([(1, 3, position)], 10.0)
        restarts.append(time.perf_counter() - began)
        sandbox.close()
    print(f"{isolation}:")
    figures = {"start": median_ms(starts), "move (1 per trip)": median_ms(singles),
               "move (64 per trip)": median_ms(batches), "timeout: interrupted, past the limit": median_ms(interrupts),
               "timeout: new game process": median_ms(recoveries), "timeout: new worker (re-import)": median_ms(restarts)}
    for name, value in figures.items():
        print(f"  {name:34s} {value:8.2f} ms")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    bench(walls=False, repeat=args.repeat)
    bench(walls=True, repeat=args.repeat)


if __name__ == "__main__":
    main()
