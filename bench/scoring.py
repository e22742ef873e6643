"""How fast the lab scores a student's strategy, and how long expectimax thinks (prints figures, asserts nothing).

    .venv/bin/python bench/scoring.py [--games 1000] [--seed 0] [--workers 1] [--all] [--repeat N]
        [--strategy first_eater] [--breakdown] [--only-score] [--clock]

The targets (issue 3): scoring a simple strategy over 1,000 games against each of
random, greedy and paper in under 10 s wall on one core, and isolation costing at
most 1.3x the in-process time; issue 25's, on a 2-core machine: ``--strategy
first_eater`` (a walker of ``legal_turns``) in under 30 s, and a 200-game card
(``--games 200``) in under 5 s.  Each timing also prints the CPU seconds of this
process: on a shared machine the wall time grows with the other jobs' load.  Pin the run to one core with ``taskset -c 0`` to
see the Binder figure.  The strategies travel to the worker as a notebook cell's would
(cloudpickle, by value): those defined here, in ``__main__``, and ``wander`` and
``first_eater``, taken from the suite's ``tests/strategies/student.py`` (whose module
is registered to be pickled by value).

Two in-process references, neither isolated: the same games played with
:func:`~amoeboid_edu.engine.match.play_match` (the strategy gets the same per-move
``rng`` as in the worker, so the games are identical: the turn counts printed
agree), the one the ratio is taken against; and the strategy registered as a
baseline bot and played through the lab's loop (a bot keeps one generator for the
whole game, so these are other games, a few percent longer for ``wander``).
``--repeat N`` times each N times and keeps the fastest (a shared machine's other
jobs only ever add time).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import cloudpickle

from amoeboid_edu import Position, random_playout, seeded_rng
from amoeboid_edu.players.bots import expectimax
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.engine.game import TURN_CAP as MAX_TURNS
from amoeboid_edu.lab import score
from amoeboid_edu.engine.match import play_match
from amoeboid_edu.players.strategy import advantage_after, candidate_turns

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "strategies"))
import student  # noqa: E402 - the suite's student strategies: wander, first_eater (issue 25's legal_turns walker)

cloudpickle.register_pickle_by_value(student)  # sent by value, as a notebook cell's function is
wander, first_eater = student.wander, student.first_eater


def random_candidate(position, roll, rng):
    """The simplest sensible strategy: any meaningful turn, uniformly."""
    return rng.choice(list(candidate_turns(position, roll)))


def eat_or_wander(position, roll, rng):
    """A typical first student strategy: the best Delta after the turn, ties at random."""
    return max(candidate_turns(position, roll), key=lambda turn: (advantage_after(position, turn)[1], rng.random()))


OPPONENTS = ("random", "greedy", "paper")


class TreeCPU:
    """CPU seconds (user + sys) of this process and every process below it, while the block runs.

    The workers' template reaps its game processes without waiting for them, so their time never reaches
    ``RUSAGE_CHILDREN`` (nor ``/usr/bin/time``): a thread reads each descendant's ``/proc/PID/stat`` every
    ``every`` seconds and keeps its last reading (a process's last fraction of a period is missed).  The thread's
    own CPU time (a scan of ``/proc``) is left out of this process's.
    """

    def __init__(self, every: float = 0.2) -> None:
        self.every, self.seen, self.stop = every, {}, threading.Event()
        self.ticks = os.sysconf("SC_CLK_TCK")
        self.parent: dict[int, int] = {}  # each descendant's parent, as first seen (for :meth:`by_depth`)

    def _sample(self) -> None:
        from amoeboid_edu.sandbox.processes import descendants

        for pid in descendants(os.getpid()):
            try:
                with open(f"/proc/{pid}/stat", "rb") as stat:
                    fields = stat.read().rpartition(b")")[2].split()
                self.seen[pid] = (int(fields[11]) + int(fields[12])) / self.ticks
                self.parent.setdefault(pid, int(fields[1]))
            except (OSError, ValueError, IndexError):
                pass

    def by_depth(self) -> dict[int, tuple[float, int]]:
        """CPU seconds and processes at each depth below this process: with ``workers=K`` (K > 1) 1 is the pool
        processes (the scorer's games: bots, referee, harness), 2 the workers' supervisors, 3 their templates
        (NumPy's import, the walls, the seal), 4 the game processes (the strategy, its import, the per-move work); a
        serial card starts one level higher."""
        depths: dict[int, tuple[float, int]] = {}
        for pid, cpu in self.seen.items():
            depth, up = 1, self.parent.get(pid)
            while up is not None and up != os.getpid() and depth < 10:
                depth, up = depth + 1, self.parent.get(up)
            seconds, count = depths.get(depth, (0.0, 0))
            depths[depth] = (seconds + cpu, count + 1)
        return dict(sorted(depths.items()))

    def _run(self) -> None:
        began = time.thread_time()
        while not self.stop.wait(self.every):
            self._sample()
        self._sample()
        self.sampling = time.thread_time() - began

    def __enter__(self) -> "TreeCPU":
        self.own = time.process_time()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.own = time.process_time() - self.own - self.sampling
        self.children = sum(self.seen.values())

    @property
    def total(self) -> float:
        return self.own + self.children


def time_isolation(strategy, rounds: int = 3) -> None:
    """What isolation costs before the first move: a worker's start (interpreter, imports, walls, the first game
    process's import) and each further lane's game process (a fork and the strategy's import)."""
    from amoeboid_edu.sandbox.harness import Sandbox

    position = Position.start(3)
    payload = cloudpickle.dumps(strategy)
    starts, lanes = [], []
    for _ in range(rounds):
        host = Sandbox({"load": "pickle"}, payload, position.rules)
        first = host.lane()
        began = time.perf_counter()
        first.ask([(1, 3, position)], 5.0)
        starts.append(time.perf_counter() - began)
        second = host.lane()
        began = time.perf_counter()
        second.ask([(1, 3, position)], 5.0)
        lanes.append(time.perf_counter() - began)
        for sandbox in (first, second, host):
            sandbox.close()
    print(f"isolation: a worker's start and first move {min(starts) * 1000:.0f} ms wall (fastest of {rounds}), "
          f"a further lane's game process and first move {min(lanes) * 1000:.1f} ms; load {os.getloadavg()[0]:.1f}")


def time_score(strategy, games: int, seed, workers: int, isolated: bool = True, repeat: int = 1,
               tree_split: bool = False) -> float:
    """Score ``strategy`` and print the figures; ``isolated=False`` registers it as a trusted bot (no worker);
    ``tree_split``: also the CPU time of its processes by role (:meth:`TreeCPU.by_depth`, the last run's)."""
    if not isolated:
        BOTS[strategy.__name__] = strategy  # the lab calls registered bots in-process: the no-isolation floor
    try:
        walls, cpus, trees = [], [], []
        for _ in range(repeat):
            with TreeCPU() as tree:
                began, cpu = time.perf_counter(), time.process_time()
                card = score(strategy, games=games, seed=seed, opponents=list(OPPONENTS), workers=workers or None,
                             progress=False)
                walls.append(time.perf_counter() - began)
                cpus.append(time.process_time() - cpu)
            trees.append(tree.total)
        wall = min(walls)
    finally:
        BOTS.pop(strategy.__name__, None)
    summary = card.summary()
    total = int(summary["games"].sum())
    turns = float((summary["games"] * summary["mean_turns"]).sum())
    how = "in a worker" if isolated else "in-process as a registered bot, NOT isolated (other games)"
    print(f"{strategy.__name__} {how}: {total} games ({games} per opponent), {wall:.2f} s wall "
          f"({min(cpus):.2f} s CPU here, {min(trees):.2f} s CPU with its processes), {total / wall:.0f} games/s, {turns:.0f} turns, {turns / wall:.0f} turns/s, "
          f"workers={workers}, load {os.getloadavg()[0]:.1f}")
    if isolated and tree_split:
        from amoeboid_edu.lab.scoring import default_workers

        pooled = (workers or default_workers(2 * len(OPPONENTS))) > 1
        roles = (["pool processes (bots, referee, harness)"] if pooled else []) + [
            "worker supervisors", "worker templates", "game processes (the strategy and its per-move work)"]
        print(f"    this process {min(cpus):.2f} s CPU (the last run)")
        for depth, (seconds, count) in tree.by_depth().items():
            role = roles[depth - 1] if depth <= len(roles) else f"depth {depth}"
            print(f"    {role:<52} {seconds:6.2f} s CPU in {count} processes")
    if isolated:
        for row in summary.itertuples(index=False):
            print(f"    vs {row.opponent:<7} mean {row.mean_turns:6.1f} turns  win rate {row.win_rate:.3f}")
    return wall


def time_same_games(strategy, games: int, seed, repeat: int = 1) -> float:
    """Play the games ``score`` plays, in this process with :func:`play_match`: the in-process reference."""
    walls, cpus = [], []
    for _ in range(repeat):
        turns = 0
        began, cpu = time.perf_counter(), time.process_time()
        for opponent in OPPONENTS:
            for pair in range(games // 2):
                for seat in "AB":
                    match = play_match(strategy, BOTS[opponent], seed=seed, pair=pair, first_seat=seat,
                                       max_turns=MAX_TURNS, table=(opponent,))
                    turns += len(match.turns)
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - cpu)
    wall = min(walls)
    total = len(OPPONENTS) * games
    print(f"{strategy.__name__} in-process, the same games (play_match), NOT isolated: {total} games, {wall:.2f} s "
          f"wall ({min(cpus):.2f} s CPU), {total / wall:.0f} games/s, {turns} turns, {turns / wall:.0f} turns/s")
    return wall


def breakdown(strategy, games: int, seed) -> None:
    """Where the time of the same games goes, in this process (cProfile): each bot, the referee, the strategy."""
    import cProfile
    import pstats

    from amoeboid_edu.engine import match
    from amoeboid_edu.players import bots

    profile = cProfile.Profile()
    profile.runcall(lambda: time_same_games(strategy, games, seed))
    stats = pstats.Stats(profile)
    total = stats.total_tt
    parts = {"paper bot": [bots.paper], "greedy bot": [bots.greedy], "random bot": [BOTS["random"]],
             "referee (Match.play, play_trusted)": [match.Match.play, match.Match.play_trusted],
             f"the strategy ({strategy.__name__})": [strategy]}
    print(f"breakdown of {total:.2f} s (profiled, so slower than above):")
    counted = 0.0
    for label, functions in parts.items():
        cumulative = 0.0
        for function in functions:
            code = function.__code__
            key = next((k for k in stats.stats if k[0] == code.co_filename and k[1] == code.co_firstlineno), None)
            cumulative += stats.stats[key][3] if key else 0.0
        counted += cumulative
        print(f"    {label:<36} {cumulative:7.2f} s  {cumulative / total:5.1%}")
    rest = total - counted
    print(f"    {'the rest (dice, seeding, the loop)':<36} {rest:7.2f} s  {rest / total:5.1%}")


def time_clock(strategy, games: int, seed, repeat: int = 1) -> None:
    """What the harness's own measure of the time per move costs (issue 23): readings of the game processes' CPU
    clocks per move of the strategy, the cost of one reading, and a serial card's CPU time in this process with
    the readings and without them (the worker's own measure, as off Linux)."""
    from amoeboid_edu.sandbox import harness

    position = Position.start(3)
    sandbox = harness.Sandbox({"load": "pickle"}, cloudpickle.dumps(strategy), position.rules)
    try:
        sandbox.ask([(1, 3, position)], 5.0)
        calls = 20_000
        began = time.perf_counter()
        for _ in range(calls):
            sandbox._cpu_now()
        reading = (time.perf_counter() - began) / calls
    finally:
        sandbox.close()
    reads = [0]
    original, clock = harness.Sandbox._cpu_now, harness.cpu_clock

    def counted(self):
        reads[0] += 1
        return original(self)

    figures = {}
    try:
        harness.Sandbox._cpu_now = counted
        for label, clock_of in (("harness's clock", clock), ("worker's own measure", lambda pid: None)):
            harness.cpu_clock = clock_of
            cpus = []
            for _ in range(repeat):
                reads[0] = 0
                cpu = time.process_time()
                card = score(strategy, games=games, seed=seed, opponents=list(OPPONENTS), workers=1, progress=False)
                cpus.append(time.process_time() - cpu)
            moves = sum(record.asked[0 if record.first == card.player else 1] for record in card.records)
            figures[label] = (min(cpus), moves, reads[0])
    finally:
        harness.Sandbox._cpu_now, harness.cpu_clock = original, clock
    (with_cpu, moves, count), (without_cpu, _, _) = figures["harness's clock"], figures["worker's own measure"]
    print(f"the harness's clock: {count / moves:.2f} readings per move of {strategy.__name__}, "
          f"{reading * 1e6:.2f} us each: {count / moves * reading * 1e6:.2f} us a move; a serial card ({moves} moves) "
          f"{with_cpu:.2f} s CPU here with it, {without_cpu:.2f} s without "
          f"({(with_cpu - without_cpu) / moves * 1e6:+.1f} us a move), load {os.getloadavg()[0]:.1f}")


def time_expectimax(turns: int, seed) -> None:
    """Per-turn time of the expectimax bot on positions from seeded random games."""
    samples = []
    index = 0
    while len(samples) < turns:
        rng = seeded_rng(seed, "bench-expectimax", index)
        index += 1
        position = random_playout(Position.start(3), rng, max_turns=rng.randint(0, 40)).final
        if position.is_over:
            continue
        began = time.process_time()
        expectimax(position, rng.randint(1, 6), rng)
        samples.append(time.process_time() - began)
    samples.sort()
    print(f"expectimax: {turns} turns, CPU per turn mean {statistics.mean(samples) * 1000:.1f} ms, "
          f"median {statistics.median(samples) * 1000:.1f} ms, max {samples[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per opponent (even)")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--workers", type=int, default=0, help="processes (0: score()'s default, the cores)")
    parser.add_argument("--expectimax-turns", type=int, default=200)
    parser.add_argument("--all", action="store_true", help="also the slower strategies (about 3 minutes)")
    parser.add_argument("--repeat", type=int, default=1, help="time each run N times, keep the fastest")
    parser.add_argument("--strategy", choices=["wander", "first_eater"], default="wander",
                        help="the strategy timed (first_eater: issue 25's legal_turns walker)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also profile where the in-process time goes, and split the card's CPU by process")
    parser.add_argument("--only-score", action="store_true", help="time the isolated card only (no references)")
    parser.add_argument("--clock", action="store_true",
                        help="also what the harness's reading of the game processes' CPU clocks costs a move")
    args = parser.parse_args()
    chosen = {"wander": wander, "first_eater": first_eater}[args.strategy]
    for strategy in (wander, random_candidate, eat_or_wander) if args.all else (chosen,):
        if args.breakdown:
            breakdown(strategy, args.games, args.seed)
        if args.breakdown:
            time_isolation(strategy)
        if args.clock:
            time_clock(strategy, args.games, args.seed, repeat=args.repeat)
        isolated = time_score(strategy, args.games, args.seed, args.workers, repeat=args.repeat,
                              tree_split=args.breakdown)
        if args.only_score:
            continue
        floor = time_same_games(strategy, args.games, args.seed, repeat=args.repeat)
        as_bot = time_score(strategy, args.games, args.seed, 1, isolated=False, repeat=args.repeat)
        print(f"    isolation costs {isolated - floor:.2f} s: {isolated / floor:.2f}x the same games in-process "
              f"({isolated / as_bot:.2f}x the registered bot's)")
    if not args.only_score:
        time_expectimax(args.expectimax_turns, args.seed)


if __name__ == "__main__":
    main()
