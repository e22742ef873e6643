"""Timings of the paper checks: exact laws, P_M(n) curves, dice walks, searches, and `amoeboid paper`.

    python bench/theory.py [--skip-paper]

Prints CPU seconds (time.process_time) and wall seconds for each computation;
the machine is shared, so wall time under contention is the figure a teacher
feels and CPU time the one to compare across runs.
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

from amoeboid_edu.theory import analysis, paper
from amoeboid_edu.engine.rules import legal_turns
from amoeboid_edu.players.strategy import candidate_turns


@contextmanager
def timed(label: str):
    wall, cpu = time.perf_counter(), time.process_time()
    yield
    print(f"{label:<62} cpu {time.process_time() - cpu:7.2f} s   wall {time.perf_counter() - wall:7.2f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-paper", action="store_true", help="skip the whole `amoeboid paper` run")
    args = parser.parse_args()

    with timed("exact law of delta after 60 turns (Fractions)"):
        analysis.delta_distribution(60)
    with timed("P_M(n) with Fractions, M=10, 200 turns"):
        analysis.exceedance_exact(10, 200)
    for level in (10, 20, 50):
        turns = 25 * level * level + 200
        with timed(f"P_M(n) float DP, M={level}, {turns:,} turns"):
            analysis.exceedance_curve(level, turns)
    for when in ("first call", "again"):  # the first call also pays for fresh memory pages
        with timed(f"dice walks: 1,000,000 walks x 100 rounds (200 turns), {when}"):
            analysis.dice_walks(1_000_000, 200, seed=0)
    with timed("P_M(n) Monte Carlo, 200,000 walks x 400 turns, M=10,20"):
        analysis.exceedance_monte_carlo([10, 20], 400, 200_000)
    with timed("20,000 random games (final rows)"):
        analysis.random_results(20_000)
    with timed("Case II table, bases 1, 10, 40 (every B reply)"):
        paper.case_II_table()
    start = paper.case_IV_position()
    with timed("Case IV: paper's line, every legal B turn, 8 A turns"):
        paper.forced_win_report(start, paper.only_the_line, legal_turns, 8, 400_000)
    with timed("Case IV: A candidates, B candidates, 4 A turns"):
        row = paper.forced_win_report(start, paper.line_then_candidates, candidate_turns, 4, 400_000)
    print(f"    forced win: {row['forced win']}, B replies visited: {row['B replies visited']:,}")
    with timed("Case IV: A candidates, every legal B turn, 4 A turns"):
        row = paper.forced_win_report(start, paper.line_then_candidates, legal_turns, 4, 400_000)
    print(f"    forced win: {row['forced win']}, B replies visited: {row['B replies visited']:,}")
    with timed("Case III: B-win search 6 turns along the paper bot, delta 7, B 1, 3x3"):
        paper.case_III_table(((7, 1, 3),), turns=6)
    if not args.skip_paper:
        with timed("amoeboid paper (quick sizes, all items)"):
            verdicts = list(paper.check_all())
        print(f"    {len(verdicts)} verdicts")


if __name__ == "__main__":
    main()
